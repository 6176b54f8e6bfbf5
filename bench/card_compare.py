"""The card engines against an earlier copy of themselves, side by side in one process.

    python bench/card_compare.py [--new-generator] BEFORE_DIR [rounds] [seconds]

BEFORE_DIR holds copies of the earlier `pbem/games` modules the card engines need (base.py,
errors.py, cards.py, card_orders.py, golfdeck.py, golf.py, golf_scoring.py, and whatever else
of `pbem/games` those import), taken before the change; they are loaded as a package of their
own, so their registry and order classes never mix with the current ones.

Two figures for each game, both as `bench/engine.py`'s `card_holes` plays: one-hole games of
four players, every move drawn by the engine's own `random_orders` from a `random.Random` of
the same seed.

- whole holes: the deal, the random player choosing, `apply`, `drain_events`, as the bench runs;
- the engine alone: the same kind of games recorded first (each side its own, as the two deal
  differently), then timed replaying only `new` and `apply` of the recorded orders.

`--new-generator` puts the earlier engines on the current generator too (the modules' every
`random.Random(n)` becomes a `rng.Generator` of the seed n as 16 bytes), so that the ratio
counts only what changed in the engines, not the move from Python's `random`.

Rounds alternate before / after, so the noise of this shared machine falls on both; the ratios
of the medians and of the best rounds are printed (the best round of each is the one the other
work on the machine disturbed least).
"""
from __future__ import annotations

import importlib.util
import random
import statistics
import sys
import time
import types
from pathlib import Path

from pbem.games import golf, golfdeck, rng

NAMES = ["Ann", "Bob", "Cy", "Di"]
MODULES = ("base", "errors", "cards", "card_orders", "golf_scoring", "golfdeck", "golf")
RECORDED = 300  # games replayed by "the engine alone", per round


def load_before(folder: Path) -> dict:
    """The earlier modules as the package `before_games` (its own registry and classes)."""
    spec = importlib.util.spec_from_file_location("before_games", folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    package = importlib.util.module_from_spec(spec)
    sys.modules["before_games"] = package
    if (folder / "__init__.py").exists():
        spec.loader.exec_module(package)
    return {name: importlib.import_module(f"before_games.{name}") for name in MODULES}


class EarlierOnTheGenerator(rng.Generator):
    """What an earlier engine asked of `random.Random(n)`, from the current generator."""
    def __init__(self, seed: int = 0):
        super().__init__(rng.seed_from_int(seed))

    def getrandbits(self, k: int) -> int:
        return self.bits(k)


def on_the_generator(modules: dict) -> None:
    """Every `random.Random` the earlier modules make comes from the current generator."""
    shim = types.SimpleNamespace(Random=EarlierOnTheGenerator)
    for module in modules.values():
        if getattr(module, "random", None) is random:
            module.random = shim


def holes(module, engine, seed_of):
    """One random-player one-hole game of four (as bench/engine.py's card_holes)."""
    def play(policy: random.Random) -> None:
        game = engine.new(NAMES, {"holes": 1}, seed_of(policy), None)
        while game.result() is None:
            seat = min(game.to_move())
            game.apply(seat, module.random_orders(game, seat, policy))
            game.drain_events()
    return play


def recorded(module, engine, seed_of) -> list:
    """Random one-hole games as (seed, [(seat, order) ...]), to replay without the player."""
    policy, games = random.Random(2026), []
    for _ in range(RECORDED):
        seed = seed_of(policy)
        game, moves = engine.new(NAMES, {"holes": 1}, seed, None), []
        while game.result() is None:
            seat = min(game.to_move())
            order = module.random_orders(game, seat, policy)
            game.apply(seat, order)
            game.drain_events()
            moves.append((seat, order))
        games.append((seed, moves))
    return games


def replay(engine, games):
    def play(_policy: random.Random) -> None:
        for seed, moves in games:
            game = engine.new(NAMES, {"holes": 1}, seed, None)
            for seat, order in moves:
                game.apply(seat, order)
            game.drain_events()
    return play


def rate(play, seconds: float, per_call: int = 1) -> float:
    policy = random.Random(2026)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(max(1, 50 // per_call)):
            play(policy)
            n += per_call
    return n / (time.perf_counter() - start)


def compare(name: str, before, after, rounds: int, seconds: float, per_call: int = 1) -> None:
    old, new = [], []
    for _ in range(rounds):
        old.append(rate(before, seconds, per_call))
        new.append(rate(after, seconds, per_call))
    mo, mn = statistics.median(old), statistics.median(new)
    print(f"{name}: before {mo:,.0f} holes/s median ({max(old):,.0f} best), "
          f"after {mn:,.0f} ({max(new):,.0f} best): {mn / mo:.2f}x by the medians, "
          f"{max(new) / max(old):.2f}x by the bests ({rounds} alternating rounds of {seconds:g} s each)")


def main() -> None:
    args = sys.argv[1:]
    new_generator = "--new-generator" in args
    args = [arg for arg in args if arg != "--new-generator"]
    folder = Path(args[0])
    rounds = int(args[1]) if len(args) > 1 else 7
    seconds = float(args[2]) if len(args) > 2 else 2.0
    old = load_before(folder)
    if new_generator:
        on_the_generator(old)
        print("the earlier engines draw from the current generator")

    def old_seed(policy):  # the earlier engines took an integer
        return policy.randrange(1 << 30)

    def new_seed(policy):  # games are made with 16 bytes
        return policy.randbytes(rng.MIN_SEED_BYTES)

    for name, kind in (("golfdeck", "GolfDeck"), ("golf", "Golf")):
        before = (old[name], getattr(old[name], kind), old_seed)
        after = ({"golfdeck": golfdeck, "golf": golf}[name],)
        after += (getattr(after[0], kind), new_seed)
        compare(f"{name}, 4 players, whole holes", holes(*before), holes(*after), rounds, seconds)
        compare(f"{name}, 4 players, the engine alone", replay(before[1], recorded(*before)),
                replay(after[1], recorded(*after)), rounds, seconds, RECORDED)


if __name__ == "__main__":
    main()
