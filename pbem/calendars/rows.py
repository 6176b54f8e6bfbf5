"""The calendars as the store keeps them: each deadline event's time as last stated and its
SEQUENCE (by UID), and the players who asked for a calendar part in their mail (SET CALENDAR
ON). The calendars' own tables, made on first use."""
from __future__ import annotations

import sqlite3
from datetime import datetime

from pbem.store import Store, Tables, iso

TABLES = Tables("calendars", (
    "CREATE TABLE IF NOT EXISTS calendar_events (uid TEXT PRIMARY KEY, at TEXT, sequence INTEGER)",
    "CREATE TABLE IF NOT EXISTS calendar_players (address TEXT PRIMARY KEY, since TEXT)",
))


def _conn(store: Store) -> sqlite3.Connection:
    return store.with_tables(TABLES)


def set_calendar(store: Store, address: str, on: bool, now: datetime) -> None:
    if on:
        _conn(store).execute("INSERT OR IGNORE INTO calendar_players (address, since) VALUES (?, ?)",
                             [address, iso(now)])
    else:
        _conn(store).execute("DELETE FROM calendar_players WHERE address = ?", [address])


def calendar_players(store: Store) -> frozenset:
    return frozenset(r[0] for r in _conn(store).execute("SELECT address FROM calendar_players"))


def restated(store: Store, uid: str, at: str) -> int:
    """The event's SEQUENCE once it is stated at `at` (ISO text): 0 the first time, one more
    each time its time has moved since."""
    conn = _conn(store)
    row = conn.execute("SELECT at, sequence FROM calendar_events WHERE uid = ?", [uid]).fetchone()
    if row is None:
        conn.execute("INSERT INTO calendar_events (uid, at, sequence) VALUES (?, ?, 0)", [uid, at])
        return 0
    if row[0] == at:
        return row[1]
    conn.execute("UPDATE calendar_events SET at = ?, sequence = ? WHERE uid = ?", [at, row[1] + 1, uid])
    return row[1] + 1


__all__ = ["TABLES", "calendar_players", "restated", "set_calendar"]
