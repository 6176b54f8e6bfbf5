"""The open tables as the store keeps them: the tables the GM opened, who sat down at each, and
the JOINs that wait for their confirmation (CONTRACT section 13).

Plain SQL on the store's connection, inside the caller's transaction; times as ISO text. The
tables' own tables, made on first use.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from pbem.store import Store, Tables, from_iso, iso, moment

# A table's token is `t` and 16 hex digits: a game's secret or a spectator's token is hex alone,
# so the first letter tells a table's mail from a player's without asking the store.
TOKEN_PREFIX = "t"
_TOKEN_LENGTH = 17
_HEX = frozenset("0123456789abcdef")
# An expired question is kept this long after it expired, to say so to a late answer.
KEPT_EXPIRED = timedelta(days=30)


class TableStatus(StrEnum):
    """Where an open table stands (`open_tables.status`)."""
    OPEN = "open"          # players may sit down
    STARTED = "started"    # it became a game (`game`)
    CLOSED = "closed"      # it ended without a game (the GM closed it, or too few sat down)


TABLES = Tables("tables", (
    "CREATE TABLE IF NOT EXISTS open_tables (id TEXT PRIMARY KEY, type TEXT, seats INTEGER, min INTEGER, "
    "course TEXT, options TEXT, deadline TEXT, starts TEXT, fill TEXT, status TEXT, game TEXT, created TEXT, "
    "closed TEXT)",
    "CREATE INDEX IF NOT EXISTS open_tables_status ON open_tables (status, starts)",
    "CREATE TABLE IF NOT EXISTS table_seats (table_id TEXT, address TEXT, name TEXT, token TEXT UNIQUE, "
    "joined TEXT, PRIMARY KEY (table_id, address))",
    "CREATE TABLE IF NOT EXISTS table_requests (token TEXT PRIMARY KEY, table_id TEXT, address TEXT, name TEXT, "
    "asked TEXT, expires TEXT, used TEXT)",
    "CREATE INDEX IF NOT EXISTS table_requests_address ON table_requests (address, asked)",
    # A table's least share of deadlines met (`--min-on-time`), in a table of its own so that a
    # store made before it gains it as a layer's table, with no column to add.
    "CREATE TABLE IF NOT EXISTS table_rules (table_id TEXT PRIMARY KEY, min_on_time REAL)",
))


def new_token() -> str:
    """A one-time token or a seat's token: 64 bits from the system's random source."""
    return TOKEN_PREFIX + secrets.token_hex(8)


def is_table_token(token: str | None) -> bool:
    """Whether `token` looks like a table's (a pure text check: no store is read)."""
    if not token or len(token) != _TOKEN_LENGTH:
        return False
    token = token.lower()
    return token[0] == TOKEN_PREFIX and set(token[1:]) <= _HEX


@dataclass
class OpenTable:
    id: str
    type: str
    seats: int
    min: int
    course: dict            # {name, pars, description, extras}: the course itself, as opened
    options: dict           # the game's options, nmr settled when the table was opened
    deadline: str | None    # the game's time for each turn (48h ...), settled when opened
    starts: datetime | None
    fill: str               # robots | wait | cancel
    status: str             # a TableStatus
    game: str | None
    created: datetime
    closed: datetime | None = None


@dataclass
class TableSeat:
    table_id: str
    address: str
    name: str
    token: str
    joined: datetime


@dataclass
class Request:
    token: str
    table_id: str
    address: str
    name: str
    asked: datetime
    expires: datetime
    used: datetime | None


_TABLE_COLUMNS = "id, type, seats, min, course, options, deadline, starts, fill, status, game, created, closed"


def _table(row: Sequence[Any]) -> OpenTable:
    (id_, type_, seats, least, course, options, deadline, starts, fill, status, game, created, closed) = row
    return OpenTable(id_, type_, seats, least, json.loads(course), json.loads(options), deadline, from_iso(starts),
                     fill, status, game, moment(created), from_iso(closed))


def _conn(store: Store) -> sqlite3.Connection:
    return store.with_tables(TABLES)


