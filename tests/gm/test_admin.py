"""GM commands by mail and from the CLI, and the flood guard."""
from __future__ import annotations

from conftest import BILL, GEORGE, GM, body, kinds

START = "2026-12-01T18:00:00Z"
BOSS = "boss@example.test"


def with_admin(table, **extra):
    text = (table.root / "pbem.yaml").read_text()
    text = text.replace("  name: Golf GM\n", f"  name: Golf GM\n  admins: [{BOSS}]\n  secret: gm-secret-0123456789\n")
    for section, values in extra.items():
        text += f"{section}:\n" + "".join(f"  {k}: {v}\n" for k, v in values.items())
    (table.root / "pbem.yaml").write_text(text)


def new_match(table, *extra):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", "--deadline", "48h", *extra, now=START)


def admin_mail(table, text, now=START, sender=BOSS):
    table.send(sender, text, subject="gm commands")
    table.pbem("process", now=now)
    return table.mails(sender)[-1]


def test_extend_by_mail_moves_the_deadline_and_tells_the_players(table):
    with_admin(table)
    new_match(table)
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 24h")
    assert answer["X-PBEM-Kind"] == "ack" and "deadline of m1 extended by 24h: 2026-12-04T18:00:00Z" in body(answer)
    assert table.show()["deadline"] == "2026-12-04T18:00:00Z"
    notice = table.mails(BILL)[-1]
    assert "extended the deadline of turn 1" in body(notice) and "2026-12-04 18:00 UTC" in body(notice)


def test_gm_commands_need_the_admin_address_and_the_gm_password(table):
    with_admin(table)
    new_match(table)
    answer = admin_mail(table, "PASSWORD wrong\nEXTEND m1 24h")
    assert answer["X-PBEM-Kind"] == "error" and "GM password is wrong" in body(answer)
    stranger = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 24h", sender="mallory@example.test")
    assert stranger["X-PBEM-Kind"] == "error"
    assert table.show()["deadline"] == "2026-12-03T18:00:00Z"


def test_a_wrong_gm_command_changes_nothing(table):
    with_admin(table)
    new_match(table)
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 24h\nREPLACE m1 nobody@example.test x@example.test")
    assert answer["X-PBEM-Kind"] == "error" and "nobody@example.test has no seat" in body(answer)
    assert table.show()["deadline"] == "2026-12-03T18:00:00Z"  # the EXTEND was taken back too
    assert kinds(table.mails(BILL)) == ["welcome"]


def test_pause_stops_the_clock_and_resume_gives_back_the_time_left(table):
    new_match(table)
    _, out, _ = table.pbem("gm", "PAUSE", "m1", now="2026-12-02T18:00:00Z")  # 24 h left
    assert "paused" in out
    table.pbem("process", now="2026-12-10T00:00:00Z")
    assert table.show()["turn"] == 1  # no deadline while paused
    table.pbem("gm", "RESUME", "m1", now="2026-12-10T00:00:00Z")
    assert table.show()["deadline"] == "2026-12-11T00:00:00Z"
    assert "paused" in body([m for m in table.mails(GEORGE) if "paused" in body(m)][0])


def test_process_resolves_now_by_the_nmr_policy(table):
    new_match(table)
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    _, out, _ = table.pbem("gm", "process", "m1", now=START)
    assert "m1 turn 1 resolved now" in out and "(nmr=autoplay) for Bill: PLAY" in out
    st = table.show()
    assert st["turn"] == 2
    assert kinds(table.mails(BILL))[-2:] == ["notice", "report"]  # told why, then the report


def test_replace_gives_the_seat_to_a_new_player_with_a_new_secret(table):
    new_match(table)
    old_secret = table.secret(BILL)
    _, out, _ = table.pbem("gm", "REPLACE", "m1", BILL, "William <will@example.test>", now=START)
    assert "replaced by will@example.test" in out
    welcome = table.mails("will@example.test")
    assert kinds(welcome) == ["welcome"] and "You take over Bill's seat" in body(welcome[0])
    new_secret = table.secret("will@example.test")
    assert new_secret != old_secret
    assert "William now plays in place of Bill" in body(table.mails(GEORGE)[-1])
    st = table.show()
    assert st["players"][1]["address"] == "will@example.test" and st["players"][1]["name"] == "William"
    # The old seat's address and secret no longer play; the new ones do.
    table.send(BILL, f"GAME m1\nPASSWORD {old_secret}\nPLAY 4 4 5")
    table.pbem("process", now=START)
    assert table.mails(BILL)[-1]["X-PBEM-Kind"] == "error"
    acks = table.order("will@example.test", "PLAY 4 4 5", now=START)
    assert kinds(acks) == ["ack"]


