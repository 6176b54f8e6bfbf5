"""A paused game says so in every mail (issue 18, item 10): STATUS says paused, never `(active)`
with a running deadline, and every mail sent while the clock is stopped says it is stopped and
how much time the turn has left."""
from __future__ import annotations

import re

import pytest

from conftest import BILL, GEORGE, body, kinds, too_wide
from test_admin import START, new_match

STOPPED = "the clock is stopped, and when the GM resumes it, turn {turn} has {left} left for orders"


def flat(msg) -> str:
    return " ".join(body(msg).split())


def states_a_deadline(msg) -> bool:
    return bool(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", body(msg) + msg["Subject"]))


def test_status_of_a_paused_match_says_paused_and_the_time_left(table):
    new_match(table)  # deadline 2026-12-03 18:00
    before = table.order(GEORGE, "STATUS", now=START)
    assert "(active)" in flat(before[0]) and "Orders due by 2026-12-03 18:00 UTC" in flat(before[0])
    table.pbem("gm", "PAUSE", "m1", now="2026-12-02T12:00:00Z")  # 30 h left
    status = table.order(GEORGE, "STATUS", now="2026-12-05T00:00:00Z")
    assert kinds(status) == ["status"]
    text = flat(status[0])
    assert "(active)" not in text and "(paused by the GM)" in text
    assert STOPPED.format(turn=1, left="1d 6h") in text
    assert not states_a_deadline(status[0]) and not too_wide(body(status[0]))


@pytest.mark.parametrize("game,extra", [("golfdeck", []), ("onpar", []), ("dicegolf", ["--option", "nmr=autoplay"])])
def test_status_of_every_paused_game_says_paused(table, game, extra):
    table.pbem("new-game", game, "--id", "g1", "--seed", "5", "--deadline", "48h", "--player", f"Ann <{GEORGE}>",
               "--player", f"Bob <{BILL}>", *extra, now=START)
    table.pbem("gm", "PAUSE", "g1", now="2026-12-02T18:00:00Z")  # 24 h left
    status = table.order(GEORGE, "STATUS", game="g1", now="2026-12-04T00:00:00Z")
    text = flat(status[0])
    assert "(paused by the GM)" in text and "(active)" not in text
    assert STOPPED.format(turn=table.show("g1")["turn"], left="1d") in text
    assert not states_a_deadline(status[0]) and not too_wide(body(status[0]))


def test_every_mail_of_a_paused_game_says_the_clock_is_stopped(table):
    new_match(table)
    table.pbem("gm", "PAUSE", "m1", now="2026-12-02T18:00:00Z")  # 24 h left of turn 1
    notice = table.new_mails(BILL)[-1]
    assert notice["X-PBEM-Kind"] == "notice" and STOPPED.format(turn=1, left="1d") in flat(notice)
    table.new_mails(GEORGE)
    sent = table.order(GEORGE, "PLAY 3 5 4\nPRESS see you on the back nine\nHISTORY\nHELP",
                       now="2026-12-03T00:00:00Z")
    # One message, one answer: the ack with the press copy, the history and the help below it.
    assert kinds(sent) == ["ack"]
    assert all(part in flat(sent[0]) for part in ("see you on the back nine", "History", "HELP")), body(sent[0])
    bill = table.new_mails(BILL)
    assert kinds(bill) == ["press"]
    # Orders still count while paused; the turn that resolves gets its whole time when it resumes.
    done = table.order(BILL, "PLAY 4 4 5", now="2026-12-03T01:00:00Z")
    assert kinds(done) == ["ack", "report"]
    assert table.show()["turn"] == 2
    ack, report = done
    # The last orders of the turn: nothing is owed until the report, which gives turn 2's time.
    assert "The game is paused: the clock is stopped until the GM resumes it." in flat(ack)
    for msg in sent + bill + [report] + table.new_mails(GEORGE):
        turn, left = (1, "1d") if msg in sent + bill else (2, "2d")
        assert STOPPED.format(turn=turn, left=left) in flat(msg), (msg["X-PBEM-Kind"], body(msg))
        assert not states_a_deadline(msg), body(msg)
        assert not too_wide(body(msg))
    table.pbem("gm", "RESUME", "m1", now="2026-12-10T00:00:00Z")
    assert table.show()["deadline"] == "2026-12-12T00:00:00Z"  # turn 2's 48 h, counted from the resume
    resumed = table.new_mails(GEORGE)[-1]
    assert "clock is stopped" not in flat(resumed) and "orders are due by 2026-12-12 00:00 UTC" in flat(resumed)


def test_process_of_a_paused_game_says_it_stays_paused(table):
    new_match(table)
    table.pbem("gm", "PAUSE", "m1", now="2026-12-02T18:00:00Z")
    table.new_mails(BILL)
    table.pbem("gm", "PROCESS", "m1", now="2026-12-04T00:00:00Z")
    notice, report = table.new_mails(BILL)
    assert kinds([notice, report]) == ["notice", "report"]
    assert "The game stays paused" in flat(notice) and "1d left" not in flat(notice)
    assert STOPPED.format(turn=2, left="2d") in flat(report)
    assert not states_a_deadline(notice) and not states_a_deadline(report)


def test_a_move_played_while_a_card_game_is_paused_gives_the_next_move_its_whole_time(table):
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "4", "--deadline", "48h", "--player", f"Ann <{GEORGE}>",
               "--player", f"Bob <{BILL}>", now=START)
    table.pbem("gm", "PAUSE", "c1", now="2026-12-03T06:00:00Z")  # 12 h left of Bob's move
    assert STOPPED.format(turn=1, left="12h") in flat(table.new_mails(BILL)[-1])
    table.new_mails(GEORGE)
    acked = table.order(BILL, "DRAW STOCK IF <= 13 KEEP 1 ELSE DISCARD", game="c1", now="2026-12-03T07:00:00Z")
    assert kinds(acked) == ["ack"] and "12h" not in flat(acked[0])  # Bob's time is used up
    assert "The game is paused: the clock is stopped" in flat(acked[0])
    turn = table.new_mails(GEORGE)
    assert kinds(turn) == ["turn"] and not states_a_deadline(turn[0])
    assert STOPPED.format(turn=table.show("c1")["turn"], left="2d") in flat(turn[0]), body(turn[0])
    table.pbem("gm", "RESUME", "c1", now="2026-12-05T00:00:00Z")
    assert table.show("c1")["deadline"] == "2026-12-07T00:00:00Z"
