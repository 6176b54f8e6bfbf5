"""The calendars as the store keeps them: each event's time as last stated and its SEQUENCE (by
UID); the players who asked for a calendar part in their mail (SET CALENDAR ON); the deadline
events each reader was sent and holds (not withdrawn since), so that the GM withdraws exactly
those, once; and, apart, the round openings each league player was sent in a league's welcome
(a season's entries, read only when a player leaves the league, never for a game's mail). The
calendars' own tables, made on first use."""
from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import NamedTuple

from pbem.store import Store, Tables, iso

TABLES = Tables("calendars", (
    "CREATE TABLE IF NOT EXISTS calendar_events (uid TEXT PRIMARY KEY, at TEXT, sequence INTEGER)",
    "CREATE TABLE IF NOT EXISTS calendar_players (address TEXT PRIMARY KEY, since TEXT)",
    # `at`: the event's time as the reader has it; `summary`: its title, for the withdrawal.
    "CREATE TABLE IF NOT EXISTS calendar_sent (address TEXT, game_id TEXT, uid TEXT, at TEXT, summary TEXT,"
    " PRIMARY KEY (address, uid))",
    # The round openings a league's welcome put in a player's calendar, as they have them.
    "CREATE TABLE IF NOT EXISTS calendar_season (address TEXT, league_id TEXT, uid TEXT, at TEXT, summary TEXT,"
    " PRIMARY KEY (address, uid))",
))
# What `calendar_events.at` says of an event withdrawn: no time, so stating it again raises it.
WITHDRAWN = "withdrawn"


class Held(NamedTuple):
    """A deadline event a reader was sent, as they have it."""
    uid: str
    at: str  # ISO, UTC
    summary: str


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
    each time its time has moved since (or it was withdrawn)."""
    conn = _conn(store)
    row = conn.execute("SELECT at, sequence FROM calendar_events WHERE uid = ?", [uid]).fetchone()
    if row is None:
        conn.execute("INSERT INTO calendar_events (uid, at, sequence) VALUES (?, ?, 0)", [uid, at])
        return 0
    if row[0] == at:
        return row[1]
    conn.execute("UPDATE calendar_events SET at = ?, sequence = ? WHERE uid = ?", [at, row[1] + 1, uid])
    return row[1] + 1


def withdrawn(store: Store, uid: str) -> int:
    """The SEQUENCE of the event's withdrawal: one more than any stated before (and the next
    statement of it one more again)."""
    conn = _conn(store)
    row = conn.execute("SELECT sequence FROM calendar_events WHERE uid = ?", [uid]).fetchone()
    sequence = 1 if row is None else row[0] + 1
    conn.execute("INSERT OR REPLACE INTO calendar_events (uid, at, sequence) VALUES (?, ?, ?)",
                 [uid, WITHDRAWN, sequence])
    return sequence


def holders(store: Store) -> frozenset:
    """Every address that holds an event of pbem's (read once a pass: most readers hold none)."""
    return frozenset(r[0] for r in _conn(store).execute("SELECT DISTINCT address FROM calendar_sent"))


def holders_of(store: Store, game_id: str) -> list[str]:
    return [r[0] for r in _conn(store).execute(
        "SELECT DISTINCT address FROM calendar_sent WHERE game_id = ? ORDER BY address", [game_id])]


# Where each kind of entry a reader holds is kept: (table, the column of the game or league it
# belongs to). Both tables have the same columns, and the same few statements serve both.
_DEADLINES = ("calendar_sent", "game_id")
_OPENINGS = ("calendar_season", "league_id")


def _held(store: Store, kept: tuple[str, str], address: str, owner: str) -> list[Held]:
    table, column = kept  # this module's own names, never mail's
    return [Held(*r) for r in _conn(store).execute(
        f"SELECT uid, at, summary FROM {table} WHERE address = ? AND {column} = ? ORDER BY rowid", [address, owner])]


def _hold(store: Store, kept: tuple[str, str], address: str, owner: str, uid: str, at: str, summary: str) -> None:
    table, column = kept
    _conn(store).execute(f"INSERT INTO {table} (address, {column}, uid, at, summary) VALUES (?, ?, ?, ?, ?)"
                         " ON CONFLICT (address, uid) DO UPDATE SET at = excluded.at, summary = excluded.summary",
                         [address, owner, uid, at, summary])


def held(store: Store, address: str, game_id: str) -> list[Held]:
    """The events of the game that `address` was sent and holds, oldest first."""
    return _held(store, _DEADLINES, address, game_id)


def hold(store: Store, address: str, game_id: str, uid: str, at: str, summary: str) -> None:
    """`address` was sent the event at `at` (the same UID sent again: its time now)."""
    _hold(store, _DEADLINES, address, game_id, uid, at, summary)


def release(store: Store, address: str, uid: str) -> None:
    """`address` was sent the event's withdrawal: it holds the event no more."""
    _conn(store).execute("DELETE FROM calendar_sent WHERE address = ? AND uid = ?", [address, uid])


def season_held(store: Store, address: str, league_id: str) -> list[Held]:
    """The round openings of the league that `address` was sent (in a welcome) and holds, in
    the order sent: by time, as a welcome lists them."""
    return _held(store, _OPENINGS, address, league_id)


def hold_season(store: Store, address: str, league_id: str, uid: str, at: str, summary: str) -> None:
    """`address` was sent league `league_id`'s round opening at `at` (in a welcome)."""
    _hold(store, _OPENINGS, address, league_id, uid, at, summary)


def release_season(store: Store, address: str, league_id: str) -> None:
    """`address` holds no round opening of the league any more (withdrawn, or gone by)."""
    _conn(store).execute("DELETE FROM calendar_season WHERE address = ? AND league_id = ?", [address, league_id])


__all__ = ["TABLES", "Held", "calendar_players", "held", "hold_season", "holders", "holders_of", "hold", "release",
           "release_season", "restated", "season_held", "set_calendar", "withdrawn"]
