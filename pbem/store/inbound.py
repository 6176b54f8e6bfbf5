"""Inbound mail as the store keeps it (`store.inbound`): every message's raw bytes, kept and
committed before it is handled, its status once it is, and the senders' flood counts."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from pbem.store.statuses import ANSWERED, FORGETTABLE, InboundStatus
from pbem.store.values import iso

if TYPE_CHECKING:
    from pbem.store import Store


class InboundMail:
    def __init__(self, store: Store):
        self.store = store
        self.conn = store.conn

    # -- the messages ---------------------------------------------------------------------
    def keep(self, key: str, raw: bytes, now: datetime, sender: str = "", subject: str = "",
             message_id: str | None = None) -> bool:
        """Store the raw message (committed at once). False when this key was seen before."""
        kept = self.conn.execute("INSERT OR IGNORE INTO inbound (key, received, raw, sender, subject, status, "
                                 "message_id, size, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                                 [key, iso(now), raw, sender, subject, InboundStatus.NEW, message_id, len(raw)])
        return kept.rowcount == 1

    def status(self, key: str) -> str | None:
        row = self.conn.execute("SELECT status FROM inbound WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def unhandled(self) -> list[tuple[str, bytes]]:
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT key, raw FROM inbound WHERE status = ? ORDER BY received, rowid", [InboundStatus.NEW]).fetchall()]

    def attempt(self, key: str) -> int:
        """Count one more try at handling a kept message; returns the tries so far."""
        with self.store.transaction():
            self.conn.execute("UPDATE inbound SET attempts = coalesce(attempts, 0) + 1 WHERE key = ?", [key])
            return self.conn.execute("SELECT attempts FROM inbound WHERE key = ?", [key]).fetchone()[0]

    def mark(self, key: str, status: str, now: datetime, note: str = "", game_id: str | None = None,
             auth: str | None = None, step: str | None = None) -> None:
        """What became of a message; `step`, the inbox's step that ended it (None: no step did)."""
        self.conn.execute("UPDATE inbound SET status = ?, note = ?, game_id = ?, handled = ?, auth = ?, step = ? "
                          "WHERE key = ?", [status, note, game_id, iso(now), auth, step, key])

    def rows(self, *statuses: str) -> list[dict]:
        """Kept inbound mail of these statuses (without the raw bytes), oldest first; `id` is the
        row id. Screened mail is listed while its text is kept (`prune`): a list the GM address
        belongs to may send a great deal of it."""
        marks = _marks(statuses)
        cur = self.conn.execute(
            "SELECT rowid AS id, key, received, handled, sender, subject, status, note, game_id, size, attempts, step"
            f" FROM inbound WHERE status IN ({marks}) AND (status != ? OR raw IS NOT NULL)"
            " ORDER BY received, rowid", [*statuses, InboundStatus.SCREENED])
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def by_id(self, row_id: int) -> dict | None:
        cur = self.conn.execute("SELECT rowid AS id, key, raw, status FROM inbound WHERE rowid = ?", [row_id])
        row = cur.fetchone()
        return dict(zip([c[0] for c in cur.description], row)) if row else None

    def forget_text(self, cutoff: str) -> int:
        """Forget the raw bytes of mail handled before `cutoff` (ISO text): mail not handled yet
        and failed mail keep theirs. Returns how many."""
        return self.conn.execute(
            f"UPDATE inbound SET raw = NULL WHERE handled < ? AND status IN ({_marks(FORGETTABLE)})"
            " AND raw IS NOT NULL", [cutoff, *FORGETTABLE]).rowcount

    # -- senders (flood control) -----------------------------------------------------------
    def flood(self, sender: str, since: datetime, *, authenticated: bool) -> tuple[int, bool]:
        """How many messages came from `sender` since then (those that proved to be the seat's
        owner, or the others) and whether it was warned, read in one statement (asked of every
        message)."""
        mine = "auth = ? AND received >= ?" if authenticated else "sender = ? AND received >= ? AND auth IS NULL"
        count, warned = self.conn.execute(
            f"SELECT (SELECT count(*) FROM inbound WHERE {mine}), "
            "EXISTS (SELECT 1 FROM senders WHERE address = ? AND warned IS NOT NULL)",
            [sender, iso(since), sender]).fetchone()
        return count, bool(warned)

    def strangers_answered(self, since: datetime) -> int:
        """Answers given since then to mail that did not authenticate (from anyone)."""
        return self.conn.execute(
            f"SELECT count(*) FROM inbound WHERE handled >= ? AND auth IS NULL AND status IN ({_marks(ANSWERED)})",
            [iso(since), *ANSWERED]).fetchone()[0]

    def set_warned(self, sender: str, now: datetime | None) -> None:
        self.store.db.table("senders").upsert({"address": sender, "warned": iso(now)}, pk="address")


def _marks(values: tuple[object, ...]) -> str:
    """The placeholders of an `IN (...)` of these values."""
    return ",".join("?" * len(values))
