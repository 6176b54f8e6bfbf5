"""The layers above the GM (leagues, open tables) are never imported by the GM: they register
themselves from above (DESIGN.md, CONTRACT section 13)."""
from __future__ import annotations

import ast
from pathlib import Path

import pbem
from pbem.gm import layers

PACKAGE = Path(pbem.__file__).parent
ABOVE = ("pbem.league", "pbem.tables")


def _imports(path: Path) -> list[str]:
    """Every module a file imports, absolute, wherever the import stands (in a function too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("pbem", *path.relative_to(PACKAGE).parent.parts))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.append(module)
            out += [f"{module}.{alias.name}" for alias in node.names]
    return out


def test_no_gm_module_imports_a_layer_above_it():
    gm_files = sorted((PACKAGE / "gm").glob("*.py"))
    assert len(gm_files) > 10
    wrong = [(path.name, name) for path in gm_files for name in _imports(path)
             if any(name == top or name.startswith(top + ".") for top in ABOVE)]
    assert wrong == []


def test_the_import_reader_sees_a_relative_import_upwards(tmp_path):
    # The reader itself could miss one: a file of pbem/gm that did import the league is caught.
    probe = PACKAGE / "gm" / "_probe_layers.py"
    probe.write_text("def f():\n    from ..league import absence\n    from ..tables import book\n", encoding="utf-8")
    try:
        names = _imports(probe)
    finally:
        probe.unlink()
    assert "pbem.league.absence" in names and "pbem.tables.book" in names


def test_layers_are_registered_from_above(tmp_path):
    from pbem.app import App
    from pbem.config import local_defaults
    with App.open(local_defaults(tmp_path)) as app:
        app.gm
        names = [layer.name for layer in layers.above()]
    assert "league" in names and "tables" in names
    assert all(isinstance(layer, layers.Layer) for layer in layers.above())
