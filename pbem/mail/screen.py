"""Screening of incoming mail before anything is answered (after Mailman 3).

Answering a robot starts a mail loop; answering a list spams its members;
answering a bounce bounces again. Each rule below looks for one of these and
says why; the first reason wins, is logged and stored, and the mail gets no
reply at all (`pbem inbox` lists it). Only what a group adds gives way, and only
to a seat's own proof (`SEAT_RULES`).

Rules read the raw header values (``raw_items``) so that a malformed header
cannot make a rule raise: screening must hold for exactly the mail that is
least well formed.
"""

from __future__ import annotations

import email.utils
from collections.abc import Iterable
from typing import Protocol

from pbem.mail.clean import base_address
from pbem.mail.inbound import Inbound

__all__ = [
    "Rule",
    "AutoSubmitted",
    "AutoReplyHeaders",
    "Precedence",
    "ListMail",
    "Bounce",
    "OwnMail",
    "NoSender",
    "RULES",
    "SEAT_RULES",
    "screen",
    "header_values",
]


class Rule(Protocol):
    name: str

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        """A reason not to answer ``msg``, or None."""


def header_values(msg: Inbound, name: str) -> list[str]:
    """Every raw value of header ``name`` (case-insensitive), unfolded and stripped."""
    wanted = name.lower()
    return [" ".join(str(v).split()) for k, v in msg.headers.raw_items() if k.lower() == wanted]


def _first_token(value: str) -> str:
    return value.split(";", 1)[0].strip().lower()


class AutoSubmitted:
    """RFC 3834: anything but ``no`` was sent by a program."""

    name = "auto-submitted"

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        for value in header_values(msg, "Auto-Submitted"):
            if _first_token(value) != "no":
                return f"Auto-Submitted: {value}"
        return None


class AutoReplyHeaders:
    """Vacation responders that skip RFC 3834 mark themselves in their own ways."""

    name = "autoreply"
    _SUPPRESS = {"all", "oof", "autoreply"}

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        for header in ("X-Autoreply", "X-Autorespond"):
            for value in header_values(msg, header):
                if value.lower() not in ("no", "false", "0"):
                    return f"{header}: {value}"
        for value in header_values(msg, "X-Auto-Response-Suppress"):
            tokens = {t.strip().lower() for t in value.split(",")}
            if tokens & self._SUPPRESS:
                return f"X-Auto-Response-Suppress: {value}"
        return None


class Precedence:
    name = "precedence"
    # What a mailing list or group sets on every message it passes on, a person's among them.
    GROUP = frozenset({"bulk", "list"})
    # What only a program sets on its own mail.
    ROBOT = frozenset({"junk", "auto_reply", "auto-reply"})

    def __init__(self, values: frozenset[str] = GROUP | ROBOT):
        self.values = values

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        for value in header_values(msg, "Precedence"):
            if value.lower() in self.values:
                return f"Precedence: {value}"
        return None


class ListMail:
    """RFC 2369/2919 list headers: a reply would go to every member."""

    name = "list"

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        for key, _ in msg.headers.raw_items():
            lowered = key.lower()
            if lowered.startswith("list-") or lowered == "mailing-list":
                return f"{key} header"
        return None


class Bounce:
    name = "bounce"
    _ROBOTS = {"mailer-daemon", "postmaster"}

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        if msg.return_path == "":
            return "null return path <>"
        for addr in self._senders(msg):
            local = addr.rsplit("@", 1)[0].strip().lower()
            if local in self._ROBOTS:
                return f"sent by {addr}"
        for value in header_values(msg, "Content-Type"):
            if _first_token(value) == "multipart/report":
                return "delivery report (multipart/report)"
        return None

    @staticmethod
    def _senders(msg: Inbound) -> Iterable[str]:
        # A bare "MAILER-DAEMON" has no domain, so Inbound.sender is empty;
        # the raw From still tells a bounce from a person.
        yield msg.sender
        for value in header_values(msg, "From"):
            yield email.utils.parseaddr(value)[1]


class OwnMail:
    """Mail from the GM itself comes back through forwards and loops."""

    name = "loop"

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        kinds = header_values(msg, "X-PBEM-Kind")
        if kinds:
            return f"X-PBEM-Kind: {kinds[0]}"
        if msg.sender and base_address(msg.sender) in {base_address(a) for a in gm_addresses}:
            return f"sent by the GM address {msg.sender}"
        return None


class NoSender:
    name = "no-sender"

    def check(self, msg: Inbound, gm_addresses: set[str]) -> str | None:
        return None if msg.sender else "no sender address in From"


RULES: tuple[Rule, ...] = (
    AutoSubmitted(),
    AutoReplyHeaders(),
    Precedence(),
    ListMail(),
    Bounce(),
    OwnMail(),
    NoSender(),
)

# The rules that hold even for mail from a seat's own address carrying that seat's secret. A GM
# address that is a Google or Microsoft 365 group adds list headers and `Precedence: list` to a
# player's every message, and the player's answer goes to the seat's address, never to the list,
# so those marks give way to the seat's proof. A robot's marks, a bounce and the GM's own mail
# never do: answering them starts a loop whatever secret they carry (a bounce quotes the GM's
# mail, secret and all).
SEAT_RULES: tuple[Rule, ...] = (
    AutoSubmitted(),
    AutoReplyHeaders(),
    Precedence(Precedence.ROBOT),
    Bounce(),
    OwnMail(),
    NoSender(),
)


def screen(msg: Inbound, gm_addresses: set[str], rules: Iterable[Rule] = RULES) -> str | None:
    """Why ``msg`` must get no reply ("<rule>: <detail>"), or None to go on."""
    for rule in rules:
        reason = rule.check(msg, gm_addresses)
        if reason:
            return f"{rule.name}: {reason}"
    return None
