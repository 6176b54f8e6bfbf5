"""Absences for any game (CONTRACT section 14): SET ABSENCE moves the deadlines of every game the
address plays, within `absence.days_per_year` a calendar year counted in the player's zone; SET
ABSENCE OFF ends it; SET AUTOABSENCE spends a day at a missed deadline, three in a row at most;
the other players are told; the command is taken with a secret or in reply to pbem's own mail
to that address, and a forged one changes nothing."""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from conftest import BILL, EXAMPLE_COURSE, GEORGE, GM, body, kinds, too_wide

CAROL = "carol@example.test"
MALLORY = "mallory@example.test"
NOW = "2026-12-01T18:00:00Z"  # the games start then: 72 h deadlines, 2026-12-04 18:00 UTC


def two_games(table, *extra: str) -> None:
    """George plays m1 against Bill and m2 against Carol."""
    table.new_match("m1", EXAMPLE_COURSE, *extra)
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Carol <{CAROL}>",
               "--course", EXAMPLE_COURSE, "--id", "m2", *extra)


def allowance(table, days: int) -> None:
    with open(table.root / "pbem.yaml", "a") as f:
        f.write(f"absence:\n  days_per_year: {days}\n")


def to_game(table, sender: str, game: str, text: str, now: str, **how) -> list:
    """`sender` writes to the reply address of `game`'s mail; one pass; the sender's new mail."""
    table.new_mails(sender)
    table.send(sender, text, subject=f"Re: [{game}] your turn", to=table.reply_to_game(sender, game), **how)
    table.pbem("process", now=now)
    return table.new_mails(sender)


def flat(m) -> str:
    return " ".join(body(m).split())


def deadline(table, game: str) -> str:
    return table.show(game)["deadline"]


def left(table, address: str, now: str) -> int | None:
    rows = json.loads(table.pbem("players", "--json", now=now)[1])
    return next(r["absences_left"] for r in rows if r["address"] == address)


def store_rows(table, sql: str) -> list:
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def test_an_absence_moves_every_game_of_the_address_and_the_others_are_told(table):
    two_games(table)
    assert deadline(table, "m1") == deadline(table, "m2") == "2026-12-04T18:00:00Z"
    table.new_mails(BILL), table.new_mails(CAROL)
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-03 TO 2026-12-05", "2026-12-01T19:00:00Z")
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m1] Absence noted: 2026-12-03 to 2026-12-05"
    text = flat(got[0])
    assert "The deadlines of your games that fall inside it move to 2026-12-06 00:00 UTC" in text
    assert "Moved now: m1, m2." in text and "You have 27 days of absence left in 2026." in text
    assert not too_wide(body(got[0]))
    assert deadline(table, "m1") == deadline(table, "m2") == "2026-12-06T00:00:00Z"
    for other, game in ((BILL, "m1"), (CAROL, "m2")):
        notice = table.new_mails(other)
        assert kinds(notice) == ["notice"] and notice[0]["X-PBEM-Game"] == game
        assert notice[0]["Subject"] == f"[{game}] Deadline moved: George is away"
        assert body(notice[0]).startswith(
            f"Hello {'Bill' if other == BILL else 'Carol'},\n\n"
            f"George will be away (an absence, SET ABSENCE), and the deadline of game {game}\n"
            "fell inside it, so it moves to the absence's end.\n\n"
            "Turn 1: orders are due by 2026-12-06 00:00 UTC.\n")
    assert left(table, GEORGE, "2026-12-01T19:00:00Z") == 27 and left(table, BILL, "2026-12-01T19:00:00Z") == 30


