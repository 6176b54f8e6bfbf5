"""Reliability (CONTRACT section 14): the deadlines owed and met per address over every game in
the last 365 days, counted against games counted here by hand; shown by `pbem ratings --json`,
the RATINGS answer and `pbem players`; `table open --min-on-time` and a league's `min_on_time:`
refusing (and letting in an address that has owed nothing yet)."""
from __future__ import annotations

import json
import random

from conftest import BILL, GEORGE, body, too_wide

from pbem.games.matchplay import random_orders
from pbem.ratings.reliability import BadShare, Orders, count, percent, read_share
from pbem.store import LogEvent

import pytest

ANN = "ann@example.test"
T0 = "2026-12-01T18:00:00Z"
# Turn 1 at once, turn 2's deadline (48h) passes without Bill's orders, turn 3 at once.
T1, T2, T3, T4 = "2026-12-01T18:05:00Z", "2026-12-01T18:10:00Z", "2026-12-03T19:00:00Z", "2026-12-03T19:05:00Z"


def open_table(table, *args: str, now: str) -> str:
    return table.pbem("table", "open", *args, now=now)[1].strip()


def write(table, who: str, text: str, now: str) -> list:
    """A mail from `who`, one pass, and the new mail `who` got."""
    table.new_mails(who)
    table.send(who, text, subject="tables")
    table.pbem("process", now=now)
    return table.new_mails(who)


def assert_asks(m, table_id: str) -> None:
    assert m["Subject"] == f"[{table_id}] Confirm: a seat at table {table_id}", m["Subject"]


def orders_of(table, seat: int, game: str, rng) -> str:
    return str(random_orders(table.load(game).state, seat, rng))


def three_turns(table, game: str = "m1") -> None:
    """George meets three deadlines; Bill meets two and misses the second (2 of 3)."""
    rng = random.Random(7)
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", game, "--deadline", "48h", now=T0)
    for who, seat in ((GEORGE, 0), (BILL, 1)):
        table.order(who, orders_of(table, seat, game, rng), game, now=T1)
    table.order(GEORGE, orders_of(table, 0, game, rng), game, now=T2)
    table.pbem("process", now=T3)  # the deadline has passed: the GM plays for Bill
    assert any(ev["kind"] == "nmr" for ev in table.show(game)["history"])
    for who, seat in ((GEORGE, 0), (BILL, 1)):
        table.order(who, orders_of(table, seat, game, rng), game, now=T4)


def players(table, now: str = T4) -> dict[str, dict]:
    return {r["address"]: r for r in json.loads(table.pbem("players", "--json", now=now)[1])}


def test_a_game_counted_by_hand(table):
    three_turns(table)
    rows = players(table)
    assert rows[GEORGE]["owed"] == 3 and rows[GEORGE]["on_time"] == 1.0
    assert rows[BILL]["owed"] == 3 and rows[BILL]["on_time"] == pytest.approx(2 / 3)
    assert set(rows[BILL]) == {"name", "address", "played", "running", "on_time", "owed", "absences_left"}
    assert rows[BILL]["name"] == "Bill" and rows[BILL]["played"] == 0 and rows[BILL]["running"] == 1
    assert rows[BILL]["absences_left"] == 30  # absence.days_per_year, none used


def test_the_window_is_the_last_365_days(table):
    three_turns(table)
    # A year after turn 1 (18:05): turns 2 and 3 are still inside, turn 1 is not.
    rows = players(table, now="2027-12-01T18:07:00Z")
    assert rows[GEORGE]["owed"] == 2 and rows[BILL]["owed"] == 2 and rows[BILL]["on_time"] == 0.5
    rows = players(table, now="2028-12-31T00:00:00Z")
    assert rows[BILL]["owed"] == 0 and rows[BILL]["on_time"] is None
    assert rows[BILL]["running"] == 1  # the games themselves are not windowed


def test_count_follows_a_seat_handed_on_and_counts_a_turn_once():
    events = [
        {"at": "2026-01-01T00:00:00Z", "kind": LogEvent.CREATED, "seat": None, "addresses": ["a@x.test", "b@x.test"]},
        {"at": "2026-01-01T00:00:00Z", "kind": LogEvent.ORDERS, "seat": 0, "turn": 1},
        {"at": "2026-01-01T00:01:00Z", "kind": LogEvent.ORDERS, "seat": 0, "turn": 1},  # changed: once
        {"at": "2026-01-02T00:00:00Z", "kind": LogEvent.NMR, "seat": 1, "turn": 1},
        {"at": "2026-01-02T00:00:00Z", "kind": LogEvent.REPLACE, "seat": 1, "address": "c@x.test"},
        {"at": "2026-01-03T00:00:00Z", "kind": LogEvent.ORDERS, "seat": 1, "turn": 2},
        {"at": "2026-01-03T00:00:00Z", "kind": LogEvent.ORDERS, "seat": 0, "turn": 2},
    ]
    counted = count(events)
    assert counted.orders == {(0, 0): Orders(2, 2), (1, 0): Orders(1, 0), (1, 1): Orders(1, 1)}
    assert counted.by_seat() == {0: Orders(2, 2), 1: Orders(2, 1)}
    assert count(events, since="2026-01-02T00:00:00Z").orders == {(1, 0): Orders(1, 0), (1, 1): Orders(1, 1),
                                                                  (0, 0): Orders(1, 1)}


