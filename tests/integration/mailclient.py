"""What a player's mail program does, with the standard library only: send over SMTP, read
over IMAP. Deliberately independent of pbem's own transports, so each checks the other."""
from __future__ import annotations

import email
import email.policy
import email.utils
import imaplib
import re
import smtplib
import time
import uuid
from email.message import EmailMessage

LOOPBACK = "127.0.0.1"
USERS = ("gm@example.test", "george@example.test", "bill@example.test", "mallory@example.test")
_UID = re.compile(rb"\bUID (\d+)")
_FLAGS = re.compile(rb"FLAGS \(([^)]*)\)")


def password(address: str) -> str:
    """The test users' password: ``george@example.test`` has ``george-pw``."""
    return address.split("@")[0] + "-pw"


def send(stack, sender: str, to, subject: str, body: str, headers: dict | None = None,
         message_id: str | None = None) -> str:
    """Mail ``body`` from ``sender`` to ``to`` (an address or a list) through the stack's plain
    SMTP port; returns the Message-ID."""
    recipients = [to] if isinstance(to, str) else list(to)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=True)
    msg["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@player.test>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    with smtplib.SMTP(LOOPBACK, stack.smtp_port, local_hostname="player.test", timeout=10) as smtp:
        smtp.send_message(msg, from_addr=sender, to_addrs=recipients)
    return msg["Message-ID"]


class Mailbox:
    """One user's mail as IMAP shows it; each call opens its own connection, as a fresh look
    (a long-lived selected mailbox can answer with a stale count)."""

    def __init__(self, stack, address: str, password: str):
        self.stack = stack
        self.address = address
        self.password = password

    def messages(self, folder: str = "INBOX") -> list[EmailMessage]:
        """Every message in ``folder``, oldest (lowest UID) first, with local line endings as a
        mail program shows them."""
        return [email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=email.policy.default)
                for _, raw in self._fetch(folder, "BODY.PEEK[]")]

    def flags(self, folder: str = "INBOX") -> list[set[str]]:
        """The flags of every message in ``folder``, in the same order as ``messages``."""
        out = []
        for head, _ in self._fetch(folder, "FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"):
            found = _FLAGS.search(head)
            out.append(set(found.group(1).decode().split()) if found else set())
        return out

    def count(self, folder: str = "INBOX") -> int:
        """How many messages ``folder`` holds; 0 when it does not exist."""
        with self._session() as imap:
            status, data = imap.select(_quote(folder), readonly=True)
            return int(data[0]) if status == "OK" else 0

    def folders(self) -> list[str]:
        with self._session() as imap:
            _, data = imap.list()
        return [line.decode().rsplit(' "/" ', 1)[-1].strip('"') for line in data if line]

    def wait_for(self, predicate, timeout: float = 10, folder: str = "INBOX") -> EmailMessage:
        """The first message in ``folder`` for which ``predicate`` is true, once it has arrived."""
        deadline = time.monotonic() + timeout
        while True:
            for msg in self.messages(folder):
                if predicate(msg):
                    return msg
            if time.monotonic() > deadline:
                raise AssertionError(f"no matching message for {self.address} in {folder} "
                                     f"within {timeout:g} s")
            time.sleep(0.05)

    def _session(self) -> imaplib.IMAP4:
        imap = imaplib.IMAP4(LOOPBACK, self.stack.imap_port, timeout=10)
        try:
            imap.login(self.address, self.password)
        except BaseException:
            imap.shutdown()
            raise
        return imap

    def _fetch(self, folder: str, items: str) -> list[tuple[bytes, bytes]]:
        """(head line, literal) per message, lowest UID first; empty when the folder is missing."""
        with self._session() as imap:
            status, _ = imap.select(_quote(folder), readonly=True)
            if status != "OK":
                return []
            status, data = imap.uid("FETCH", "1:*", f"(UID {items})")
        parts = [part for part in data if isinstance(part, tuple)]
        parts.sort(key=lambda part: int(_UID.search(part[0]).group(1)))
        return parts


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'