def test_the_allowance_counts_across_two_games_a_day_twice_once(table):
    two_games(table)
    to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-03 TO 2026-12-20", "2026-12-01T19:00:00Z")
    # From m2's mail: the 18 days above count, the 8 asked again do not, 12 more make 30.
    got = to_game(table, GEORGE, "m2", "SET ABSENCE 2026-12-13 TO 2026-12-24\nSET ABSENCE 2026-12-02 TO 2026-12-02",
                  "2026-12-01T20:00:00Z")
    assert kinds(got) == ["ack"] and "You have 7 days of absence left in 2026." in flat(got[0])
    got = to_game(table, GEORGE, "m2", "SET ABSENCE 2026-12-25 TO 2026-12-27\nSET ABSENCE 2026-12-01 TO 2026-12-31"
                  "\nPLAY 3 5 4", "2026-12-01T22:00:00Z")
    text = flat(got[0])
    assert kinds(got) == ["error"] and "Line 2: SET ABSENCE 2026-12-01 TO 2026-12-31" in text and "Line 1" not in text
    assert ("that is 31 days away (5 of them not counted yet), and after the line above it you have 4 days of "
            "absence left in 2026") in text
    assert "What would be right: SET ABSENCE 2026-12-01 TO 2026-12-04" in text
    assert table.show("m2")["to_move"] == [GEORGE, CAROL]  # all or nothing: the order is not taken either
    assert left(table, GEORGE, "2026-12-01T22:00:00Z") == 7


def test_a_line_past_the_years_days_is_refused_with_a_legal_example(table):
    two_games(table)
    allowance(table, 5)
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-03 TO 2026-12-09", "2026-12-01T19:00:00Z")
    text = flat(got[0])
    assert kinds(got) == ["error"] and "Line 1: SET ABSENCE 2026-12-03 TO 2026-12-09" in text
    assert "that is 7 days away, and you have 5 days of absence left in 2026" in text
    assert "Rule: an absence moves the deadlines of every game you play, at most 5 days a calendar year" in text
    assert "What would be right: SET ABSENCE 2026-12-03 TO 2026-12-07" in text
    assert deadline(table, "m1") == "2026-12-04T18:00:00Z" and store_rows(table, "SELECT * FROM absences") == []


def test_an_absence_over_new_year_counts_its_days_in_each_year(table):
    allowance(table, 10)
    two_games(table)
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-25 TO 2027-01-08", "2026-12-01T19:00:00Z")
    assert kinds(got) == ["ack"] and "You have 3 days of absence left in 2026." in flat(got[0])  # 7 + 8 days
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-20 TO 2026-12-23", "2026-12-01T20:00:00Z")
    assert kinds(got) == ["error"] and "you have 3 days of absence left in 2026" in flat(got[0])
    assert "What would be right: SET ABSENCE 2026-12-20 TO 2026-12-22" in flat(got[0])
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2027-01-20 TO 2027-01-22", "2026-12-01T21:00:00Z")
    assert kinds(got) == ["error"] and "you have 2 days of absence left in 2027" in flat(got[0])
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2027-01-20 TO 2027-01-21", "2026-12-01T22:00:00Z")
    assert kinds(got) == ["ack"]
    assert left(table, GEORGE, "2026-12-02T00:00:00Z") == 3 and left(table, GEORGE, "2027-01-02T00:00:00Z") == 0


def test_days_are_counted_in_the_players_zone(table):
    two_games(table)
    to_game(table, GEORGE, "m1", "SET TIMEZONE Europe/Berlin", "2026-12-01T18:30:00Z")
    # 23:30 UTC is already 2 December in Berlin: the 1st is over there.
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-01 TO 2026-12-01", "2026-12-01T23:30:00Z")
    assert kinds(got) == ["error"] and "that absence is over already (it is 2026-12-02 where you are)" in flat(got[0])
    got = to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-03 TO 2026-12-04", "2026-12-01T23:40:00Z")
    assert kinds(got) == ["ack"]
    # The absence ends at the end of 4 December in Berlin: 23:00 UTC.
    assert "move to 2026-12-05 00:00 CET (2026-12-04 23:00 UTC)" in flat(got[0])
    assert deadline(table, "m1") == deadline(table, "m2") == "2026-12-04T23:00:00Z"


