"""The card robot's strength and speed: one `strong` seat against three `easy` ones.

Run by hand: `python bench/robots_cards.py [games] [workers] [variant ...]` (default 2000
one-hole games per variant, one worker, every variant; a variant by its printed name, e.g.
`golfdeck` or `"golf layout=6"`). Four players; each deal is played four times with the strong seat moved
round the table (duplicate), so every seat's luck is the strong seat's once. The easy seats
play the engine's `default_orders` (what the easy robot plays; golfdeck's reveal is the GM's
own default pair). Printed for golfdeck, golf (default options) and golf layout=6: the share of
holes the strong seat wins or shares, its mean hole score against the easy seats' mean, and
the median and 95th percentile seconds of a strong decision.
"""
from __future__ import annotations

import statistics
import sys
import time
from multiprocessing import Pool

from pbem.games import golf, golfdeck
from pbem.games.rng import Generator, seed_from_int
from pbem.games import spec_for

NAMES = ["Ann", "Bob", "Cy", "Di"]
VARIANTS = [("golfdeck", golfdeck.GolfDeck, {}), ("golf", golf.Golf, {}),
            ("golf layout=6", golf.Golf, {"layout": 6})]


def one_game(args):
    """One hole on deal `deal` with the strong robot in `strong`: (scores, strong decision times)."""
    variant, deal, strong = args
    _, engine, options = VARIANTS[variant]
    game = engine.new(NAMES, {**options, "holes": 1}, deal, None)
    times, move = [], 0
    while game.result() is None:
        seat = min(game.to_move())
        if seat == strong:
            rng = Generator(seed_from_int(deal * 1_000_003 + 7919 * strong + move))
            move += 1
            start = time.perf_counter()
            text = spec_for(game.TYPE).robot.decide(game.view(seat), seat, "strong", options, rng)
            times.append(time.perf_counter() - start)
            command = engine.command_from_text(text)
        else:
            command = game.default_orders(seat)
        game.apply(seat, command)
        game.drain_events()
    return game.holes[-1]["scores"], times


def run(variant: int, games: int, workers: int) -> None:
    deals = max(1, games // 4)
    jobs = [(variant, 10_000 + d, s) for d in range(deals) for s in range(4)]
    with Pool(workers) as pool:
        results = pool.map(one_game, jobs, chunksize=4)
    wins, strong_scores, easy_scores, times = 0, [], [], []
    for (_, _, s), (scores, t) in zip(jobs, results):
        wins += scores[s] == min(scores)
        strong_scores.append(scores[s])
        easy_scores += [x for i, x in enumerate(scores) if i != s]
        times += t
    mine, theirs = statistics.mean(strong_scores), statistics.mean(easy_scores)
    times.sort()
    print(f"{VARIANTS[variant][0]}: {len(jobs)} one-hole games ({deals} deals x 4 seats); "
          f"strong wins or shares {wins / len(jobs):.1%} of holes; mean hole score strong {mine:.2f} "
          f"vs easy {theirs:.2f} ({(theirs - mine) / theirs:.1%} lower); "
          f"decision median {statistics.median(times):.3f} s, p95 {times[int(0.95 * (len(times) - 1))]:.3f} s "
          f"({len(times)} decisions)", flush=True)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    wanted = sys.argv[3:] or [name for name, _, _ in VARIANTS]
    for v, (name, _, _) in enumerate(VARIANTS):
        if name in wanted:
            run(v, games, workers)


if __name__ == "__main__":
    main()