# -- tables -------------------------------------------------------------------------------------
def has_open_tables(store: Store) -> bool:
    return _conn(store).execute("SELECT 1 FROM open_tables WHERE status = ? LIMIT 1",
                                [TableStatus.OPEN]).fetchone() is not None


def add_table(store: Store, t: OpenTable) -> None:
    _conn(store).execute(
        f"INSERT INTO open_tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [t.id, t.type, t.seats, t.min, json.dumps(t.course, default=str), json.dumps(t.options), t.deadline,
         iso(t.starts), t.fill, t.status, t.game, iso(t.created), iso(t.closed)])


def set_min_on_time(store: Store, table_id: str, least: float) -> None:
    _conn(store).execute("INSERT OR REPLACE INTO table_rules (table_id, min_on_time) VALUES (?, ?)",
                         [table_id, least])


def min_on_time(store: Store, table_id: str) -> float | None:
    """The least share of deadlines met a JOIN needs at the table (None: anyone may join)."""
    row = _conn(store).execute("SELECT min_on_time FROM table_rules WHERE table_id = ?", [table_id]).fetchone()
    return row[0] if row else None


def table(store: Store, table_id: str) -> OpenTable | None:
    row = _conn(store).execute(f"SELECT {_TABLE_COLUMNS} FROM open_tables WHERE id = ?", [table_id]).fetchone()
    return _table(row) if row else None


def known_table(store: Store, table_id: str) -> OpenTable:
    """The table a seat or a JOIN's question belongs to (a table is never deleted, so it is there)."""
    found = table(store, table_id)
    if found is None:
        raise KeyError(f"no table {table_id} in the store")
    return found


def table_but_for_case(store: Store, table_id: str) -> OpenTable | None:
    """The one table whose id is `table_id` in another case (`JOIN Table-1`), or None."""
    rows = _conn(store).execute(f"SELECT {_TABLE_COLUMNS} FROM open_tables WHERE lower(id) = lower(?)",
                              [table_id]).fetchall()
    return _table(rows[0]) if len(rows) == 1 else None


def tables(store: Store) -> list[OpenTable]:
    """Every table: the open ones first, then those started, then the closed; oldest first."""
    rows = _conn(store).execute(
        f"SELECT {_TABLE_COLUMNS} FROM open_tables ORDER BY CASE status WHEN ? THEN 0 "
        "WHEN ? THEN 1 ELSE 2 END, created, rowid", [TableStatus.OPEN, TableStatus.STARTED]).fetchall()
    return [_table(row) for row in rows]


def open_tables(store: Store, type_name: str | None = None) -> list[OpenTable]:
    """The open tables (of one game type), oldest first."""
    sql = f"SELECT {_TABLE_COLUMNS} FROM open_tables WHERE status = ?"
    args: list[object] = [TableStatus.OPEN]
    if type_name is not None:
        sql += " AND type = ?"
        args.append(type_name)
    return [_table(row) for row in _conn(store).execute(sql + " ORDER BY created, rowid", args).fetchall()]


def due_tables(store: Store, now: datetime) -> list[OpenTable]:
    """The open tables whose start time has come."""
    rows = _conn(store).execute(f"SELECT {_TABLE_COLUMNS} FROM open_tables WHERE status = ? "
                                "AND starts IS NOT NULL AND starts <= ? ORDER BY starts, rowid",
                                [TableStatus.OPEN, iso(now)])
    return [_table(row) for row in rows.fetchall()]


def set_status(store: Store, table_id: str, status: TableStatus, now: datetime, game: str | None = None) -> None:
    _conn(store).execute("UPDATE open_tables SET status = ?, game = ?, closed = ? WHERE id = ?",
                         [TableStatus(status), game, iso(now) if status == TableStatus.CLOSED else None, table_id])


def id_taken(store: Store, table_id: str) -> bool:
    """Whether a table or a game has this id already."""
    return table(store, table_id) is not None or store.game_exists(table_id)


def next_id(store: Store) -> str:
    n = 1
    while id_taken(store, f"table-{n}"):
        n += 1
    return f"table-{n}"


# -- seats --------------------------------------------------------------------------------------
_SEAT_COLUMNS = "table_id, address, name, token, joined"


