"""The store is a core (games, seats, events, inbound mail, the outbox) and the rows each layer
keeps itself, in tables the layer declares and makes the first time it uses a store."""
from __future__ import annotations

import ast
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

import pbem
from pbem.calendars import rows as calendar_rows
from pbem.gm import gm_password, spectators
from pbem.league import rows as league_rows
from pbem.store import SCHEMA_VERSION, Store
from pbem.tables import book

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
CORE = {"games", "seats", "events", "inbound", "outbox", "senders", "bounces", "meta"}
LAYERS = (league_rows.TABLES, book.TABLES, calendar_rows.TABLES, spectators.TABLES, gm_password.TABLES)
ABOVE_THE_STORE = ("pbem.gm", "pbem.league", "pbem.tables", "pbem.calendars", "pbem.ratings")


def tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


def test_a_new_store_holds_the_core_and_each_layer_makes_its_own_tables_when_it_first_uses_them(tmp_path):
    path = tmp_path / "pbem.sqlite3"
    store = Store(path)
    assert tables(path) == CORE
    assert league_rows.leagues(store) == []
    assert tables(path) == CORE | {"leagues", "league_events", "league_tokens"}
    assert book.has_open_tables(store) is False
    spectators.close_to_spectators(store, "m1", NOW)
    assert spectators.closed_to_spectators(store, "m1") and not spectators.closed_to_spectators(store, "m2")
    store.close()
    made = tables(path)
    assert {"open_tables", "table_seats", "table_requests", "observers", "closed_to_spectators"} <= made
    assert "calendar_players" not in made and "gm_password_misses" not in made  # not used yet


def test_every_layer_table_is_its_own_and_none_is_the_cores():
    names = [name for owned in LAYERS for name in owned.names]
    assert len(names) == len(set(names)) and not set(names) & CORE
    assert all(len(owned.names) == len(owned.statements) for owned in LAYERS)  # each statement names one


def test_a_store_that_has_a_layers_tables_is_not_asked_to_make_them_again(tmp_path):
    path = tmp_path / "pbem.sqlite3"
    store = Store(path)
    league_rows.add_league(store, "cup", "Winter Cup", {"rounds": 1}, NOW)
    store.close()
    store = Store(path)
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    assert [lg["name"] for lg in league_rows.leagues(store)] == ["Winter Cup"]
    assert league_rows.league(store, "cup")["plan"] == {"rounds": 1}
    store.close()
    assert not [sql for sql in statements if sql.startswith("CREATE")], statements


def test_tables_made_in_a_transaction_that_rolls_back_are_made_again(tmp_path):
    store = Store(tmp_path / "pbem.sqlite3")
    with pytest.raises(RuntimeError):
        with store.transaction():
            calendar_rows.set_calendar(store, "george@example.test", True, NOW)
            raise RuntimeError("the message failed")
    assert "calendar_players" not in tables(tmp_path / "pbem.sqlite3")
    calendar_rows.set_calendar(store, "george@example.test", True, NOW)
    assert calendar_rows.calendar_players(store) == frozenset({"george@example.test"})
    store.close()


def test_a_store_of_the_last_schema_with_every_table_opens_with_its_rows(tmp_path):
    """A store written before the split (schema 11, every layer's table made with it) keeps
    working: same tables, same columns, its rows read by their owners."""
    path = tmp_path / "pbem.sqlite3"
    store = Store(path)
    for owned in LAYERS:
        store.with_tables(owned)
    gm_password.add_miss(store, "admin@example.test", NOW, alarm=True)
    store.conn.execute("UPDATE meta SET value = '11' WHERE key = 'schema'")
    store.close()
    store = Store(path)
    assert store.meta("schema") == str(SCHEMA_VERSION)
    assert gm_password.misses_since(store, NOW) == [{"at": NOW, "sender": "admin@example.test", "alarm": True}]
    store.close()


def test_a_store_of_schema_12_gains_the_step_of_its_inbound_mail_and_keeps_the_mail(tmp_path):
    """Schema 13 keeps the inbox's step that ended each message (`inbound.step`): an older store
    gains the column when it is opened, its mail listed as it was, with no step."""
    path = tmp_path / "pbem.sqlite3"
    store = Store(path)
    store.inbound.keep("k1", b"From: george@example.test\n\nPLAY 4 4 5\n", NOW, sender="george@example.test",
                       subject="orders")
    store.inbound.mark("k1", "failed", NOW, "RuntimeError: engine exploded")
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE inbound DROP COLUMN step")
    conn.execute("UPDATE meta SET value = '12' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    store = Store(path)
    try:
        assert store.meta("schema") == str(SCHEMA_VERSION)
        (row,) = store.inbound.rows("failed")
        assert row["step"] is None and row["note"] == "RuntimeError: engine exploded"
        store.inbound.mark("k1", "failed", NOW, "RuntimeError: engine exploded", step="commands")
        assert [r["step"] for r in store.inbound.rows("failed")] == ["commands"]
    finally:
        store.close()


def test_the_store_imports_no_layer_above_it():
    package = Path(pbem.__file__).parent
    wrong = []
    for path in sorted((package / "store").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            wrong += [(path.name, name) for name in names
                      if any(name == top or name.startswith(top + ".") for top in ABOVE_THE_STORE)]
    assert len(list((package / "store").glob("*.py"))) >= 5
    assert wrong == []


def test_the_install_id_is_made_once_on_first_use_and_kept(tmp_path):
    path = tmp_path / "pbem.sqlite3"
    store = Store(path)
    assert store.meta("install") is None  # made when first asked for, in a new store as in an old one
    made = store.install_id()
    assert len(made) == 16 and int(made, 16) >= 0 and store.install_id() == made
    store.close()
    store = Store(path)
    assert store.install_id() == made and store.meta("install") == made
    store.close()
    assert Store(tmp_path / "other.sqlite3").install_id() != made


def test_an_install_id_made_in_a_transaction_that_rolls_back_is_not_kept(tmp_path):
    store = Store(tmp_path / "pbem.sqlite3")
    with pytest.raises(RuntimeError):
        with store.transaction():
            lost = store.install_id()
            raise RuntimeError("the message failed")
    assert store.meta("install") is None
    kept = store.install_id()
    assert kept != lost and store.meta("install") == kept
    store.close()
