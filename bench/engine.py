"""Engine speed: random full games per second on one core, for every game that has a bot.

Run by hand: `python bench/engine.py [seconds]`; the figures go into BENCHMARKS.md.
"""
from __future__ import annotations

import random
import sys
import time

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


def rate(play, seconds: float) -> tuple[float, int]:
    rng = random.Random(2026)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            play(rng)
        n += 100
    return n / (time.perf_counter() - start), n


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    per_sec, n = rate(matchplay_game, seconds)
    print(f"matchplay: {per_sec:,.0f} random full games/s ({n} games, {seconds:g} s, one core)")


if __name__ == "__main__":
    main()
