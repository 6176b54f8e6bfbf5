"""The digests as the store keeps them: who asked for one (SET DIGEST), at what time of day, with
the token of its List-Unsubscribe, and when the next one falls due; and every mail held for a
digest, in the order it was written, until the digest that carried it was queued. The digests'
own tables, made on first use.

An item is written in the transaction that would have queued its mail, and marked carried in the
transaction that queues the digest: so a digest holds each item once, whatever is killed when.
"""
from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import NamedTuple

from pbem.store import Store, Tables
from pbem.store.values import from_iso, iso, moment

TABLES = Tables("digests", (
    # `at`: the time of day (HH:MM, the reader's zone) of the daily digest, NULL once it is off
    # (the row stays, and its token with it, so a second unsubscribe is told it is off already).
    # `next_at`: when the next digest falls due (UTC), set when the first item of one is held.
    "CREATE TABLE IF NOT EXISTS digest_readers (address TEXT PRIMARY KEY, at TEXT, token TEXT UNIQUE, "
    "since TEXT, next_at TEXT)",
    # `carried`: when the digest that carried the item was queued (NULL: it waits); `followed`: 1
    # for a spectator's mail (its text says how to stop it).
    "CREATE TABLE IF NOT EXISTS digest_items (id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT, held TEXT, "
    "game_id TEXT, kind TEXT, subject TEXT, text TEXT, followed INTEGER, carried TEXT)",
    "CREATE INDEX IF NOT EXISTS digest_items_waiting ON digest_items (address, carried)",
))


class Reader(NamedTuple):
    address: str
    at: str | None  # HH:MM, or None: off
    token: str
    next_at: datetime | None


class Item(NamedTuple):
    id: int
    held: datetime
    game_id: str | None
    kind: str
    subject: str
    text: str
    followed: bool


def _conn(store: Store) -> sqlite3.Connection:
    return store.with_tables(TABLES)


def set_reader(store: Store, address: str, at: str | None, new_token: str, now: datetime) -> Reader:
    """The address's digest at `at` (None: off), its token made once (`new_token`)."""
    conn = _conn(store)
    conn.execute("INSERT INTO digest_readers (address, at, token, since) VALUES (?, ?, ?, ?) "
                 "ON CONFLICT (address) DO UPDATE SET at = excluded.at, since = excluded.since",
                 [address, at, new_token.lower(), iso(now)])
    found = reader(store, address)
    assert found is not None  # written just now
    return found


def reader(store: Store, address: str) -> Reader | None:
    row = _conn(store).execute("SELECT address, at, token, next_at FROM digest_readers WHERE address = ?",
                               [address]).fetchone()
    return Reader(row[0], row[1], row[2], from_iso(row[3]) if row[3] else None) if row else None


def reader_by_token(store: Store, token: str) -> Reader | None:
    row = _conn(store).execute("SELECT address FROM digest_readers WHERE token = ?", [token.lower()]).fetchone()
    return reader(store, row[0]) if row else None


def readers(store: Store) -> frozenset:
    """Every address whose digest is on (read once a pass)."""
    return frozenset(r[0] for r in _conn(store).execute("SELECT address FROM digest_readers WHERE at IS NOT NULL"))


def set_next(store: Store, address: str, when: datetime | None) -> None:
    _conn(store).execute("UPDATE digest_readers SET next_at = ? WHERE address = ?", [iso(when), address])


def hold(store: Store, address: str, now: datetime, game_id: str | None, kind: str, subject: str, text: str,
         followed: bool) -> bool:
    """The item kept for the address's next digest; True when it is the first one waiting."""
    conn = _conn(store)
    first = conn.execute("SELECT 1 FROM digest_items WHERE address = ? AND carried IS NULL LIMIT 1",
                         [address]).fetchone() is None
    conn.execute("INSERT INTO digest_items (address, held, game_id, kind, subject, text, followed) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)", [address, iso(now), game_id, kind, subject, text, int(followed)])
    return first


def waiting(store: Store, address: str, most: int, chars: int) -> tuple[list[Item], int]:
    """The items of the address's next digest, oldest first: at most `most` of them and about
    `chars` characters of text (the first always, however long), and how many wait beyond them."""
    conn = _conn(store)
    total = conn.execute("SELECT count(*) FROM digest_items WHERE address = ? AND carried IS NULL",
                         [address]).fetchone()[0]
    items: list[Item] = []
    size = 0
    for row in conn.execute("SELECT id, held, game_id, kind, subject, text, followed FROM digest_items "
                            "WHERE address = ? AND carried IS NULL ORDER BY id LIMIT ?", [address, most]):
        if items and size + len(row[5]) > chars:
            break
        size += len(row[5])
        items.append(Item(row[0], moment(row[1]), row[2], row[3], row[4], row[5], bool(row[6])))
    return items, total - len(items)


def carried(store: Store, ids: list[int], now: datetime) -> None:
    conn = _conn(store)
    for start in range(0, len(ids), 500):  # within SQLite's limit of variables
        chunk = ids[start:start + 500]
        conn.execute(f"UPDATE digest_items SET carried = ? WHERE id IN ({', '.join('?' * len(chunk))})",
                     [iso(now), *chunk])


def due(store: Store, now: datetime) -> list[str]:
    """The addresses whose digest falls due by `now` with something in it."""
    return [r[0] for r in _conn(store).execute(
        "SELECT address FROM digest_readers r WHERE at IS NOT NULL AND next_at IS NOT NULL AND next_at <= ? AND "
        "EXISTS (SELECT 1 FROM digest_items i WHERE i.address = r.address AND i.carried IS NULL) ORDER BY address",
        [iso(now)])]


def next_due(store: Store) -> datetime | None:
    """When the next digest with something in it falls due (for the daemon's sleep)."""
    row = _conn(store).execute(
        "SELECT min(next_at) FROM digest_readers r WHERE at IS NOT NULL AND next_at IS NOT NULL AND "
        "EXISTS (SELECT 1 FROM digest_items i WHERE i.address = r.address AND i.carried IS NULL)").fetchone()
    return from_iso(row[0]) if row and row[0] else None


def latest_zone(store: Store, address: str) -> str | None:
    """The time zone the address plays in: its latest seat's that has one (SET TIMEZONE, or a
    league file's `timezone:`), or None (UTC)."""
    row = store.conn.execute("SELECT timezone FROM seats WHERE address = ? AND timezone IS NOT NULL "
                             "ORDER BY rowid DESC LIMIT 1", [address]).fetchone()
    return row[0] if row else None


__all__ = ["TABLES", "Item", "Reader", "carried", "due", "hold", "latest_zone", "next_due", "reader",
           "reader_by_token", "readers", "set_next", "set_reader", "waiting"]