def test_absence_off_ends_it_now_gives_the_days_back_and_moves_no_new_deadline(table):
    two_games(table)
    to_game(table, GEORGE, "m1", "SET ABSENCE 2026-12-02 TO 2026-12-10\nSET ABSENCE 2026-12-20 TO 2026-12-21",
            "2026-12-01T19:00:00Z")
    assert deadline(table, "m1") == "2026-12-11T00:00:00Z"
    table.new_mails(BILL)
    got = to_game(table, GEORGE, "m1", "SET ABSENCE OFF", "2026-12-04T12:00:00Z")
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m1] Absence ended"
    text = flat(got[0])
    assert "your absence ends now (2026-12-04 12:00 UTC)" in text and "Deadlines it moved already stay" in text
    assert "The 8 days you did not use are given back." in text  # 5 to 10 December, and 20 and 21
    assert "You have 27 days of absence left in 2026." in text
    assert table.new_mails(BILL) == []  # nothing moved, nobody told
    assert deadline(table, "m1") == "2026-12-11T00:00:00Z"  # moved already: it stays
    table.order(BILL, "PLAY 3 5 4", now="2026-12-04T13:00:00Z")
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-04T13:00:00Z")
    assert table.show("m1")["turn"] == 2
    assert deadline(table, "m1") == "2026-12-07T13:00:00Z"  # a new deadline: no absence moves it
    again = to_game(table, GEORGE, "m1", "SET ABSENCE OFF", "2026-12-04T14:00:00Z")
    assert again[0]["Subject"] == "[m1] No absence to end"


def test_autoabsence_takes_three_days_then_the_policy_plays(table):
    two_games(table)
    got = to_game(table, GEORGE, "m1", "SET AUTOABSENCE ON", "2026-12-01T19:00:00Z")
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m1] AUTOABSENCE on"
    assert "up to three times in a row" in flat(got[0])
    table.order(BILL, "PLAY 3 5 4", now="2026-12-01T20:00:00Z")
    table.new_mails(BILL), table.new_mails(CAROL)
    due = ["2026-12-04T18:00:00Z", "2026-12-05T18:00:00Z", "2026-12-06T18:00:00Z", "2026-12-07T18:00:00Z"]
    for n in (1, 2, 3):
        table.pbem("process", now=due[n - 1].replace(":00:00Z", ":01:00Z"))
        assert deadline(table, "m1") == due[n] and table.show("m1")["turn"] == 1
        mine = table.new_mails(GEORGE)
        m1 = [m for m in mine if m["X-PBEM-Game"] == "m1"]
        assert kinds(m1) == ["notice"] and m1[0]["Subject"] == "[m1] Deadline passed: a day of absence taken"
        assert f"({n} of 3 in a row)" in flat(m1[0])
        assert ("That was the last day in a row" in flat(m1[0])) == (n == 3)
        assert f"You have {30 - n} days of absence left in 2026." in flat(m1[0])
        bill = table.new_mails(BILL)
        assert kinds(bill) == ["notice"] and "George missed the deadline of game m1 and has AUTOABSENCE on" in \
            flat(bill[0]) and f"orders are due by {due[n][:10]} 18:00 UTC" in flat(bill[0])
    # m2's first deadline passed with both owing and Carol without AUTOABSENCE: its rule played.
    assert table.show("m2")["turn"] == 2
    table.pbem("process", now="2026-12-07T18:01:00Z")
    shown = table.show("m1")
    assert shown["turn"] == 2  # the fourth miss in a row: the rule for missed deadlines played
    assert any("sent no orders by the deadline" in flat(m) for m in table.new_mails(BILL))
    assert left(table, GEORGE, "2026-12-08T00:00:00Z") == 27


