"""The store's rows of the layers above the GM and of the people around a game: leagues and
their events, spectators and their requests, open tables, calendars. A part of `Store`."""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pbem.store.values import from_iso, iso

if TYPE_CHECKING:
    from pbem.store import GameRow


class AboveRows:
    # -- calendars --------------------------------------------------------------------------
    def set_calendar(self, address: str, on: bool, now: datetime) -> None:
        if on:
            self.conn.execute("INSERT OR IGNORE INTO calendar_players (address, since) VALUES (?, ?)",
                              [address, iso(now)])
        else:
            self.conn.execute("DELETE FROM calendar_players WHERE address = ?", [address])

    def calendar_players(self) -> frozenset:
        return frozenset(r[0] for r in self.conn.execute("SELECT address FROM calendar_players"))

    # -- open tables ------------------------------------------------------------------------
    def has_open_tables(self) -> bool:
        return self.conn.execute("SELECT 1 FROM open_tables WHERE status = 'open' LIMIT 1").fetchone() is not None

    # -- leagues --------------------------------------------------------------------------
    def add_league(self, league_id: str, name: str, plan: dict, now: datetime) -> None:
        self.conn.execute("INSERT INTO leagues (id, name, plan, created, status, opened, reported) "
                          "VALUES (?, ?, ?, ?, 'active', 0, 0)", [league_id, name, json.dumps(plan), iso(now)])

    def league(self, league_id: str) -> dict | None:
        row = self.conn.execute("SELECT id, name, plan, created, status, opened, reported FROM leagues "
                                "WHERE id = ?", [league_id]).fetchone()
        return _league(row) if row else None

    def leagues(self, status: str | None = None) -> list[dict]:
        rows = self.conn.execute("SELECT id, name, plan, created, status, opened, reported FROM leagues "
                                 "WHERE ? IS NULL OR status = ? ORDER BY created, id", [status, status])
        return [_league(row) for row in rows]

    def update_league(self, league_id: str, **values) -> None:
        for key, value in values.items():
            if key not in ("status", "opened", "reported"):
                raise ValueError(f"no league column {key}")
            self.conn.execute(f"UPDATE leagues SET {key} = ? WHERE id = ?", [value, league_id])

    def add_league_event(self, league_id: str, now: datetime, kind: str, **data) -> None:
        self.conn.execute("INSERT INTO league_events (league_id, at, kind, data) VALUES (?, ?, ?, ?)",
                          [league_id, iso(now), kind, json.dumps(data)])

    def league_events(self, league_id: str) -> list[dict]:
        rows = self.conn.execute("SELECT at, kind, data FROM league_events WHERE league_id = ? ORDER BY id",
                                 [league_id])
        return [{"at": at, "kind": kind, **json.loads(data)} for at, kind, data in rows]

    def league_token(self, league_id: str, address: str, new_token: str) -> str:
        """The token of `address` in the league (`new_token` becomes it if it has none yet)."""
        self.conn.execute("INSERT OR IGNORE INTO league_tokens (token, league_id, address) VALUES (?, ?, ?)",
                          [new_token.lower(), league_id, address.lower()])
        return self.conn.execute("SELECT token FROM league_tokens WHERE league_id = ? AND address = ?",
                                 [league_id, address.lower()]).fetchone()[0]

    def league_token_holder(self, token: str) -> tuple[str, str] | None:
        """(league id, address) whose league token this is, or None."""
        row = self.conn.execute("SELECT league_id, address FROM league_tokens WHERE token = ?",
                                [token.lower()]).fetchone()
        return (row[0], row[1]) if row else None

    def league_games(self, league_id: str) -> list[GameRow]:
        pattern = league_id.replace("_", "\\_") + "-r%"
        exact = re.compile(re.escape(league_id) + r"-r[0-9]+-[0-9]+")
        return [self._game_row(r) for r in self.db["games"].rows_where(
            "id LIKE ? ESCAPE '\\'", [pattern], order_by="created, id") if exact.fullmatch(r["id"])]

    # -- observers (spectators of a game or a league) -----------------------------------------
    def add_observer(self, target: str, address: str, now: datetime) -> bool:
        """`address` watches `target` from now on; False when it did already."""
        return self.conn.execute("INSERT OR IGNORE INTO observers (target, address, since) VALUES (?, ?, ?)",
                                 [target, address.lower(), iso(now)]).rowcount == 1

    def remove_observer(self, target: str, address: str) -> bool:
        """`address` watches `target` no more; False when it did not."""
        return self.conn.execute("DELETE FROM observers WHERE target = ? AND address = ?",
                                 [target, address.lower()]).rowcount == 1

    def observers(self, targets: list[str]) -> list[dict]:
        """Who watches any of `targets`: {target, address, since}, by address, then target."""
        if not targets:
            return []
        marks = ",".join("?" * len(targets))
        rows = self.conn.execute(f"SELECT target, address, since FROM observers WHERE target IN ({marks})"
                                 " ORDER BY address, target", list(targets))
        return [{"target": t, "address": a, "since": s} for t, a, s in rows]

    def ids_but_for_case(self, target: str) -> list[str]:
        """The ids of games and leagues that are `target` but for its case."""
        rows = self.conn.execute("SELECT id FROM games WHERE lower(id) = lower(?) UNION "
                                 "SELECT id FROM leagues WHERE lower(id) = lower(?) ORDER BY id", [target, target])
        return [row[0] for row in rows]

    def observed_by(self, address: str) -> list[str]:
        """The ids that `address` watches."""
        rows = self.conn.execute("SELECT target FROM observers WHERE address = ? ORDER BY target", [address.lower()])
        return [row[0] for row in rows]

    def add_observe_request(self, token: str, address: str, targets: list[str], now: datetime,
                            expires: datetime, kept: timedelta) -> None:
        """An OBSERVE that waits for its confirmation. Requests expired longer ago than `kept`
        go (one that expired more lately is kept to say so to a late answer)."""
        self.conn.execute("DELETE FROM observe_requests WHERE expires < ?", [iso(now - kept)])
        self.conn.execute("INSERT INTO observe_requests (token, address, targets, asked, expires) "
                          "VALUES (?, ?, ?, ?, ?)", [token.lower(), address.lower(), json.dumps(targets),
                                                     iso(now), iso(expires)])

    def observe_request(self, token: str | None) -> dict | None:
        """The OBSERVE waiting for the confirmation that carries `token`, or None."""
        if not token:
            return None
        row = self.conn.execute("SELECT token, address, targets, asked, expires FROM observe_requests "
                                "WHERE token = ?", [token.lower()]).fetchone()
        if row is None:
            return None
        return {"token": row[0], "address": row[1], "targets": json.loads(row[2]), "asked": from_iso(row[3]),
                "expires": from_iso(row[4])}

    def drop_observe_request(self, token: str) -> None:
        self.conn.execute("DELETE FROM observe_requests WHERE token = ?", [token.lower()])

    def observe_asked(self, address: str, targets: list[str], since: datetime, now: datetime) -> bool:
        """Whether `address` was asked to confirm watching just these targets since then (and
        may still answer)."""
        rows = self.conn.execute("SELECT targets FROM observe_requests WHERE address = ? AND asked >= ? "
                                 "AND expires > ?", [address.lower(), iso(since), iso(now)])
        return any(sorted(json.loads(row[0])) == sorted(targets) for row in rows)

    def spectator_token(self, address: str, new_token: str, now: datetime) -> str:
        """The spectator's token (`new_token` becomes it if it has none yet)."""
        self.conn.execute("INSERT OR IGNORE INTO spectators (address, token, since) VALUES (?, ?, ?)",
                          [address.lower(), new_token.lower(), iso(now)])
        return self.conn.execute("SELECT token FROM spectators WHERE address = ?", [address.lower()]).fetchone()[0]

    def spectator_by_token(self, token: str | None) -> str | None:
        """The address whose spectator token this is, or None."""
        if not token:
            return None
        row = self.conn.execute("SELECT address FROM spectators WHERE token = ?", [token.lower()]).fetchone()
        return row[0] if row else None

    def close_to_spectators(self, target: str, now: datetime) -> None:
        self.conn.execute("INSERT OR IGNORE INTO closed_to_spectators (target, since) VALUES (?, ?)",
                          [target, iso(now)])

    def closed_to_spectators(self, target: str) -> bool:
        return self.conn.execute("SELECT 1 FROM closed_to_spectators WHERE target = ?",
                                 [target]).fetchone() is not None


def _league(row) -> dict:
    league_id, name, plan, created, status, opened, reported = row
    return {"id": league_id, "name": name, "plan": json.loads(plan), "created": created, "status": status,
            "opened": opened or 0, "reported": reported or 0}
