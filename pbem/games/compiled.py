"""Whether the optional compiled card engines can be trusted (the build: scripts/native.py).

The build compiles `MODULES` with mypyc and leaves an extension module beside each source,
which Python imports in place of the `.py`. So a source edited or upgraded after the build
would silently run as its OLD compiled code: a game played by other rules than its record's.
The build writes `RECORD` (each compiled source's SHA-256, and the files it made); `problems`
compares it with the tree, and pbem refuses to run on a stale build (`refusal`).
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

__all__ = ["MODULES", "RECORD", "compiled_files", "digest", "problems", "refusal", "write_record"]

# The tree that holds the `pbem` package (a checkout, or site-packages).
ROOT = Path(__file__).resolve().parents[2]
# The card engines and the modules their hot path runs through (BENCHMARKS.md, "The compiled
# engines"). Every class a compiled class derives from must be compiled too.
MODULES = ["pbem/games/golfdeck/engine.py", "pbem/games/golf/engine.py", "pbem/games/golf/rules.py",
           "pbem/games/base.py", "pbem/games/golfdeck/rules.py", "pbem/games/cards/orders.py",
           "pbem/games/rng.py", "pbem/games/cards/deck.py"]
RECORD = "pbem/games/native.json"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files(root: Path = ROOT) -> list[str]:
    """The extension modules under pbem/games/ (relative paths, sorted): pbem ships none of its own, so
    every one is the build's."""
    return sorted(str(p.relative_to(root)) for p in (root / "pbem" / "games").rglob("*")
                  if p.suffix in (".so", ".pyd") and p.is_file())


def problems(root: Path = ROOT) -> list[str]:
    """Why the compiled modules present cannot be trusted (empty: none present, or all fresh)."""
    present = compiled_files(root)
    record_path = root / RECORD
    if not present:
        return []
    if not record_path.is_file():
        return [f"compiled modules without {RECORD} (built by hand?): {', '.join(present)}"]
    try:
        record = json.loads(record_path.read_text())
        sources, built = dict(record["sources"]), list(record["built"])
    except (ValueError, KeyError, TypeError) as e:
        return [f"{RECORD} is unreadable ({e})"]
    found = []
    for name in present:
        if name not in built:
            found.append(f"{name} is not one the last build made")
    for name in MODULES:
        if name not in sources:
            found.append(f"{name} was not compiled by the last build (its module list differs)")
        elif not (root / name).is_file() or digest(root / name) != sources[name]:
            found.append(f"{name} changed since it was compiled: Python runs the OLD compiled code")
    for name in sources:
        if name not in MODULES:
            found.append(f"{name} was compiled but is no longer in the list")
    return found


def write_record(root: Path, sources: dict[str, str], built: list[str]) -> None:
    """What `problems` compares: each compiled source's SHA-256 as it was compiled, and the files made."""
    (root / RECORD).write_text(json.dumps({"sources": sources, "built": built}, indent=1, sort_keys=True) + "\n")


@functools.cache
def refusal() -> str | None:
    """One line for pbem to refuse on when the installed tree's build is stale (None: pure, or
    fresh). Once a process: the tree does not change under a running pbem."""
    found = problems()
    if not found:
        return None
    return ("the compiled card engines are stale (" + "; ".join(found) + "): run `python scripts/native.py "
            "build` again, or `python scripts/native.py clean` for pure Python")
