"""Composition of the mail the GM sends: the headers of the contract, text and an optional HTML part."""
from __future__ import annotations

import email.policy
import email.utils
import quopri
import re
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from email.headerregistry import Address
from functools import lru_cache

from pbem.errors import BadValue
from pbem.mail.flowed import flow, unflow
from pbem.mail.kinds import MailKind
from pbem.mail.clean import (SYNTHETIC_ID_DOMAIN, BadAddress, clean, message_id as clean_message_id, message_ids,
                             plain_address)

_KINDS = frozenset(MailKind)


class BadLetter(BadValue):
    """A letter that cannot be written as mail: a header that would break its line or pass the
    longest line mail may have, or a kind of mail pbem does not send."""


@dataclass
class Letter:
    """A mail to one person, before it has headers."""
    kind: MailKind
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
    # An iCalendar text (CONTRACT section 13, METHOD:PUBLISH) sent beside the text as a
    # text/calendar part, and after it each withdrawal (METHOD:CANCEL), a part of its own.
    calendar: str | None = None
    calendar_name: str = "deadline.ics"
    calendar_cancels: tuple[str, ...] = ()
    # It asks nothing of its reader (a report of a game they owe nothing in, a spectator's copy):
    # it may wait for the reader's daily digest, where a layer above keeps one (SET DIGEST).
    digest: bool = False


def plus_address(address: str, secret: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local}+{secret}@{domain}"


# A subject the GM writes is at most 78 characters. What makes one longer is what it quotes (a
# player's orders, an id, what else one answer holds): that is cut, at a space where it can be,
# and marked; the game's `[id]` in front is always kept, as a reply finds its game by it, and so
# is the list of what else the answer holds where there is room beside the rest.
SUBJECT_WIDTH = 78
_TAG = re.compile(r"\[[^\]\s]{1,64}\] ")
_ALSO = re.compile(r" \(with [^()]{1,60}\)$")
_CUT = "..."
_SHORTEST_CUT = 12  # fewer characters of the quoted part than this say nothing: the list goes first


def short_subject(subject: str, width: int = SUBJECT_WIDTH) -> str:
    """`subject` as it is when it fits `width`, else with its quoted part cut to fit."""
    if len(subject) <= width:
        return subject
    tag_found = _TAG.match(subject)
    tag = tag_found.group(0) if tag_found else ""
    rest = subject[len(tag):]
    also_found = _ALSO.search(rest)
    also = also_found.group(0) if also_found else ""
    quoted = rest[:len(rest) - len(also)] if also else rest
    room = width - len(tag) - len(also) - len(_CUT)
    if room < _SHORTEST_CUT:  # the list goes first
        if len(tag) + len(quoted) <= width:
            return tag + quoted
        also, room = "", width - len(tag) - len(_CUT)
    cut = quoted[:max(room, 0)]
    if len(quoted) > room and not quoted[room:room + 1].isspace() and cut.rfind(" ") > room // 2:
        cut = cut[:cut.rfind(" ")]  # a word is not cut in two
    return tag + cut.rstrip(" :,;-") + _CUT + also


# The body is written straight to its wire form (one text part, or that and an HTML part side
# by side): composing it through EmailMessage is several times slower. Every header, though, is
# built by the email package's own header machinery (policy.SMTP: parsed, encoded, folded) from
# values that went through `clean` first, so no value can add a header line of its own.
_LONGEST_7BIT_LINE = 998
_POLICY = email.policy.SMTP
_LINE = _POLICY.max_line_length or 78  # where a header is folded
_NAME_CHARS = 64
_SUBJECT_CHARS = 200


@lru_cache(maxsize=4096)
def _folded(name: str, value: str) -> str:
    """One header line (folded, CRLF-terminated) from a clean value; refused if it has a break."""
    if any(ch in value for ch in "\r\n\0"):
        raise BadLetter(f"header {name} with a line break")
    text = name == "Subject" or name.startswith("X-")
    if value.isascii() and not (text and "=?" in value):
        line = _fold_at_spaces(name, value)
    elif text:
        line = _fold_at_spaces(name, " ".join(_text_words(value)))
    else:  # a display name beyond ASCII: the policy's parser encodes it as its header demands
        line = _POLICY.fold(*_POLICY.header_store_parse(name, value))
    if any(len(part) > _LONGEST_7BIT_LINE for part in line.split("\r\n")):
        raise BadLetter(f"header {name} longer than a line may be")
    return line


# RFC 2047: an encoded-word is at most 75 characters; shorter ones keep `Subject: ` and the first
# on a line of 78. Q-encoding writes these as they are, a space as `_`, every other byte as =XX.
_ENCODED_TEXT = 48
_Q_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")


