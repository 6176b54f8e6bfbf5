"""SET ABSENCE as a door: what one message of absence lines can make pbem do.

CONTRACT sections 10 and 14: at most `absence_days` a season (and `absence.days_per_year` a
calendar year), counted over every line of a message; one
message gets one answer. A message that asks for too much, or for dates no calendar reaches,
is refused whole (one error mail naming the line and the rule), moves no deadline, and leaves
no `failed` inbound row.
"""
from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime, timedelta

import pytest
from conftest import body, too_wide

NAMES = ["Alice", "Bruno", "Chloe", "Dmitri"]
ADDRESSES = [f"{n.lower()}@example.test" for n in NAMES]
START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
ALICE = ADDRESSES[0]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def league(table):
    """A four-player match play league (14 absence days, the default) with round 1 open."""
    lines = ["id: cup", "name: Winter Cup", "game: matchplay", "course: parkland", "players:"]
    lines += [f"  - {n} <{a}>" for n, a in zip(NAMES, ADDRESSES)]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h"]
    (table.root / "league.yaml").write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(table.root / "league.yaml"), now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    shown = json.loads(table.pbem("league", "show", "cup", "--json")[1])
    game = next(g["id"] for g in shown["rounds"][0]["games"] if ALICE in g["players"])
    return table, game


def opponent(table, game: str) -> str:
    return next(p["address"] for p in table.show(game)["players"] if p["address"] != ALICE)


def mail_counts(table) -> dict[str, int]:
    """How many mails each address has had from the GM."""
    folder = table.root / "mail"
    return {p.name: len(table.mails(p.name)) for p in folder.iterdir() if p.is_dir() and "@" in p.name
            and p.name != "gm@example.test"}


def deadlines(table) -> dict[str, str]:
    shown = json.loads(table.pbem("league", "show", "cup", "--json")[1])
    return {g["id"]: table.show(g["id"])["deadline"] for r in shown["rounds"] for g in r["games"]
            if g["status"] == "active"}


def absence_events(table) -> list:
    """The absences kept (the absences' layer's rows; none before its tables are made)."""
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'absences'").fetchone():
            return []
        return db.execute("SELECT * FROM absences WHERE kind = 'away'").fetchall()
    finally:
        db.close()


def inbound_statuses(table) -> list[str]:
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return [row[0] for row in db.execute("SELECT status FROM inbound")]
    finally:
        db.close()


def send_absence(table, game: str, text: str, hours: int = 1) -> dict[str, int]:
    """Alice sends `text` about `game`; one pass; what each address got from it."""
    before = mail_counts(table)
    table.send(ALICE, text, subject=f"Re: [{game}] away", to=table.reply_to_game(ALICE, game))
    table.pbem("process", now=iso(START + timedelta(hours=hours)))
    after = mail_counts(table)
    return {a: n - before.get(a, 0) for a, n in after.items() if n != before.get(a, 0)}


def back_to_back(first: date, count: int, days: int) -> list[str]:
    return [f"SET ABSENCE {first + timedelta(days=i * days)} TO {first + timedelta(days=i * days + days - 1)}"
            for i in range(count)]


def test_99_back_to_back_ranges_in_one_mail_are_one_refusal_and_move_nothing(league):
    table, game = league
    before = deadlines(table)
    caused = send_absence(table, game, "\n".join(back_to_back(date(2026, 12, 8), 99, 14)))
    assert caused == {ALICE: 1}  # one message, one answer, to its sender alone
    error = table.mails(ALICE)[-1]
    assert error["X-PBEM-Kind"] == "error"
    text = body(error)
    flat = " ".join(text.split())
    # Line 1 (14 days) fits the 14 of the season; line 2 is the first that does not.
    assert "Line 2: SET ABSENCE 2026-12-22 TO 2027-01-04" in text
    assert "you have 0 days of absence left this season" in flat
    assert "counted over every line of a message" in flat
    assert "Line 3:" not in text  # one problem says it: the 97 lines after it are counted, not listed
    assert "this line and the 97 more after it ask for 1,372 days" in flat
    assert not too_wide(text)
    assert deadlines(table) == before  # no deadline moved a day
    assert absence_events(table) == []
    assert "failed" not in inbound_statuses(table)


