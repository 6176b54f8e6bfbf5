"""A game of robots only goes on at every pass until it ends (CONTRACT section 12, docs/robots.md
"Robots only": one pass plays at most so many robot orders in a game, and the rest wait for
the next pass). No mail and no deadline moves such a game, so the pass's clock tick must.

The bound is lowered here so that a short match needs several passes; every clock is given.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.gm import robot_seats

BOUND = 3
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def at(minutes: int) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def robot_orders(shown: dict) -> int:
    return sum(1 for ev in shown["history"] if ev.get("robot") and ev["kind"] in ("orders", "nmr"))


@pytest.fixture
def bounded(table, monkeypatch):
    monkeypatch.setattr(robot_seats, "MOVES_A_CALL", BOUND)
    table.pbem("new-game", "matchplay", "--player", "robot", "--player", "robot:easy", "--id", "x1",
               "--option", "robots_only=true", "--course", "parkland", "--seed", "4", now=at(0))
    return table


def test_the_next_pass_plays_the_robots_on_from_where_the_bound_stopped_them(bounded):
    shown = bounded.show("x1")
    assert shown["status"] == "active" and shown["to_move"] == [] and robot_orders(shown) == BOUND
    bounded.pbem("process", now=at(1))
    assert robot_orders(bounded.show("x1")) == 2 * BOUND


def test_the_game_ends_after_enough_passes_each_within_the_bound(bounded):
    counts = [robot_orders(bounded.show("x1"))]
    for minute in range(1, 20):
        if bounded.show("x1")["status"] != "active":
            break
        bounded.pbem("process", now=at(minute))
        counts.append(robot_orders(bounded.show("x1")))
    shown = bounded.show("x1")
    assert shown["status"] == "finished" and shown["result"].startswith("Result: ")
    steps = [b - a for a, b in zip(counts, counts[1:])]
    assert len(steps) >= 2 and all(step == BOUND for step in steps[:-1]) and 0 < steps[-1] <= BOUND
    _, record, _ = bounded.pbem("export", "x1")
    (bounded.root / "x1.json").write_text(record)
    code, out, _ = bounded.pbem("verify", str(bounded.root / "x1.json"), check=False)
    assert code == 0 and out.startswith("verified: x1"), out


def test_a_paused_game_of_robots_goes_on_too(bounded):
    """A pause stops the clock; orders are still taken and played (docs/gm-commands.md), a robot's too."""
    bounded.pbem("gm", "PAUSE", "x1", now=at(1))  # a GM command plays what robots owe, as ever
    paused = robot_orders(bounded.show("x1"))
    bounded.pbem("process", now=at(2))
    assert robot_orders(bounded.show("x1")) == paused + BOUND


def test_a_game_with_a_person_in_it_is_not_moved_by_the_tick(table, monkeypatch):
    """The tick looks only at games of robots only: a robot facing a person moves when the
    person's mail (or a deadline) comes, as before, and the pass leaves the game as it was."""
    table.pbem("new-game", "matchplay", "--player", "George <george@example.test>", "--player", "robot",
               "--id", "h1", "--course", "parkland", now=at(0))
    before = table.show("h1")
    table.pbem("process", now=at(1))
    after = table.show("h1")
    assert robot_orders(before) == robot_orders(after) == 1 and after["to_move"] == ["george@example.test"]