def test_shares_read_as_fractions_or_percentages():
    assert read_share("0.8") == 0.8 and read_share("80%") == 0.8 and read_share(1) == 1.0
    for wrong in ("80", "-0.1", "lots", "120%"):
        with pytest.raises(BadShare):
            read_share(wrong)
    assert percent(2 / 3) == "67%" and percent(0.999) == "99%" and percent(0.001) == "1%"


def test_ratings_json_rows_carry_on_time_and_owed(table):
    three_turns(table)
    rng = random.Random(3)
    while table.show("m1")["status"] == "active":
        state = table.load("m1").state
        for seat in sorted(state.to_move()):
            table.order((GEORGE, BILL)[seat], str(random_orders(state, seat, rng)), "m1", now=T4)
    rows = json.loads(table.pbem("ratings", "--json", now=T4)[1])
    assert {r["address"] for r in rows} == {GEORGE, BILL}
    for r in rows:
        assert {"name", "address", "type", "mu", "sigma", "ordinal", "games", "on_time", "owed"} == set(r)
    bill = next(r for r in rows if r["address"] == BILL)
    george = next(r for r in rows if r["address"] == GEORGE)
    assert bill["owed"] == george["owed"] > 3 and bill["on_time"] == pytest.approx((bill["owed"] - 1) / bill["owed"])
    assert players(table)[BILL]["played"] == 1


def test_the_ratings_answer_says_the_senders_own_figure(table):
    three_turns(table)
    table.new_mails(BILL)
    table.send(BILL, "RATINGS", subject="ratings")
    table.pbem("process", now="2026-12-03T19:10:00Z")
    answer = [m for m in table.new_mails(BILL) if m["X-PBEM-Kind"] == "ratings"]
    assert len(answer) == 1
    text = body(answer[0])
    assert "On time: 67% of 3 deadlines in the last 365 days" in " ".join(text.split())
    assert not too_wide(text)


def test_players_text_is_an_aligned_table_in_78_columns(table):
    three_turns(table)
    table.pbem("new-game", "matchplay", "--player", "A Player With A Very Long Name Indeed <a-very-long-local-"
               "part@a-long-domain.example.test>", "--player", "robot:easy", "--id", "m2", now=T4)
    _, out, _ = table.pbem("players", now=T4)
    lines = out.splitlines()
    assert lines[0].split() == ["Name", "Address", "Played", "Running", "On", "time", "Owed", "Away"]
    assert all(len(line) <= 78 for line in lines), out
    bill = next(line for line in lines if BILL in line)
    assert bill.split()[-4:] == ["1", "67%", "3", "30"]
    assert "robot" not in out.lower()
    assert len({len(line) for line in lines[2:5]}) == 1  # the rows line up


def test_min_on_time_refuses_a_join_below_it_and_admits_the_rest(table):
    three_turns(table)
    refused = open_table(table, "golfdeck", "--seats", "2", "--min-on-time", "80%", "--id", "picky", now=T4)
    answer = write(table, BILL, f"JOIN {refused}", now="2026-12-03T19:10:00Z")
    text = " ".join(body(answer[0]).split())
    assert "at least 80% of their deadlines" in text and "67% (2 of 3)" in text and "Nothing was changed." in text
    assert_asks(write(table, GEORGE, "JOIN picky", now="2026-12-03T19:15:00Z")[0], "picky")
    assert_asks(write(table, ANN, "JOIN picky", now="2026-12-03T19:20:00Z")[0], "picky")  # owed nothing yet
    open_table(table, "golfdeck", "--seats", "2", "--min-on-time", "0.6", "--id", "lenient", now=T4)
    assert_asks(write(table, BILL, "JOIN lenient", now="2026-12-03T19:25:00Z")[0], "lenient")


def test_min_on_time_that_cannot_be_read_is_refused(table):
    code, _, err = table.pbem("table", "open", "golfdeck", "--seats", "2", "--min-on-time", "80", check=False)
    assert code == 2 and "--min-on-time: expected a fraction from 0 to 1" in err


LEAGUE = """\
name: Reliable Cup
game: matchplay
players:
  - George <george@example.test>
  - Bill <bill@example.test>
  - Ann <ann@example.test>
  - Cy <cy@example.test>
start: 2027-01-04T18:00:00Z
format: round-robin
"""


def test_a_league_min_on_time_refuses_create_naming_who_falls_short(table):
    three_turns(table)
    (table.root / "cup.yaml").write_text(LEAGUE + "min_on_time: 80%\n")
    code, out, err = table.pbem("league", "create", "cup.yaml", check=False, now=T4)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Bill <bill@example.test> 67% of 3" in err and "George" not in err and "Ann" not in err
    (table.root / "cup.yaml").write_text(LEAGUE + "min_on_time: 0.5\n")
    code, out, _ = table.pbem("league", "create", "cup.yaml", now=T4)
    assert code == 0 and out.strip()
    (table.root / "bad.yaml").write_text(LEAGUE + "min_on_time: plenty\n")
    code, _, err = table.pbem("league", "create", "bad.yaml", check=False, now=T4)
    assert code == 2 and "min_on_time: expected a fraction" in err
