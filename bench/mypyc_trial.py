"""The feasibility trial of compiling the card engines with mypyc (issue 35, item 5), rebuilt
from the project's own sources in a scratch folder, never in the package tree:

    python bench/mypyc_trial.py FOLDER

copies `pbem/` into FOLDER (which must not exist), makes there the few edits that mypyc needs
or that the trial measured (below), and compiles `golfdeck` and `golf` with the modules their
hot path runs through. Then, from the project's root:

    PYTHONPATH=FOLDER python bench/robots.py peer 5 2
    PYTHONPATH=FOLDER python bench/engine_fingerprint.py

(`python bench/...` puts `bench/` first on the path, then PYTHONPATH, so the compiled copy is
the one imported; `python -c` or `-m` would put the working folder first.)

The edits, each needed by mypyc or measured:

- `base.GameState` and `base.TurnByTurn` become native classes that interpreted classes may
  subclass (the other games' engines stay interpreted);
- `GolfDeckRules` and `GolfRules` become traits (a native class has one non-trait base) listed
  after `TurnByTurn`, their `TYPE_CHECKING` stubs become methods, and each engine names its
  rules' `check_order` (the trait comes after `TurnByTurn`, whose stub would win);
- golf's `_LISTS`/`_GRIDS` are `ClassVar`s;
- golfdeck's and rng's module constants are `Final` (a native module reads a `Final` from a C
  static, any other global from the module's dict: 595k -> 519k instructions a golfdeck hole);
  `Generator.shuffle` takes a `list` and swaps in a typed loop when nothing records (-6k);
- golfdeck's `apply` reads the common orders' fields through a `cast` to their class (-9k), and
  its random player's draws are typed `float` (-24k).

What it showed is in `bench/mypyc_trial.md`.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["pbem/games/golfdeck/engine.py", "pbem/games/golf/engine.py", "pbem/games/golf/rules.py",
           "pbem/games/base.py", "pbem/games/golfdeck/rules.py", "pbem/games/cards/orders.py",
           "pbem/games/rng.py", "pbem/games/cards/deck.py"]


def edit(path: Path, *pairs: tuple[str, str]) -> None:
    text = path.read_text()
    for old, new in pairs:
        if old not in text:
            raise SystemExit(f"{path}: the source changed, not found: {old[:60]!r}")
        text = text.replace(old, new, 1)
    path.write_text(text)


def finals(path: Path, names: list[str], after: str) -> None:
    text = path.read_text()
    for name in names:
        text, n = re.subn(rf"^{name} = ", f"{name}: Final = ", text, count=1, flags=re.M)
        if n != 1:
            raise SystemExit(f"{path}: no module constant {name}")
    path.write_text(text.replace(after, after + "from typing import Final\n", 1))


def stubs_to_methods(text_block: str) -> str:
    return "".join(line.replace(": ...", ": raise NotImplementedError")[4:] + "\n"
                   for line in text_block.splitlines()[1:])


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[1]).resolve()
    if out.exists():
        raise SystemExit(f"{out} exists: give a new folder")
    shutil.copytree(ROOT / "pbem", out / "pbem", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    games = out / "pbem" / "games"
    future = "from __future__ import annotations\n"

    edit(games / "base.py", (future, future + "from mypy_extensions import mypyc_attr\n"),
         ("\nclass GameState:", "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass GameState:"),
         ("\nclass TurnByTurn(GameState):",
          "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass TurnByTurn(GameState):"))

    for rules, cls, engine, header in [
            ("golfdeck/rules.py", "GolfDeckRules", "golfdeck/engine.py", "GolfDeck"),
            ("golf/rules.py", "GolfRules", "golf/engine.py", "Golf")]:
        path = games / rules
        text = path.read_text()
        block = re.search(r"    if TYPE_CHECKING:[^\n]*\n(?:        def [^\n]*\n)+", text)
        assert block is not None, rules
        text = text.replace(block.group(0), stubs_to_methods(block.group(0)))
        text = text.replace(f"\nclass {cls}:", f"\n@trait\nclass {cls}:", 1)
        text = text.replace(future, future + "from mypy_extensions import trait\n", 1)
        path.write_text(text)
        edit(games / engine, (f"class {header}({cls}, TurnByTurn):",
                              f"class {header}(TurnByTurn, {cls}):\n"
                              f"    def check_order(self, seat: int, command) -> None:\n"
                              f"        {cls}.check_order(self, seat, command)\n"))

    edit(games / "golf/engine.py", ("    _LISTS = (", "    _LISTS: ClassVar = ("),
         ("    _GRIDS = (", "    _GRIDS: ClassVar = ("),
         (future, future + "from typing import ClassVar\n"))

    edit(games / "golfdeck/engine.py",
         ("_DRAWN, _GAME_END, _HOLE_END = GameEvent.DRAWN, GameEvent.GAME_END, GameEvent.HOLE_END\n"
          "_HOLE_START, _PLAYED, _REVEALED = GameEvent.HOLE_START, GameEvent.PLAYED, GameEvent.REVEALED",
          "".join(f"{k}: Final = GameEvent.{k[1:]}\n"
                  for k in ("_DRAWN", "_GAME_END", "_HOLE_END", "_HOLE_START", "_PLAYED", "_REVEALED"))))
    finals(games / "golfdeck/engine.py", ["POINTS", "_POINTS_OF", "DECK", "COLUMNS", "UNSEEN", "_DRAW_STOCK",
                                          "_DRAW_DISCARD", "_KEEP", "_FLIP", "_DRAWS", "_NONES", "REVEAL_PAIRS",
                                          "PAIRS", "_PAIRS_POWER", "_DOWN", "_REVEAL"], future)
    # The common orders' fields read natively (`command` is untyped), and the random player's
    # draws as floats: 516k -> 507k -> 483k instructions a golfdeck hole.
    edit(games / "golfdeck/engine.py",
         ("        if t is DrawDiscard:\n            pos = command.pos\n",
          "        if t is DrawDiscard:\n            pos = cast(DrawDiscard, command).pos\n"),
         ("            a, b = command.first, command.second\n",
          "            rv = cast(Reveal, command)\n            a, b = rv.first, rv.second\n"),
         ("            elif t is Keep:\n                pos = command.pos\n",
          "            elif t is Keep:\n                pos = cast(Keep, command).pos\n"),
         ("            elif t is DiscardFlip:\n                pos = command.pos\n",
          "            elif t is DiscardFlip:\n                pos = cast(DiscardFlip, command).pos\n"),
         ("    random_ = rng.random\n", "    random_: Callable[[], float] = rng.random\n"),
         (future, future + "from typing import cast\nfrom collections.abc import Callable\n"))
    finals(games / "golfdeck/rules.py", ["GRID"], future)
    finals(games / "rng.py", ["_SMALL_WORDS", "_SEVEN_FF", "_LIMITS", "_SAFE", "WORD_BYTES", "FIRST_WORDS",
                              "TWO64"], future)
    edit(games / "rng.py", ("    def shuffle(self, items: MutableSequence) -> None:",
                            "    def shuffle(self, items: list) -> None:"),
         ("        if n < len(_SAFE) and ((self._small",
          "        if self.record is None and n < len(_SAFE) and ((self._small is self._words\n"
          "                and _SAFE[n] >= _SMALL_WORDS) or max(words) < _SAFE[n]):\n"
          "            i = n - 1\n"
          "            for k in range(n - 1):\n"
          "                j = words[k] % (n - k)\n"
          "                items[i], items[j] = items[j], items[i]\n"
          "                i -= 1\n"
          "            return\n"
          "        if n < len(_SAFE) and ((self._small"))
    finals(games / "cards/deck.py", ["ONLY"], future)
    edit(games / "cards/deck.py",
         ("NOBODY: frozenset[int] = frozenset()", "NOBODY: Final[frozenset[int]] = frozenset()"))

    mypyc = Path(sys.executable).parent / "mypyc"
    subprocess.run([str(mypyc), *MODULES], cwd=out, check=True, stdout=subprocess.DEVNULL)
    print(f"compiled: PYTHONPATH={out}")


if __name__ == "__main__":
    main()
