"""PRESS in a game with nobody else to read it (issue 18, item 1): the line is refused by a
rule that says so, nothing of the message applies, and the message is refused, never failed."""
from __future__ import annotations

import json

import pytest
from conftest import body, kinds

ANN = "ann@example.test"
START = "2026-12-01T09:00:00Z"


def solo(table, game_type: str) -> None:
    table.pbem("new-game", game_type, "--id", "m1", "--player", f"Ann <{ANN}>", "--deadline", "2d", now=START)


def failed(table) -> list:
    return json.loads(table.pbem("inbox", "--json")[1])


@pytest.mark.parametrize("game_type, orders", [("dicegolf", "POLICY BEST"), ("onpar", "STATUS")])
def test_a_press_with_no_other_player_is_refused_by_its_rule(table, game_type, orders):
    solo(table, game_type)
    before = table.show()
    got = table.order(ANN, f"{orders}\nPRESS note to self")
    assert kinds(got) == ["error"], [m["Subject"] for m in got]
    text = body(got[0])
    flat = " ".join(text.split())
    assert "Line 2: PRESS note to self" in text, text
    assert "nobody else plays in game m1" in flat and "Rule: a press goes to the other players" in flat
    assert "Nothing in it was applied" in flat and "What would be right" not in flat
    assert all(len(line) <= 78 for line in text.splitlines())
    after = table.show()
    assert after["state"] == before["state"] and after["history"] == before["history"]
    assert failed(table) == []  # refused in its own barrier, not a failure of the GM's


def test_the_same_orders_without_the_press_are_taken(table):
    solo(table, "dicegolf")
    table.order(ANN, "POLICY BEST\nPRESS note to self")
    got = table.order(ANN, "POLICY BEST")
    assert "error" not in kinds(got)
    assert table.load().state.policies[0] == "BEST"
