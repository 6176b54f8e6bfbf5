"""Whole card games played by mail through the Maildir transport."""
from __future__ import annotations

import random

import pytest
from conftest import body, kinds

from pbem.games import game_type
from pbem.gm import games
from pbem.store import Store

PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"] + [
    f"p{i}@example.test" for i in range(4, 8)]


def engine(table, game="c1"):
    store = Store(table.root / "pbem.sqlite3")
    try:
        return games.load(store, game).state
    finally:
        store.close()


def play_by_mail(table, type_name, n, *options, seed=3, holes=2):
    module = __import__(f"pbem.games.{type_name}", fromlist=["random_orders"])
    args = ["new-game", type_name, "--id", "c1", "--seed", str(seed), "--option", f"holes={holes}"]
    for i in range(n):
        args += ["--player", f"P{i} <{PLAYERS[i]}>"]
    for opt in options:
        args += ["--option", opt]
    table.pbem(*args)
    rng = random.Random(seed)
    for _ in range(2000):
        state = engine(table)
        if state.result() is not None:
            break
        seat = min(state.to_move())
        command = module.random_orders(state, seat, rng)
        got = table.order(PLAYERS[seat], str(command), game="c1")
        assert "error" not in kinds(got), body(got[-1])
    return engine(table)


@pytest.mark.parametrize("n", [2, 3])
def test_a_whole_golfdeck_game_by_mail(table, n):
    state = play_by_mail(table, "golfdeck", n)
    shown = table.show("c1")
    assert shown["status"] == "finished" and shown["result"] == "Result: " + state.result().line
    scorer = __import__("pbem.games.golfdeck", fromlist=["score_grid"]).score_grid
    for i, addr in enumerate(PLAYERS[:n]):
        per_hole = [scorer(h["grids"][addr])[0] for h in shown["holes"]]
        assert [h["scores"][addr] for h in shown["holes"]] == per_hole
        assert shown["players"][i]["score"] == sum(per_hole)
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and shown["result"] in body(results[0])
        reports = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "report"]
        assert len(reports) == 2 and reports[0].is_multipart()  # text and an HTML table
    turns = [m for m in table.mails(PLAYERS[0]) if m["X-PBEM-Kind"] == "turn"]
    assert turns and "[1]" in body(turns[0])


def test_a_drawn_stock_card_is_mailed_only_to_its_drawer(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--player", f"Ann <{PLAYERS[0]}>",
               "--player", f"Bob <{PLAYERS[1]}>")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1")
    table.order(PLAYERS[1], "REVEAL 1 2", game="c1")
    state = engine(table)
    mover = min(state.to_move())
    other = 1 - mover
    table.new_mails(PLAYERS[other])
    got = table.order(PLAYERS[mover], "DRAW STOCK", game="c1")
    drawn = engine(table).view(mover)["drawn"]
    assert drawn and kinds(got) == ["ack", "turn"] and f"You drew {drawn}" in got[-1]["Subject"]
    assert not table.new_mails(PLAYERS[other])  # nothing to the other player yet
    errs = table.order(PLAYERS[other], "KEEP 3", game="c1")
    assert kinds(errs) == ["error"]


GOLF_VARIANTS = [
    ("layout=4", "ending=knock"),
    ("layout=6", "ending=faceup", "pairs=rowcol"),
    ("layout=4", "pairs=any", "queens=12", "jokers=true", "knock_penalty=plus10"),
    ("layout=4", "jacks=20skip", "one_eyed_jacks_wild=true", "knock_bonus=minus_players"),
    ("layout=6", "ending=faceup", "spade_queen=true", "kings=13", "peek=paid"),
    ("layout=4", "peek=any2", "replace_unseen_once=true", "knock_penalty=highest"),
]


@pytest.mark.parametrize("n,variant", [(2, GOLF_VARIANTS[0]), (4, GOLF_VARIANTS[1]), (8, GOLF_VARIANTS[2]),
                                       (2, GOLF_VARIANTS[3]), (3, GOLF_VARIANTS[4]), (2, GOLF_VARIANTS[5])])
def test_a_whole_golf_game_by_mail(table, n, variant):
    players = PLAYERS
    state = play_by_mail(table, "golf", n, *variant, holes=1)
    shown = table.show("c1")
    assert shown["status"] == "finished" and shown["result"] == "Result: " + state.result().line
    from pbem.games.golf_scoring import score_hole
    addrs = players[:n]
    cols = 2 if state.options["layout"] == 4 else 3
    for k, hole in enumerate(shown["holes"]):  # recomputed from the final grids of show --json
        again = score_hole([hole["grids"][a] for a in addrs], cols, state.options, state.holes[k]["knocker"],
                           state.holes[k]["peeks"])
        assert again["scores"] == [hole["scores"][a] for a in addrs]
    for i, addr in enumerate(addrs):
        assert shown["players"][i]["score"] == sum(h["scores"][addr] for h in shown["holes"])
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and shown["result"] in body(results[0])