def test_autoabsence_counts_again_after_the_player_sends_orders(table):
    table.new_match("m1", EXAMPLE_COURSE)
    to_game(table, GEORGE, "m1", "SET AUTOABSENCE ON", "2026-12-01T19:00:00Z")
    table.order(BILL, "PLAY 3 5 4", now="2026-12-01T20:00:00Z")
    table.pbem("process", now="2026-12-04T18:01:00Z")
    assert deadline(table, "m1") == "2026-12-05T18:00:00Z"
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-05T10:00:00Z")  # back: the turn resolves
    assert table.show("m1")["turn"] == 2
    got = table.order(BILL, "PLAY 3 5 4\nSPECIAL BLUE-1 HOLE 6", now="2026-12-05T11:00:00Z")
    assert kinds(got) == ["ack"], body(got[0])  # turn 2
    table.pbem("process", now="2026-12-08T10:01:00Z")
    assert table.show("m1")["turn"] == 2 and deadline(table, "m1") == "2026-12-09T10:00:00Z"
    assert "(1 of 3 in a row)" in flat(table.mails(GEORGE)[-1])
    got = to_game(table, GEORGE, "m1", "SET AUTOABSENCE OFF", "2026-12-08T12:00:00Z")
    assert got[0]["Subject"] == "[m1] AUTOABSENCE off"
    table.pbem("process", now="2026-12-09T10:01:00Z")
    assert table.show("m1")["turn"] == 3  # off: the rule plays


# -- everyday mail clients, and mail outside a game --------------------------------------------
def _flowed(sender: str, to: str, subject: str, text: str, headers: dict | None = None) -> bytes:
    lines = [f"From: {sender}", f"To: {to}", f"Subject: {subject}", "Date: Tue, 01 Dec 2026 19:00:00 +0000",
             "Message-ID: <tb-1@player.test>", "MIME-Version: 1.0",
             "Content-Type: text/plain; charset=UTF-8; format=flowed", "Content-Transfer-Encoding: 7bit"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n" + text.replace("\n", "\r\n")).encode()


def test_thunderbird_flowed_reply_sets_an_absence(table):
    two_games(table)
    welcome = table.mails(GEORGE)[0]
    text = ("Hi,\n\nSET ABSENCE 2026-12-03 \nTO 2026-12-05\n\nCheers,\nGeorge\n\n"
            f"On 01/12/2026 18:00, Golf GM wrote:\n> {welcome['Subject']}\n> Hello George,\n")
    table.send(GEORGE, raw=_flowed(GEORGE, table.reply_to_game(GEORGE, "m1"), f"Re: {welcome['Subject']}", text,
                                   {"In-Reply-To": welcome["Message-ID"]}))
    table.new_mails(GEORGE)
    table.pbem("process", now="2026-12-01T19:00:00Z")
    got = table.new_mails(GEORGE)
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m1] Absence noted: 2026-12-03 to 2026-12-05"
    assert deadline(table, "m2") == "2026-12-06T00:00:00Z"


def test_outlook_reply_to_the_gm_with_a_header_block_and_no_secret_is_taken_as_a_reply(table):
    """To the GM's bare address (no secret), in reply to George's own welcome: the sender is
    shown to be the player who got that mail, and the absence covers all his games."""
    two_games(table)
    welcome = table.mails(GEORGE)[0]
    text = ("SET ABSENCE 2026-12-03 TO 2026-12-05\n\nThanks,\nGeorge\n\n"
            "From: Golf GM <gm@example.test>\nSent: Tuesday, December 1, 2026 6:00 PM\n"
            f"To: George <{GEORGE}>\nSubject: {welcome['Subject']}\n\nHello George,\n")
    table.new_mails(GEORGE)
    table.send(GEORGE, text, subject=f"RE: {welcome['Subject']}", to=GM,
               headers={"In-Reply-To": welcome["Message-ID"], "References": welcome["Message-ID"],
                        "X-Mailer": "Microsoft Outlook 16.0"})
    table.pbem("process", now="2026-12-01T19:00:00Z")
    got = table.new_mails(GEORGE)
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "Absence noted: 2026-12-03 to 2026-12-05"
    assert got[0]["In-Reply-To"] and "Moved now: m1, m2." in flat(got[0])
    assert deadline(table, "m1") == deadline(table, "m2") == "2026-12-06T00:00:00Z"


