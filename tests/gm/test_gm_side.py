"""What the GM reads and what the GM's commands tell the players: contradicting options refused,
PROCESS and deadlines under `nmr=wait` doing what they say, unknown games named, every notice
within 78 columns."""
from __future__ import annotations

import json

import pytest

from conftest import BILL, GEORGE, body, kinds
from test_admin import START, admin_mail, new_match, with_admin

LATER = "2026-12-02T19:00:00Z"  # 25 h after START


def widest(msg) -> int:
    return max(len(line) for line in body(msg).splitlines())


def games_listed(table) -> list[str]:
    return [g["id"] for g in json.loads(table.pbem("list", "--json")[1])]


# -- new-game: options that contradict each other ------------------------------------------
@pytest.mark.parametrize("options,words", [
    (["holes=18", "target=50"], ["holes=18", "target=50", "set one of them"]),
    (["ending=faceup", "knock_penalty=plus10"], ["knock_penalty=plus10", "ending=faceup has no knocking"]),
    (["ending=faceup", "knock_bonus=zero"], ["knock_bonus=zero", "ending=faceup has no knocking"]),
    (["knock_bonus=minus_players", "knock_penalty=plus10"], ["knock_penalty=none"]),
])
def test_new_game_refuses_options_that_contradict_each_other(table, options, words):
    extra = [w for o in options for w in ("--option", o)]
    code, out, err = table.pbem("new-game", "golf", "--player", GEORGE, "--player", BILL, *extra, check=False)
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and all(w in err for w in words), err
    assert games_listed(table) == [] and table.mails(GEORGE) == []


def test_options_that_agree_still_make_games_and_a_target_game_replays(table):
    from pbem.gm import games
    from pbem.store import Store
    for i, options in enumerate((["holes=18", "target=0"], ["target=40"], ["ending=faceup", "knock_bonus=none"])):
        extra = [w for o in options for w in ("--option", o)]
        table.pbem("new-game", "golf", "--id", f"g{i}", "--seed", "2", "--player", GEORGE, "--player", BILL, *extra)
    # A stored game carries every option, holes beside target: that is no contradiction on replay.
    table.order(BILL, "DRAW STOCK IF <= 13 KEEP 1 ELSE DISCARD", game="g1")
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert games.replay(store, "g1").to_dict() == games.load(store, "g1").state.to_dict()
    finally:
        store.close()


# -- PROCESS under nmr=wait -----------------------------------------------------------------
def test_process_under_wait_says_that_the_gm_played_default_orders(table):
    new_match(table, "--option", "nmr=wait")
    assert table.show()["deadline"] is None
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    table.new_mails(BILL)
    _, out, _ = table.pbem("gm", "PROCESS", "m1", now=START)
    assert "m1 turn 1 resolved now" in out and "nmr=wait" in out
    assert "the GM played default orders (autoplay) for Bill: PLAY" in out and "George:" not in out
    got = table.new_mails(BILL)
    assert kinds(got) == ["notice", "report"]  # the notice first: the report is its outcome
    notice = body(got[0])
    assert "resolved turn 1 now, without waiting for orders from Bill" in notice
    assert "default orders are played in place of the missing ones" in notice
    assert "due by" not in notice  # turn 1 is gone; the report gives what comes next
    assert table.show()["turn"] == 2 and table.show()["deadline"] is None  # turn 2 waits again


def test_process_in_a_card_game_and_by_mail_fits_the_gms_answer_in_78_columns(table):
    with_admin(table)
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "4", "--option", "nmr=wait",
               "--player", f"Ann <{GEORGE}>", "--player", f"Bob <{BILL}>", now=START)
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nPROCESS c1")
    assert answer["X-PBEM-Kind"] == "ack" and widest(answer) <= 78, body(answer)
    text = " ".join(body(answer).split())
    assert "c1: the move owed by Bob (turn 1) played now" in text and "default orders (autoplay) for Bob:" in text
    notice = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "notice"][-1]
    assert "The GM has played Bob's move now, without waiting for it." in " ".join(body(notice).split())


def test_process_before_a_deadline_says_the_policy_it_played(table):
    new_match(table)
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    _, out, _ = table.pbem("gm", "PROCESS", "m1", now=START)
    assert "missing orders were played as at a missed deadline (nmr=autoplay) for Bill" in out
    notice = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "notice"][-1]
    assert "played as at a missed deadline (nmr=autoplay)" in " ".join(body(notice).split())
    # No deadline passed: the report's note says what did happen.
    report = " ".join(body([m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "report"][-1]).split())
    assert "Bill sent no orders before the GM closed the turn" in report and "by the deadline" not in report


