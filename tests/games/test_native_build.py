"""The optional compiled card engines (scripts/native.py): the guard against a stale build, what
copying a state keeps either way, and, in the suite's compiled tier (scripts/test.sh), that the
engines really ran compiled."""
from __future__ import annotations

import copy
import importlib
import importlib.util
import os
from pathlib import Path

import pytest
from loading import load_script

from pbem import cli
from pbem.games import compiled
from pbem.games.registry import game_type, types
from pbem.gm.courses import DEFAULT_COURSE, load_course

ROOT = Path(__file__).resolve().parents[2]




native = load_script("scripts/native.py", "pbem_native_script")


def test_the_script_guards_with_pbems_own_check():
    assert native.problems is compiled.problems and native.MODULES is compiled.MODULES


def test_pbem_refuses_to_run_on_a_stale_build(monkeypatch, capsys):
    # Any command: a stale compiled engine would play by other rules than the game's record.
    monkeypatch.setattr(compiled, "refusal", lambda: "the compiled card engines are stale (x)")
    assert cli.main(["list"]) == 78
    assert "pbem list: the compiled card engines are stale (x)" in capsys.readouterr().err
    # An MTA's pipe keeps the player's mail and tries again: nothing a player sent is lost.
    assert cli.main(["deliver"]) == 75
    assert "pbem deliver: the compiled card engines are stale (x)" in capsys.readouterr().err


def test_pure_python_is_never_refused():
    assert compiled.problems() == [] or compiled.compiled_files()
    assert compiled.refusal() is None


def test_no_compiled_engine_is_stale():
    # A compiled module shadows its .py: after an edit, Python would run the old code.
    assert native.problems() == [], "run `python scripts/native.py build` again, or `clean`"


def fake_tree(root: Path) -> None:
    for name in native.MODULES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n")
    for name in native.MODULES:
        (root / name).with_suffix(".cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (root / "pbem/games/native__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")


def test_the_guard_names_a_source_edited_after_the_build(tmp_path):
    fake_tree(tmp_path)
    sources = {name: native.digest(tmp_path / name) for name in native.MODULES}
    native.write_record(tmp_path, sources, native.compiled_files(tmp_path))
    assert native.problems(tmp_path) == []
    (tmp_path / "pbem/games/rng.py").write_text("# edited\n")
    found = native.problems(tmp_path)
    assert len(found) == 1 and "pbem/games/rng.py changed since it was compiled" in found[0]


def test_the_guard_refuses_compiled_files_it_did_not_make(tmp_path):
    fake_tree(tmp_path)
    assert native.problems(tmp_path) == [f"compiled modules without {native.RECORD} (built by hand?): "
                                         + ", ".join(native.compiled_files(tmp_path))]
    sources = {name: native.digest(tmp_path / name) for name in native.MODULES}
    native.write_record(tmp_path, sources, native.compiled_files(tmp_path))
    (tmp_path / "pbem/games/dicegolf").mkdir(parents=True)
    (tmp_path / "pbem/games/dicegolf/engine.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    assert native.problems(tmp_path) == ["pbem/games/dicegolf/engine.cpython-311-x86_64-linux-gnu.so is not one "
                                         "the last build made"]


def test_clean_leaves_pure_python(tmp_path):
    fake_tree(tmp_path)
    sources = {name: native.digest(tmp_path / name) for name in native.MODULES}
    native.write_record(tmp_path, sources, native.compiled_files(tmp_path))
    gone = native.clean(tmp_path)
    assert len(gone) == len(native.MODULES) + 2  # and the shared library and the record
    assert native.compiled_files(tmp_path) == [] and not (tmp_path / native.RECORD).exists()
    assert all((tmp_path / name).is_file() for name in native.MODULES)
    assert native.problems(tmp_path) == []


def played(type_name: str):
    cls = game_type(type_name)
    names = [f"Player {i}" for i in range(1, max(cls.MIN_PLAYERS, 2) + 1)]
    return cls.new(names, {}, 7, load_course(DEFAULT_COURSE))


@pytest.mark.parametrize("type_name", types())
def test_a_copy_of_any_game_keeps_every_attribute(type_name):
    # base.GameState's __getstate__: Python's default as it runs pure (the instance's vars);
    # compiled, the attributes the base classes keep apart are taken too.
    state = played(type_name)
    held = state.__getstate__()
    if hasattr(state, "__dict__"):
        assert vars(state).items() <= held.items()
    if not native.compiled_files():
        assert held == vars(state)
    twin = copy.deepcopy(state)
    assert twin.__getstate__().keys() == held.keys()
    assert twin.to_dict() == state.to_dict()
    assert twin.view(0) == state.view(0)


def test_the_engines_imported_are_the_tiers():
    # The compiled tier (scripts/test.sh, PBEM_COMPILED_TIER=1) must really run the compiled
    # engines; any other run the tree's own: the sources, or a build made in place.
    compiled_tier = os.environ.get("PBEM_COMPILED_TIER") == "1"
    built = bool(compiled.compiled_files())
    assert built or not compiled_tier, "the compiled tier found no build"
    for name in native.MODULES:
        module = importlib.import_module(name.removesuffix(".py").replace("/", "."))
        assert module.__file__ is not None
        assert module.__file__.endswith(".so" if built else ".py"), module.__file__
    assert hasattr(played("golfdeck"), "__dict__") is not built  # native classes have none
