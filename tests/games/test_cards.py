"""The shared card pieces."""
from __future__ import annotations

import random
from collections import Counter

from pbem.games.cards import (GOLF_DECK_POINTS, HIDDEN, Grid, deal, golf_deck, matching_groups, share_the_win,
                              shuffled, standard_pack, with_symbol)


def test_decks():
    deck = golf_deck()
    assert len(deck) == 52 and set(Counter(deck).values()) == {4} and len(GOLF_DECK_POINTS) == 13
    pack = standard_pack()
    assert len(pack) == 52 and len(set(pack)) == 52 and "10D" in pack and "AS" in pack
    assert len(standard_pack(packs=2, jokers=2)) == 106
    assert with_symbol("QS") == "Q\u2660" and with_symbol("JOKER") == "JOKER"


def test_shuffle_is_the_rngs_and_leaves_the_source_alone():
    deck = golf_deck()
    a, b = shuffled(deck, random.Random(5)), shuffled(deck, random.Random(5))
    assert a == b and a != deck and sorted(a) == sorted(deck)


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
    deck = list(range(20))
    hands = deal([str(x) for x in deck], 2, 3)
    assert hands == [["19", "17", "15"], ["18", "16", "14"]]
    assert share_the_win(["A", "B", "C"], [5, 3, 7]) == ("B wins with 3", (1,))
    assert share_the_win(["A", "B", "C"], [3, 3, 3]) == ("A, B and C share the win with 3", (0, 1, 2))


def test_card_orders_read_back_from_their_text():
    from pbem.games.card_orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock,
                                        Peek, Reveal, from_text)
    for order in [Reveal(1, 4), DrawDiscard(3), DrawStock(), Keep(2), DiscardFlip(5), Discard(),
                  DrawStockIf(4, 2, 5), DrawStockIf(3, 1), Knock(), Peek(2)]:
        assert from_text(str(order)) == order
    assert str(DrawStockIf(4, 2, 5)) == "DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 5"
    assert str(DrawStockIf(3, 1)) == "DRAW STOCK IF <= 3 KEEP 1 ELSE DISCARD"
