"""A seat's view, its record of the game (`events`) included, tells that seat what its own mail
has told it and nothing more: never another seat's face-down card, a card drawn face down by
someone else, or another seat's orders for a turn that is not resolved. One test a game, each
over many seeded random games.

The card games and On Par are checked by what each seat was shown: every card named anywhere in
a seat's record must be one its views have shown it, or that the words of the moves (the mail's
public lines, and its own lines) have named to it. Cards of one name may lie twice in a deck, so
the check also reads each entry: nothing a seat drew or discarded face down is in another's.
MatchPlay and dice golf are checked by what an order changes: until the turn (or the hole)
resolves, another seat's order changes nothing in a seat's view but who still owes orders.
"""
from __future__ import annotations

import random
import re

import pytest

from pbem.games.base import one_line
from pbem.games.cards.deck import golf_deck, standard_pack
from pbem.games.dicegolf.engine import DiceGolf
from pbem.games.dicegolf.engine import random_orders as dice_orders
from pbem.games.events import GameEvent
from pbem.games.golf.engine import Golf
from pbem.games.golf.engine import random_orders as golf_orders
from pbem.games.golfdeck.engine import GolfDeck
from pbem.games.golfdeck.engine import random_orders as deck_orders
from pbem.games.matchplay.engine import MatchPlay, Play
from pbem.games.matchplay.engine import random_orders as match_orders
from pbem.games.onpar import course as oc
from pbem.games.onpar.engine import OnPar
from pbem.games.onpar.engine import random_orders as onpar_orders
from pbem.gm.courses import DEFAULT_COURSE, load_course

NAMES = ["Ann", "Bob", "Cy", "Di"]


