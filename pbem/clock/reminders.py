"""When players are reminded before a deadline, and which reminders went out (CONTRACT section
14): the rows, and the questions a pass asks of them before it loads any game.

A player sets the moments once for all their games (per address): `SET REMINDERS 24h 4h 1h`,
at most three, or `SET REMINDERS OFF`; an address that set none has the config's
`games.reminder_before`. A moment dealt with is kept per seat, deadline and moment (`dealt`),
so a deadline that moves (a new turn, the GM's EXTEND, an absence) has reminders of its own.
The GM's side (who owes orders, the mail) is `pbem.gm.reminders`.
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta

from pbem.store import GameStatus, Store, Tables, iso, moment

TABLES = Tables("reminders", (
    # An address's own reminder moments, in seconds before a deadline (JSON; [] for none).
    "CREATE TABLE IF NOT EXISTS reminder_times (address TEXT PRIMARY KEY, befores TEXT NOT NULL, at TEXT)",
    # A reminder moment dealt with: its mail went out, or the seat owed nothing then.
    "CREATE TABLE IF NOT EXISTS reminders_sent (game_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "deadline TEXT NOT NULL, before INTEGER NOT NULL, PRIMARY KEY (game_id, seat, deadline, before))",
))

Befores = tuple[timedelta, ...]


def times_of(store: Store, address: str, default: Befores) -> Befores:
    """The moments before a deadline that `address` is reminded at, latest reminder last."""
    row = store.with_tables(TABLES).execute("SELECT befores FROM reminder_times WHERE address = ?",
                                            [address.lower()]).fetchone()
    return default if row is None else _read(row[0])


def set_times(store: Store, address: str, befores: Befores, now: datetime) -> None:
    store.with_tables(TABLES).execute(
        "INSERT OR REPLACE INTO reminder_times (address, befores, at) VALUES (?, ?, ?)",
        [address.lower(), json.dumps([_seconds(b) for b in befores]), iso(now)])


def dealt(store: Store, game_id: str, seat: int, deadline: datetime) -> set[int]:
    """The moments (seconds before) of this seat's deadline dealt with already."""
    return {r[0] for r in store.with_tables(TABLES).execute(
        "SELECT before FROM reminders_sent WHERE game_id = ? AND seat = ? AND deadline = ?",
        [game_id, seat, iso(deadline)])}


def deal(store: Store, game_id: str, seat: int, deadline: datetime, befores: list[timedelta]) -> None:
    """These moments of the seat's deadline are dealt with (the rows of the game's deadlines
    that no longer stand go: they can never come again)."""
    conn = store.with_tables(TABLES)
    conn.execute("DELETE FROM reminders_sent WHERE game_id = ? AND deadline != ?", [game_id, iso(deadline)])
    conn.executemany("INSERT OR IGNORE INTO reminders_sent (game_id, seat, deadline, before) VALUES (?, ?, ?, ?)",
                     [(game_id, seat, iso(deadline), _seconds(b)) for b in befores])


def _seconds(span: timedelta) -> int:
    return int(span.total_seconds())


def _read(text: str) -> Befores:
    return tuple(timedelta(seconds=int(s)) for s in json.loads(text))


def _open(store: Store, now: datetime, default: Befores) -> Iterator[tuple[str, datetime, list[timedelta]]]:
    """Every player's seat of a game in play whose deadline is still ahead, with the moments of
    that deadline not dealt with yet: (game id, deadline, [before ...])."""
    conn = store.with_tables(TABLES)
    own = {address: _read(befores) for address, befores in conn.execute("SELECT address, befores FROM reminder_times")}
    done: dict[tuple, set[int]] = defaultdict(set)
    for game_id, seat, deadline, before in conn.execute(
            "SELECT game_id, seat, deadline, before FROM reminders_sent WHERE deadline > ?", [iso(now)]):
        done[(game_id, seat, deadline)].add(before)
    for game_id, deadline, seat, address in conn.execute(
            "SELECT g.id, g.deadline, s.seat, s.address FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = ? AND NOT g.paused AND g.deadline IS NOT NULL AND g.deadline > ?"
            " AND s.robot IS NULL ORDER BY g.id, s.seat", [GameStatus.ACTIVE, iso(now)]).fetchall():
        seen = done.get((game_id, seat, deadline), set())
        left = [b for b in own.get(address, default) if _seconds(b) not in seen]
        if left:
            yield game_id, moment(deadline), left


def games_due(store: Store, now: datetime, default: Befores) -> list[str]:
    """The games in which a reminder moment has come for some seat and not been dealt with."""
    return sorted({game_id for game_id, deadline, left in _open(store, now, default)
                   if any(deadline - b <= now for b in left)})


def next_moment(store: Store, now: datetime, default: Befores) -> datetime | None:
    """The next reminder moment not dealt with (for the daemon's sleep; one that has come: a
    pass is due now)."""
    return min((deadline - b for _, deadline, left in _open(store, now, default) for b in left), default=None)


__all__ = ["TABLES", "Befores", "deal", "dealt", "games_due", "next_moment", "set_times", "times_of"]
