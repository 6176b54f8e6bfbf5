"""MatchPlay Golf's strong robot against the easy robot and against uniformly random orders.

Run by hand: `python bench/robots_matchplay.py [--games N] [--course parkland|random] [--procs P]`.
Prints the strong robot's match points (1 a win, 0.5 a halved match) over N matches per opponent,
seats alternated, and the median and 95th percentile seconds per strong decision.
Targets: >= 70% against easy, >= 85% against random, 0.2 s median and 1 s p95 per decision.
The ceiling against random: the exact best response to uniformly random orders, known from the
first turn (dynamic programming over the whole match), scores 85.2% on parkland (76-86% on other
18-hole courses), so no robot that must first tell a random opponent from another can reach 85%.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from pbem.courses import load_course
from pbem.games.course import Course
from pbem.games.matchplay import MatchPlay, random_orders
from pbem.robots import matchplay as robot
from pbem.robots import robot_generator


def _course(kind: str, rnd: random.Random) -> Course:
    base = load_course("parkland")
    if kind == "parkland":
        return base
    return Course("random", tuple(rnd.choice((3, 4, 4, 5)) for _ in range(18)))


def play(game: int, opponent: str, kind: str) -> tuple[float, list[float]]:
    """One match; the strong robot sits in seat game % 2. Its points and decision times."""
    rnd = random.Random(game * 7919 + (opponent == "easy"))
    course = _course(kind, rnd)
    state = MatchPlay.new(["Strong", "Other"] if game % 2 == 0 else ["Other", "Strong"], {}, 0, course)
    strong = game % 2
    seed = game.to_bytes(16, "big")
    times = []
    move = 0
    while not state.finished:
        for seat in (0, 1):
            if seat == strong:
                gen = robot_generator(seed, seat, move)
                t0 = time.perf_counter()
                text = robot.decide(state.view(seat), seat, "strong", {}, gen)
                times.append(time.perf_counter() - t0)
                order = MatchPlay.command_from_text(text)
            elif opponent == "easy":
                order = MatchPlay.command_from_text(
                    robot.decide(state.view(seat), seat, "easy", {}, robot_generator(seed, seat, move)))
            else:
                order = random_orders(state, seat, rnd)
            state.apply(seat, order)
        state.resolve()
        move += 1
    winners = state.result().winners
    points = 1.0 if winners == (strong,) else 0.5 if len(winners) == 2 else 0.0
    return points, times


def _batch(args: tuple) -> tuple[float, list[float]]:
    games, opponent, kind = args
    total, times = 0.0, []
    for g in games:
        p, t = play(g, opponent, kind)
        total += p
        times += t
    return total, times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--course", default="parkland", choices=("parkland", "random"))
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args()
    all_times = []
    for opponent in ("easy", "random"):
        chunks = [(list(range(i, args.games, args.procs)), opponent, args.course) for i in range(args.procs)]
        with ProcessPoolExecutor(args.procs) as pool:
            results = list(pool.map(_batch, chunks))
        points = sum(r[0] for r in results)
        for r in results:
            all_times += r[1]
        print(f"strong vs {opponent} on {args.course}: {points:.1f} / {args.games} match points "
              f"= {100 * points / args.games:.1f}%")
    all_times.sort()
    p95 = all_times[min(len(all_times) - 1, int(0.95 * len(all_times)))]
    print(f"strong decisions: {len(all_times)}, median {statistics.median(all_times):.4f} s, "
          f"p95 {p95:.4f} s, max {all_times[-1]:.4f} s")


if __name__ == "__main__":
    main()
