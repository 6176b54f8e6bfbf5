"""A fingerprint of the card engines' behaviour: one digest per game type, to compare before and
after a change to an engine's insides (speed work) that must not change the games.

    python bench/engine_fingerprint.py [games-per-type-scale]

Plays seeded games of `golfdeck` (2-4 players; one, two and three holes; game numbers 1 and 2)
and `golf` (both layouts, 2-8 players, many option sets: knock and faceup endings, every peek,
pairs, jacks that skip, jokers, replace_unseen_once, knock penalties and bonuses, a target)
with orders from a seeded `random.Random`: mostly the game's own `random_orders`, and now and
then a legal order from `legal_orders`, a conditional draw, an order out of turn, a plainly
illegal one (its refusal, message, rule, hint and suggestion are hashed, and the state must be
as before) or RESIGN. After every move it hashes the events drained (before and after
`narrate`), every seat's view, the GM's and a spectator's, each seat's legal and default
orders, `to_move`, `turn`, `result`, `chance_record` and `to_dict`; now and then the game goes
on from `from_dict(to_dict())` through JSON, as a stored game does. Prints one SHA-256 digest
per game type (and the games and moves played): the same code prints the same digests, under
any PYTHONHASHSEED.
"""
from __future__ import annotations

import enum
import hashlib
import json
import random
import sys
import time

from pbem.games import golf, golfdeck
from pbem.games.base import Resign
from pbem.games.cards.orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock,
                                     Peek, Reveal)

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]

GOLF_OPTIONS = [
    {},
    {"ending": "faceup"},
    {"peek": "any2"},
    {"peek": "one"},
    {"peek": "paid"},
    {"pairs": "any"},
    {"pairs": "rowcol", "one_eyed_jacks_wild": True},
    {"jacks": "20skip"},
    {"jokers": True, "queens": 20, "kings": 13},
    {"spade_queen": True, "jacks": 0},
    {"replace_unseen_once": True},
    {"replace_unseen_once": True, "ending": "faceup", "peek": "any2"},
    {"knock_penalty": "plus10", "knock_bonus": "zero"},
    {"knock_penalty": "double_plus5"},
    {"knock_penalty": "highest"},
    {"knock_bonus": "minus_players"},
    {"target": 30, "holes": 1},
    {"jacks": "20skip", "ending": "faceup", "pairs": "any", "peek": "one"},
]


def canon(x):
    """A JSON-able form that keeps what matters (types of numbers and bools, order of lists)."""
    if isinstance(x, enum.Enum):
        return ["enum", type(x).__name__, str(x.value)]
    if isinstance(x, dict):
        return ["dict", sorted(([canon(k), canon(v)] for k, v in x.items()), key=repr)]
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return ["set", sorted((canon(v) for v in x), key=repr)]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    text = repr(x)
    if " at 0x" in text:  # a function's or an object's address differs from run to run
        raise SystemExit(f"the fingerprint cannot hash {text}: give it a value")
    return ["obj", type(x).__name__, text]


def _other(x):
    if isinstance(x, (set, frozenset)):
        return ["set", sorted((canon(v) for v in x), key=repr)]
    return canon(x)


class Hasher:
    def __init__(self):
        self.h = hashlib.sha256()

    def add(self, tag: str, value) -> None:
        self.h.update(tag.encode())
        try:  # the fast way (str enums written as their values, tuples as lists)
            text = json.dumps(value, sort_keys=True, default=_other)
        except TypeError:  # keys of mixed types: the slow way
            text = json.dumps(canon(value), sort_keys=True)
        self.h.update(text.encode())

    def digest(self) -> str:
        return self.h.hexdigest()


def odd_orders(game, seat: int, rng: random.Random) -> list:
    """Orders besides `random_orders`: legal ones as text, and some that are refused."""
    out: list = []
    try:
        out += [game.command_from_text(t) for t in game.legal_orders(seat)]
    except Exception as e:  # noqa: BLE001 - hashed as it is
        out.append(("legal_orders raised", type(e).__name__, str(e)))
    p = rng.randrange(-1, 9)
    out += [DrawDiscard(p), Keep(p), DiscardFlip(p), Peek(p), DrawStock(), Discard(), Knock(),
            Reveal(rng.randrange(0, 8), rng.randrange(0, 8)), Reveal(1, 2),
            DrawStockIf(rng.randrange(-6, 12), rng.randrange(0, 8), rng.choice([None, 1, 2, 3, 4, 5, 6, 7])),
            DrawStockIf(rng.randrange(-2, 12), rng.randrange(1, 7)),
            DrawStockIf(rng.randrange(-2, 12), rng.randrange(1, 7), rng.randrange(1, 7))]
    return out


