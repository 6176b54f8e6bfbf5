"""A table's start (CONTRACT section 13): full at once, or at `--starts` with at least `--min`
players; with fewer, `--fill robots` seats robots, `wait` waits for the minimum, `cancel` calls
it off. The game has the table's course, options and deadline."""
from __future__ import annotations

import importlib
import random
from datetime import datetime, timedelta

import pytest
from conftest import body, kinds
from tables_helpers import (ANN, BOB, CY, answer, assert_table_mail, open_table, row, sit, welcomed, write)

STARTS = "2026-12-02T18:00:00Z"
JUST_BEFORE = "2026-12-02T17:59:00Z"


def test_at_its_start_time_a_table_with_its_minimum_starts_with_those_who_joined(table):
    table_id = open_table(table, "golfdeck", "--seats", "4", "--min", "2", "--starts", STARTS, "--deadline", "36h",
                          "--course", "links", "--option", "holes=3")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    table.pbem("process", now=JUST_BEFORE)
    assert row(table, table_id)["status"] == "open" and table.new_mails(ANN) == []
    table.pbem("process", now=STARTS)
    listed = row(table, table_id)
    assert listed["status"] == "started" and listed["game"] == table_id
    shown = table.show(table_id)
    assert [p["address"] for p in shown["players"]] == [ANN, BOB]
    assert welcomed(table, table_id) == {ANN, BOB}
    game = table.load(table_id)
    assert game.row.deadline_every == "36h" and game.row.options["holes"] == 3 and game.row.course == "links"
    for who in (ANN, BOB):
        fresh = table.new_mails(who)
        assert kinds(fresh)[0] == "welcome" and kinds(fresh).count("table") == 1, kinds(fresh)
        started = next(m for m in fresh if m["X-PBEM-Kind"] == "table")
        text = " ".join(assert_table_mail(started, table_id, answer=False).split())
        assert "with Ann and Bob." in text
    # Once started, the clock has nothing more to do with it.
    table.pbem("process", now="2026-12-09T18:00:00Z")
    assert row(table, table_id)["status"] == "started"


def test_a_table_without_a_start_time_waits_until_every_seat_is_taken(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    table.pbem("process", now="2027-01-30T18:00:00Z")
    assert row(table, table_id)["status"] == "open" and row(table, table_id)["game"] is None
    got = sit(table, CY, table_id, now="2027-01-30T19:00:00Z")
    assert "welcome" in kinds(got) and row(table, table_id)["status"] == "started"


def test_wait_keeps_the_table_open_and_the_answer_that_reaches_the_minimum_starts_it(table):
    table_id = open_table(table, "golfdeck", "--seats", "4", "--min", "3", "--starts", STARTS)
    assert row(table, table_id)["fill"] == "wait"
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    table.pbem("process", now=STARTS)
    assert row(table, table_id)["status"] == "open"
    assert kinds(table.new_mails(ANN)) == []
    question = write(table, CY, f"JOIN {table_id}", now="2026-12-03T10:00:00Z")
    assert "has passed: it starts as soon as 3 players have joined" in " ".join(body(question[0]).split())
    got = answer(table, CY, question[0], now="2026-12-03T10:05:00Z")
    assert kinds(got)[0] == "welcome" and kinds(got)[-1] == "table"
    assert row(table, table_id)["status"] == "started"
    assert [p["address"] for p in table.show(table_id)["players"]] == [ANN, BOB, CY]


def test_cancel_closes_the_table_and_tells_everyone_who_joined(table):
    table_id = open_table(table, "golfdeck", "--seats", "4", "--min", "3", "--starts", STARTS, "--fill", "cancel")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    question = write(table, CY, f"JOIN {table_id}")[0]
    table.pbem("process", now=STARTS)
    listed = row(table, table_id)
    assert listed["status"] == "closed" and listed["game"] is None and listed["pending"] == 0
    for who in (ANN, BOB):
        told = table.new_mails(who)
        assert kinds(told) == ["table"]
        text = " ".join(assert_table_mail(told[0], table_id, answer=False).split())
        assert told[0]["Subject"] == f"[{table_id}] Table {table_id} is closed"
        assert "only 2 had joined by then, so it is called off" in text
    assert table.new_mails(CY) == []  # asked, never seated: not told
    code, _, _ = table.pbem("show", table_id, check=False)
    assert code == 2  # no game was made
    # The question Cy got can no longer take a seat.
    late = answer(table, CY, question, now="2026-12-02T19:00:00Z")
    assert "closed" in body(late[0]) and row(table, table_id)["joined"] == [
        {"name": "Ann", "address": ANN}, {"name": "Bob", "address": BOB}]


@pytest.mark.slow
def test_robots_take_the_empty_seats_and_the_game_plays_to_its_end(table):
    table_id = open_table(table, "golfdeck", "--seats", "4", "--starts", STARTS, "--fill", "robots",
                          "--option", "holes=2")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    table.pbem("process", now=STARTS)
    shown = table.show(table_id)
    assert [p["address"] for p in shown["players"]] == [ANN, BOB, None, None]
    assert [p.get("robot") for p in shown["players"]] == [None, None, "strong", "strong"]
    started = next(m for m in table.mails(ANN) if m["X-PBEM-Kind"] == "table" and "started" in m["Subject"])
    assert "with Ann and Bob and 2 robots" in " ".join(body(started).split())
    play_out(table, table_id, {0: ANN, 1: BOB}, random.Random(3))
    history = table.show(table_id)["history"]
    assert {ev["seat"] for ev in history if ev.get("robot")} == {2, 3}
    assert table.show(table_id)["result"].startswith("Result: ")


def play_out(table, game_id: str, humans: dict[int, str], rng, most: int = 400) -> None:
    """The humans answer every turn by mail (a reply to the game's mail) until the game ends."""
    module = importlib.import_module("pbem.games.golfdeck")
    clock = datetime.fromisoformat(STARTS.replace("Z", "+00:00"))
    for _ in range(most):
        shown = table.show(game_id)
        if shown["status"] != "active":
            return
        address = shown["to_move"][0]
        seat = next(s for s, a in humans.items() if a == address)
        orders = str(module.random_orders(table.load(game_id).state, seat, rng))
        clock += timedelta(seconds=150)
        got = write(table, address, orders, subject=f"Re: [{game_id}] your move",
                    to=table.reply_to_game(address, game_id), now=clock.strftime("%Y-%m-%dT%H:%M:%SZ"))
        assert "error" not in kinds(got), body(got[0])
    raise AssertionError("the game did not end")


def test_the_game_takes_another_id_when_a_game_has_the_tables_meanwhile(table):
    table_id = open_table(table, "matchplay", "--seats", "2", "--id", "duel")
    table.pbem("new-game", "matchplay", "--player", "x@example.test", "--player", "y@example.test", "--id", "duel")
    sit(table, ANN, table_id)
    got = sit(table, BOB, table_id)
    assert row(table, table_id)["game"] == "duel-2"
    seated = got[-1]
    assert seated["Subject"] == "[duel] Table duel has started: game duel-2" and seated["Reply-To"] is None
    assert [p["address"] for p in table.show("duel-2")["players"]] == [ANN, BOB]
    assert "is now game duel-2" in " ".join(body(seated).split())