def _seat(row: Sequence[Any]) -> TableSeat:
    return TableSeat(row[0], row[1], row[2], row[3], moment(row[4]))


def seats(store: Store, table_id: str) -> list[TableSeat]:
    """Who sat down, in the order they did."""
    rows = _conn(store).execute(f"SELECT {_SEAT_COLUMNS} FROM table_seats WHERE table_id = ? ORDER BY joined, rowid",
                              [table_id]).fetchall()
    return [_seat(row) for row in rows]


def seat_of(store: Store, table_id: str, address: str) -> TableSeat | None:
    row = _conn(store).execute(f"SELECT {_SEAT_COLUMNS} FROM table_seats WHERE table_id = ? AND address = ?",
                             [table_id, address.lower()]).fetchone()
    return _seat(row) if row else None


def seat_by_token(store: Store, token: str) -> TableSeat | None:
    row = _conn(store).execute(f"SELECT {_SEAT_COLUMNS} FROM table_seats WHERE token = ?", [token.lower()]).fetchone()
    return _seat(row) if row else None


def add_seat(store: Store, table_id: str, address: str, name: str, now: datetime) -> TableSeat:
    seat = TableSeat(table_id, address.lower(), name, new_token(), now)
    _conn(store).execute(f"INSERT INTO table_seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                       [seat.table_id, seat.address, seat.name, seat.token, iso(now)])
    return seat


def drop_seat(store: Store, table_id: str, address: str) -> None:
    _conn(store).execute("DELETE FROM table_seats WHERE table_id = ? AND address = ?", [table_id, address.lower()])


# -- the JOINs that wait for their answer -------------------------------------------------------
_REQUEST_COLUMNS = "token, table_id, address, name, asked, expires, used"


def add_request(store: Store, table_id: str, address: str, name: str, now: datetime, expires: datetime) -> Request:
    """A JOIN that waits for its confirmation. Questions that expired long ago go."""
    _conn(store).execute("DELETE FROM table_requests WHERE expires < ?", [iso(now - KEPT_EXPIRED)])
    request = Request(new_token(), table_id, address.lower(), name, now, expires, None)
    _conn(store).execute(f"INSERT INTO table_requests ({_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL)",
                       [request.token, table_id, request.address, name, iso(now), iso(expires)])
    return request


def request(store: Store, token: str) -> Request | None:
    row = _conn(store).execute(f"SELECT {_REQUEST_COLUMNS} FROM table_requests WHERE token = ?",
                             [token.lower()]).fetchone()
    if row is None:
        return None
    return Request(row[0], row[1], row[2], row[3], moment(row[4]), moment(row[5]), from_iso(row[6]))


def use_request(store: Store, token: str, now: datetime) -> None:
    _conn(store).execute("UPDATE table_requests SET used = ? WHERE token = ?", [iso(now), token.lower()])


def asked_lately(store: Store, table_id: str, address: str, since: datetime, now: datetime) -> bool:
    """Whether `address` was asked to confirm a seat at this table since then (and may still answer)."""
    return _conn(store).execute(
        "SELECT 1 FROM table_requests WHERE address = ? AND table_id = ? AND asked >= ? AND expires > ? "
        "AND used IS NULL LIMIT 1", [address.lower(), table_id, iso(since), iso(now)]).fetchone() is not None


def pending(store: Store, table_id: str, now: datetime) -> int:
    """The JOINs of this table not yet confirmed that still may be."""
    return _conn(store).execute("SELECT count(*) FROM table_requests WHERE table_id = ? AND used IS NULL "
                              "AND expires > ?", [table_id, iso(now)]).fetchone()[0]


__all__ = ["KEPT_EXPIRED", "TABLES", "OpenTable", "Request", "TableSeat", "TableStatus", "add_request", "add_seat",
           "add_table", "asked_lately", "drop_seat", "due_tables", "has_open_tables", "id_taken", "is_table_token",
           "known_table", "new_token", "next_id", "open_tables", "pending", "request", "seat_by_token", "seat_of",
           "seats", "set_status", "table", "table_but_for_case", "tables", "use_request"]
