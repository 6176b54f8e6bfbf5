"""The store's mail rows: inbound mail kept raw before it is handled, the outbox, the senders'
flood counts and bounces, and the GM's password misses. A part of `Store` (`store.Store`)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Callable

from pbem.mail.clean import base_address
from pbem.store.values import from_iso, iso


class MailRows:
    # -- senders (flood control) -----------------------------------------------------------
    def recent_from(self, sender: str, since: datetime, *, authenticated: bool) -> int:
        """Messages from `sender` since then: those that proved to be the seat's owner, or the others."""
        if authenticated:
            sql = "SELECT count(*) FROM inbound WHERE auth = ? AND received >= ?"
        else:
            sql = "SELECT count(*) FROM inbound WHERE sender = ? AND received >= ? AND auth IS NULL"
        return self.conn.execute(sql, [sender, iso(since)]).fetchone()[0]

    def flood(self, sender: str, since: datetime, *, authenticated: bool) -> tuple[int, bool]:
        """`recent_from` and `warned` of one sender, read in one statement (asked of every message)."""
        mine = "auth = ? AND received >= ?" if authenticated else "sender = ? AND received >= ? AND auth IS NULL"
        count, warned = self.conn.execute(
            f"SELECT (SELECT count(*) FROM inbound WHERE {mine}), "
            "EXISTS (SELECT 1 FROM senders WHERE address = ? AND warned IS NOT NULL)",
            [sender, iso(since), sender]).fetchone()
        return count, bool(warned)

    def strangers_answered(self, since: datetime) -> int:
        """Answers given since then to mail that did not authenticate (from anyone)."""
        return self.conn.execute(
            "SELECT count(*) FROM inbound WHERE handled >= ? AND auth IS NULL"
            " AND status IN ('handled', 'refused', 'failed')",
            [iso(since)]).fetchone()[0]

    def warned(self, sender: str) -> bool:
        return self.conn.execute("SELECT 1 FROM senders WHERE address = ? AND warned IS NOT NULL",
                                 [sender]).fetchone() is not None

    def set_warned(self, sender: str, now: datetime | None) -> None:
        self.db["senders"].upsert({"address": sender, "warned": iso(now)}, pk="address")

    # -- the GM's password by mail ------------------------------------------------------------
    def add_gm_password_miss(self, sender: str, now: datetime, alarm: bool = False) -> None:
        self.conn.execute("INSERT INTO gm_password_misses (at, sender, alarm) VALUES (?, ?, ?)",
                          [iso(now), sender, int(alarm)])

    def gm_password_misses(self, since: datetime) -> list[dict]:
        """The wrong GM passwords since then, oldest first: {at, sender, alarm}."""
        rows = self.conn.execute("SELECT at, sender, alarm FROM gm_password_misses WHERE at >= ? ORDER BY at, id",
                                 [iso(since)])
        return [{"at": from_iso(at), "sender": sender, "alarm": bool(alarm)} for at, sender, alarm in rows]

    # -- inbound mail ---------------------------------------------------------------------
    def keep_inbound(self, key: str, raw: bytes, now: datetime, sender: str = "", subject: str = "",
                     message_id: str | None = None) -> bool:
        """Store the raw message (committed at once). False when this key was seen before."""
        kept = self.conn.execute("INSERT OR IGNORE INTO inbound (key, received, raw, sender, subject, status, "
                                 "message_id, size, attempts) VALUES (?, ?, ?, ?, ?, 'new', ?, ?, 0)",
                                 [key, iso(now), raw, sender, subject, message_id, len(raw)])
        return kept.rowcount == 1

    def inbound_status(self, key: str) -> str | None:
        row = self.conn.execute("SELECT status FROM inbound WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def unhandled_inbound(self) -> list[tuple[str, bytes]]:
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT key, raw FROM inbound WHERE status = 'new' ORDER BY received, rowid").fetchall()]

    def attempt_inbound(self, key: str) -> int:
        """Count one more try at handling a kept message; returns the tries so far."""
        with self.transaction():
            self.conn.execute("UPDATE inbound SET attempts = coalesce(attempts, 0) + 1 WHERE key = ?", [key])
            return self.conn.execute("SELECT attempts FROM inbound WHERE key = ?", [key]).fetchone()[0]

    def mark_inbound(self, key: str, status: str, now: datetime, note: str = "", game_id: str | None = None,
                     auth: str | None = None) -> None:
        self.conn.execute("UPDATE inbound SET status = ?, note = ?, game_id = ?, handled = ?, auth = ? WHERE key = ?",
                          [status, note, game_id, iso(now), auth, key])

    def inbound_rows(self, *statuses: str) -> list[dict]:
        """Kept inbound mail of these statuses (without the raw bytes), oldest first; `id` is the
        row id. Screened mail is listed while its text is kept (`prune`): a list the GM address
        belongs to may send a great deal of it."""
        marks = ",".join("?" * len(statuses))
        cur = self.conn.execute(
            "SELECT rowid AS id, key, received, handled, sender, subject, status, note, game_id, size, attempts"
            f" FROM inbound WHERE status IN ({marks}) AND (status != 'screened' OR raw IS NOT NULL)"
            " ORDER BY received, rowid", list(statuses))
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def inbound_by_id(self, row_id: int) -> dict | None:
        cur = self.conn.execute("SELECT rowid AS id, key, raw, status FROM inbound WHERE rowid = ?", [row_id])
        row = cur.fetchone()
        return dict(zip([c[0] for c in cur.description], row)) if row else None

    def prune(self, now: datetime, days: int,
              fingerprint: Callable[[bytes], bytes] | None = None) -> tuple[int, int]:
        """Forget the raw bytes of mail handled or sent more than `days` ago: (inbound, outbox) rows.

        The rows stay (a retried copy is still known by its key) and so do the events every game
        is rebuilt from; mail not handled yet and failed mail keep their bytes. A sent mail keeps
        `fingerprint(raw)` in their place."""
        cutoff = iso(now - timedelta(days=days))
        with self.transaction():
            inbound = self.conn.execute(
                "UPDATE inbound SET raw = NULL WHERE handled < ? AND status IN ('handled', 'refused', 'ignored',"
                " 'screened')"
                " AND raw IS NOT NULL", [cutoff]).rowcount
            if fingerprint is not None:  # a reply to the mail is still read against it
                rows = self.conn.execute("SELECT id, raw FROM outbox WHERE status = 'sent' AND sent < ?"
                                         " AND raw IS NOT NULL", [cutoff]).fetchall()
                self.conn.executemany("UPDATE outbox SET fingerprint = ? WHERE id = ?",
                                      [(fingerprint(raw), row_id) for row_id, raw in rows])
            outbox = self.conn.execute(
                "UPDATE outbox SET raw = NULL WHERE status = 'sent' AND sent < ? AND raw IS NOT NULL",
                [cutoff]).rowcount
        return inbound, outbox

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value])

    # -- outbox ---------------------------------------------------------------------------
    def queue(self, *, now: datetime, game_id: str | None, kind: str, recipient: str, message_id: str,
              raw: bytes) -> None:
        self.conn.execute("INSERT INTO outbox (created, game_id, kind, recipient, message_id, raw, status, attempts) "
                          "VALUES (?, ?, ?, ?, ?, ?, 'queued', 0)", [iso(now), game_id, kind, recipient, message_id, raw])
        dated = from_iso(iso(now))  # as the column keeps it, to the second
        self._dated[recipient] = dated
        self._latest = dated if self._latest is None or dated > self._latest else self._latest

    def queued(self, now: datetime | None = None) -> list[dict]:
        sql = "SELECT * FROM outbox WHERE status = 'queued'"
        args: list = []
        if now is not None:
            sql += " AND (next_try IS NULL OR next_try <= ?)"
            args.append(iso(now))
        cur = self.conn.execute(sql + " ORDER BY id", args)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def next_outbox_try(self) -> datetime | None:
        row = self.conn.execute("SELECT min(coalesce(next_try, created)) FROM outbox WHERE status = 'queued'").fetchone()
        return from_iso(row[0]) if row and row[0] else None

    def mark_sent(self, outbox_id: int, now: datetime) -> None:
        self.conn.execute("UPDATE outbox SET status = 'sent', sent = ? WHERE id = ?", [iso(now), outbox_id])

    def mark_sent_many(self, sent: list[tuple[int, datetime]]) -> None:
        """Mails the server took, (outbox id, when) each: one statement for those of one second
        (as the column keeps the time), which is all of them but at a second's turn."""
        by_second: dict[str, list[int]] = {}
        for outbox_id, when in sent:
            by_second.setdefault(iso(when), []).append(outbox_id)
        for when, ids in by_second.items():
            for start in range(0, len(ids), 500):  # within SQLite's limit of variables
                chunk = ids[start:start + 500]
                self.conn.execute(f"UPDATE outbox SET status = 'sent', sent = ? WHERE id IN "
                                  f"({', '.join('?' * len(chunk))})", [when, *chunk])

    def mark_failed(self, outbox_id: int, error: str, *, permanent: bool, next_try: datetime | None = None) -> None:
        with self.transaction():
            row = self.db["outbox"].get(outbox_id)
            self.db["outbox"].update(outbox_id, {
                "status": "failed" if permanent else "queued", "error": error,
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
                self._latest = from_iso(row[0]) if row and row[0] else datetime.min.replace(tzinfo=timezone.utc)
            if self._latest < now:
                return None
        row = self.conn.execute("SELECT created FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1",
                                [recipient]).fetchone()
        return from_iso(row[0]) if row else None

    def note_error(self, outbox_id: int, error: str) -> None:
        """Why a mail still waits, without counting a try (the settings, not the mail, are wrong)."""
        with self.transaction():
            self.conn.execute("UPDATE outbox SET error = ?, next_try = NULL WHERE id = ?", [error, outbox_id])

    def outbox_rows(self, statuses: tuple[str, ...] = ("queued", "failed", "bounced")) -> list[dict]:
        """Mail waiting, refused or bounced (without the raw bytes), oldest first."""
        marks = ",".join("?" * len(statuses))
        cur = self.conn.execute(
            "SELECT id, created, game_id, kind, recipient, message_id, status, attempts, next_try, error"
            f" FROM outbox WHERE status IN ({marks}) ORDER BY id", list(statuses))
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def requeue(self, outbox_id: int | None = None) -> int:
        """Failed mail queued again (one, or all of it), due at once; returns how many."""
        with self.transaction():
            sql = "UPDATE outbox SET status = 'queued', attempts = 0, next_try = NULL WHERE status = 'failed'"
            args: list = []
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
            row = self.conn.execute("SELECT id FROM outbox WHERE message_id = ? AND status IN ('sent', 'bounced')",
                                    [message_id]).fetchone()
        if row is None:
            return None, False
        self.conn.execute("UPDATE outbox SET status = 'bounced', error = ? WHERE id = ?", [diagnostic, row[0]])
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

    def sent_mail(self, game_id: str | None = None) -> list[dict]:
        """Every mail the GM wrote, oldest first (tests read these)."""
        where, args = ("game_id = ?", [game_id]) if game_id else (None, None)
        return list(self.db["outbox"].rows_where(where, args, order_by="id"))


def _same_mailbox(recipient: str | None, sender: str) -> bool:
    """Whether the GM's mail to `recipient` went to `sender`'s mailbox (plus-addresses alike)."""
    return bool(recipient and sender) and base_address(recipient) == base_address(sender)
