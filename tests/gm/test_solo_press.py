"""PRESS in a game with nobody else to read it (issue 18, item 1; issue 31, item 10): no mail of
the game offers PRESS, and one sent anyway is answered once, in the same answer as the orders
beside it, which stand. The message is never refused or failed for it."""
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


@pytest.mark.parametrize("game_type, orders, main", [("dicegolf", "POLICY BEST", "ack"),
                                                     ("onpar", "STATUS", "press")])
def test_a_press_with_no_other_player_is_answered_and_the_orders_beside_it_stand(table, game_type, orders, main):
    solo(table, game_type)
    assert "PRESS" not in body(table.mails(ANN)[0])  # the welcome offers none
    got = table.order(ANN, f"{orders}\nPRESS note to self")
    answers = [m for m in got if m["In-Reply-To"]]
    assert kinds(answers) == [main], [m["Subject"] for m in got]
    text = body(answers[0])
    flat = " ".join(text.split())
    assert "I passed your press on to nobody: you play game m1 alone" in flat
    assert "Not accepted" not in answers[0]["Subject"] and "note to self" not in flat
    assert all(len(line) <= 78 for line in text.splitlines())
    assert not [ev for ev in table.show()["history"] if ev.get("kind") == "press"]
    assert failed(table) == []


def test_the_orders_beside_the_press_are_taken(table):
    solo(table, "dicegolf")
    got = table.order(ANN, "POLICY BEST\nPRESS note to self")
    assert "error" not in kinds(got)
    assert table.load().state.policies[0] == "BEST"
