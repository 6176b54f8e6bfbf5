"""The spectators as the store keeps them: who watches which game or league, the OBSERVEs that
wait for their confirmation, each spectator's own token, and what the GM made private. The GM's
own rows (`gm.observers` reads and writes them), in tables made on first use."""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

from pbem.store import Store, Tables, from_iso, iso

TABLES = Tables("spectators", (
    # Spectators: who watches a game or a whole league (`target` is its id), since when.
    "CREATE TABLE IF NOT EXISTS observers (target TEXT, address TEXT, since TEXT, PRIMARY KEY (target, address))",
    "CREATE INDEX IF NOT EXISTS observers_address ON observers (address)",
    # An OBSERVE waits for its confirmation: the one-time token its answer's Reply-To carries,
    # who asked and for what (the ids, JSON), until when it may be answered.
    "CREATE TABLE IF NOT EXISTS observe_requests (token TEXT PRIMARY KEY, address TEXT, targets TEXT, "
    "asked TEXT, expires TEXT)",
    "CREATE INDEX IF NOT EXISTS observe_requests_address ON observe_requests (address, asked)",
    # A spectator's own token, in the Reply-To of every mail it gets: UNOBSERVE with it is taken
    # from any address.
    "CREATE TABLE IF NOT EXISTS spectators (address TEXT PRIMARY KEY, token TEXT UNIQUE, since TEXT)",
    # Games and leagues the GM made private (spectators=false).
    "CREATE TABLE IF NOT EXISTS closed_to_spectators (target TEXT PRIMARY KEY, since TEXT)",
))


def _conn(store: Store) -> sqlite3.Connection:
    return store.with_tables(TABLES)


# -- who watches what ----------------------------------------------------------------------------
def add_observer(store: Store, target: str, address: str, now: datetime) -> bool:
    """`address` watches `target` from now on; False when it did already."""
    return _conn(store).execute("INSERT OR IGNORE INTO observers (target, address, since) VALUES (?, ?, ?)",
                                [target, address.lower(), iso(now)]).rowcount == 1


def remove_observer(store: Store, target: str, address: str) -> bool:
    """`address` watches `target` no more; False when it did not."""
    return _conn(store).execute("DELETE FROM observers WHERE target = ? AND address = ?",
                                [target, address.lower()]).rowcount == 1


def observers(store: Store, targets: list[str]) -> list[dict]:
    """Who watches any of `targets`: {target, address, since}, by address, then target."""
    if not targets:
        return []
    marks = ",".join("?" * len(targets))
    rows = _conn(store).execute(f"SELECT target, address, since FROM observers WHERE target IN ({marks})"
                                " ORDER BY address, target", list(targets))
    return [{"target": t, "address": a, "since": s} for t, a, s in rows]


def observed_by(store: Store, address: str) -> list[str]:
    """The ids that `address` watches."""
    rows = _conn(store).execute("SELECT target FROM observers WHERE address = ? ORDER BY target", [address.lower()])
    return [row[0] for row in rows]


# -- the OBSERVEs that wait for their confirmation -----------------------------------------------
def add_observe_request(store: Store, token: str, address: str, targets: list[str], now: datetime,
                        expires: datetime, kept: timedelta) -> None:
    """An OBSERVE that waits for its confirmation. Requests expired longer ago than `kept`
    go (one that expired more lately is kept to say so to a late answer)."""
    conn = _conn(store)
    conn.execute("DELETE FROM observe_requests WHERE expires < ?", [iso(now - kept)])
    conn.execute("INSERT INTO observe_requests (token, address, targets, asked, expires) "
                 "VALUES (?, ?, ?, ?, ?)", [token.lower(), address.lower(), json.dumps(targets),
                                            iso(now), iso(expires)])


def observe_request(store: Store, token: str | None) -> dict | None:
    """The OBSERVE waiting for the confirmation that carries `token`, or None."""
    if not token:
        return None
    row = _conn(store).execute("SELECT token, address, targets, asked, expires FROM observe_requests "
                               "WHERE token = ?", [token.lower()]).fetchone()
    if row is None:
        return None
    return {"token": row[0], "address": row[1], "targets": json.loads(row[2]), "asked": from_iso(row[3]),
            "expires": from_iso(row[4])}


def drop_observe_request(store: Store, token: str) -> None:
    _conn(store).execute("DELETE FROM observe_requests WHERE token = ?", [token.lower()])


def observe_asked(store: Store, address: str, targets: list[str], since: datetime, now: datetime) -> bool:
    """Whether `address` was asked to confirm watching just these targets since then (and
    may still answer)."""
    rows = _conn(store).execute("SELECT targets FROM observe_requests WHERE address = ? AND asked >= ? "
                                "AND expires > ?", [address.lower(), iso(since), iso(now)])
    return any(sorted(json.loads(row[0])) == sorted(targets) for row in rows)


# -- the spectators' tokens ----------------------------------------------------------------------
def spectator_token(store: Store, address: str, new_token: str, now: datetime) -> str:
    """The spectator's token (`new_token` becomes it if it has none yet)."""
    conn = _conn(store)
    conn.execute("INSERT OR IGNORE INTO spectators (address, token, since) VALUES (?, ?, ?)",
                 [address.lower(), new_token.lower(), iso(now)])
    return conn.execute("SELECT token FROM spectators WHERE address = ?", [address.lower()]).fetchone()[0]


def spectator_by_token(store: Store, token: str | None) -> str | None:
    """The address whose spectator token this is, or None."""
    if not token:
        return None
    row = _conn(store).execute("SELECT address FROM spectators WHERE token = ?", [token.lower()]).fetchone()
    return row[0] if row else None


# -- private games and leagues -------------------------------------------------------------------
def close_to_spectators(store: Store, target: str, now: datetime) -> None:
    _conn(store).execute("INSERT OR IGNORE INTO closed_to_spectators (target, since) VALUES (?, ?)",
                         [target, iso(now)])


def closed_to_spectators(store: Store, target: str) -> bool:
    return _conn(store).execute("SELECT 1 FROM closed_to_spectators WHERE target = ?",
                                [target]).fetchone() is not None


__all__ = ["TABLES", "add_observe_request", "add_observer", "close_to_spectators", "closed_to_spectators",
           "drop_observe_request", "observe_asked", "observe_request", "observed_by", "observers",
           "remove_observer", "spectator_by_token", "spectator_token"]
