"""Engine speed: random full games per second on one core, for every game that has a bot.

Run by hand: `python bench/engine.py [seconds]`; the figures go into BENCHMARKS.md.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from pbem.games import dicegolf, golf, golfdeck, onpar

from pbem.games.dicegolf import best as dicegolf_best
from pbem.games.course import Course
from pbem.games.matchplay import MatchPlay, random_orders

PARKLAND = Course.from_pars_string("443 544 354 445 345 434", name="parkland")


def matchplay_game(rng: random.Random) -> MatchPlay:
    game = MatchPlay.new(["George", "Bill"], {}, 0, PARKLAND)
    while game.result() is None:
        for seat in (0, 1):
            game.apply(seat, random_orders(game, seat, rng))
        game.resolve()
    return game


def card_holes(module, engine, options: dict, players: int = 4):
    """One random-player hole of a card game with four players (a game of one hole)."""
    names = ["Ann", "Bob", "Cy", "Di"][:players]

    def play(rng: random.Random) -> None:
        game = engine.new(names, {**options, "holes": 1}, rng.randrange(1 << 30), None)
        while game.result() is None:
            seat = min(game.to_move())
            game.apply(seat, module.random_orders(game, seat, rng))
            game.drain_events()
    return play


def dice_game(players: int):
    """One dice golf game of seven holes, every seat answering each toss at random."""
    names = ["Ann", "Bob", "Cy", "Di"][:players]

    def play(rng: random.Random) -> None:
        game = dicegolf.DiceGolf.new(names, {}, rng.randrange(1 << 30), None)
        while game.result() is None:
            while game.to_move():
                seat = min(game.to_move())
                game.apply(seat, dicegolf.random_orders(game, seat, rng))
            if game.ready():
                game.resolve()
            game.drain_events()
    return play


def best_table_cold(_rng: random.Random) -> None:
    """The exact expected score of every flag 2-12 under BEST, from an empty cache."""
    dicegolf_best.clear_cache()
    for flag in range(2, 13):
        dicegolf_best.expected(flag)


def rate(play, seconds: float) -> float:
    rng = random.Random(2026)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            play(rng)
        n += 100
    return n / (time.perf_counter() - start)


def report(name: str, unit: str, play, rounds: int, seconds: float) -> None:
    """Several rounds, because a shared machine is noisy: the median and the best are printed."""
    rates = sorted(rate(play, seconds) for _ in range(rounds))
    median = statistics.median(rates)
    print(f"{name}: {median:,.0f} {unit}/s median, {rates[-1]:,.0f} best "
          f"({rounds} rounds of {seconds:g} s, one core)")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    report("matchplay", "random full games", matchplay_game, rounds, seconds)
    report("golfdeck, 4 players", "random-player holes", card_holes(golfdeck, golfdeck.GolfDeck, {}), rounds, seconds)
    report("golf, 4 players", "random-player holes", card_holes(golf, golf.Golf, {}), rounds, seconds)
    report("onpar, 4 players", "random-player holes", card_holes(onpar, onpar.OnPar, {}), rounds, seconds)
    report("dicegolf, 1 player", "random-answer games", dice_game(1), rounds, seconds)
    report("dicegolf, 4 players", "random-answer games", dice_game(4), rounds, seconds)
    report("dicegolf BEST table, cold", "tables", best_table_cold, rounds, seconds)


if __name__ == "__main__":
    main()
