"""Composition of the mail the GM sends: the headers of the contract, text and an optional HTML part."""
from __future__ import annotations

import email.policy
import email.utils
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage

KINDS = ("welcome", "ack", "error", "turn", "report", "reminder", "result", "status", "history", "help",
         "press")
# Answers to a player's own message are auto-replied; everything the GM starts is auto-generated.
ANSWER_KINDS = {"ack", "error", "status", "history", "help"}


@dataclass
class Letter:
    """A mail to one person, before it has headers."""
    kind: str
    to_addr: str
    subject: str
    text: str
    to_name: str = ""
    game_id: str | None = None
    secret: str | None = None          # the seat's secret, for the gm+<secret>@ Reply-To
    in_reply_to: str | None = None     # the Message-ID of the player's mail this answers
    references: tuple[str, ...] = ()
    html: str | None = None
    extra_headers: dict = field(default_factory=dict)


def plus_address(address: str, secret: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local}+{secret}@{domain}"


def compose(letter: Letter, *, gm_address: str, gm_name: str, now: datetime) -> EmailMessage:
    if letter.kind not in KINDS:
        raise ValueError(f"unknown mail kind {letter.kind!r}")
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = email.utils.formataddr((gm_name, gm_address))
    msg["To"] = email.utils.formataddr((letter.to_name, letter.to_addr)) if letter.to_name else letter.to_addr
    msg["Subject"] = letter.subject
    msg["Date"] = email.utils.format_datetime(now)
    msg["Message-ID"] = email.utils.make_msgid(idstring=letter.kind, domain=gm_address.partition("@")[2] or None)
    if letter.secret:
        msg["Reply-To"] = email.utils.formataddr((gm_name, plus_address(gm_address, letter.secret)))
    if letter.game_id:
        msg["X-PBEM-Game"] = letter.game_id
    msg["X-PBEM-Kind"] = letter.kind
    answer = letter.in_reply_to is not None and letter.kind in ANSWER_KINDS
    msg["Auto-Submitted"] = "auto-replied" if answer else "auto-generated"
    if letter.in_reply_to:
        msg["In-Reply-To"] = letter.in_reply_to
        msg["References"] = " ".join([*letter.references, letter.in_reply_to])
    for key, value in letter.extra_headers.items():
        msg[key] = value
    # Plain ASCII travels as it is (readable in any mailbox file); anything else quoted-printable.
    msg.set_content(letter.text, charset="utf-8", cte="7bit" if letter.text.isascii() else "quoted-printable")
    if letter.html:
        msg.add_alternative(letter.html, subtype="html", charset="utf-8")
    return msg
