"""The store's tables: the core's (games, seats, events, inbound mail, the outbox, bounces,
meta), made with the store, and the way a layer declares its own (`Tables`), made by the layer
the first time it uses a store.

The core never names a layer's table: a league's, an open table's, a spectator's rows are
defined beside the code that keeps them. SCHEMA_VERSION counts the core's shape; a layer's
tables are made with `CREATE ... IF NOT EXISTS`, so a store of any version gains them when it is
first used by that layer. `meta` holds rows of the core's own: the schema version, and the
install's random id (`Store.install_id`), made on first use, so that a store of any version
gains it with no upgrade.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database

# 12: the layers' tables are no longer all made with the store, but each by its layer when it
# first uses the store (a pbem of schema 11 would expect every one of them there).
# 13: an inbound message keeps the name of the inbox's step that ended it (`inbound.step`).
SCHEMA_VERSION = 13
# Columns added after the first release, each with its type: an older store gains them on open.
_ADDED_COLUMNS = {
    # `step`: the step of the inbox's chain that ended the message (or was at work when it
    # failed); NULL for mail handled before it was kept, and for mail not handled yet.
    "inbound": {"message_id": "TEXT", "auth": "TEXT", "size": "INTEGER", "attempts": "INTEGER", "step": "TEXT"},
    # The secret seed's bytes (hex: an INTEGER column would turn "0001" into 1) and its SHA-256.
    "games": {"seed_hex": "TEXT", "commitment": "TEXT"},
    # What is kept of a sent mail's words once its text is forgotten (orders.original).
    "outbox": {"fingerprint": "BLOB"},
    # A seat pbem plays itself: the robot's level (CONTRACT section 12), NULL for a player.
    "seats": {"robot": "TEXT"},
    # A game event a rollback undid: the id of the rollback's own event (NULL: it stands).
    "events": {"undone": "INTEGER"},
}
_INDEXES = (
    # An address whose mail bounced for good, and why (the admins are told once per address).
    "CREATE TABLE IF NOT EXISTS bounces (address TEXT PRIMARY KEY, at TEXT, diagnostic TEXT, game_id TEXT)",
    "CREATE INDEX IF NOT EXISTS inbound_sender ON inbound (sender, received)",
    "CREATE INDEX IF NOT EXISTS inbound_auth ON inbound (auth, received)",
    "CREATE INDEX IF NOT EXISTS inbound_handled ON inbound (handled)",
    "CREATE INDEX IF NOT EXISTS outbox_message_id ON outbox (message_id)",
    "CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox (recipient, id)",
)
_NAMED = re.compile(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)")


@dataclass(frozen=True)
class Tables:
    """The tables (and their indexes) one layer owns, as `CREATE ... IF NOT EXISTS` statements.
    The layer asks `Store.with_tables` for the connection: the first time in a store that lacks
    any of them, they are made."""
    owner: str
    statements: tuple[str, ...]

    @cached_property  # asked at every use of a layer's rows
    def names(self) -> frozenset[str]:
        return frozenset(found.group(1) for sql in self.statements if (found := _NAMED.match(sql)))


def create(db: Database, conn: sqlite3.Connection) -> None:
    """The core's tables in a new store (`db`: sqlite-utils on `conn`)."""
    db.table("games").create({
        "id": str, "type": str, "status": str, "turn": int, "state": str, "options": str,
        "course": str, "seed": int, "created": str, "deadline": str, "deadline_every": str,
        "result": str, "paused": int, "paused_left": int, "reminded_turn": int, "seed_hex": str,
        "commitment": str},
        pk="id", not_null={"type", "status", "state"})
    db.table("seats").create({
        "game_id": str, "seat": int, "name": str, "address": str, "secret": str, "timezone": str,
        "robot": str},
        pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db.table("seats").create_index(["address"])
    db.table("seats").create_index(["secret"])
    db.table("events").create({
        "id": int, "game_id": str, "at": str, "kind": str, "seat": int, "data": str, "undone": int},
        pk="id", foreign_keys=[("game_id", "games", "id")])
    db.table("events").create_index(["game_id", "id"])
    db.table("inbound").create({
        "key": str, "received": str, "raw": bytes, "sender": str, "subject": str,
        "status": str, "note": str, "game_id": str, "handled": str, "message_id": str, "auth": str,
        "size": int, "attempts": int, "step": str}, pk="key")
    db.table("inbound").create_index(["status"])
    db.table("outbox").create({
        "id": int, "created": str, "game_id": str, "kind": str, "recipient": str,
        "message_id": str, "raw": bytes, "status": str, "attempts": int, "next_try": str,
        "sent": str, "error": str, "fingerprint": bytes}, pk="id")
    db.table("outbox").create_index(["status", "id"])
    db.table("senders").create({"address": str, "warned": str}, pk="address")
    db.table("meta").insert({"key": "schema", "value": str(SCHEMA_VERSION)}, pk="key")
    for sql in _INDEXES:
        conn.execute(sql)


def upgrade(conn: sqlite3.Connection) -> None:
    """An older store: the core's columns and indexes it lacks (rows are left as they are)."""
    for table, columns in _ADDED_COLUMNS.items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns.items():
            if name not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
    for sql in _INDEXES:
        conn.execute(sql)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", [str(SCHEMA_VERSION)])


def names_in(conn: sqlite3.Connection) -> set[str]:
    """The tables and indexes the store holds now."""
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