def test_process_in_a_card_game_tells_the_silent_player_the_gm_closed_the_move(table):
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "4", "--player", f"Ann <{GEORGE}>",
               "--player", f"Bob <{BILL}>", now=START)
    table.pbem("gm", "PROCESS", "c1", now=START)
    notes = [" ".join(body(m).split()) for m in table.mails(BILL) if "sent no orders" in body(m)]
    assert notes and all("before the GM closed the turn" in n and "by the deadline" not in n for n in notes)


# -- EXTEND and DEADLINE under nmr=wait -------------------------------------------------------
def test_a_wait_game_has_nothing_to_extend_but_a_deadline_the_gm_sets_acts_once(table):
    new_match(table, "--option", "nmr=wait")
    code, _, err = table.pbem("gm", "EXTEND", "m1", "24h", now=START, check=False)
    assert code == 2 and "no deadline to extend" in err and "nmr=wait" in err and "DEADLINE m1 24h" in err
    _, out, _ = table.pbem("gm", "DEADLINE", "m1", "24h", now=START)
    assert "deadline of m1 set: 2026-12-02T18:00:00Z" in out and "for turn 1 only" in out
    notice = body(table.mails(BILL)[-1])
    assert "at this deadline the GM plays default orders for whoever has sent none" in " ".join(notice.split())
    assert "Turn 1: orders are due by 2026-12-02 18:00 UTC." in notice
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    table.pbem("process", now=LATER)  # the deadline passed: it acts as PROCESS would
    shown = table.show()
    assert shown["turn"] == 2 and shown["deadline"] is None  # and the next turn waits again
    assert table.mails(BILL)[-1]["X-PBEM-Kind"] == "report"


def test_a_gm_deadline_in_a_wait_card_game_plays_the_move(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "3", "--option", "nmr=wait",
               "--player", f"Ann <{GEORGE}>", "--player", f"Bob <{BILL}>", now=START)
    before = table.show("c1")
    table.pbem("gm", "DEADLINE", "c1", "24h", now=START)
    table.pbem("process", now=LATER)
    after = table.show("c1")
    assert after["turn"] > before["turn"] and after["deadline"] is None


def test_extend_while_paused_adds_to_the_time_left(table):
    new_match(table)  # deadline 48 h after START
    table.pbem("gm", "PAUSE", "m1", now="2026-12-02T18:00:00Z")  # 24 h left
    _, out, _ = table.pbem("gm", "EXTEND", "m1", "1d", now="2026-12-05T00:00:00Z")
    assert "the game is paused, and when it resumes turn 1 has 2d left" in out
    assert "turn 1 has 2d left for orders" in " ".join(body(table.mails(BILL)[-1]).split())
    table.pbem("gm", "RESUME", "m1", now="2026-12-06T00:00:00Z")
    assert table.show()["deadline"] == "2026-12-08T00:00:00Z"


def test_deadline_refuses_a_time_past_or_years_ahead_and_suggests_what_would_be_taken(table):
    new_match(table)
    for when, words in (("2020-01-01T00:00:00Z", "already past"), ("2999-01-01T00:00:00Z", "a year away at most"),
                        ("soon", "ISO 8601")):
        code, _, err = table.pbem("gm", "DEADLINE", "m1", when, now=START, check=False)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
        suggested = err.split("(e.g. ")[1].rstrip(")\n").split(" or ")
        assert suggested == ["DEADLINE m1 2026-12-08T18:00:00Z", "DEADLINE m1 48h"]
    for suggestion in suggested:  # each suggestion is taken as it stands
        table.pbem("gm", *suggestion.split(), now=START)


# -- unknown games -----------------------------------------------------------------------
def test_an_unknown_game_is_named_with_the_games_there_are(table):
    with_admin(table)
    new_match(table)
    code, _, err = table.pbem("gm", "PAUSE", "M1", now=START, check=False)
    assert code == 2 and "there is no game `M1`; the active games: m1" in err
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nPAUSE cup9")
    assert answer["X-PBEM-Kind"] == "error" and "there is no game `cup9`; the active games: m1" in body(answer)
    code, _, err = table.pbem("show", "nope", now=START, check=False)
    assert code == 2 and "there is no game `nope`; the games: m1" in err


def test_no_such_game_lists_few_ids_and_counts_many():
    from pbem.gm.admin import no_such_game
    assert no_such_game("x", []) == "there is no game `x`, and there are no games"
    assert no_such_game("x", ["b", "a"]) == "there is no game `x`; the games: a, b"
    many = no_such_game("x", [f"g{i}" for i in range(9)], "active games")
    assert many == "there is no game `x` (9 active games; pbem list shows them)"


