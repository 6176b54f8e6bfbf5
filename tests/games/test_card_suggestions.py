"""Every "What would be right" of a card-game error is a mail that would be accepted as it stands.

Random games of both card games; at random points a random seat sends a random mail (orders of
either game, in or out of turn, positions that do not exist, lines that cannot be read, a draw
and its decision in one mail). The mail is read and checked the way the GM's inbox does it (the
orders tried in turn on a copy, then the suggestions made for the game as it is); each suggestion
is then read and played, as a mail of its own, on a copy of the game."""
from __future__ import annotations

import random

from pbem.games.cards.orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock,
                                    Peek, Reveal)
from pbem.games.errors import OrderError, make_suggestions
from pbem.games.golf import Golf
from pbem.games.golf import random_orders as golf_random
from pbem.games.golfdeck import GolfDeck
from pbem.games.golfdeck import random_orders as golfdeck_random
from pbem.games.cards.grammar import grammar
from pbem.orders.commands import Help, History, Press, SetTimezone, Status, read_body

GARBLED = ["KEEP x", "DRAW", "REVEAL 1", "FLIP", "IF <= 3 KEEP 1", "hello there", "DISCARD FLIP",
           "PEEK", "KNOCK KNOCK", "DRAW STOCK IF 5 KEEP 2", "REVEAL one two", "KEEP", "DRAW DISCARD",
           "DRAW STOCK IF <= x KEEP 1 ELSE DISCARD"]
GOLF_OPTIONS = [{}, {"layout": 6, "ending": "faceup", "peek": "any2"},
                {"peek": "paid", "replace_unseen_once": True}, {"peek": "one", "jacks": "20skip"}]


def read(state, seat: int, text: str):
    """(orders, errors) of a mail, as the inbox reads and checks it (before it plays anything)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    orders, errors = read_body(lines, grammar)
    moves = [o for o in orders if not isinstance(o.command, (Help, Status, History, Press, SetTimezone))]
    scratch = type(state).from_dict(state.to_dict()) if len(moves) > 1 else state
    if not errors:
        for order in moves:
            try:
                scratch.check(seat, order.command)
                if scratch is not state:
                    scratch.apply(seat, order.command)
            except OrderError as e:
                errors.append(e.at(*reversed(order.lines[0])))  # the later orders are checked still
    make_suggestions(errors, state, seat)
    return moves, errors


def accepted(state, seat: int, text: str) -> bool:
    moves, errors = read(state, seat, text)
    if errors or not moves:
        return False
    trial = type(state).from_dict(state.to_dict())
    for order in moves:
        trial.apply(seat, order.command)
    return True


def random_mail(state, seat: int, rng: random.Random) -> str:
    size = len(state.grids[0]) if hasattr(state, "grids") else 6
    pos = lambda: rng.choice(list(range(0, size + 3)))  # noqa: E731 - positions that do and do not exist
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(GARBLED)
    orders = [Reveal(pos(), pos()), DrawDiscard(pos()), DrawStock(), Keep(pos()), DiscardFlip(pos()), Discard(),
              DrawStockIf(rng.randint(-5, 12), pos(), rng.choice([None, pos()])), Knock(), Peek(pos())]
    first = rng.choice(orders)
    if pick < 0.55:
        return str(first)
    second = rng.choice([Keep(pos()), DiscardFlip(pos()), Discard(), rng.choice(orders)])
    head = "DRAW STOCK" if pick < 0.85 else str(first)
    return f"{head}\n{second}" + ("\nKEEP" if rng.random() < 0.1 else "")


def play_and_probe(state, move, rng: random.Random, steps: int) -> int:
    probed = 0
    for _ in range(steps):
        if state.result() is not None:
            break
        if rng.random() < 0.5:
            seat = rng.randrange(state.n)
            text = random_mail(state, seat, rng)
            moves, errors = read(state, seat, text)
            for error in errors:
                if error.hint:
                    assert accepted(state, seat, error.hint), (text, error.message, error.hint)
                    probed += 1
            if not errors and moves:
                for order in moves:
                    state.apply(seat, order.command)
                continue
        seat = min(state.to_move())
        state.apply(seat, move(state, seat, rng))
    return probed


def test_every_suggestion_of_golfdeck_is_accepted_as_it_stands():
    probed = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = GolfDeck.new(["Ann", "Bob", "Cy", "Di"][: 2 + seed % 3], {"holes": 2}, seed, None)
        probed += play_and_probe(state, golfdeck_random, rng, 120)
    assert probed > 300


def test_every_suggestion_of_golf_is_accepted_as_it_stands():
    probed = 0
    for seed in range(60):
        rng = random.Random(seed)
        options = dict(GOLF_OPTIONS[seed % len(GOLF_OPTIONS)], holes=2)
        state = Golf.new(["Ann", "Bob", "Cy"][: 2 + seed % 2], options, seed, None)
        probed += play_and_probe(state, golf_random, rng, 120)
    assert probed > 300
