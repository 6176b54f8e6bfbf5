"""Head to head in the arena, duplicate deals: `pbem arena`'s games (pbem.robots.arena.Arena,
the same players, the same seeds and the same rules of a forfeit), but every deal is played
once with each SPEC in each seat (seats rotated on the SAME seed), over two worker processes.

Run by hand: `python bench/arena.py TYPE --seat SPEC --seat SPEC ... [--deals N] [--option K=V ...]
[--first-seed S] [--workers W]`. Deal d (from 0) is seed S + d, played len(seats) times. Printed
for the first SPEC: the games played, its share of them (a game won alone counts 1, a shared win
1/2 in a two-seat game; with more seats "won or shared" counts a shared win whole, as the issue
asks), a 95% confidence interval over the deals (each deal's games averaged, so a deal's luck
counts once), mean scores, and every SPEC's decision times (median, p95 in ms) and illegal orders.
A card game or On Par is played one hole a game when `--option holes=1` is given (then a game is
a hole); MatchPlay's game is the whole match (match points).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from multiprocessing import Pool

from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.robots.arena import Arena, read_seat


def chunk(args):
    """Deals `first`..`first + count - 1`: per deal the first SPEC's share, and every SPEC's
    decision seconds, scores and illegal orders."""
    game_type, specs, options, first, count = args
    arena = Arena(game_type, [read_seat(s) for s in specs], options, load_course(DEFAULT_COURSE))
    n = len(specs)
    shares = []
    try:
        for d in range(first, first + count):
            got = []
            for k in range(n):
                outcome = arena.deal(d, k)  # seed d, seats rotated by k
                seat = arena.sitting(k).index(0)
                winners = outcome.winners
                if seat not in winners:
                    got.append(0.0)
                elif len(winners) == 1 or n > 2:
                    got.append(1.0)
                else:
                    got.append(0.5)
            shares.append(sum(got) / n)
    finally:
        arena.close()
    return shares, [(t.seconds, t.scores, t.illegal) for t in arena.tallies]


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("type")
    p.add_argument("--seat", action="append", required=True)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    options = dict(o.split("=", 1) for o in a.option)
    per = math.ceil(a.deals / a.workers)
    jobs = [(a.type, a.seat, options, a.first_seed + i, min(per, a.deals - i)) for i in range(0, a.deals, per)]
    with Pool(a.workers) as pool:
        results = pool.map(chunk, jobs)
    shares = [s for r in results for s in r[0]]
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else float("nan")
    seats = []
    for i, spec in enumerate(a.seat):
        seconds = sorted(x for r in results for x in r[1][i][0])
        scores = [x for r in results for x in r[1][i][1]]
        illegal = sum(len(r[1][i][2]) for r in results)
        seats.append({"spec": spec, "mean_score": round(statistics.fmean(scores), 3) if scores else None,
                      "median_ms": round(1000 * statistics.median(seconds), 2) if seconds else None,
                      "p95_ms": round(1000 * seconds[int(0.95 * (len(seconds) - 1))], 2) if seconds else None,
                      "illegal": illegal})
    out = {"type": a.type, "options": options, "deals": a.deals, "games": a.deals * len(a.seat),
           "share": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)], "seats": seats}
    if a.json:
        print(json.dumps(out))
        return
    print(f"{a.type} {' '.join(a.option)}: {out['games']} games ({a.deals} deals x {len(a.seat)} seatings)")
    print(f"  {a.seat[0]}: {100 * mean:.1f}% (95% CI {100 * (mean - half):.1f} to {100 * (mean + half):.1f})")
    for s in seats:
        print(f"  {s['spec'][:40]:40} mean {s['mean_score']}  median {s['median_ms']} ms  p95 {s['p95_ms']} ms"
              f"  illegal {s['illegal']}")


if __name__ == "__main__":
    main(sys.argv[1:])