def named(value, cards: frozenset[str], found: set[str]) -> set[str]:
    """Every card of `cards` that `value` (JSON-like data, or words) names."""
    if isinstance(value, dict):
        for v in value.values():
            named(v, cards, found)
    elif isinstance(value, list):
        for v in value:
            named(v, cards, found)
    elif isinstance(value, str):
        if value in cards:
            found.add(value)
        elif " " in value:  # a sentence: the names in it, each standing on its own
            found.update(c for c in cards if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", value))
    return found


class Shown:
    """What each seat of a game has been shown so far: every card its views have shown, and
    every card the words of the moves named to everyone or to it alone (`narrate`)."""

    def __init__(self, state, cards: frozenset[str]):
        self.state, self.cards = state, cards
        self.seen: list[set[str]] = [set() for _ in state.names]
        self.look()

    def look(self) -> None:
        for seat, seen in enumerate(self.seen):
            view = self.state.view(seat)
            named({k: v for k, v in view.items() if k != "events"}, self.cards, seen)

    def hear(self) -> None:
        for ev in self.state.narrate(self.state.drain_events()):
            everyone = named(ev.get("text"), self.cards, set())
            for seen in self.seen:
                seen |= everyone
            if "seat" in ev:
                named([ev.get("own"), ev.get("positions")], self.cards, self.seen[ev["seat"]])

    def check(self) -> None:
        """No seat's record names a card it has not been shown, nor holds what another seat drew,
        kept face down, looked at or discarded face down."""
        for seat, seen in enumerate(self.seen):
            events = self.state.view(seat)["events"]
            told = named(events, self.cards, set())
            assert told <= seen, (seat, told - seen)
            for ev in events:
                if ev.get("seat") not in (None, seat):
                    assert not {"limit", "lost"} & set(ev), ev
                    if ev["kind"] in (GameEvent.DRAWN, GameEvent.PEEKED) or ev.get("what") in ("peeked", "discarded"):
                        assert "card" not in ev and "cards" not in ev, ev
                    if ev.get("what") == "chose":
                        assert "positions" not in ev, ev
                    if ev.get("what") == "kept" and not self.state.options.get("ending") == "faceup" \
                            and self.state.TYPE == "golf":
                        assert "card" not in ev, ev


def play_and_check(state, orders, cards: frozenset[str], seed: int) -> None:
    rng = random.Random(seed)
    shown = Shown(state, cards)
    moves = 0
    while state.result() is None:
        seat = min(state.to_move())
        state.apply(seat, orders(state, seat, rng))
        moves += 1
        shown.hear()
        shown.look()
        shown.check()
        assert moves < 5000
    assert any(ev["kind"] == GameEvent.GAME_END for ev in state.view(0)["events"])


GOLF_VARIANTS = [{}, {"layout": 6, "ending": "faceup"}, {"peek": "any2"}, {"peek": "paid", "jacks": "20skip"},
                 {"layout": 6, "peek": "one"}]


@pytest.mark.parametrize("variant", range(len(GOLF_VARIANTS)))
def test_golf_views_show_no_face_down_card_of_another(variant):
    cards = frozenset(standard_pack())  # one pack (up to seven players): every name once
    for k in range(6):
        seed = 100 * variant + k
        players = 2 + k % 3
        state = Golf.new(NAMES[:players], {**GOLF_VARIANTS[variant], "holes": 2}, seed)
        play_and_check(state, golf_orders, cards, seed)


def test_golfdeck_views_show_no_face_down_card_of_another():
    cards = frozenset(golf_deck())
    for seed in range(12):
        state = GolfDeck.new(NAMES[:2 + seed % 3], {"holes": 2}, seed)
        play_and_check(state, deck_orders, cards, seed)


def test_onpar_views_show_no_hand_nor_face_down_card_of_another():
    cards = frozenset(oc.CODES)
    for seed in range(12):
        state = OnPar.new(NAMES[:2 + seed % 3], {"holes": 2}, seed)
        play_and_check(state, onpar_orders, cards, seed)


def unchanged_but_who_owes(before: dict, after: dict, keys: tuple[str, ...]) -> None:
    assert {k: v for k, v in after.items() if k not in keys} == {k: v for k, v in before.items() if k not in keys}


def shown(play: Play, holes: list[int]) -> str:
    """A turn's orders as far as the holes played show them."""
    return Play(play.cards[:len(holes)], tuple(s for s in play.specials if s.hole in holes)).line()


def test_matchplay_views_show_no_orders_before_the_turn_resolves():
    course = load_course(DEFAULT_COURSE)
    for seed in range(40):
        rng = random.Random(seed)
        state = MatchPlay.new(NAMES[:2], {}, seed, course)
        while state.result() is None:
            seat = sorted(state.to_move())[rng.random() < 0.5 and len(state.to_move()) > 1]
            other = 1 - seat
            before = state.view(other)
            orders = match_orders(state, seat, rng)
            state.apply(seat, orders)
            if state.ready():
                turn = state.turn
                mine = state.pending[other]
                holes = [row["hole"] for row in state.resolve()]
                # Resolved, the turn's orders are everyone's: both seats read both (those of the
                # holes played, when the match ended inside the turn, as its report shows them).
                for reader in (0, 1):
                    played = {ev["seat"]: ev["orders"] for ev in state.view(reader)["events"]
                              if ev["kind"] == GameEvent.PLAYED and ev["turn"] == turn}
                    assert played == {seat: shown(orders, holes), other: shown(mine, holes)}
                    if len(holes) == 3:
                        assert played[seat] == one_line(orders)
            else:
                unchanged_but_who_owes(before, state.view(other), ("ordered",))
                assert all(ev.get("turn") != state.turn for ev in state.view(other)["events"])


def test_dicegolf_views_show_no_toss_of_another_before_the_hole_closes():
    for seed in range(30):
        rng = random.Random(seed)
        state = DiceGolf.new(NAMES[:2 + seed % 3], {}, seed)
        while state.ready():  # nobody had a choice on the first hole
            state.resolve()
        while state.result() is None:
            seat = min(state.to_move())
            others = [s for s in range(state.n) if s != seat]
            before = {s: state.view(s) for s in others}
            state.apply(seat, dice_orders(state, seat, rng))
            closing = state.ready()
            if not closing:
                for s in others:
                    unchanged_but_who_owes(before[s], state.view(s), ("to_move",))
            while state.ready():
                state.resolve()
            for s in others:
                events = state.view(s)["events"]
                assert not any(ev["kind"] == GameEvent.POLICY and ev["seat"] != s for ev in events)
                assert not any("by" in ev and ev["seat"] != s for ev in events)
                # Once a hole has closed, its tosses are on every card: the record shows them.
                for hole in range(1, len(state.holes) + 1):
                    for t in range(state.n):
                        dice = [ev["dice"] for ev in events if ev["kind"] == GameEvent.TOSS
                                and ev["seat"] == t and ev["hole"] == hole]
                        sheet = state.sheet(t, hole)
                        assert dice == ([toss["dice"] for toss in sheet["tosses"]] if sheet else [])
