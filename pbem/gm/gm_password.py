"""The GM's password by mail: compared exactly, and wrong ones counted.

`gm.secret` lets an admin's address run GM commands by mail. A From line is easy to forge, so the
password is all that stands between a stranger and the GM's powers: every wrong one is kept,
and once `TRIES` have come in an hour no GM command is taken by mail, even with the right
password, until an hour has passed with fewer. The admins are alarmed when a lockout begins, at
most once an hour. The shell (`pbem gm ...`) is never locked.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.store import Store, Tables, from_iso, iso

TRIES = 5
WINDOW = timedelta(hours=1)
TABLES = Tables("gm password", (
    # Wrong GM passwords by mail (from an admin's address), and whether one raised the alarm.
    "CREATE TABLE IF NOT EXISTS gm_password_misses (id INTEGER PRIMARY KEY, at TEXT, sender TEXT, alarm INTEGER)",
    "CREATE INDEX IF NOT EXISTS gm_password_misses_at ON gm_password_misses (at)",
))

__all__ = ["TABLES", "TRIES", "WINDOW", "Lock", "add_miss", "misses_since", "same_password"]


def same_password(given: str | None, secret: str | None) -> bool:
    """Whether the password a mail gives is the GM's, exactly (case counts), in constant time."""
    if not given or not secret:
        return False
    return hmac.compare_digest(given.strip().encode("utf-8", "replace"), secret.encode("utf-8"))


@dataclass
class Lock:
    store: Store
    now: datetime
    tries: int = TRIES

    def locked_until(self) -> datetime | None:
        """When GM commands by mail are taken again, or None when they are taken now."""
        return self._until(misses_since(self.store, self.now - WINDOW))

    def miss(self, sender: str) -> tuple[datetime | None, bool]:
        """Keep one wrong password: (when the lock it leaves ends, or None; whether it began a
        lockout that the admins are to hear of now)."""
        misses = misses_since(self.store, self.now - WINDOW)
        began = len(misses) + 1 == self.tries
        alarm = began and not any(m["alarm"] for m in misses)
        add_miss(self.store, sender, self.now, alarm)
        return self._until([*misses, {"at": self.now}]), alarm

    def _until(self, misses: list[dict]) -> datetime | None:
        if len(misses) < self.tries:
            return None
        # Locked while `tries` of them are under an hour old: until the one that keeps it so ages.
        return misses[len(misses) - self.tries]["at"] + WINDOW


def add_miss(store: Store, sender: str, now: datetime, alarm: bool = False) -> None:
    store.with_tables(TABLES).execute("INSERT INTO gm_password_misses (at, sender, alarm) VALUES (?, ?, ?)",
                                      [iso(now), sender, int(alarm)])


def misses_since(store: Store, since: datetime) -> list[dict]:
    """The wrong GM passwords since then, oldest first: {at, sender, alarm}."""
    rows = store.with_tables(TABLES).execute("SELECT at, sender, alarm FROM gm_password_misses WHERE at >= ? "
                                             "ORDER BY at, id", [iso(since)])
    return [{"at": from_iso(at), "sender": sender, "alarm": bool(alarm)} for at, sender, alarm in rows]
