"""P1 (and P1q) of `bench/mail_e2e.py` on two versions of pbem, in turn, in one run.

    python bench/side_by_side.py BEFORE_DIR [rounds] [p1 p1q]

BEFORE_DIR is a checkout of the earlier code (`git worktree add /some/dir <commit>`). Each round
runs `mail_e2e.py` once with the earlier package first on the path and once with this one,
alternating which goes first, so the shared machine's drift falls on both. Printed: each run's
pbem seconds and ratio to the bare I/O, then the medians and after/before of pbem's own seconds.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FIGURES = re.compile(r"^(P1q?): pbem ([0-9.]+) s .* ratio ([0-9.]+)", re.M)


def run(code: Path, which: list[str]) -> dict[str, tuple[float, float]]:
    env = dict(os.environ, PYTHONPATH=str(code))
    # Run from outside both trees, so that only PYTHONPATH says which pbem is imported.
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "mail_e2e.py"), *which], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    check = subprocess.run([sys.executable, "-c", "import pbem; print(pbem.__file__)"], env=env, cwd="/",
                           capture_output=True, text=True, check=True).stdout.strip()
    assert check.startswith(str(code)), check
    return {name: (float(t), float(r)) for name, t, r in _FIGURES.findall(out)}


def main() -> None:
    before = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    which = sys.argv[3:] or ["p1", "p1q"]
    seen: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for i in range(rounds):
        order = [("before", before), ("after", ROOT)]
        for label, code in order if i % 2 == 0 else order[::-1]:
            for name, figures in run(code, which).items():
                seen.setdefault((label, name), []).append(figures)
                print(f"round {i + 1} {label:6} {name}: pbem {figures[0]:.2f} s, ratio {figures[1]:.2f}", flush=True)
    for name in sorted({n for _, n in seen}):
        b = [t for t, _ in seen[("before", name)]]
        a = [t for t, _ in seen[("after", name)]]
        br = [r for _, r in seen[("before", name)]]
        ar = [r for _, r in seen[("after", name)]]
        print(f"{name}: pbem seconds median before {statistics.median(b):.2f}, after {statistics.median(a):.2f}, "
              f"after/before {statistics.median(a) / statistics.median(b):.3f}; ratio to bare I/O median "
              f"before {statistics.median(br):.2f}, after {statistics.median(ar):.2f}")


if __name__ == "__main__":
    main()
