"""Composition of the mail the GM sends: the headers of the contract, text and an optional HTML part."""
from __future__ import annotations

import email.header
import email.utils
import quopri
import uuid
from dataclasses import dataclass, field
from datetime import datetime

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


# Mail is written straight to its wire form: the headers below are short and already encoded,
# and the body is one text part, or that and an HTML part side by side.
# Composing this way is several times faster than EmailMessage, which parses every header it is
# given; a busy pass writes two or three mails per message it handles.
_LONGEST_7BIT_LINE = 998


def _address(name: str, address: str) -> str:
    return email.utils.formataddr((name, address), charset="utf-8") if name else address


def _header_text(text: str) -> str:
    return text if text.isascii() else email.header.Header(text, "utf-8").encode()


def _plain_7bit(text: str) -> bool:
    return text.isascii() and all(len(line) <= _LONGEST_7BIT_LINE for line in text.splitlines())


def _text_part(text: str, subtype: str) -> tuple[list[tuple[str, str]], str]:
    """The part's headers and its encoded body (CRLF line ends)."""
    if _plain_7bit(text):
        body, encoding = text, "7bit"
    else:  # quoted-printable keeps the text readable and the lines short
        body, encoding = quopri.encodestring(text.encode("utf-8")).decode("ascii"), "quoted-printable"
    body = body.replace("\r\n", "\n").replace("\n", "\r\n")
    headers = [("Content-Type", f'text/{subtype}; charset="utf-8"'), ("Content-Transfer-Encoding", encoding)]
    return headers, body


def _body(letter: Letter) -> tuple[list[tuple[str, str]], str]:
    if not letter.html:
        return _text_part(letter.text, "plain")
    boundary = "=_pbem_" + uuid.uuid4().hex
    chunks = []
    for text, subtype in ((letter.text, "plain"), (letter.html, "html")):
        part_headers, part_body = _text_part(text, subtype)
        head = "\r\n".join(f"{key}: {value}" for key, value in part_headers)
        chunks.append(f"--{boundary}\r\n{head}\r\n\r\n{part_body}\r\n")
    body = "".join(chunks) + f"--{boundary}--\r\n"
    return [("Content-Type", f'multipart/alternative; boundary="{boundary}"')], body


@dataclass(frozen=True)
class Outgoing:
    message_id: str
    raw: bytes


def compose(letter: Letter, *, gm_address: str, gm_name: str, now: datetime) -> Outgoing:
    if letter.kind not in KINDS:
        raise ValueError(f"unknown mail kind {letter.kind!r}")
    message_id = email.utils.make_msgid(idstring=letter.kind, domain=gm_address.partition("@")[2] or None)
    headers = [
        ("From", _address(gm_name, gm_address)),
        ("To", _address(letter.to_name, letter.to_addr)),
        ("Subject", _header_text(letter.subject)),
        ("Date", email.utils.format_datetime(now)),
        ("Message-ID", message_id),
    ]
    if letter.secret:
        headers.append(("Reply-To", _address(gm_name, plus_address(gm_address, letter.secret))))
    if letter.game_id:
        headers.append(("X-PBEM-Game", letter.game_id))
    headers.append(("X-PBEM-Kind", letter.kind))
    answer = letter.in_reply_to is not None and letter.kind in ANSWER_KINDS
    headers.append(("Auto-Submitted", "auto-replied" if answer else "auto-generated"))
    if letter.in_reply_to:
        headers.append(("In-Reply-To", letter.in_reply_to))
        headers.append(("References", " ".join([*letter.references, letter.in_reply_to])))
    headers += [(k, _header_text(v)) for k, v in letter.extra_headers.items()]
    body_headers, body = _body(letter)
    headers += [("MIME-Version", "1.0"), *body_headers]
    head = "\r\n".join(f"{key}: {value}" for key, value in headers)
    return Outgoing(message_id, (head + "\r\n\r\n" + body).encode("ascii"))