# -- REPLACE -----------------------------------------------------------------------------
LONG = "Bartholomew Aloysius Fitzgerald-Montgomery the Third of Little Whinging-on-Sea"


def test_replace_notices_fit_78_columns_with_long_names(table):
    table.pbem("new-game", "matchplay", "--player", f"{LONG} <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", "--deadline", "48h", now=START)
    table.pbem("gm", "REPLACE", "m1", BILL, "Maximiliana Theodora von Habsburg-Lothringen <max@example.test>",
               now=START)
    old, other = table.mails(BILL)[-1], table.mails(GEORGE)[-1]
    assert "given your seat in game m1 to another player" in " ".join(body(old).split())
    assert "due by" not in body(old)  # the old player has no deadline any more
    assert "Habsburg-Lothringen now plays in place of Bill" in " ".join(body(other).split())
    assert widest(old) <= 78 and widest(other) <= 78
    assert "2026-12-03 18:00 UTC" in body(other)  # a date is never broken at its hyphens


@pytest.mark.parametrize("spec,words", [("Gee <gm+x@example.test>", "GM's own address"),
                                        ("c@example.test, d@example.test", "not one address")])
def test_replace_refuses_the_gms_address_and_two_addresses(table, spec, words):
    new_match(table)
    code, _, err = table.pbem("gm", "REPLACE", "m1", BILL, spec, now=START, check=False)
    assert code == 2 and words in err
    assert table.show()["players"][1]["address"] == BILL


def test_gm_notices_fit_78_columns_in_a_long_time_zone(table):
    with_admin(table)
    new_match(table)
    table.order(BILL, "SET TIMEZONE America/Argentina/ComodRivadavia", now=START)
    zone_ack = table.mails(BILL)[-1]
    assert "America/Argentina/ComodRivadavia" in body(zone_ack) and widest(zone_ack) <= 78
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 24h\nPAUSE m1\nDEADLINE m1 3d")
    assert widest(answer) <= 78 and body(answer).count("\n- ") == 3
    for msg in table.mails(BILL)[1:]:
        assert widest(msg) <= 78, body(msg)


# -- the command line: every mistake one line, exit 2 --------------------------------------
@pytest.mark.parametrize("argv,words", [
    (["new-game"], "required: TYPE, --player"),
    (["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--seed", "x"], "--seed"),
    (["new-game", "matchplay", "--player", f"{GEORGE}, x@example.test", "--player", BILL], "one player per"),
    (["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--id", ""], "--id ''"),
    (["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--option", "nmr"], "KEY=VALUE"),
    (["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--option", "nmr=never"], "autoplay"),
    (["list", "extra"], "unrecognized arguments: extra"),
    (["show", "m1", "extra"], "pbem show: unrecognized"),
    (["gm"], "required"),
    (["gm", "EXTEND", "m1", "-5h"], 'longer than zero, got "-5h" (e.g. EXTEND m1 24h)'),
    (["gm", "PAUSE", "m1", "--json"], "unrecognized arguments: --json"),
    (["frobnicate"], "invalid choice"),
])
def test_every_cli_mistake_is_one_line_and_exit_2(table, argv, words):
    new_match(table)
    code, out, err = table.pbem(*argv, now=START, check=False)
    assert code == 2 and "Traceback" not in err and "usage:" not in err, err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert games_listed(table) == ["m1"]


def test_a_reminder_under_wait_names_what_the_deadline_will_play(table):
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "4", "--option", "nmr=wait",
               "--player", f"Ann <{GEORGE}>", "--player", f"Bob <{BILL}>", now=START)
    table.pbem("gm", "DEADLINE", "c1", "24h", now=START)
    table.pbem("process", now="2026-12-02T07:00:00Z")
    reminders = [m for m in table.mails(GEORGE) + table.mails(BILL) if m["X-PBEM-Kind"] == "reminder"]
    assert len(reminders) == 1
    text = " ".join(body(reminders[0]).split())
    assert "by the game's rule (autoplay)" in text and "(wait)" not in text


@pytest.mark.parametrize("game_type", ["golf", "golfdeck"])
def test_a_game_of_more_holes_than_a_season_is_refused(table, game_type):
    code, _, err = table.pbem("new-game", game_type, "--option", "holes=100000000", "--player", GEORGE,
                              "--player", BILL, check=False)
    assert code == 2 and "at most 99" in err and len(err.strip().splitlines()) == 1
    assert "[]" in table.pbem("list", "--json")[1]