def test_abandon_ends_the_game_without_a_result(table):
    new_match(table)
    table.pbem("gm", "ABANDON", "m1", now=START)
    st = table.show()
    assert st["status"] == "abandoned" and st["result"] is None and st["to_move"] == []
    assert "abandoned" in body(table.mails(GEORGE)[-1])
    errs = table.order(GEORGE, "PLAY 3 5 4", now=START)
    assert kinds(errs) == ["error"]
    code, _, err = table.pbem("gm", "EXTEND", "m1", "1h", now=START, check=False)
    assert code == 2 and "abandoned" in err


def test_cli_gm_usage_errors(table):
    new_match(table)
    for words in (["EXTEND", "m1"], ["EXTEND", "m1", "soon"], ["DANCE", "m1"], ["PAUSE", "nosuch"]):
        code, _, err = table.pbem("gm", *words, now=START, check=False)
        assert code == 2 and len(err.strip().splitlines()) == 1, (words, err)


def test_a_flood_gets_one_warning_then_silence_until_it_stops(table):
    with_admin(table, limits={"messages_per_hour": 3})
    new_match(table)
    for i in range(6):
        table.send("pest@example.test", "HELP", subject=f"help {i}")
    table.pbem("process", now="2026-12-01T18:10:00Z")
    got = table.mails("pest@example.test")
    assert kinds(got) == ["help", "help", "help", "error"]
    assert "more than the 3" in body(got[-1])
    table.send("pest@example.test", "HELP", subject="still")
    table.pbem("process", now="2026-12-01T18:20:00Z")
    assert len(table.mails("pest@example.test")) == 4  # silence
    table.send("pest@example.test", "HELP", subject="later")
    table.pbem("process", now="2026-12-01T20:00:00Z")
    assert kinds(table.mails("pest@example.test"))[-1] == "help"  # the flood stopped: answered again
    assert all(kind is None for kind in kinds(table.mails(GM)))  # nothing went back to the GM


def test_replace_in_a_card_game_welcomes_the_new_player_and_the_game_still_rebuilds(table):
    from pbem.gm import games
    from pbem.store import Store
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "3", "--player", f"Ann <{GEORGE}>",
               "--player", f"Bob <{BILL}>", now=START)
    table.order(GEORGE, "REVEAL 1 2", game="c1", now=START)
    _, out, _ = table.pbem("gm", "REPLACE", "c1", BILL, "Cy <cy@example.test>", now=START)
    assert "replaced by cy@example.test" in out
    welcome = table.mails("cy@example.test")
    assert kinds(welcome)[0] == "welcome" and "Golf (golf deck)" in body(welcome[0])
    store = Store(table.root / "pbem.sqlite3")
    try:
        rebuilt = games.replay(store, "c1")
        assert rebuilt.names[1] == "Cy"
        assert rebuilt.to_dict() == games.load(store, "c1").state.to_dict()
    finally:
        store.close()


def test_a_wrong_gm_password_is_wrong_and_a_non_admin_is_told_plainly(table):
    with_admin(table)
    new_match(table)
    wrong = admin_mail(table, "PASSWORD not-it\nEXTEND m1 24h")
    assert "The GM password is wrong." in body(wrong)
    missing = admin_mail(table, "EXTEND m1 24h", now="2026-12-01T18:01:00Z")
    assert "need the GM's password" in body(missing)
    stranger = admin_mail(table, "EXTEND m1 24h", sender="pat@example.test", now="2026-12-01T18:02:00Z")
    assert "only from the GM's admin addresses" in body(stranger)


def test_list_and_show_say_a_game_is_paused_and_deadline_errors_name_iso_times(table):
    new_match(table)
    table.pbem("gm", "PAUSE", "m1", now=START)
    _, listed, _ = table.pbem("list", now=START)
    assert "paused" in listed and "clock stopped" in listed
    _, shown, _ = table.pbem("show", "m1", now=START)
    assert "paused by the GM" in shown.splitlines()[0]
    code, _, err = table.pbem("gm", "DEADLINE", "m1", "tomorrow", now=START, check=False)
    assert code == 2 and "ISO 8601" in err and "DEADLINE m1 2026-12-08T18:00:00Z" in err