def test_iphone_reply_sets_autoabsence_and_an_absence_with_one_answer(table):
    two_games(table)
    got = to_game(table, GEORGE, "m2", "Set autoabsence on\nSet absence: 2026-12-03 to 2026-12-04.\n\n"
                                       "Sent from my iPhone", "2026-12-01T19:00:00Z")
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m2] Absence noted: 2026-12-03 to 2026-12-04"
    assert "AUTOABSENCE is on" in flat(got[0]) and "iPhone" not in flat(got[0])
    assert deadline(table, "m1") == "2026-12-05T00:00:00Z"


def test_forged_absences_change_nothing_and_get_one_answer_at_most(table):
    two_games(table)
    before = {g: deadline(table, g) for g in ("m1", "m2")}
    bills = table.mails(BILL)[0]
    georges = table.mails(GEORGE)[0]
    cases = [
        (GEORGE, {}),                                  # no secret, no reply to anything
        (GEORGE, {"In-Reply-To": bills["Message-ID"]}),  # a reply to another address's mail
        (MALLORY, {"In-Reply-To": georges["Message-ID"]}),  # someone else replying to George's mail
        (MALLORY, {}),
    ]
    for n, (sender, headers) in enumerate(cases):
        counts = {a: len(table.mails(a)) for a in (GEORGE, BILL, CAROL)}
        mallory = len(table.mails(MALLORY)) if (table.root / "mail" / MALLORY).exists() else 0
        table.send(sender, "SET ABSENCE 2026-12-03 TO 2026-12-05\nSET AUTOABSENCE ON", subject="away", to=GM,
                   headers=headers)
        table.pbem("process", now=f"2026-12-01T19:0{n}:00Z")
        after = {a: len(table.mails(a)) for a in (GEORGE, BILL, CAROL)}
        got_m = (len(table.mails(MALLORY)) if (table.root / "mail" / MALLORY).exists() else 0) - mallory
        caused = {a: after[a] - counts[a] for a in after} | {MALLORY: got_m}
        assert sum(caused.values()) <= 1 and all(v == 0 for a, v in caused.items() if a != sender)
        if caused[sender]:
            assert kinds(table.mails(sender)[-1:]) == ["error"]
    assert {g: deadline(table, g) for g in ("m1", "m2")} == before
    assert store_rows(table, "SELECT * FROM absences") == [] and store_rows(table, "SELECT * FROM absence_auto") == []


def test_league_absences_of_an_older_store_are_copied_once_and_still_move_deadlines(tmp_path):
    from pbem.absences import rows
    from pbem.absences.layer import AbsenceLayer
    from pbem.league import rows as league_rows
    from pbem.store import Store
    store = Store(tmp_path / "old.sqlite3")
    try:
        with store.transaction():
            league_rows.add_league(store, "cup", "Cup", {"game": "matchplay"}, datetime(2026, 11, 1))
            league_rows.add_league_event(store, "cup", datetime(2026, 11, 2), "absence", address=GEORGE,
                                         first="2026-12-03", last="2026-12-05", zone=None)
        kept = rows.spans(store, [GEORGE])
        assert [(s.first.isoformat(), s.last.isoformat(), s.kind) for s in kept] == [
            ("2026-12-03", "2026-12-05", "away")]
        assert len(rows.spans(store, [GEORGE])) == 1  # once
        moved = AbsenceLayer().deadline(store, "cup-r1-1", frozenset({GEORGE}),
                                        datetime.fromisoformat("2026-12-04T18:00:00+00:00"))
        assert moved == datetime.fromisoformat("2026-12-06T00:00:00+00:00")
    finally:
        store.close()


def test_the_config_key_is_checked(table):
    allowance(table, 400)
    code, _, err = table.pbem("list", check=False)
    assert code == 2 and "absence.days_per_year" in err
