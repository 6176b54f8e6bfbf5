"""What the players of a card game (and of On Par and dice golf) are told must be true (issue
18, item 11): a resignation that lets the others play on is told to every one of them, once; a
reveal the GM played at the deadline does not say the player chose it, and the player who is to
start gets the turn mail (and a deadline) for the move they now owe; On Par counts the cards
played and discarded, and its stroke columns stand under their heads."""
from __future__ import annotations

import random
import re

import pytest
from conftest import body, kinds, too_wide

ANN, BOB, CY, DI = "ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"
PEOPLE = [("Ann", ANN), ("Bob", BOB), ("Cy", CY), ("Di", DI)]
START = "2026-12-01T12:00:00Z"


def new_game(table, type_name, n, *extra, seed=5):
    args = ["new-game", type_name, "--id", "c1", "--seed", str(seed), "--deadline", "2d", *extra]
    for name, addr in PEOPLE[:n]:
        args += ["--player", f"{name} <{addr}>"]
    table.pbem(*args, now=START)
    for _, addr in PEOPLE[:n]:
        table.new_mails(addr)
    return [addr for _, addr in PEOPLE[:n]]


def said(m) -> str:
    return " ".join(body(m).split())


@pytest.mark.parametrize("type_name,n", [("golfdeck", 3), ("golfdeck", 4), ("golf", 3), ("onpar", 3),
                                         ("dicegolf", 3)])
def test_a_resignation_that_lets_the_others_play_on_is_told_to_each_of_them_once(table, type_name, n):
    addrs = new_game(table, type_name, n)
    state = table.load("c1").state
    # Whoever resigns, it is someone who does not owe the next move (or any, in dice golf).
    quitter = max(set(range(n)) - set(state.to_move())) if set(range(n)) - set(state.to_move()) else n - 1
    name = PEOPLE[quitter][0]
    got = table.order(addrs[quitter], "RESIGN", game="c1")
    assert table.show("c1")["status"] == "active"
    assert len(got) == 1 and f"{name} has resigned" not in said(got[0])
    assert "resign" in said(got[0]).lower() and "You have finished hole" not in said(got[0])
    for s, addr in enumerate(addrs):
        if s == quitter:
            continue
        fresh = table.new_mails(addr)
        # One mail, however many seats: the forged-free count of what one RESIGN causes.
        assert len(fresh) == 1, (addr, kinds(fresh))
        text = said(fresh[0])
        assert re.search(rf"{name} (has )?resigned: they", text), (type_name, text)
        assert text.count(f"{name} resigned") + text.count(f"{name} has resigned") == 1, text
        assert "cannot win" in text and not too_wide(body(fresh[0]))


def test_the_reveals_the_gm_plays_at_the_deadline_are_not_told_as_chosen(table):
    addrs = new_game(table, "golfdeck", 3)
    starter = table.load("c1").state.current
    chooser = (starter + 1) % 3  # one player reveals by mail; the starter and the third do not
    table.order(addrs[chooser], "REVEAL 1 2", game="c1")
    assert table.load("c1").state.to_move() == {0, 1, 2} - {chooser}
    table.pbem("process", now="2026-12-03T13:00:00Z")
    state = table.load("c1").state
    assert not state.revealing and state.to_move() == {starter}
    for s, addr in enumerate(addrs):
        mails = table.new_mails(addr)
        text = " ".join(said(m) for m in mails)
        chosen = f"{PEOPLE[chooser][0]} has chosen the two cards"
        assert "You chose" not in text and "has chosen the two cards" not in text.replace(chosen, ""), text
        if s != chooser:
            pair = state.reveals[s]
            assert f"I picked {pair[0]} and {pair[1]} at random as the cards you reveal" in text, text
        for other in {0, 1, 2} - {s, chooser}:
            assert f"{PEOPLE[other][0]}'s two cards to reveal were picked at random" in text, text
        if s == starter:
            # The move the starter owes now is mailed, with a deadline of its own.
            assert "turn" in kinds(mails), kinds(mails)
            turn = [m for m in mails if m["X-PBEM-Kind"] == "turn"][-1]
            assert "It is your move" in body(turn) and "Due by 2026-12-05 13:00 UTC" in said(turn)
    assert table.show("c1")["deadline"].startswith("2026-12-05T13:00")


def test_on_par_counts_the_cards_played_and_discarded_and_lines_up_its_strokes(table):
    new_game(table, "onpar", 3, "--option", "holes=1", seed=11)
    rng = random.Random(4)
    onpar_play = __import__("pbem.games.onpar.play", fromlist=["random_orders"])
    seen = 0
    for _ in range(60):
        state = table.load("c1").state
        if state.result() is not None:
            break
        seat = min(state.to_move())
        got = table.order(PEOPLE[seat][1], str(onpar_play.random_orders(state, seat, rng)), game="c1")
        state = table.load("c1").state
        for m in got + table.new_mails(PEOPLE[(seat + 1) % 3][1]):
            text = body(m)
            counted = re.search(r"played and discarded: (\d+) cards?\.", text)
            if not counted or m["X-PBEM-Kind"] != "turn":
                continue
            if state.result() is None:
                assert int(counted.group(1)) == len(state.discards) + len(state.played), text
            rows = text.split("Strokes and totals:\n", 1)[1].split("\n\n", 1)[0].splitlines()
            head, players = rows[0], rows[1:]
            hole_col, total_col = head.index("this hole") + len("this hole"), head.index("total") + len("total")
            for row in players:
                # Each number ends under the last letter of its head.
                strokes, total = row[32:hole_col].strip(), row[hole_col:total_col].strip()
                assert strokes.isdigit() and total.lstrip("-").isdigit(), (head, row)
                assert row[hole_col - 1].isdigit() and row[total_col - 1].isdigit(), (head, row)
            seen += int(counted.group(1)) > len(state.discards)
    assert seen > 0, "some turn mail counted a played card"
