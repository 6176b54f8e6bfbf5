"""The absences as the store keeps them: each span of days a player asked for (or a day that
AUTOABSENCE took), in the zone its days were counted in, and whether SET ABSENCE OFF ended it
early; the players who set AUTOABSENCE ON. The absences' own tables, made on first use.

Before this layer a league kept its players' absences as league events. A store that has them
has them copied here the first time the absences' tables are used (`migrate`), and the league's
events are left as they were: from then on only these rows are read."""
from __future__ import annotations

import json
import sqlite3
import weakref
from datetime import date, datetime
from typing import NamedTuple

from pbem.store import Store, Tables, iso

TABLES = Tables("absences", (
    # `kind`: `away` (SET ABSENCE: moves deadlines) or `auto` (a day AUTOABSENCE took for `game_id`,
    # which counts against the allowance only). `ended`: when SET ABSENCE OFF ended it (UTC, ISO).
    "CREATE TABLE IF NOT EXISTS absences (id INTEGER PRIMARY KEY, address TEXT, first TEXT, last TEXT, "
    "zone TEXT, kind TEXT, game_id TEXT, at TEXT, ended TEXT)",
    "CREATE INDEX IF NOT EXISTS absences_address ON absences (address, first)",
    "CREATE TABLE IF NOT EXISTS absence_auto (address TEXT PRIMARY KEY, since TEXT)",
    "CREATE TABLE IF NOT EXISTS absence_meta (key TEXT PRIMARY KEY, value TEXT)",
))
AWAY, AUTO = "away", "auto"
# The stores whose league absences have been looked for this process (once a store).
_MIGRATED: weakref.WeakSet = weakref.WeakSet()


class Span(NamedTuple):
    """One absence row: days `first` to `last` in `zone` (None: UTC)."""
    id: int
    address: str
    first: date
    last: date
    zone: str | None
    kind: str
    game_id: str | None
    at: str
    ended: str | None


def _conn(store: Store) -> sqlite3.Connection:
    conn = store.with_tables(TABLES)
    if store not in _MIGRATED:
        migrate(store, conn)
        _MIGRATED.add(store)
    return conn


def migrate(store: Store, conn: sqlite3.Connection) -> int:
    """Copy a league's absences (its events, as leagues kept them before this layer) here, once
    a store; returns how many."""
    if conn.execute("SELECT 1 FROM absence_meta WHERE key = 'league events'").fetchone():
        return 0
    copied = 0
    with store.transaction():
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'league_events'").fetchone():
            for at, data in conn.execute("SELECT at, data FROM league_events WHERE kind = 'absence' ORDER BY id")\
                    .fetchall():
                event = json.loads(data)
                conn.execute("INSERT INTO absences (address, first, last, zone, kind, game_id, at, ended) "
                             "VALUES (?, ?, ?, ?, ?, NULL, ?, NULL)",
                             [event["address"], event["first"], event["last"], event.get("zone"), AWAY, at])
                copied += 1
        conn.execute("INSERT INTO absence_meta (key, value) VALUES ('league events', ?)", [str(copied)])
    return copied


_COLUMNS = "id, address, first, last, zone, kind, game_id, at, ended"


def _span(row) -> Span:
    r_id, address, first, last, zone, kind, game_id, at, ended = row
    return Span(r_id, address, date.fromisoformat(first), date.fromisoformat(last), zone, kind, game_id, at, ended)


def spans(store: Store, addresses, kind: str | None = None) -> list[Span]:
    """The absences of these addresses (of one kind), oldest first."""
    wanted = sorted({a.lower() for a in addresses})
    if not wanted:
        return []
    marks = ",".join("?" * len(wanted))
    rows = _conn(store).execute(f"SELECT {_COLUMNS} FROM absences WHERE address IN ({marks}) "
                                "AND (? IS NULL OR kind = ?) ORDER BY id", [*wanted, kind, kind])
    return [_span(r) for r in rows]


def away_addresses(store: Store, since: date) -> list[str]:
    """The addresses with an absence whose last day is `since` or later (a cheap first look)."""
    return [r[0] for r in _conn(store).execute(
        "SELECT DISTINCT address FROM absences WHERE kind = ? AND ended IS NULL AND last >= ?",
        [AWAY, since.isoformat()])]


def add(store: Store, address: str, first: date, last: date, zone: str | None, now: datetime, kind: str = AWAY,
        game_id: str | None = None) -> None:
    _conn(store).execute("INSERT INTO absences (address, first, last, zone, kind, game_id, at, ended) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                         [address.lower(), first.isoformat(), last.isoformat(), zone, kind, game_id, iso(now)])


def end(store: Store, span_id: int, last: date, now: datetime) -> None:
    """SET ABSENCE OFF on an absence under way: its last day is today, and it ends now."""
    _conn(store).execute("UPDATE absences SET last = ?, ended = ? WHERE id = ?", [last.isoformat(), iso(now), span_id])


def drop(store: Store, span_id: int) -> None:
    """SET ABSENCE OFF on an absence not begun: it is gone, and its days with it."""
    _conn(store).execute("DELETE FROM absences WHERE id = ?", [span_id])


def set_auto(store: Store, address: str, on: bool, now: datetime) -> None:
    if on:
        _conn(store).execute("INSERT OR IGNORE INTO absence_auto (address, since) VALUES (?, ?)",
                             [address.lower(), iso(now)])
    else:
        _conn(store).execute("DELETE FROM absence_auto WHERE address = ?", [address.lower()])


def auto_on(store: Store, address: str) -> bool:
    return _conn(store).execute("SELECT 1 FROM absence_auto WHERE address = ?", [address.lower()]).fetchone() \
        is not None


__all__ = ["AUTO", "AWAY", "TABLES", "Span", "add", "auto_on", "away_addresses", "drop", "end", "migrate",
           "set_auto", "spans"]
