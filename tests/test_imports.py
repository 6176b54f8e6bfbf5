"""The package's imports, read from the source: where they stand, what they reach, no circles.

Every import is read (at a module's head, in a function, under `if TYPE_CHECKING`), so a layer
cannot reach one above it through a lazy import or through another module.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import pbem

PACKAGE = Path(pbem.__file__).parent
ROOT = PACKAGE.parent
LAZY_MOST = 20
# The layers above the GM: the GM learns of them only through what they register from above.
ABOVE = ("pbem.league", "pbem.tables", "pbem.ratings", "pbem.calendars", "pbem.absences")
# The edges: nothing inside the package imports them. The CLI's commands (`pbem.commands`, the
# demo and the check among them) are edges too: they may import the app, the daemon and one another.
EDGES = ("pbem.cli", "pbem.app", "pbem.daemon", "pbem.commands", "pbem.__main__")


def is_edge(module: str) -> bool:
    return any(module == edge or module.startswith(edge + ".") for edge in EDGES)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _target(name: str) -> str:
    """The module of ours that `name` (a module, or a module's attribute) is."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


@cache
def imports(module: str) -> tuple[tuple[str, int, bool], ...]:
    """(module imported, line, lazy) for every import of ours in `module`'s source; lazy means
    inside a function, and an import under `if TYPE_CHECKING:` is counted as lazy=None (for
    the type checker only: no circle at run time, but a road all the same)."""
    path = modules()[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    head = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _target(name) if name.startswith("pbem") else ""
            if target and target != module:
                lazy = None if _type_checking(tree, node) else id(node) not in head
                found.append((target, node.lineno, lazy))
    return tuple(found)


def _type_checking(tree: ast.Module, node: ast.AST) -> bool:
    return any(isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test) and node in list(ast.walk(top))
               for top in tree.body)


def reach(module: str) -> set[str]:
    """Every module of ours that importing `module` can lead to, through any import."""
    seen, todo = set(), [module]
    while todo:
        for target, _, _ in imports(todo.pop()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_reader_sees_every_kind_of_import(tmp_path):
    probe = PACKAGE / "gm" / "_probe_imports.py"
    probe.write_text("from typing import TYPE_CHECKING\nfrom pbem.gm import games\n"
                     "if TYPE_CHECKING:\n    from pbem.store import Store\n"
                     "def f():\n    from ..league import changes\n    import pbem.tables.book\n", encoding="utf-8")
    modules.cache_clear()
    imports.cache_clear()
    try:
        found = imports("pbem.gm._probe_imports")
    finally:
        probe.unlink()
        modules.cache_clear()
        imports.cache_clear()
    assert ("pbem.gm.games", 2, False) in found and ("pbem.store", 4, None) in found
    assert ("pbem.league.changes", 6, True) in found and ("pbem.tables.book", 7, True) in found


def test_the_gm_reaches_no_layer_above_it_by_any_road():
    wrong = {(module, above) for module in modules() if module.startswith("pbem.gm")
             for above in reach(module) if above.startswith(ABOVE)}
    assert sorted(wrong) == []


def test_below_the_gm_nothing_reaches_the_gm():
    below = ("pbem.games", "pbem.orders", "pbem.mail", "pbem.store", "pbem.clock")
    wrong = {(module, target) for module in modules() if module.startswith(below)
             for target in reach(module) if target == "pbem.gm" or target.startswith("pbem.gm.")}
    assert sorted(wrong) == []


# A game folder's faces to the rest of pbem: its grammar reads through the one reader
# (pbem.orders), its presentation (`show`) renders, its spec and the registry name them all.
# (`pbem.games.spec`, the shape of a spec, is plain data beside the engines.)
FACES = ("grammar", "show", "spec", "registry")


def test_the_engines_import_nothing_but_engines():
    """The pure engines (and robots, which play them) reach nothing outside pbem.games but the
    root of pbem's errors (`pbem.errors`, which imports nothing), and no engine reaches a game's
    grammar or presentation."""
    engines = [m for m in modules() if m.startswith("pbem.games.") and m.rpartition(".")[2] not in FACES]
    wrong = {(module, target) for module in engines for target in reach(module)
             if not target.startswith("pbem.games") and target not in ("pbem", "pbem.errors")
             or target.rpartition(".")[2] in FACES and target != "pbem.games.spec"}
    assert sorted(wrong) == []


def test_nothing_imports_an_edge():
    wrong = {(module, target) for module in modules() if not is_edge(module)
             for target, _, _ in imports(module) if is_edge(target)}
    assert sorted(wrong) == []


def _cycles() -> list[list[str]]:
    """The circles of the import graph (Tarjan's strongly connected components of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _, lazy in imports(v):
            if lazy is None:  # the type checker's alone
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(modules()):
        if v not in index:
            visit(v)
    return out


def _package_cycle(group: list[str]) -> bool:
    """A package's `__init__` that imports its own modules, which import their siblings through
    it (`from pbem.gm import games`), is the package and not a circle: that is, every module of
    the group is the package or inside it, and none of them imports a name the `__init__` defines
    (which would make the `__init__` a module of its own)."""
    top = min(group, key=len)
    return all(m == top or m.startswith(top + ".") for m in group) and top in modules() \
        and modules()[top].name == "__init__.py" and not _init_defines_what_children_use(top, group)


def _init_defines_what_children_use(package: str, group: list[str]) -> bool:
    children = {m for m in modules() if m.startswith(package + ".")}
    for module in group:
        if module == package:
            continue
        tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == package:
                if any(f"{package}.{a.name}" not in children for a in node.names):
                    return True
    return False


def test_no_circles():
    assert [group for group in _cycles() if not _package_cycle(group)] == []


def lazy_imports() -> list[tuple[str, int]]:
    """Every import statement (of anything) that stands inside a function or a class."""
    found = []
    for module, path in sorted(modules().items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        head = {id(node) for node in tree.body}
        head |= {id(n) for top in tree.body if isinstance(top, (ast.If, ast.Try)) for n in ast.walk(top)}
        found += [(module, node.lineno) for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in head]
    return found


def test_imports_stand_at_the_head_but_a_few_commented_ones():
    lazy = lazy_imports()
    uncommented = [(m, line) for m, line in lazy if "#" not in _line(m, line) and "#" not in _line(m, line - 1)]
    assert uncommented == [] and len(lazy) <= LAZY_MOST, (len(lazy), uncommented)


def _line(module: str, number: int) -> str:
    lines = modules()[module].read_text(encoding="utf-8").splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def test_the_top_level_holds_at_most_ten_modules():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 10, top


_FORK_EACH = """
import os, sys, traceback
failed = []
for name in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:
        try:
            __import__(name)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    if os.waitpid(pid, 0)[1]:
        failed.append(name)
print("FAILED", *failed)
"""


@pytest.mark.slow
def test_every_module_imports_first_in_a_fresh_interpreter():
    """A circle that only bites when a certain module is imported first shows here: each module
    is imported in a child forked before anything of pbem was imported."""
    names = sorted(m for m in modules() if m != "pbem.__main__")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", _FORK_EACH, *names], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.stdout.split() == ["FAILED"], done.stdout + done.stderr[-3000:]
