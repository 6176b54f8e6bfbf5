"""The outbox as the store keeps it (`store.outbox`): every mail the GM writes, queued before it
goes to the wire, marked sent, failed or bounced; the addresses that bounce for good; and the
GM's own mails that a reply is read against."""
from __future__ import annotations

from datetime import UTC, datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

from pbem.mail.clean import base_address
from pbem.store.statuses import OutboxStatus
from pbem.store.values import from_iso, iso, moment

if TYPE_CHECKING:
    from pbem.store import Store


class Outbox:
    def __init__(self, store: Store):
        self.store = store
        self.conn = store.conn
        self._dated: dict[str, datetime] = {}  # the dates of the mail this store queued, by recipient
        self._latest: datetime | None = None  # the latest date of any mail in the outbox, once read

    def queue(self, *, now: datetime, game_id: str | None, kind: str, recipient: str, message_id: str,
              raw: bytes) -> None:
        self.conn.execute("INSERT INTO outbox (created, game_id, kind, recipient, message_id, raw, status, attempts) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                          [iso(now), game_id, kind, recipient, message_id, raw, OutboxStatus.QUEUED])
        dated = moment(iso(now))  # as the column keeps it, to the second
        self._dated[recipient] = dated
        self._latest = dated if self._latest is None or dated > self._latest else self._latest

    def queued(self, now: datetime | None = None) -> list[dict]:
        sql = "SELECT * FROM outbox WHERE status = ?"
        args: list[object] = [OutboxStatus.QUEUED]
        if now is not None:
            sql += " AND (next_try IS NULL OR next_try <= ?)"
            args.append(iso(now))
        cur = self.conn.execute(sql + " ORDER BY id", args)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def next_try(self) -> datetime | None:
        row = self.conn.execute("SELECT min(coalesce(next_try, created)) FROM outbox WHERE status = ?",
                                [OutboxStatus.QUEUED]).fetchone()
        return from_iso(row[0]) if row and row[0] else None

    def mark_sent(self, outbox_id: int, now: datetime) -> None:
        self.conn.execute("UPDATE outbox SET status = ?, sent = ? WHERE id = ?",
                          [OutboxStatus.SENT, iso(now), outbox_id])

    def mark_sent_many(self, sent: list[tuple[int, datetime]]) -> None:
        """Mails the server took, (outbox id, when) each: one statement for those of one second
        (as the column keeps the time), which is all of them but at a second's turn."""
        by_second: dict[str, list[int]] = {}
        for outbox_id, when in sent:
            by_second.setdefault(iso(when), []).append(outbox_id)
        for second, ids in by_second.items():
            for start in range(0, len(ids), 500):  # within SQLite's limit of variables
                chunk = ids[start:start + 500]
                self.conn.execute(f"UPDATE outbox SET status = ?, sent = ? WHERE id IN "
                                  f"({', '.join('?' * len(chunk))})", [OutboxStatus.SENT, second, *chunk])

    def mark_failed(self, outbox_id: int, error: str, *, permanent: bool, next_try: datetime | None = None) -> None:
        with self.store.transaction():
            row = self.store.db.table("outbox").get(outbox_id)
            self.store.db.table("outbox").update(outbox_id, {
                "status": OutboxStatus.FAILED if permanent else OutboxStatus.QUEUED, "error": error,
                "attempts": (row["attempts"] or 0) + 1, "next_try": iso(next_try)})

    def last_mail_at(self, recipient: str, now: datetime | None = None) -> datetime | None:
        """When the GM's latest mail to `recipient` was dated. With `now`: None also when no mail
        of the outbox is dated at `now` or later (its latest date, read once, is earlier), so the
        question costs a statement only where the answer matters; a mail this store dated is
        remembered. (Another process's mail dated ahead of the clock may then share a second.)"""
        if recipient in self._dated:
            return self._dated[recipient]
        if now is not None:
            if self._latest is None:
                row = self.conn.execute("SELECT max(created) FROM outbox").fetchone()
                self._latest = moment(row[0]) if row and row[0] else datetime.min.replace(tzinfo=UTC)
            if self._latest < now:
                return None
        row = self.conn.execute("SELECT created FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1",
                                [recipient]).fetchone()
        return from_iso(row[0]) if row else None

    def note_error(self, outbox_id: int, error: str) -> None:
        """Why a mail still waits, without counting a try (the settings, not the mail, are wrong)."""
        with self.store.transaction():
            self.conn.execute("UPDATE outbox SET error = ?, next_try = NULL WHERE id = ?", [error, outbox_id])

    def rows(self, statuses: tuple[str, ...] = (OutboxStatus.QUEUED, OutboxStatus.FAILED, OutboxStatus.BOUNCED)
             ) -> list[dict]:
        """Mail waiting, refused or bounced (without the raw bytes), oldest first."""
        marks = ",".join("?" * len(statuses))
        cur = self.conn.execute(
            "SELECT id, created, game_id, kind, recipient, message_id, status, attempts, next_try, error"
            f" FROM outbox WHERE status IN ({marks}) ORDER BY id", list(statuses))
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def requeue(self, outbox_id: int | None = None) -> int:
        """Failed mail queued again (one, or all of it), due at once; returns how many."""
        with self.store.transaction():
            sql = "UPDATE outbox SET status = ?, attempts = 0, next_try = NULL WHERE status = ?"
            args: list[object] = [OutboxStatus.QUEUED, OutboxStatus.FAILED]
            if outbox_id is not None:
                sql += " AND id = ?"
                args.append(outbox_id)
            return self.conn.execute(sql, args).rowcount

    def mark_bounced(self, message_id: str | None, recipient: str | None, diagnostic: str,
                     now: datetime) -> tuple[dict | None, bool]:
        """The sent mail a bounce speaks of, marked bounced, and whether its address is newly
        known to bounce. Only a report that names the Message-ID of a mail the GM sent counts:
        anyone can forge a bounce, but only the mail's recipient knows its Message-ID."""
        row = None
        if message_id:
            row = self.conn.execute("SELECT id FROM outbox WHERE message_id = ? AND status IN (?, ?)",
                                    [message_id, OutboxStatus.SENT, OutboxStatus.BOUNCED]).fetchone()
        if row is None:
            return None, False
        self.conn.execute("UPDATE outbox SET status = ?, error = ? WHERE id = ?",
                          [OutboxStatus.BOUNCED, diagnostic, row[0]])
        cur = self.conn.execute("SELECT id, game_id, kind, recipient, message_id FROM outbox WHERE id = ?", [row[0]])
        mail = dict(zip([c[0] for c in cur.description], cur.fetchone()))
        new = self.conn.execute("SELECT 1 FROM bounces WHERE address = ?", [mail["recipient"]]).fetchone() is None
        self.conn.execute("INSERT OR REPLACE INTO bounces (address, at, diagnostic, game_id) VALUES (?, ?, ?, ?)",
                          [mail["recipient"], iso(now), diagnostic, mail["game_id"]])
        return mail, new

    def bounces(self, addresses: list[str]) -> dict[str, dict]:
        """address -> {at, diagnostic} for those of `addresses` whose mail bounced for good."""
        out = {}
        for address in addresses:
            row = self.conn.execute("SELECT at, diagnostic FROM bounces WHERE address = ?", [address]).fetchone()
            if row:
                out[address] = {"at": row[0], "diagnostic": row[1]}
        return out

    def is_own_mail(self, message_ids: tuple[str, ...]) -> bool:
        """Whether any of these Message-IDs is one of the GM's own mails, to any address: the
        auto-responder of a mailbox a player's mail is forwarded to answers from its own (and
        this tells nothing of a mail's words, unlike `originals`)."""
        ids = list(message_ids)[:20]
        if not ids:
            return False
        marks = ",".join("?" * len(ids))
        return self.conn.execute(f"SELECT 1 FROM outbox WHERE message_id IN ({marks}) LIMIT 1", ids).fetchone() \
            is not None

    def originals(self, message_ids: tuple[str, ...], most: int,
                  sender: str) -> list[tuple[bytes | None, bytes | None, str]]:
        """(raw, fingerprint, created) of the GM's own mails to `sender`'s address among these
        Message-IDs, newest first. Another address's mail is never one: a reply read against it
        would tell its sender which of his lines stand in it (CONTRACT section 4)."""
        ids = list(dict.fromkeys(message_ids))[-20:]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(f"SELECT raw, fingerprint, created, recipient FROM outbox WHERE message_id IN"
                                 f" ({marks}) ORDER BY id DESC", ids)
        return [(raw, kept, created) for raw, kept, created, recipient in rows
                if _same_mailbox(recipient, sender)][:most]

    def forget_text(self, cutoff: str, fingerprint: Callable[[bytes], bytes] | None) -> int:
        """Forget the raw bytes of mail sent before `cutoff` (ISO text), keeping
        `fingerprint(raw)` in their place. Returns how many."""
        if fingerprint is not None:  # a reply to the mail is still read against it
            rows = self.conn.execute("SELECT id, raw FROM outbox WHERE status = ? AND sent < ?"
                                     " AND raw IS NOT NULL", [OutboxStatus.SENT, cutoff]).fetchall()
            self.conn.executemany("UPDATE outbox SET fingerprint = ? WHERE id = ?",
                                  [(fingerprint(raw), row_id) for row_id, raw in rows])
        return self.conn.execute(
            "UPDATE outbox SET raw = NULL WHERE status = ? AND sent < ? AND raw IS NOT NULL",
            [OutboxStatus.SENT, cutoff]).rowcount


def _same_mailbox(recipient: str | None, sender: str) -> bool:
    """Whether the GM's mail to `recipient` went to `sender`'s mailbox (plus-addresses alike)."""
    if not recipient or not sender:
        return False
    return base_address(recipient) == base_address(sender)
