"""`pbem arena`: robots and programs play each other, N games, no mail, no store."""
from __future__ import annotations

import json

from pbem.commands import UsageError
from pbem.commands.common import options, words
from pbem.games.registry import spec_for
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.robots.arena import Arena, Tally, read_seat

MOST_GAMES = 1_000_000


def cmd_arena(args) -> int:
    try:
        spec = spec_for(args.type)
        seats = [read_seat(text) for text in args.seat]
        course = load_course(args.course or DEFAULT_COURSE)
    except (KeyError, ValueError) as e:
        raise UsageError(words(e)) from None
    if not 1 <= args.games <= MOST_GAMES:
        raise UsageError(f"--games {args.games}: from 1 to {MOST_GAMES:,}")
    if args.seed < 0 or args.seed + args.games >= 1 << 128:
        raise UsageError(f"--seed {args.seed}: game k uses seed N+k, from 0 to 2**128 - 1")
    if args.timeout <= 0:
        raise UsageError(f"--timeout {args.timeout:g}: a number of seconds above 0")
    try:
        arena = Arena(spec.type, seats, options(args.option), course, first_seed=args.seed, timeout=args.timeout)
    except ValueError as e:
        raise UsageError(str(e)) from None
    tallies = arena.run(args.games)
    if args.json:
        print(json.dumps({"type": spec.type, "games": args.games, "seed": args.seed,
                          "seats": [t.as_json() for t in tallies]}, indent=2, ensure_ascii=False))
    else:
        print(arena_text(spec.type, args.games, args.seed, tallies))
    return 0


def arena_text(game_type: str, games: int, seed: int, tallies: list[Tally]) -> str:
    lines = [f"{game_type}: {games} game{'s' if games != 1 else ''}, seeds {seed} to {seed + games - 1}, "
             "seats rotated", "",
             f"{'seat':<32} {'won':>6} {'shared':>6} {'mean':>8} {'median ms':>10} {'p95 ms':>8} {'illegal':>7}"]
    for t in tallies:
        row = t.as_json()
        mean = "-" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
        ms = row["decision_ms"]
        median = "-" if ms["median"] is None else f"{ms['median']:.1f}"
        p95 = "-" if ms["p95"] is None else f"{ms['p95']:.1f}"
        spec = t.spec if len(t.spec) <= 32 else t.spec[:31] + "~"
        lines.append(f"{spec:<32} {t.won:>6} {t.shared:>6} {mean:>8} {median:>10} {p95:>8} {len(t.illegal):>7}")
    for t in tallies:
        lines += [f"{t.spec}: {why}" for why in t.illegal[:10]]
        if len(t.illegal) > 10:
            lines.append(f"{t.spec}: ... and {len(t.illegal) - 10} more")
    return "\n".join(lines)
