"""Golf with the golf deck: the deal (checked against the module's description with a reference
generator that uses only hashlib), the reveals, turns, hole ends, scoring, refusals, secrecy,
default and random orders, storage and replay."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from test_rng import Ref  # the generator of docs/fairness.md again, written with hashlib alone

from pbem.games import game_type
from pbem.games.golfdeck import rules as gd  # the rules an order can break
from pbem.games.base import Resign
from pbem.games.cards.orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock,
                                    Peek, Reveal)
from pbem.games.cards import HIDDEN, golf_deck
from pbem.games.errors import IllegalOrder
from pbem.games.golfdeck import GolfDeck, random_orders, score_grid
from pbem.games.golfdeck.engine import scored_grid
from pbem.games.rng import seed_from_int

NAMES = ["Ann", "Bill", "Cy", "Dee"]
FULL_DECK = Counter(golf_deck())
WORTH = {"Hole-in-One": -2, "Gimme": 0, "Putter": 1, "3-Iron": 3, "4-Iron": 4, "5-Iron": 5, "6-Iron": 6,
         "7-Iron": 7, "8-Iron": 8, "9-Iron": 9, "Pitching Wedge": 10, "Sand Trap": 10, "Water Hazard": 10}


def new(n: int = 3, seed: int = 1, **options) -> GolfDeck:
    return GolfDeck.new(NAMES[:n], options, seed, None)


def revealed(n: int = 3, seed: int = 1, **options) -> GolfDeck:
    """A game past its first reveals: everyone turned up positions 1 and 2."""
    g = new(n, seed, **options)
    for s in range(n):
        g.apply(s, Reveal(1, 2))
    return g


def set_grid(g: GolfDeck, seat: int, cards: list[str], up: list[bool] | None = None) -> None:
    g.grid[seat] = list(cards)
    if up is not None:
        g.up[seat] = list(up)


def kinds(events: list[dict]) -> list[str]:
    return [e["kind"] for e in events]


def own_score(cards: list[str]) -> int:
    """The scoring rule written again, independently of the engine."""
    total = 0
    for top, bottom in ((0, 3), (1, 4), (2, 5)):
        if cards[top] != cards[bottom]:
            total += WORTH[cards[top]] + WORTH[cards[bottom]]
    return total


def play_hole_by_defaults(g: GolfDeck) -> None:
    hole = g.hole
    while g.hole == hole and g.result() is None:
        seat = min(g.to_move())
        g.apply(seat, g.default_orders(seat))


# -- options and the deal ------------------------------------------------------------------
def test_registered_and_options():
    assert game_type("golfdeck") is GolfDeck and GolfDeck.TITLE == "Golf (golf deck)"
    g = new(2, holes="3", game="2")
    assert g.holes_total == 3 and g.game_no == 2 and g.options["nmr"] == "autoplay"
    assert new(2).holes_total == 9
    for bad in ({"holes": 0}, {"holes": "x"}, {"game": -1}, {"colour": 1}):
        with pytest.raises(ValueError):
            GolfDeck.new(NAMES[:2], bad, 1, None)
    for names in (NAMES[:1], NAMES + ["Eve"]):
        with pytest.raises(ValueError):
            GolfDeck.new(names, {}, 1, None)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_six_each_a_discard_and_the_rest_the_stock(n):
    g = new(n, seed=11)
    assert all(len(cards) == 6 for cards in g.grid)
    assert len(g.discard) == 1 and len(g.stock) == 52 - 6 * n - 1
    everything = [c for cards in g.grid for c in cards] + g.stock + g.discard
    assert Counter(everything) == FULL_DECK
    shuffle = g.shuffles[0]
    assert Counter(shuffle) == FULL_DECK and len(g.shuffles) == 1
    assert g.grid[g.starter][0] == shuffle[-1]  # the top card goes to the dealer's left first
    assert g.discard == [shuffle[-(6 * n + 1)]] and g.stock == shuffle[:52 - 6 * n - 1]
    assert g.to_move() == set(range(n)) and g.hole == 1 and g.turn == 1
    v = g.view(0)
    assert v["stock"] == 52 - 6 * n - 1 and v["discard"] == g.discard[0] and v["phase"] == "reveal"
    assert all(card == HIDDEN for grid in v["grids"] for card in grid)
    assert g.narrate(g.drain_events()) == [{"kind": "hole_start", "hole": 1, "dealer": 0}] and g.narrate(g.drain_events()) == []


def test_same_seed_same_deal_other_seed_other_deal():
    assert new(seed=5).to_dict() == new(seed=5).to_dict()
    assert new(seed=5).shuffles != new(seed=6).shuffles
    assert new(seed=5).chance_record() != new(seed=6).chance_record()
    as_bytes = GolfDeck.new(NAMES[:3], {}, seed_from_int(5), None)
    assert as_bytes.to_dict() == new(seed=5).to_dict()  # a number N is the seed bytes of N


# -- the deal as the module's docstring writes it -------------------------------------------
# The deck before each shuffle: the 13 types from the best card to the worst, four of each.
LISTED = ["Hole-in-One", "Gimme", "Putter", "3-Iron", "4-Iron", "5-Iron", "6-Iron", "7-Iron", "8-Iron",
          "9-Iron", "Pitching Wedge", "Sand Trap", "Water Hazard"]
PAIRS = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]


def documented_hole(ref: Ref, n: int, dealer: int) -> dict:
    """One hole's deal from the reference generator, step by step as the docstring says."""
    deck = ref.shuffle([t for t in LISTED for _ in range(4)])
    top = deck[::-1]  # the top of the deck is the end of the list
    grids = [[""] * 6 for _ in range(n)]
    for k in range(6 * n):
        grids[(dealer + 1 + k) % n][k // n] = top[k]
    draw = ref.below(15 ** n)
    reveals = [PAIRS[draw // 15 ** s % 15] for s in range(n)]
    return {"order": deck, "grids": grids, "discard": top[6 * n], "stock": deck[:len(deck) - 6 * n - 1],
            "reveals": reveals}


@pytest.mark.parametrize("n,seed,game", [(2, 1, 1), (3, 77, 2), (4, 2**128 - 1, 1), (4, 12, 3)])
def test_every_deal_is_the_documented_one(n, seed, game):
    g = new(n, seed=seed, holes=3, game=game)
    ref = Ref(seed_from_int(seed))
    for hole in range(1, 4):
        dealer = (game + hole - 2) % n
        want = documented_hole(ref, n, dealer)
        assert g.hole == hole and g.dealer == dealer and g.chance_record()[-1] == want["order"]
        assert g.grid == want["grids"] and g.discard == [want["discard"]] and g.stock == want["stock"]
        assert [g.default_orders(s) for s in range(n)] == [Reveal(a, b) for a, b in want["reveals"]]
        play_hole_by_defaults(g)
    assert len(g.chance_record()) == 3 and g.result() is not None


def test_a_game_replays_from_its_seed_and_orders_and_a_stored_one_goes_on_alike():
    rng = random.Random(8)
    g = new(3, seed=8, holes=3)
    played, stored = [], None
    while g.result() is None:
        seat = rng.choice(sorted(g.to_move()))
        order = some_order(g, seat, rng)
        g.apply(seat, order)
        played.append((seat, str(order)))
        if stored is None and g.hole == 2 and not g.revealing:  # mid-game, the stream half used
            stored = (len(played), json.loads(json.dumps(g.to_dict())))
    again = new(3, seed=8, holes=3)
    for seat, text in played:
        again.apply(seat, again.command_from_text(text))
    assert again.chance_record() == g.chance_record() and len(g.chance_record()) == 3
    assert again.to_dict() == g.to_dict() and again.view(None) == g.view(None)
    at, data = stored
    resumed = GolfDeck.from_dict(data)
    for seat, text in played[at:]:
        resumed.apply(seat, resumed.command_from_text(text))
    assert resumed.to_dict() == g.to_dict() and resumed.chance_record() == g.chance_record()


def test_a_game_stored_with_pythons_random_is_refused():
    d = new(2).to_dict()
    d["rng"] = [3, [1] * 625, None]  # what `random.Random.getstate()` was stored as
    with pytest.raises(ValueError, match="stored before"):
        GolfDeck.from_dict(d)


@pytest.mark.parametrize("n,game,dealers", [
    (3, 1, [0, 1, 2, 0]), (3, 2, [1, 2, 0, 1]), (3, 4, [0, 1, 2, 0]), (2, 2, [1, 0, 1, 0]), (4, 3, [2, 3, 0, 1]),
])
def test_dealer_rotates_each_hole_and_each_game(n, game, dealers):
    g = new(n, seed=3, holes=4, game=game)
    seen, starters = [], []
    for _ in range(4):
        seen += [e["dealer"] for e in g.narrate(g.drain_events()) if e["kind"] == "hole_start"]
        for s in sorted(g.to_move()):
            g.apply(s, g.default_orders(s))
        starters.append(next(iter(g.to_move())))
        assert g.dealer == seen[-1] and g.view(1)["dealer"] == seen[-1]
        play_hole_by_defaults(g)
    assert seen == dealers
    assert starters == [(d + 1) % n for d in dealers]
    assert g.result() is not None and len(g.shuffles) == 4 and len(g.holes) == 4


# -- reveals ---------------------------------------------------------------------------------
def test_reveals_are_secret_until_everyone_has_revealed():
    g = new(3, seed=2)
    g.narrate(g.drain_events())
    g.apply(0, Reveal(1, 5))
    assert g.to_move() == {1, 2} and g.turn == 2
    own, other, gm = g.view(0)["grids"][0], g.view(1)["grids"][0], g.view(None)["grids"][0]
    assert own == [g.grid[0][0], HIDDEN, HIDDEN, HIDDEN, g.grid[0][4], HIDDEN]
    assert other == [HIDDEN] * 6 and gm == g.grid[0]
    assert g.view(2)["revealed"] == [True, False, False]
    text = g.narrate(g.drain_events())[0]["text"]
    assert "1" not in text and "5" not in text and g.grid[0][0] not in text
    g.apply(2, Reveal(3, 6))
    assert g.view(1)["grids"][0] == [HIDDEN] * 6 and g.view(1)["grids"][2] == [HIDDEN] * 6
    g.apply(1, Reveal(2, 4))
    assert g.view(1)["grids"][0] == own and g.view(2)["grids"][1][1] == g.grid[1][1]
    events = g.narrate(g.drain_events())
    assert kinds(events) == ["played"] * 5 + ["revealed"]
    # Once all are in, each seat's turned-up cards are news for everyone, and no seat's move.
    shown = [e for e in events[2:5]]
    assert [e["seat"] for e in shown] == [0, 1, 2] and not any(e["move"] for e in shown)
    assert shown[0]["text"] == f"Ann turned up 1 ({g.grid[0][0]}) and 5 ({g.grid[0][4]})"
    assert shown[0]["own"].startswith("You turned up 1 (")
    assert g.to_move() == {g.starter} == {1} and g.view(0)["phase"] == "play"


# -- scoring ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cards,score,cancelled", [
    (["7-Iron", "5-Iron", "Gimme", "7-Iron", "4-Iron", "Putter"], 10, [1, 4]),
    (["Sand Trap", "Putter", "Gimme", "Water Hazard", "Putter", "Gimme"], 20, [2, 3, 5, 6]),
    (["Hole-in-One", "Putter", "3-Iron", "Hole-in-One", "4-Iron", "9-Iron"], 17, [1, 4]),
    (["Hole-in-One", "Putter", "3-Iron", "Gimme", "4-Iron", "9-Iron"], 15, []),
    (["Hole-in-One", "Hole-in-One", "Gimme", "Putter", "8-Iron", "Gimme"], 5, [3, 6]),
    (["Pitching Wedge", "Sand Trap", "Water Hazard", "Sand Trap", "Water Hazard", "Pitching Wedge"], 60, []),
])
def test_scoring(cards, score, cancelled):
    assert score_grid(cards) == (score, cancelled) and own_score(cards) == score
    # What a hole's end tells: the same score and columns, and each card's points in grid order
    assert scored_grid(cards) == (score, cancelled, [WORTH[c] for c in cards])
    assert score_grid(tuple(cards)) == (score, cancelled)  # any sequence of six cards


def test_a_hole_is_scored_from_every_grid_turned_up():
    g = revealed(2, seed=4)
    set_grid(g, 0, ["7-Iron", "Sand Trap", "Hole-in-One", "7-Iron", "Water Hazard", "Gimme"])
    set_grid(g, 1, ["Hole-in-One", "Putter", "3-Iron", "Hole-in-One", "Putter", "9-Iron"])
    g.stock = ["Gimme"]
    g.narrate(g.drain_events())
    g.apply(1, DrawStock())
    g.apply(1, DiscardFlip(3))
    end = next(e for e in g.narrate(g.drain_events()) if e["kind"] == "hole_end")
    assert end["scores"] == [18, 12] and end["totals"] == [18, 12] and end["stock_out"]
    assert end["cancelled"] == [[1, 4], [1, 2, 4, 5]]
    assert end["points"][0] == [7, 10, -2, 7, 10, 0]
    assert g.holes == [{"hole": 1, "grids": end["grids"], "scores": [18, 12]}]
    assert g.scores() == [18, 12] and g.hole == 2


def test_the_last_hole_gives_the_result_and_ties_share_the_win():
    g = revealed(3, seed=4, holes=1)
    g.totals = [0, 0, 0]
    set_grid(g, 0, ["Gimme"] * 6)
    set_grid(g, 1, ["Gimme"] * 3 + ["Putter"] * 3, [False] + [True] * 5)
    set_grid(g, 2, ["Putter", "Gimme", "Gimme"] * 2)
    g.discard = ["Gimme"]
    g.apply(1, DrawDiscard(1))  # Bill's grid is all up: Cy and Ann get one final turn
    g.apply(2, DrawDiscard(2))
    g.apply(0, DrawDiscard(3))
    assert g.result().line == "Ann and Cy share the win with 0" and g.result().winners == (0, 2)
    assert g.to_move() == set() and g.result().scores == (0, 3, 0)
    assert g.narrate(g.drain_events())[-1] == {"kind": "game_end", "line": "Ann and Cy share the win with 0"}


# -- the end of a hole -----------------------------------------------------------------------
def test_a_full_grid_gives_every_other_player_one_final_turn():
    g = revealed(3, seed=8)
    assert g.current == 1
    g.up[1] = [True] * 5 + [False]
    g.narrate(g.drain_events())
    g.apply(1, DrawDiscard(6))
    assert g.ender == 1 and g.view(0)["final_turns_from"] == 1
    g.up[2] = [True] * 5 + [False]
    g.apply(2, DrawStock())
    g.apply(2, DiscardFlip(6))  # Cy's grid goes all up too: no further turn for anyone
    assert g.hole == 1 and g.to_move() == {0}
    g.apply(0, DrawStock())
    g.apply(0, Keep(4))
    events = g.narrate(g.drain_events())
    assert [e["seat"] for e in events if e["kind"] == "played"] == [1, 2, 0]
    assert kinds(events)[-2:] == ["hole_end", "hole_start"] and not events[-2]["stock_out"]
    assert g.hole == 2 and g.to_move() == {0, 1, 2}


def test_the_last_stock_card_ends_the_hole_after_that_turn_even_with_final_turns_owed():
    g = revealed(3, seed=9)
    g.up[1] = [True] * 5 + [False]
    g.apply(1, DrawDiscard(6))  # Cy and Ann are owed a final turn
    g.stock = g.stock[-1:]
    g.narrate(g.drain_events())
    g.apply(2, DrawStock())
    assert g.hole == 1 and g.to_move() == {2}  # the player still keeps or discards as usual
    g.apply(2, Keep(5))
    events = g.narrate(g.drain_events())
    end = next(e for e in events if e["kind"] == "hole_end")
    assert end["stock_out"] and end["hole"] == 1 and g.hole == 2
    assert not any(e["kind"] == "played" and e["seat"] == 0 for e in events)


def test_the_last_stock_card_ends_the_hole_without_anyone_out():
    g = revealed(2, seed=9)
    g.stock = g.stock[-1:]
    g.apply(1, DrawStockIf(20, 3, 4))
    assert g.hole == 2 and g.holes[0]["hole"] == 1 and len(g.stock) == 52 - 13


# -- turns -----------------------------------------------------------------------------------
def test_draw_discard_and_draw_stock_and_the_turn_counter():
    g = revealed(2, seed=12)
    assert g.turn == 3 and g.current == 1
    top, old = g.discard[-1], g.grid[1][3]
    g.narrate(g.drain_events())
    g.apply(1, DrawDiscard(4))
    assert g.grid[1][3] == top and g.up[1][3] and g.discard[-1] == old and g.turn == 4
    assert g.narrate(g.drain_events()) == [{"kind": "played", "seat": 1, "move": True,
                                 "text": f"Bill took {top} from the discard into 4 (out went {old})",
                                 "own": f"You took {top} from the discard into 4 (out went {old})"}]
    card = g.stock[-1]
    g.apply(0, DrawStock())
    assert g.turn == 4 and g.to_move() == {0} and g.drawn == card
    assert g.narrate(g.drain_events()) == [{"kind": "drawn", "seat": 0, "card": card, "own": f"You drew {card} from the stock"}]
    assert g.view(0)["drawn"] == card and g.view(1)["drawn"] is None
    g.apply(0, DiscardFlip(5))
    assert g.discard[-1] == card and g.up[0][4] and g.turn == 5 and g.to_move() == {1}


@pytest.mark.parametrize("top,kept", [("Putter", True), ("3-Iron", True), ("4-Iron", False), ("Sand Trap", False)])
def test_conditional_draw_keeps_at_or_under_the_limit_else_flips(top, kept):
    g = revealed(2, seed=13)
    g.stock[-1] = top
    before, turn = list(g.grid[1]), g.turn
    g.narrate(g.drain_events())
    g.apply(1, DrawStockIf(3, 4, 6))
    events = g.narrate(g.drain_events())
    assert events[0] == {"kind": "drawn", "seat": 1, "card": top, "own": None} and events[1]["kind"] == "played"
    worth = WORTH[top]
    if kept:
        assert g.grid[1][3] == top and g.up[1][3] and not g.up[1][5] and g.discard[-1] == before[3]
        assert events[1]["own"] == f"You drew {top} ({worth}): {worth} <= 3, so you kept it in 4 (out went {before[3]})"
    else:
        assert g.grid[1] == before and g.up[1][5] and not g.up[1][3] and g.discard[-1] == top
        assert events[1]["own"] == (f"You drew {top} ({worth}): {worth} > 3, so it went to the discard and you "
                                    f"turned up 6 ({before[5]})")
    assert g.turn == turn + 1 and g.to_move() == {0} and g.drawn is None


def test_resign_with_two_players_ends_the_game_and_the_other_wins_on_their_total():
    g = revealed(2, seed=1)
    g.totals = [10, 5]
    g.narrate(g.drain_events())
    g.apply(1, Resign())
    assert g.result().line == "Ann wins with 10" and g.result().winners == (0,) and g.resigned == [False, True]
    assert g.to_move() == set() and kinds(g.narrate(g.drain_events())) == ["played", "game_end"]
    with pytest.raises(IllegalOrder) as e:
        g.apply(0, DrawStock())
    assert e.value.rule == gd.RULE_OVER


def test_resign_with_three_players_the_others_play_on_and_the_resigned_cannot_win():
    g = revealed(3, seed=1)
    assert g.current == 1
    g.apply(1, DrawStock())
    drawn = g.drawn
    g.narrate(g.drain_events())
    g.apply(1, Resign())  # the seat to move, holding a drawn card: the card is discarded, the turn passes
    assert g.result() is None and g.current == 2 and g.discard[-1] == drawn and g.drawn is None
    assert kinds(g.narrate(g.drain_events())) == ["played"]
    for order in (DrawStock(), Resign()):
        with pytest.raises(IllegalOrder) as e:
            g.check(1, order)
        assert e.value.rule == gd.RULE_RESIGNED
    g.totals = [30, -50, 20]
    while g.result() is None:  # the resigned seat is never to move again, in this hole or the next
        assert 1 not in g.to_move() and g.default_orders(1) is None
        s = min(g.to_move())
        g.apply(s, g.default_orders(s))
    assert len(g.holes) == 9 and g.result().winners == (min((0, 2), key=lambda s: g.totals[s]),)
    assert g.totals[1] == -50 + sum(h["scores"][1] for h in g.holes)  # still dealt and scored


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_seats_to_move_in_the_reveals_are_those_in_play_that_have_not_chosen(n):
    # `to_move` reads them from a table of sets by seat mask: every order of reveals and
    # resignations, against the rule written out
    for seed in range(12):
        g, rng = new(n, seed=seed), random.Random(seed)
        while g.revealing and g.result() is None:
            owing = {s for s in range(n) if g.reveals[s] is None and not g.resigned[s]}
            assert g.to_move() == owing and type(g.to_move()) is frozenset
            seat = rng.choice(sorted(owing))
            if rng.random() < 0.2 and g.resigned.count(False) > 2:
                g.apply(seat, Resign())
            else:
                g.apply(seat, random_orders(g, seat, rng))
        assert g.result() is not None or g.to_move() == {g.current}


def test_a_resign_in_the_reveals_or_by_the_player_out_ends_what_waited_on_them():
    g = new(3, seed=4)
    g.apply(0, Reveal(1, 2))
    g.apply(2, Reveal(1, 2))
    assert g.starter == 1
    g.apply(1, Resign())  # the last reveal owed: the others' cards turn up and play starts
    assert not g.revealing and g.up[1] == [False] * 6
    # Bill was to start the hole: the next seat in play starts it, and can play
    assert g.to_move() == {2} and g.starter == 2 and g.view(0)["starter"] == 2
    g.apply(2, g.default_orders(2))
    g = revealed(3, seed=4)
    g.ender = 0  # seat 0 went out: seats 1 and 2 owe their final turns
    g.current = 1
    g.apply(1, Resign())
    assert g.current == 2
    hole = g.hole
    g.apply(2, DrawDiscard(3))  # Cy's whole final turn
    assert g.hole == hole + 1  # back round to the seat that went out: the hole is over


# -- refusals ------------------------------------------------------------------------------
def _pending() -> GolfDeck:
    g = revealed(3, seed=21)
    g.apply(1, DrawStock())
    return g


def _pending_all_up() -> GolfDeck:
    g = _pending()
    g.up[1] = [True] * 6
    return g


def _mid_reveal() -> GolfDeck:
    g = new(3, seed=21)
    g.apply(0, Reveal(1, 2))
    return g


def _over() -> GolfDeck:
    g = revealed(2, seed=21, holes=1)
    g.stock = g.stock[-1:]
    g.apply(1, DrawStockIf(5, 1, 3))
    return g


REFUSALS = [
    ("drawing out of turn", revealed, 0, DrawStock(), gd.RULE_TURN),
    ("drawing the discard out of turn", revealed, 2, DrawDiscard(3), gd.RULE_TURN),
    ("a second action after the turn ended", lambda: _then(revealed(), 1, DrawDiscard(3)), 1, DrawStock(), gd.RULE_TURN),
    ("reveal after the reveals", revealed, 1, Reveal(3, 4), gd.RULE_REVEAL_PHASE),
    ("reveal twice", _mid_reveal, 0, Reveal(3, 4), gd.RULE_REVEAL_ONCE),
    ("reveal one position twice", new, 1, Reveal(4, 4), gd.RULE_REVEAL_TWO),
    ("reveal a position that does not exist", new, 1, Reveal(2, 7), gd.RULE_POSITION),
    ("draw before revealing", new, 1, DrawStock(), gd.RULE_REVEAL_FIRST),
    ("draw before the others revealed", _mid_reveal, 0, DrawDiscard(2), gd.RULE_REVEAL_FIRST),
    ("take the discard into position 0", revealed, 1, DrawDiscard(0), gd.RULE_POSITION),
    ("keep into position 7", _pending, 1, Keep(7), gd.RULE_POSITION),
    ("flip position 9", _pending, 1, DiscardFlip(9), gd.RULE_POSITION),
    ("flip a face-up card", _pending, 1, DiscardFlip(2), gd.RULE_FACE_UP),
    ("conditional draw flipping a face-up card", revealed, 1, DrawStockIf(4, 3, 1), gd.RULE_FACE_UP),
    ("conditional draw without a flip", revealed, 1, DrawStockIf(4, 3, None), gd.RULE_ELSE_FLIP),
    ("conditional draw keeping into 8", revealed, 1, DrawStockIf(4, 8, 5), gd.RULE_POSITION),
    ("keep with no card drawn", revealed, 1, Keep(3), gd.RULE_NO_DRAWN),
    ("discard flip with no card drawn", revealed, 1, DiscardFlip(3), gd.RULE_NO_DRAWN),
    ("draw the stock again while a card is pending", _pending, 1, DrawStock(), gd.RULE_ONE_DRAW),
    ("take the discard while a card is pending", _pending, 1, DrawDiscard(4), gd.RULE_ONE_DRAW),
    ("conditional draw while a card is pending", _pending, 1, DrawStockIf(4, 3, 4), gd.RULE_ONE_DRAW),
    ("discard flip with no face-down card left", _pending_all_up, 1, DiscardFlip(3), gd.RULE_NONE_DOWN),
    ("golf's DISCARD", _pending, 1, Discard(), gd.RULE_FOREIGN),
    ("golf's KNOCK", revealed, 1, Knock(), gd.RULE_FOREIGN),
    ("golf's PEEK", new, 0, Peek(3), gd.RULE_FOREIGN),
    ("anything after the game ended", _over, 0, DrawStock(), gd.RULE_OVER),
    ("even a reveal after the game ended", _over, 0, Reveal(1, 2), gd.RULE_OVER),
]


def _then(g: GolfDeck, seat: int, command) -> GolfDeck:
    g.apply(seat, command)
    return g


@pytest.mark.parametrize("what,setup,seat,command,rule", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_name_the_rule_and_change_nothing(what, setup, seat, command, rule):
    g = setup()
    before = g.to_dict()
    with pytest.raises(IllegalOrder) as e:
        g.apply(seat, command)
    assert e.value.rule == rule and e.value.message
    assert g.to_dict() == before
    if e.value.hint is not None:  # a hint is a right order for that seat, here and now
        g.check(seat, g.command_from_text(e.value.hint))
    if rule == gd.RULE_FOREIGN:
        assert "not in this game" in e.value.message


def test_hints_where_they_help():
    with pytest.raises(IllegalOrder) as e:
        _pending().check(1, DiscardFlip(1))
    assert e.value.hint == "DISCARD FLIP 3"
    with pytest.raises(IllegalOrder) as e:
        revealed().check(1, Keep(3))
    assert e.value.hint == "DRAW STOCK"
    with pytest.raises(IllegalOrder) as e:
        _pending_all_up().check(1, DiscardFlip(3))
    assert e.value.hint.startswith("KEEP ")
    with pytest.raises(IllegalOrder) as e:
        revealed().check(1, DrawStockIf(4, 3, None))
    assert e.value.hint == "DRAW STOCK IF <= 4 KEEP 3 ELSE FLIP 3"


# -- default orders --------------------------------------------------------------------------
def test_default_turns_take_a_cancelling_discard_else_draw_and_judge_the_card():
    g = revealed(2, seed=5)
    set_grid(g, 1, ["7-Iron", "Gimme", "Putter", "9-Iron", "8-Iron", "Gimme"], [True, True, False, False, False, False])
    g.discard[-1] = "7-Iron"
    assert g.default_orders(1) == DrawDiscard(4)  # under the other 7-Iron: the column scores 0
    g.discard[-1] = "Sand Trap"
    assert g.default_orders(1) == DrawStock()
    assert g.default_orders(0) is None
    g.stock[-1] = "Water Hazard"
    g.apply(1, g.default_orders(1))
    assert g.default_orders(1) == DiscardFlip(3)
    g.drawn = "Hole-in-One"
    assert type(g.default_orders(1)) is Keep


def test_default_reveals_are_random_but_do_not_disturb_the_game():
    g = new(4, seed=31)
    before = g.to_dict()
    picks = [g.default_orders(s) for s in range(4)]
    assert [g.default_orders(s) for s in range(4)] == picks and g.to_dict() == before
    assert all(type(p) is Reveal and 1 <= p.first < p.second <= 6 for p in picks)
    assert len({(p.first, p.second) for s in range(1, 30) for p in [new(2, seed=s).default_orders(0)]}) > 5


def test_default_orders_are_always_legal_and_finish_games():
    for seed in range(12):
        g = new(2 + seed % 3, seed=seed, holes=2)
        while g.result() is None:
            for s in range(g.n):
                order = g.default_orders(s)
                assert (order is not None) == (s in g.to_move())
                if order is not None:
                    g.check(s, order)
            s = min(g.to_move())
            g.apply(s, g.default_orders(s))
        assert len(g.holes) == 2


# -- random full games -----------------------------------------------------------------------
def scrubbed(g: GolfDeck, viewer: int) -> GolfDeck:
    """The same game with everything `viewer` may not see replaced by a dummy card."""
    d = g.to_dict()
    for s, (cards, up) in enumerate(zip(d["grids"], d["face_up"])):
        mine = s == viewer and d["revealing"] and d["reveals"][s] or ()
        for i in range(6):
            if not up[i] and (s != viewer or i + 1 not in mine):
                cards[i] = "X"
    d["stock"] = ["X"] * len(d["stock"])
    d["shuffles"] = []
    if d["drawn"] is not None and viewer != d["current"]:
        d["drawn"] = "X"
    return GolfDeck.from_dict(d)


def check_secrecy(g: GolfDeck, deep: bool) -> None:
    for viewer in range(g.n):
        v = g.view(viewer)
        for other in range(g.n):
            if other != viewer:
                assert all(shown == HIDDEN for shown, up in zip(v["grids"][other], g.up[other]) if not up)
        if viewer != g.current or g.revealing:
            assert v["drawn"] is None
        if deep:
            assert scrubbed(g, viewer).view(viewer) == v


def some_order(g: GolfDeck, seat: int, rng: random.Random):
    """random_orders, with now and then a conditional draw in place of DRAW STOCK."""
    order = random_orders(g, seat, rng)
    if type(order) is DrawStock and rng.random() < 0.4:
        down = [p for p in range(1, 7) if not g.up[seat][p - 1]]
        order = DrawStockIf(rng.randint(-3, 11), rng.randint(1, 6), rng.choice(down))
    return order


def play_out(seed: int, n: int, holes: int) -> None:
    rng = random.Random(seed)
    g = new(n, seed=seed, holes=holes)
    clone, played, cards = None, [], sum(FULL_DECK.values())
    while g.result() is None:
        seat = rng.choice(sorted(g.to_move()))
        order = some_order(g, seat, rng)
        g.check(seat, order)
        turn = g.turn
        g.apply(seat, order)
        assert g.turn in (turn, turn + 1)
        played.append((seat, str(order)))
        if clone is None and rng.random() < 0.02:
            data = json.loads(json.dumps(g.to_dict()))
            clone = GolfDeck.from_dict(data)
            assert clone.to_dict() == data
        elif clone is not None:
            clone.apply(seat, clone.command_from_text(str(order)))
        if g.result() is None:
            held = [c for grid in g.grid for c in grid] + g.stock + g.discard + ([g.drawn] if g.drawn else [])
            assert len(held) == cards and Counter(held) == FULL_DECK
        check_secrecy(g, deep=len(played) % 7 == 0)
    assert len(g.holes) == holes and g.to_move() == set()
    for s in range(n):
        assert g.totals[s] == sum(own_score(h["grids"][s]) for h in g.holes)
        assert g.totals[s] == sum(h["scores"][s] for h in g.holes)
    best = min(g.totals)
    assert g.result().winners == tuple(s for s in range(n) if g.totals[s] == best)
    assert g.result().line.endswith(f" with {best}")
    replay = new(n, seed=seed, holes=holes)
    for seat, text in played:
        replay.apply(seat, replay.command_from_text(text))
    assert replay.to_dict() == g.to_dict()
    if clone is not None:
        assert clone.to_dict() == g.to_dict()


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_full_games(n):
    for seed in range(100):
        play_out(1000 * n + seed, n, holes=1 + seed % 3)


def test_random_orders_are_legal_and_cover_the_moves():
    rng = random.Random(3)
    seen = set()
    for seed in range(30):
        g = new(4, seed=seed, holes=1)
        while g.result() is None:
            for s in range(4):
                order = random_orders(g, s, rng)
                assert (order is not None) == (s in g.to_move())
                if order is not None:
                    g.check(s, order)
            s = min(g.to_move())
            order = random_orders(g, s, rng)
            seen.add(type(order).__name__)
            g.apply(s, order)
    assert seen == {"Reveal", "DrawDiscard", "DrawStock", "Keep", "DiscardFlip"}


def test_moves_keep_their_facts_until_narrated_and_read_the_same_after():
    # Play writes only the facts of a move; `narrate` writes the words (once: the facts go).
    policy = random.Random(4)
    g = GolfDeck.new(["Ann", "Bob", "Cy"], {"holes": 2}, 21)
    raw = []
    while g.result() is None:
        seat = min(g.to_move())
        g.apply(seat, random_orders(g, seat, policy))
        raw += g.drain_events()
    played = [e for e in raw if e["kind"] == "played"]
    assert played and all("say" in e and "text" not in e and "own" not in e for e in played)
    drawn = [e for e in raw if e["kind"] == "drawn"]
    assert drawn and all("tell" in e and "own" not in e for e in drawn)
    told = g.narrate(copy.deepcopy(raw))
    assert not any("say" in e or "tell" in e for e in told)
    assert all(isinstance(e["text"], str) and isinstance(e["own"], str) for e in told if e["kind"] == "played")
    assert g.narrate(copy.deepcopy(told)) == told
    # Each word line names its mover, and nothing else about the events changed.
    for before, after in zip(raw, told):
        if before["kind"] == "played":
            assert after["text"].startswith(g.names[before["seat"]] + " ")
            assert {k: v for k, v in before.items() if k != "say"} == {k: v for k, v in after.items() if k not in ("text", "own")}