def _text_words(value: str) -> list[str]:
    """Unstructured text as words to join with single spaces: plain ASCII words as they are, and
    each run of words beyond ASCII as encoded-words that carry the run's own spaces (readers drop
    the white space between two encoded-words, and keep it beside a plain word)."""
    out: list[str] = []
    run: list[str] = []
    for word in value.split(" "):
        if word and word.isascii() and "=?" not in word:
            out += _encoded(" ".join(run)) if run else []
            run = []
            out.append(word)
        else:
            run.append(word)
    return out + (_encoded(" ".join(run)) if run else [])


def _encoded(text: str) -> list[str]:
    """`text` as Q encoded-words, cut between characters (never inside one's UTF-8 bytes)."""
    pieces, piece = [], ""
    for ch in text:
        code = "_" if ch == " " else ch if ch in _Q_PLAIN else "".join(f"={b:02X}" for b in ch.encode("utf-8"))
        if piece and len(piece) + len(code) > _ENCODED_TEXT:
            pieces.append(piece)
            piece = ""
        piece += code
    return [f"=?utf-8?q?{p}?=" for p in [*pieces, piece]]


def _fold_at_spaces(name: str, value: str) -> str:
    """An ASCII header folded before a space wherever a line would pass 78 columns. The policy's
    own refolding moves a value that fits a line of its own whole onto the next line, leaving
    `Subject:` bare on the first, which some readers show as an empty subject. A word longer
    than a line stays whole (lines may run to 998 octets)."""
    words = value.split(" ")
    lines, line = [], f"{name}: {words[0]}"
    for word in words[1:]:
        if word and len(line) + 1 + len(word) > _LINE:
            lines.append(line)
            line = " " + word
        else:
            line += " " + word
    return "\r\n".join([*lines, line]) + "\r\n"


@lru_cache(maxsize=4096)  # the same few players and the GM, over and over
def _address(name: str, address: str) -> str:
    plain = plain_address(address)
    if plain is None:
        raise BadAddress(f"not a plain mail address: {clean(address, 80)!r}")
    name = clean(name, _NAME_CHARS)
    return str(Address(display_name=name, addr_spec=plain)) if name else plain


def _plain_7bit(text: str) -> bool:
    return text.isascii() and all(len(line) <= _LONGEST_7BIT_LINE for line in text.splitlines())


# A part's two headers, and the start of every boundary this module writes: `text_of` finds the
# text part again by them. The rest of a boundary is a uuid4 (from `os.urandom`, not `random`):
# it need only be unlikely in the text, but it tells nothing of the next mail's ids either. The
# text part is flowed (RFC 3676), so a phone reflows its prose; the HTML part has its own.
_PART_TYPE = {"plain": 'text/plain; charset="utf-8"; format=flowed; delsp=no', "html": 'text/html; charset="utf-8"'}
_BOUNDARY = "=_pbem_"
_ENCODINGS = ("7bit", "quoted-printable")


def _text_part(text: str, subtype: str) -> tuple[list[tuple[str, str]], str]:
    """The part's headers and its encoded body (CRLF line ends)."""
    if subtype == "plain":
        text = flow(text.replace("\r\n", "\n"))
    if _plain_7bit(text):
        body, encoding = text, _ENCODINGS[0]
    else:  # quoted-printable keeps the text readable and the lines short
        body, encoding = quopri.encodestring(text.encode("utf-8")).decode("ascii"), _ENCODINGS[1]
    body = body.replace("\r\n", "\n").replace("\n", "\r\n")
    headers = [("Content-Type", _PART_TYPE[subtype]), ("Content-Transfer-Encoding", encoding)]
    return headers, body


_TEXT_HEAD = f"Content-Type: {_PART_TYPE['plain']}\r\nContent-Transfer-Encoding: ".encode()


def text_of(raw: bytes) -> str | None:
    """The text of a mail `compose` wrote (LF line ends, unflowed as a reader unflows it), cut
    out of its bytes where `_text_part` put it (alone, or first in a multipart), or None when
    `raw` is of another shape (the mail of an older pbem among them). Reading a reply against the
    GM's own mail needs it; a whole parse would compile a pattern for each new MIME boundary."""
    start = raw.find(_TEXT_HEAD)
    if start < 0:
        return None
    line_end = raw.find(b"\r\n", start + len(_TEXT_HEAD))
    encoding = raw[start + len(_TEXT_HEAD):line_end].decode("ascii", "replace")
    if encoding not in _ENCODINGS or raw[line_end:line_end + 4] != b"\r\n\r\n":
        return None
    body_start = line_end + 4
    if raw.find(b"\r\n\r\n") + 4 == body_start:  # the headers were the mail's own: a single part
        body = raw[body_start:]
    else:
        end = raw.find(f"\r\n--{_BOUNDARY}".encode(), body_start)
        if end < 0:
            return None
        body = raw[body_start:end]
    try:
        text = (quopri.decodestring(body) if encoding == _ENCODINGS[1] else body).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return unflow(text.replace("\r\n", "\n").replace("\r", "\n"))


