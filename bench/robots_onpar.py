"""On Par's robots, by hand: one `strong` seat against three `easy` ones (what a missed deadline
plays), 4 players, one-hole games, duplicate: each deal (seed and par) is played four times with
the strong robot in each seat in turn, so every seat and every deal is met alike.

    .venv/bin/python bench/robots_onpar.py [seconds=600] [most_games=2000]

Prints how many games were played, the share of holes the strong seat wins or shares, its mean
hole score against the easy seats' mean, and the seconds per strong decision (median and p95).
"""
from __future__ import annotations

import statistics
import sys
import time

from pbem.games.course import Course
from pbem.games.onpar import OnPar
from pbem.games.rng import seed_from_int
from pbem.games.onpar import robot
from pbem.robots import robot_generator

NAMES = ["Ann", "Bob", "Cy", "Di"]
PARS = "345"


def one_game(deal: int, strong: int, timings: list[float]) -> list[int]:
    """One hole on deal `deal` with the strong robot in seat `strong`: the hole's scores."""
    par = PARS[deal % len(PARS)]
    state = OnPar.new(NAMES, {"holes": 1}, deal, Course.from_pars_string(par * 9, "bench"))
    seed = seed_from_int(10_000 + deal)
    moves = [0] * 4
    while state.result() is None:
        seat = state.current
        level = "strong" if seat == strong else "easy"
        rng = robot_generator(seed, seat, moves[seat])
        started = time.perf_counter()
        text = robot.decide(state.view(seat), seat, level, dict(state.options), rng)
        if level == "strong":
            timings.append(time.perf_counter() - started)
        moves[seat] += 1
        state.apply(seat, OnPar.command_from_text(text))
    return list(state.holes[-1]["strokes"])


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 600.0
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    timings: list[float] = []
    games = wins = 0
    strong_scores: list[int] = []
    easy_scores: list[int] = []
    started = time.perf_counter()
    deal = 0
    while games + 4 <= most and time.perf_counter() - started < seconds:
        for strong in range(4):
            scores = one_game(deal, strong, timings)
            games += 1
            mine = scores[strong]
            others = [scores[s] for s in range(4) if s != strong]
            wins += mine <= min(others)
            strong_scores.append(mine)
            easy_scores += others
        deal += 1
    elapsed = time.perf_counter() - started
    timings.sort()
    strong_mean, easy_mean = statistics.mean(strong_scores), statistics.mean(easy_scores)
    print(f"onpar robots, {robot.VERSION}: {games} one-hole games ({deal} deals x 4 seats), "
          f"{elapsed:.0f} s")
    print(f"strong wins or shares {wins}/{games} holes = {wins / games:.1%} "
          f"(an easy seat alone would be expected near 25% plus ties)")
    print(f"mean hole score: strong {strong_mean:.3f}, easy {easy_mean:.3f} "
          f"({(easy_mean - strong_mean) / easy_mean:.1%} lower)")
    print(f"strong decision: median {statistics.median(timings):.3f} s, "
          f"p95 {timings[int(0.95 * (len(timings) - 1))]:.3f} s over {len(timings)} decisions")


if __name__ == "__main__":
    main()
