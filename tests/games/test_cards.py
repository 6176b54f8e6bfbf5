"""The shared card pieces."""
from __future__ import annotations

from collections import Counter

import pytest

from pbem.games.cards import (GOLF_DECK_POINTS, HIDDEN, Grid, checked_options, deal, golf_deck, matching_groups,
                              shuffled, standard_pack, with_symbol)
from pbem.games.rng import Generator, seed_from_int


def test_decks():
    deck = golf_deck()
    assert len(deck) == 52 and set(Counter(deck).values()) == {4} and len(GOLF_DECK_POINTS) == 13
    pack = standard_pack()
    assert len(pack) == 52 and len(set(pack)) == 52 and "10D" in pack and "AS" in pack
    assert len(standard_pack(packs=2, jokers=2)) == 106
    assert with_symbol("QS") == "Q\u2660" and with_symbol("JOKER") == "JOKER"


def test_shuffle_is_the_generators_and_leaves_the_source_alone():
    deck = golf_deck()
    seed = seed_from_int(5)
    a, b = shuffled(deck, Generator(seed)), shuffled(deck, Generator(seed))
    assert a == b and a != deck and sorted(a) == sorted(deck) and deck == golf_deck()
    assert shuffled(deck, Generator(seed_from_int(6))) != a


def test_checked_options_are_worked_out_once_and_handed_out_as_copies():
    calls = []

    def check(given):
        calls.append(dict(given))
        if given.get("holes") == 0:
            raise ValueError("option holes: at least 1")
        return {"holes": given.get("holes", 9), "nmr": "autoplay"}

    first = checked_options("test-cards", {"holes": 3}, check)
    first["holes"] = 99  # a game changing its own options changes nobody else's
    assert checked_options("test-cards", {"holes": 3}, check) == {"holes": 3, "nmr": "autoplay"}
    assert calls == [{"holes": 3}]
    for _ in range(2):  # a refusal is never remembered: it is refused again
        with pytest.raises(ValueError):
            checked_options("test-cards", {"holes": 0}, check)
    assert len(calls) == 3
    checked_options("test-cards", {"holes": [1]}, check)  # a value that is no key is checked anyway
    assert calls[-1] == {"holes": [1]}
    for number, same_but_not in ((3, 3.0), (1, True)):  # equal as numbers, not as option values
        checked_options("test-cards", {"holes": number}, check)
        checked_options("test-cards", {"holes": same_but_not}, check)
        assert calls[-1]["holes"].__class__ is same_but_not.__class__


def test_grid_positions_columns_rows_and_what_is_shown():
    g = Grid(["7-Iron", "Putter", "Gimme", "7-Iron", "Sand Trap", "Water Hazard"], cols=3)
    assert g.columns() == [(1, 4), (2, 5), (3, 6)] and g.rows() == [(1, 2, 3), (4, 5, 6)]
    square = Grid(["AS", "2H", "3D", "4C"], cols=2)
    assert square.columns() == [(1, 3), (2, 4)] and square.rows() == [(1, 2), (3, 4)]
    g.turn_up(2)
    assert g.shown() == [HIDDEN, "Putter", HIDDEN, HIDDEN, HIDDEN, HIDDEN]
    assert g.shown(seen={1})[0] == "7-Iron"
    assert g.put(3, "Hole-in-One", True) == "Gimme" and g.is_up(3)
    assert matching_groups(g, g.columns(), lambda a, b: a == b) == {1, 4}
    assert Grid.from_dict(g.to_dict()) == g


def test_deal_and_shared_wins():
    deck = [str(x) for x in range(20)]
    hands = deal(deck, 2, 3)
    assert hands == [["19", "17", "15"], ["18", "16", "14"]] and deck == [str(x) for x in range(14)]
    exact = [str(x) for x in range(6)]
    assert deal(exact, 3, 2) == [["5", "2"], ["4", "1"], ["3", "0"]] and exact == []
    with pytest.raises(IndexError):
        deal(["AS"] * 5, 2, 3)


def test_card_orders_read_back_from_their_text():
    from pbem.games.cards.orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock,
                                        Peek, Reveal, from_text)
    for order in [Reveal(1, 4), DrawDiscard(3), DrawStock(), Keep(2), DiscardFlip(5), Discard(),
                  DrawStockIf(4, 2, 5), DrawStockIf(3, 1), Knock(), Peek(2)]:
        assert from_text(str(order)) == order
    assert str(DrawStockIf(4, 2, 5)) == "DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 5"
    assert str(DrawStockIf(3, 1)) == "DRAW STOCK IF <= 3 KEEP 1 ELSE DISCARD"