def _body(letter: Letter) -> tuple[list[tuple[str, str]], str]:
    if letter.calendar or letter.calendar_cancels:
        return _with_calendar(letter)
    return _readable(letter)


def _with_calendar(letter: Letter) -> tuple[list[tuple[str, str]], str]:
    """multipart/mixed: the text (and HTML) first, as every reader shows it, then the event as
    a text/calendar part a calendar program takes (METHOD:PUBLISH, a file `deadline.ics`), then
    each withdrawal as a part of its own (METHOD:CANCEL, `cancel.ics`): iCalendar allows one
    METHOD to an object, and calendar programs act on a CANCEL of one UID."""
    boundary = _BOUNDARY + uuid.uuid4().hex
    chunks = [_readable(letter)]
    if letter.calendar:
        chunks.append(_calendar_part(letter.calendar, "PUBLISH", letter.calendar_name))
    chunks += [_calendar_part(cancel, "CANCEL", "cancel.ics") for cancel in letter.calendar_cancels]
    out = "".join(f"--{boundary}\r\n" + "\r\n".join(f"{k}: {v}" for k, v in part_head) + f"\r\n\r\n{part}\r\n"
                  for part_head, part in chunks)
    return [("Content-Type", f'multipart/mixed; boundary="{boundary}"')], out + f"--{boundary}--\r\n"


def _calendar_part(calendar: str, method: str, name: str) -> tuple[list[tuple[str, str]], str]:
    ics = calendar.replace("\r\n", "\n").replace("\n", "\r\n")
    encoding = "7bit" if ics.isascii() else "quoted-printable"
    if encoding != "7bit":
        ics = quopri.encodestring(ics.encode("utf-8")).decode("ascii").replace("\r\n", "\n").replace("\n", "\r\n")
    return ([("Content-Type", f'text/calendar; method={method}; charset="utf-8"'),
             ("Content-Disposition", f'attachment; filename="{clean(name, 40)}"'),
             ("Content-Transfer-Encoding", encoding)], ics)


def _readable(letter: Letter) -> tuple[list[tuple[str, str]], str]:
    """The text part, or the text and the HTML side by side (multipart/alternative)."""
    if not letter.html:
        return _text_part(letter.text, "plain")
    boundary = _BOUNDARY + uuid.uuid4().hex
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


def new_message_id(kind: str, gm_address: str) -> str:
    """A Message-ID no one can guess: 128 bits from `secrets`. `email.utils.make_msgid` draws on
    `random` (whose next values a few seen ids give away) and shows the time and the process;
    a guessed id of another player's mail must not be a key to anything."""
    return f"<{secrets.token_hex(16)}.{kind}@{gm_address.partition('@')[2] or 'localhost'}>"


def compose(letter: Letter, *, gm_address: str, gm_name: str, now: datetime) -> Outgoing:
    if letter.kind not in _KINDS:
        raise BadLetter(f"unknown mail kind {letter.kind!r}")
    message_id = new_message_id(letter.kind, gm_address)
    headers = [
        ("From", _address(gm_name, gm_address)),
        ("To", _address(letter.to_name, letter.to_addr)),
        ("Subject", clean(letter.subject, _SUBJECT_CHARS)),
        ("Date", email.utils.format_datetime(now)),
        ("Message-ID", message_id),
    ]
    if letter.secret:
        headers.append(("Reply-To", _address(gm_name, plus_address(gm_address, letter.secret))))
    if letter.game_id:
        headers.append(("X-PBEM-Game", clean(letter.game_id, 64)))
    headers.append(("X-PBEM-Kind", letter.kind))
    answered = clean_message_id(letter.in_reply_to or "")
    if answered and answered.endswith(SYNTHETIC_ID_DOMAIN + ">"):
        answered = None  # the message had no usable Message-ID of its own: nothing to refer to
    # RFC 3834: a mail written because a message came is auto-replied, whatever its kind (the
    # answer to a press is a press, the next toss a dice player is sent back is a turn);
    # everything the GM starts itself is auto-generated.
    headers.append(("Auto-Submitted", "auto-replied" if letter.in_reply_to is not None else "auto-generated"))
    if answered:
        headers.append(("In-Reply-To", answered))
        # A sender's long References is trimmed to its last few ids, as RFC 5322 allows.
        earlier = [i for i in message_ids(" ".join(letter.references)) if i != answered]
        headers.append(("References", " ".join([*earlier[-7:], answered])))
    headers += [(k, clean(v, 400)) for k, v in letter.extra_headers.items()]  # a List-Unsubscribe's mailto fits
    body_headers, body = _body(letter)
    headers += [("MIME-Version", "1.0"), *body_headers]
    head = "".join(_folded(key, value) for key, value in headers)
    return Outgoing(message_id, (head + "\r\n" + body).encode("ascii"))
