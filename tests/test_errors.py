"""One exception family with a root (DESIGN, habits): every error pbem defines is a PbemError,
so that a caller can tell pbem's refusal from a bug, and pbem raises none of Python's own in
their place.

The rule the source is held to (`test_pbem_raises_none_of_pythons_own_errors`): a `raise`
names one of pbem's own errors, or re-raises what it caught (`raise`, `raise err`). Of Python's
own exceptions a module may raise only those whose meaning is a protocol's, which a caller
catches by that name:

- `NotImplementedError`: a method a subclass must write;
- `KeyError`, `IndexError`: a lookup that finds nothing, as a mapping or a sequence says it;
- `TypeError`: a value of a type the function does not take, as Python itself says it;
- `AssertionError`: a line that is never reached (what an `assert` says);
- `SystemExit`: the command line's exit.

Every other of Python's own (`Exception`, `ValueError`, `RuntimeError`, `OSError` ...) is
refused: pbem's error says the same and is still that exception where callers catch it
(`BadValue` is a ValueError, `NotReady` a RuntimeError).
"""
from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from pathlib import Path

import pbem
from pbem.errors import BadValue, PbemError
from pbem.games.course import BadCourse
from pbem.games.errors import BadOption, BadOrderText, GameRefused, NoMoveNow, NotReady
from pbem.games.rng import BadSeed
from pbem.gm.robot_seats import RobotSpecError
from pbem.league.records import RecordsDisagree
from pbem.league.season import LeagueRefused
from pbem.render import BadTemplate

PACKAGE = Path(pbem.__file__).parent
ALLOWED = {"NotImplementedError", "KeyError", "IndexError", "TypeError", "AssertionError", "SystemExit"}
PYTHONS_OWN = {name for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)}


def module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name != "pbem.__main__":  # runs the command line
            names.append(name)
    return names


def raised(node: ast.Raise) -> str | None:
    """The name a `raise` raises (`raise X`, `raise X(...)`, `raise mod.X(...)`), or None for a
    re-raise of what was caught."""
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    if isinstance(exc, ast.Name):
        return exc.id
    if isinstance(exc, ast.Attribute):
        return exc.attr
    return None


def test_pbem_raises_none_of_pythons_own_errors():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                name = raised(node)
                if name in PYTHONS_OWN and name not in ALLOWED:
                    wrong.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: raise {name}")
    assert wrong == []


def test_the_rule_sees_every_form_of_raise():
    tree = ast.parse("raise ValueError\nraise ValueError('x')\nraise errors.BadValue('x') from None\n"
                     "try:\n    pass\nexcept OSError as err:\n    raise err\n")
    assert [raised(n) for n in ast.walk(tree) if isinstance(n, ast.Raise)] == [
        "ValueError", "ValueError", "BadValue", "err"]


def test_every_error_pbem_defines_descends_from_pbem_error():
    defined = {}
    for name in module_names():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                defined[f"{name}.{value.__qualname__}"] = value
    assert len(defined) > 20, sorted(defined)  # the walk found the package's errors
    assert sorted(n for n, cls in defined.items() if not issubclass(cls, PbemError)) == []


def test_every_class_pbem_defines_in_its_source_is_found_by_the_walk():
    """An error class defined where the import walk above cannot see it (inside a function)
    would escape it: there is none."""
    hidden = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and id(node) not in top \
                    and any(ast.unparse(b).endswith(("Error", "Exception", "BadValue")) for b in node.bases):
                hidden.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.name}")
    assert hidden == []


def test_a_value_pbem_refuses_is_still_a_value_error():
    for cls in (BadCourse, BadOption, BadOrderText, GameRefused, NoMoveNow, BadSeed, RobotSpecError,
                RecordsDisagree, LeagueRefused, BadTemplate):
        assert issubclass(cls, BadValue) and issubclass(cls, ValueError), cls
    assert issubclass(NotReady, RuntimeError) and issubclass(NotReady, PbemError)


def test_the_root_imports_nothing():
    """Any layer may import `pbem.errors` (the engines too) because it imports nothing."""
    tree = ast.parse((PACKAGE / "errors.py").read_text(encoding="utf-8"))
    imported = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imported == ["from __future__ import annotations"]
