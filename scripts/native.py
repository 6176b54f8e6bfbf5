"""The optional compiled card engines: build, clean or check them, in place.

    python scripts/native.py build    # compile the card engines with mypyc, beside their .py
    python scripts/native.py clean    # remove what build made: pure Python again
    python scripts/native.py check    # exit 1, loudly, when a compiled module is stale

pbem runs as plain Python; this step is for an admin who wants the card engines (golfdeck and
golf, with the modules their hot path runs through: `MODULES`) some 1.5x faster. `build` runs
mypyc (it comes with mypy, a test dependency) and a C compiler on those modules and leaves one
extension module (`.so`) beside each `.py`, plus their shared library
(`pbem/games/native__mypyc...so`); Python then imports the `.so` in place of the `.py`. The
sources are the same: the compiled engines play the very same games (the suite's compiled tier,
`scripts/test.sh`, checks it).

A compiled module silently shadows its `.py`: edit the source after a build and Python still
runs the old code. So `build` writes the SHA-256 of every compiled source into
`pbem/games/native.json`, and `check` (run by a fast test in the suite,
tests/games/test_native_build.py, and by pbem itself before any command) fails when any
compiled file is present and a source differs, the record is missing, or a compiled file is not
one the record lists. After an edit: build again, or clean.

A script and not a hook in the package's install: pbem is installed editable (`pip install -e`)
and run from its folder, where a build switched on by an environment variable would hide the
step from whoever later edits a source; a named command with a `check` is explicit, and the
guard can name the command that fixes a stale build. The guard itself is pbem's
(pbem/games/compiled.py): every pbem command refuses to run on a stale build, exit 78.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This checkout's pbem, whatever else is installed: the guard below is this tree's.
sys.path.insert(0, str(ROOT))
from pbem.games.compiled import MODULES, RECORD, compiled_files, digest, problems, write_record  # noqa: E402

GROUP = "pbem.games.native"  # the shared library: pbem/games/native__mypyc.<python's suffix>
USAGE = "usage: python scripts/native.py build|clean|check"


def clean(root: Path = ROOT) -> list[str]:
    """Remove the compiled modules and the record; return what went."""
    gone = compiled_files(root)
    for name in gone:
        (root / name).unlink()
    if (root / RECORD).is_file():
        (root / RECORD).unlink()
        gone.append(RECORD)
    return gone


def build(root: Path = ROOT) -> list[str]:
    """Compile MODULES in place (after removing any earlier build); return the files made."""
    # Imported here: mypyc and setuptools are needed by this command only.
    from mypyc.build import mypycify
    from setuptools import setup

    clean(root)
    sources = {name: digest(root / name) for name in MODULES}
    work = Path(tempfile.mkdtemp(prefix="pbem-native-"))
    here = Path.cwd()
    try:
        os.chdir(root)
        # mypyc reads mypy's settings from pyproject.toml; the C and the objects go to `work`.
        # setuptools reads pyproject's [tool.setuptools] too, and warns that it is beta: not ours.
        warnings.filterwarnings("ignore", message=".*beta.*")
        extensions = mypycify(MODULES, opt_level="3", group_name=GROUP, target_dir=str(work / "c"))
        setup(name="pbem-native", ext_modules=extensions, script_name="native.py",
              script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(work / "obj"),
                           "--build-lib", str(work / "lib")])
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    built = compiled_files(root)
    if any(digest(root / name) != sources[name] for name in MODULES):
        clean(root)
        raise SystemExit("a source changed while it was compiled: build again")
    write_record(root, sources, built)
    return built


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("build", "clean", "check"):
        print(USAGE, file=sys.stderr)
        return 2
    command = argv[0]
    if command == "build":
        start = time.monotonic()
        built = build()
        print(f"compiled {len(built)} extension modules in {time.monotonic() - start:.0f} s "
              f"(scripts/native.py clean: pure Python again)")
        return 0
    if command == "clean":
        gone = clean()
        print(f"removed {len(gone)} files: pure Python" if gone else "nothing to remove: pure Python")
        return 0
    found = problems(ROOT)
    if found:
        print("STALE COMPILED ENGINES: " + "; ".join(found)
              + ". Run `python scripts/native.py build` again, or `python scripts/native.py clean`.",
              file=sys.stderr)
        return 1
    present = compiled_files(ROOT)
    print(f"compiled, up to date: {len(present)} extension modules" if present else "pure Python: nothing compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
