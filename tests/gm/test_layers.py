"""The layers above the GM (leagues, open tables) are never imported by the GM: they register
themselves from above (DESIGN.md, CONTRACT section 13)."""
from __future__ import annotations

import ast
from pathlib import Path

import pbem
from pbem.gm import layers

PACKAGE = Path(pbem.__file__).parent
ABOVE = ("pbem.league", "pbem.tables", "pbem.absences", "pbem.digests")


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
    probe.write_text("def f():\n    from ..league import changes\n    from ..tables import book\n", encoding="utf-8")
    try:
        names = _imports(probe)
    finally:
        probe.unlink()
    assert "pbem.league.changes" in names and "pbem.tables.book" in names


def test_layers_are_registered_from_above(tmp_path):
    from pbem.app import App
    from pbem.config import local_defaults
    with App.open(local_defaults(tmp_path)) as app:
        _ = app.gm  # the app's GM registers the layers above it
        names = [layer.name for layer in layers.above()]
    assert "league" in names and "tables" in names and "digests" in names
    assert all(isinstance(layer, layers.Layer) for layer in layers.above())


class Listener(layers.Layer):
    """A layer that only writes down what the GM tells it."""
    name = "listener"

    def __init__(self):
        self.heard = []

    def game_ended(self, store, postman, table):
        self.heard.append(("ended", table.id, table.row.status))

    def seat_replaced(self, store, postman, table, seat, old_address):
        self.heard.append(("replaced", table.id, old_address, seat.address))

    def rolled_back(self, store, postman, table, to_turn):
        self.heard.append(("rolled back", table.id, to_turn))

    def deadline(self, store, game_id, addresses, moment):
        self.heard.append(("deadline", game_id))
        return moment


def test_the_gm_tells_the_layers_of_an_end_a_replacement_a_rollback_and_each_deadline(table):
    import random

    from conftest import BILL, GEORGE
    from pbem.games.matchplay import random_orders
    listener = Listener()
    layers.register(listener)
    try:
        table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--id", "m1",
                   "--deadline", "48h", now="2026-12-01T10:00:00Z")
        assert ("deadline", "m1") in listener.heard
        table.pbem("gm", "REPLACE", "m1", BILL, "Will <will@example.test>")
        assert ("replaced", "m1", BILL, "will@example.test") in listener.heard
        rng = random.Random(1)
        for _ in range(6):
            state = table.load().state
            for seat, address in enumerate((GEORGE, "will@example.test")):
                table.send(address, str(random_orders(state, seat, rng)), subject="Re: [m1] x",
                           to=table.reply_to_game(address, "m1"))
            table.pbem("process")
        assert ("ended", "m1", "finished") in listener.heard
        table.pbem("gm", "ROLLBACK", "m1", "TO", "2")
        assert listener.heard[-1] == ("rolled back", "m1", 2) or ("rolled back", "m1", 2) in listener.heard
        table.pbem("gm", "ABANDON", "m1")
        assert listener.heard.count(("ended", "m1", "finished")) == 1
        assert ("ended", "m1", "abandoned") in listener.heard
    finally:
        layers._LAYERS.pop("listener", None)
