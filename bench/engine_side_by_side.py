"""`bench/engine.py` on two versions of pbem, in turn, in one run.

    python bench/engine_side_by_side.py BEFORE_DIR [rounds] [seconds]

BEFORE_DIR is a checkout of the earlier code (`git worktree add /some/dir <commit>`). Each round
runs each version's own `bench/engine.py` (one round of `seconds` per game, so that a version
whose modules moved is still measured by its own script), with that version first on the path,
alternating which goes first, so the shared machine's drift falls on both. Printed: per game the
median rate of each and after/before (above 1 is faster now).
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


def run(code: Path, seconds: float) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run([sys.executable, str(code / "bench" / "engine.py"), "1", str(seconds)], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    return {name: float(rate.replace(",", "")) for name, rate in _LINE.findall(out)}


def main() -> None:
    before = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    seen: dict[tuple[str, str], list[float]] = {}
    for i in range(rounds):
        order = [("before", before), ("after", ROOT)]
        for label, code in order if i % 2 == 0 else order[::-1]:
            for game, rate in run(code, seconds).items():
                seen.setdefault((game, label), []).append(rate)
        print(f"round {i + 1} of {rounds} done", flush=True)
    for game in dict.fromkeys(game for game, _ in seen):
        b = statistics.median(seen[(game, "before")])
        a = statistics.median(seen.get((game, "after"), [0.0]))
        print(f"{game}: before {b:,.0f}/s, after {a:,.0f}/s, after/before {a / b:.2f} (medians of {rounds})")


if __name__ == "__main__":
    main()
