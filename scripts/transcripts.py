#!/usr/bin/env python3
"""Write the golden transcripts (tests/transcripts/<game type>.txt) from the scripted games.

Run after a template changes, then read the diff as a player would: `git diff tests/transcripts`.
`python3 scripts/transcripts.py [TYPE ...]` (all types when none is named).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from transcript_scenarios import SCENARIOS, play  # noqa: E402


def main(names: list[str]) -> int:
    for name in names or sorted(SCENARIOS):
        path = ROOT / "tests" / "transcripts" / f"{name}.txt"
        path.write_text(play(name).text())
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