def test_ranges_that_fit_together_get_one_ack_and_count_every_line(league):
    table, game = league
    caused = send_absence(table, game, "SET ABSENCE 2026-12-08 TO 2026-12-10\nSET ABSENCE 2026-12-20 TO 2026-12-23")
    # One answer, and one notice to the opponent, whose deadline moved (CONTRACT 14): no more.
    assert caused == {ALICE: 1, opponent(table, game): 1}
    ack = table.mails(ALICE)[-1]
    assert ack["X-PBEM-Kind"] == "ack"
    flat = " ".join(body(ack).split())
    assert "2026-12-08 to 2026-12-10" in flat and "2026-12-20 to 2026-12-23" in flat
    assert "You have 23 days of absence left in 2026, and 7 this season of league cup" in flat
    assert not too_wide(body(ack))
    assert table.show(game)["deadline"] == "2026-12-11T00:00:00Z"
    assert len(absence_events(table)) == 2


def test_lines_that_each_fit_but_not_together_are_refused_whole(league):
    table, game = league
    before = deadlines(table)
    caused = send_absence(table, game, "SET ABSENCE 2026-12-08 TO 2026-12-17\nSET ABSENCE 2026-12-24 TO 2026-12-31")
    assert caused == {ALICE: 1}
    text = body(table.mails(ALICE)[-1])
    flat = " ".join(text.split())
    assert "Line 2: SET ABSENCE 2026-12-24 TO 2026-12-31" in text
    assert "that is 8 days away, and after the line above it you have 4 days of absence left" in flat
    # The suggestion is itself legal: it fits what the line above leaves.
    assert "What would be right: SET ABSENCE 2026-12-24 TO 2026-12-27" in text
    assert deadlines(table) == before and absence_events(table) == []
    assert "SET ABSENCE 2026-12-24 TO 2026-12-27" in flat
    caused = send_absence(table, game, "SET ABSENCE 2026-12-08 TO 2026-12-17\nSET ABSENCE 2026-12-24 TO 2026-12-27",
                          hours=2)
    assert caused == {ALICE: 1, opponent(table, game): 1} and table.mails(ALICE)[-1]["X-PBEM-Kind"] == "ack"
    assert "and 0 this season of league cup" in " ".join(body(table.mails(ALICE)[-1]).split())


def test_a_day_away_twice_counts_once(league):
    table, game = league
    send_absence(table, game, "SET ABSENCE 2026-12-08 TO 2026-12-12")
    caused = send_absence(table, game, "SET ABSENCE 2026-12-10 TO 2026-12-14\nSET ABSENCE 2026-12-14 TO 2026-12-14",
                          hours=2)
    assert caused == {ALICE: 1, opponent(table, game): 1}  # the deadline moved again: the opponent hears
    assert "and 7 this season of league cup" in " ".join(body(table.mails(ALICE)[-1]).split())
    send_absence(table, game, "SET ABSENCE 2026-12-09 TO 2026-12-30", hours=3)
    flat = " ".join(body(table.mails(ALICE)[-1]).split())
    assert "that is 22 days away (16 of them not counted yet), and you have 7 days" in flat
    # Two of the suggested days are counted already: it asks for 5 more, within the 7 left.
    assert "What would be right: SET ABSENCE 2026-12-09 TO 2026-12-15" in flat


@pytest.mark.parametrize("line", ["SET ABSENCE 9999-12-30 TO 9999-12-31", "SET ABSENCE 2026-12-08 TO 9999-12-31",
                                  "SET ABSENCE 9999-12-31 TO 9999-12-31"])
def test_dates_at_the_end_of_the_calendar_are_refused_not_crashed(league, line):
    table, game = league
    before = deadlines(table)
    caused = send_absence(table, game, line)
    assert caused == {ALICE: 1}
    error = table.mails(ALICE)[-1]
    assert error["X-PBEM-Kind"] == "error"
    text = body(error)
    assert f"Line 1: {line}" in text
    assert "Rule: an absence moves the deadlines of every game you play" in " ".join(text.split())
    assert "What would be right: SET ABSENCE 2026-12-0" in text
    assert not too_wide(text)
    assert deadlines(table) == before and absence_events(table) == []
    assert inbound_statuses(table)[-1] == "refused"


def test_an_absence_more_than_a_year_ahead_is_refused(league):
    table, game = league
    caused = send_absence(table, game, "SET ABSENCE 2028-06-01 TO 2028-06-05")
    assert caused == {ALICE: 1}
    text = body(table.mails(ALICE)[-1])
    flat = " ".join(text.split())
    assert "an absence may start a year ahead at most (by 2027-12-08)" in flat
    assert "What would be right: SET ABSENCE 2026-12-07 TO 2026-12-13" in text
    assert absence_events(table) == []
