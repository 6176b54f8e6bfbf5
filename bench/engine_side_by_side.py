"""`bench/engine.py` on two versions of pbem, in turn, in one run.

    python bench/engine_side_by_side.py BEFORE_DIR [rounds] [seconds] [--cpu]

BEFORE_DIR is a checkout of the earlier code (`git worktree add /some/dir <commit>`). Each round
runs each version's own `bench/engine.py` (one round of `seconds` per game, so that a version
whose modules moved is still measured by its own script), with that version first on the path,
alternating which goes first, so the shared machine's drift falls on both. Printed: per game the
median rate of each and after/before (above 1 is faster now).

`--cpu` times both versions by the process's CPU clock instead of the wall clock: each
version's own `bench/engine.py` still makes its games, but its `rate` is replaced by the same
one timed with `time.process_time`, so that the time the shared machine's other work takes
the core away is counted on neither side (a loaded machine of 2 cores can halve wall-clock
rates from one second to the next; CPU time still varies with the caches, much less).
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_LINE = re.compile(r"^(.+?): ([0-9,]+) .*? median", re.M)


# `--cpu`: a version's own bench/engine.py, loaded as a module, with `rate` timed by CPU time.
_CPU_DRIVER = """
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("engine_bench", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

def rate(play, seconds):
    rng = bench.random.Random(2026)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            play(rng)
        n += 100
    return n / (time.process_time() - start)

bench.rate = rate
sys.argv = [sys.argv[1]] + sys.argv[2:]
bench.main()
"""


def run(code: Path, seconds: float, cpu: bool = False) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(code))
    script = str(code / "bench" / "engine.py")
    command = [sys.executable, "-c", _CPU_DRIVER, script] if cpu else [sys.executable, script]
    out = subprocess.run([*command, "1", str(seconds)], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    return {name: float(rate.replace(",", "")) for name, rate in _LINE.findall(out)}


def main() -> None:
    cpu = "--cpu" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    before = Path(args[0]).resolve()
    rounds = int(args[1]) if len(args) > 1 else 5
    seconds = float(args[2]) if len(args) > 2 else 2.0
    seen: dict[tuple[str, str], list[float]] = {}
    for i in range(rounds):
        order = [("before", before), ("after", ROOT)]
        for label, code in order if i % 2 == 0 else order[::-1]:
            for game, rate in run(code, seconds, cpu).items():
                seen.setdefault((game, label), []).append(rate)
        print(f"round {i + 1} of {rounds} done", flush=True)
    for game in dict.fromkeys(game for game, _ in seen):
        b = statistics.median(seen[(game, "before")])
        a = statistics.median(seen.get((game, "after"), [0.0]))
        print(f"{game}: before {b:,.0f}/s, after {a:,.0f}/s, after/before {a / b:.2f} (medians of {rounds}"
              f"{', CPU time' if cpu else ''})")


if __name__ == "__main__":
    main()
