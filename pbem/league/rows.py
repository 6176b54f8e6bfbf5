"""The leagues as the store keeps them: each league's plan as its file gave it (checked), how
many rounds are open and how many have had their standings mailed; what happens in a season
besides its games (absences, replacements, withdrawals, observers), in order; and the league
players' own tokens. The league's own tables, made on first use."""
from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict

from pbem.errors import BadValue
from pbem.store import GameRow, Store, Tables, iso

TABLES = Tables("league", (
    "CREATE TABLE IF NOT EXISTS leagues (id TEXT PRIMARY KEY, name TEXT, plan TEXT, created TEXT, "
    "status TEXT, opened INTEGER, reported INTEGER)",
    "CREATE TABLE IF NOT EXISTS league_events (id INTEGER PRIMARY KEY, league_id TEXT, at TEXT, kind TEXT, "
    "data TEXT)",
    "CREATE INDEX IF NOT EXISTS league_events_league ON league_events (league_id, id)",
    # A league player's own token, in the Reply-To of the league's mail to them (its welcome
    # before any game has a secret): league mail in reply to it is taken from that address.
    "CREATE TABLE IF NOT EXISTS league_tokens (token TEXT PRIMARY KEY, league_id TEXT, address TEXT, "
    "UNIQUE (league_id, address))",
))
_COLUMNS = "id, name, plan, created, status, opened, reported"


class League(TypedDict):
    """A league as the store keeps it: `opened` and `reported` count rounds (0 before any)."""
    id: str
    name: str
    plan: dict[str, Any]
    created: str
    status: str
    opened: int
    reported: int


def _conn(store: Store) -> sqlite3.Connection:
    return store.with_tables(TABLES)


# -- leagues ---------------------------------------------------------------------------------
def add_league(store: Store, league_id: str, name: str, plan: dict, now: datetime) -> None:
    _conn(store).execute(f"INSERT INTO leagues ({_COLUMNS}) VALUES (?, ?, ?, ?, 'active', 0, 0)",
                         [league_id, name, json.dumps(plan), iso(now)])


def league(store: Store, league_id: str) -> League | None:
    row = _conn(store).execute(f"SELECT {_COLUMNS} FROM leagues WHERE id = ?", [league_id]).fetchone()
    return _league(row) if row else None


def known_league(store: Store, league_id: str) -> League:
    """A league known to be kept (its games, its events, its token name it): KeyError if not."""
    found = league(store, league_id)
    if found is None:
        raise KeyError(league_id)
    return found


def leagues(store: Store, status: str | None = None) -> list[League]:
    rows = _conn(store).execute(f"SELECT {_COLUMNS} FROM leagues WHERE ? IS NULL OR status = ? "
                                "ORDER BY created, id", [status, status])
    return [_league(row) for row in rows]


def update_league(store: Store, league_id: str, **values) -> None:
    for key, value in values.items():
        if key not in ("status", "opened", "reported"):
            raise BadValue(f"no league column {key}")
        _conn(store).execute(f"UPDATE leagues SET {key} = ? WHERE id = ?", [value, league_id])


def ids_but_for_case(store: Store, league_id: str) -> list[str]:
    """The ids of the leagues that are `league_id` but for its case."""
    return [row[0] for row in _conn(store).execute("SELECT id FROM leagues WHERE lower(id) = lower(?) ORDER BY id",
                                                   [league_id])]


def league_games(store: Store, league_id: str) -> list[GameRow]:
    """The league's games (`<league>-r<round>-<n>`), by creation."""
    pattern = league_id.replace("_", "\\_") + "-r%"
    exact = re.compile(re.escape(league_id) + r"-r[0-9]+-[0-9]+")
    return [row for row in store.games_like(pattern) if exact.fullmatch(row.id)]


_LEAGUE_GAME = re.compile(r"^(.+)-r[0-9]+-[0-9]+$")


def league_of_game(store: Store, game_id: str) -> str | None:
    """The league a game is of (its id says which), or None."""
    found = _LEAGUE_GAME.match(game_id)
    if found and league(store, found.group(1)):
        return found.group(1)
    return None


def _league(row) -> League:
    league_id, name, plan, created, status, opened, reported = row
    return {"id": league_id, "name": name, "plan": json.loads(plan), "created": created, "status": status,
            "opened": opened or 0, "reported": reported or 0}


# -- what happens in a season ----------------------------------------------------------------
class SeasonEvent(StrEnum):
    """The kinds of `league_events` rows: what changed the season after its plan was made."""
    REPLACE = "replace"    # a player's place taken by a newcomer or a robot (old, new, name, robot)
    WITHDRAW = "withdraw"  # a player left the league (address)
    ROLLBACK = "rollback"  # a league game taken back to a turn (game, turn)


def add_league_event(store: Store, league_id: str, now: datetime, kind: SeasonEvent, **data) -> None:
    _conn(store).execute("INSERT INTO league_events (league_id, at, kind, data) VALUES (?, ?, ?, ?)",
                         [league_id, iso(now), kind, json.dumps(data)])


def league_events(store: Store, league_id: str) -> list[dict]:
    rows = _conn(store).execute("SELECT at, kind, data FROM league_events WHERE league_id = ? ORDER BY id",
                                [league_id])
    return [{"at": at, "kind": kind, **json.loads(data)} for at, kind, data in rows]


# -- the players' tokens ---------------------------------------------------------------------
def league_token(store: Store, league_id: str, address: str, new_token: str) -> str:
    """The token of `address` in the league (`new_token` becomes it if it has none yet)."""
    conn = _conn(store)
    conn.execute("INSERT OR IGNORE INTO league_tokens (token, league_id, address) VALUES (?, ?, ?)",
                 [new_token.lower(), league_id, address.lower()])
    return conn.execute("SELECT token FROM league_tokens WHERE league_id = ? AND address = ?",
                        [league_id, address.lower()]).fetchone()[0]


def league_token_holder(store: Store, token: str) -> tuple[str, str] | None:
    """(league id, address) whose league token this is, or None."""
    row = _conn(store).execute("SELECT league_id, address FROM league_tokens WHERE token = ?",
                               [token.lower()]).fetchone()
    return (row[0], row[1]) if row else None


__all__ = ["TABLES", "League", "SeasonEvent", "add_league", "add_league_event", "ids_but_for_case", "known_league",
           "league", "league_events", "league_games", "league_of_game", "league_token", "league_token_holder",
           "leagues", "update_league"]