def snapshot(hasher: Hasher, game, names: list[str]) -> None:
    events = game.drain_events()
    hasher.add("events", events)
    try:
        hasher.add("narrated", game.narrate(events))
    except Exception as e:  # noqa: BLE001
        hasher.add("narrate raised", [type(e).__name__, str(e)])
    hasher.add("events after narrate", events)
    hasher.add("to_move", sorted(game.to_move()))
    hasher.add("turn", game.turn)
    r = game.result()
    hasher.add("result", r.to_dict() if r is not None else None)
    hasher.add("chance", game.chance_record())
    d = game.to_dict()
    hasher.add("to_dict", d)
    hasher.add("gm view", game.view(None))
    hasher.add("spectator", game.spectator_view())
    for s in range(len(names)):
        hasher.add("view", game.view(s))
        hasher.add("legal", game.legal_orders(s))
        hasher.add("default", repr(game.default_orders(s)))


def play(module, engine, names: list[str], options: dict, seed: int, hasher: Hasher) -> int:
    rng = random.Random(seed)
    game = engine.new(names, options, seed, None)
    snapshot(hasher, game, names)
    moves = 0
    while game.result() is None and moves < 600:
        movers = sorted(game.to_move())
        seat = movers[0] if rng.random() < 0.7 else rng.choice(movers)
        roll = rng.random()
        if roll < 0.8:
            order = module.random_orders(game, seat, rng)
        elif roll < 0.995:
            pool = odd_orders(game, seat if rng.random() < 0.9 else rng.randrange(len(names)), rng)
            order = rng.choice(pool)
        else:
            order = Resign()
        if isinstance(order, tuple):
            hasher.add("odd", list(order))
            continue
        hasher.add("order", [seat, repr(order)])
        # A refusal must leave the game as it was (checked for all but the random player's orders,
        # which are legal: were one refused, the digest would say so).
        before = json.dumps(canon(game.to_dict()), sort_keys=True) if roll >= 0.8 else None
        try:
            game.apply(seat, order)
        except Exception as e:  # noqa: BLE001 - a refusal is part of the game's behaviour
            suggest = getattr(e, "suggest", None)  # a function: what it suggests is hashed
            try:
                suggested = suggest(game, seat) if callable(suggest) else suggest
            except Exception as f:  # noqa: BLE001
                suggested = ["suggest raised", type(f).__name__, str(f)]
            hasher.add("refused", [type(e).__name__, str(e), getattr(e, "rule", None), getattr(e, "hint", None),
                                   suggested, getattr(e, "line", None)])
            after = json.dumps(canon(game.to_dict()), sort_keys=True) if before is not None else None
            if after != before:
                raise SystemExit(f"{engine.TYPE} seed {seed}: a refused order {order!r} changed the game") from None
            hasher.add("events after refusal", game.drain_events())
            continue
        moves += 1
        snapshot(hasher, game, names)
        if rng.random() < 0.03:  # go on from storage, as a stored game does
            game = engine.from_dict(json.loads(json.dumps(game.to_dict())))
            snapshot(hasher, game, names)
    return moves


def fingerprints(golfdeck_reps: int, golf_reps: int) -> dict[str, tuple[int, int, str]]:
    """Per game type: the games and moves played and the digest, each deal played `reps` times
    (the command's scale 1 is 21 and 3: about 500 games of each; the suite's compiled tier
    plays a few, tests/games/test_engine_fingerprint.py)."""
    seed = 0
    games = []
    for players in (2, 3, 4):
        for holes in (1, 1, 2, 3):
            for number in (1, 2):
                games.append(("golfdeck", golfdeck, golfdeck.GolfDeck, players, {"holes": holes, "game": number}))
    for layout in (4, 6):
        for options in GOLF_OPTIONS:
            for players in (2, 3, 4, 5, 8):
                holes = {} if "holes" in options else {"holes": 1 + players % 2}
                games.append(("golf", golf, golf.Golf, players, {"layout": layout, **options, **holes}))
    per_type: dict[str, list] = {}
    for name, *_ in games:
        per_type.setdefault(name, [Hasher(), 0, 0])
    reps = {"golfdeck": golfdeck_reps, "golf": golf_reps}
    for name, module, engine, players, options in games:
        row = per_type[name]
        for _ in range(reps[name]):
            seed += 1
            row[1] += 1
            row[2] += play(module, engine, NAMES[:players], options, seed, row[0])
    return {name: (count, moves, hasher.digest()) for name, (hasher, count, moves) in per_type.items()}


def main() -> None:
    scale = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    start = time.perf_counter()
    for name, (count, moves, digest) in fingerprints(21 * scale, 3 * scale).items():
        print(f"{name}: {count} games, {moves} moves, digest {digest}")
    print(f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
