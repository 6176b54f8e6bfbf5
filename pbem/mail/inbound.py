"""One incoming mail, parsed once into the fields the game master reads.

Players write from every kind of mail client, so nothing here may raise: a
message that cannot be understood still becomes an ``Inbound`` (with empty
fields) and is refused or screened out later, rather than stopping the run.
"""

from __future__ import annotations

import codecs
import email
import email.header
import email.parser
import email.utils
import hashlib
import re
from dataclasses import dataclass, field
from email.message import Message
from collections.abc import Callable, Iterator
from typing import TypeVar

import html2text

from pbem.mail.clean import SYNTHETIC_ID_DOMAIN, clean, message_id, message_ids, plain_address
from pbem.mail.flowed import unflow

__all__ = ["Inbound", "parse", "decode_bytes", "html_to_text", "MAX_MESSAGE_BYTES"]

# Mail larger than this is kept but not read (its headers are, so that it can be answered).
MAX_MESSAGE_BYTES = 1 << 20
# Only this much of a header block is read of a message too large to parse whole.
_HEADER_BYTES = 64 << 10
# html2text is slow on big documents, and orders sit at the top: only this much HTML is read.
_HTML_CHARS = 256 << 10
_NAME_CHARS = 64
_SUBJECT_CHARS = 200
_MOST_RECIPIENTS = 50
# Codecs that Python calls text encodings but that no mail body is written in: they either
# raise on ordinary text or turn it into something else.
_NOT_MAIL_CHARSETS = {"punycode", "idna", "raw-unicode-escape", "unicode-escape", "unicode-internal"}

_T = TypeVar("_T")

# Order matters: recipients is read as "who was this sent to", and the first
# entries are the ones the player chose; the envelope headers come after.
_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")

# Mail clients label windows-1252 text as iso-8859-1 all the time (browsers
# do the same mapping), and utf-8 text as any of these.
_WESTERN = {"ascii", "iso8859-1", "cp1252"}
_ALIASES = {"iso8859-1": "cp1252"}

# html2text escapes characters that would mean something in markdown; the
# player wrote plain text, so "-1" and "+1" must come back unchanged.
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|~])")


@dataclass(frozen=True)
class Inbound:
    raw: bytes = field(repr=False)
    message_id: str
    sender: str
    sender_name: str
    return_path: str | None
    recipients: tuple[str, ...]
    subject: str
    text: str
    in_reply_to: str | None
    references: tuple[str, ...]
    headers: Message = field(compare=False, repr=False)
    sender_problem: str = ""      # why the From gave no usable sender ("" when it did, or no From)
    size: int = 0                 # bytes as received
    oversized: bool = False       # too large to read: only the headers were parsed


def parse(raw: bytes, max_bytes: int | None = MAX_MESSAGE_BYTES) -> Inbound:
    """Parse one RFC 5322 message; never raises. Past ``max_bytes`` only the headers are read."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    oversized = max_bytes is not None and len(raw) > max_bytes
    # The legacy policy reads headers as text without parsing each one (several times faster on
    # a busy inbox); the few headers read here are decoded by hand below.
    source = _header_block(raw) if oversized else raw
    msg = _safe(lambda: email.message_from_bytes(source), None)
    if msg is None:
        msg = Message()
    sender, sender_name, problem = _safe(lambda: _from(msg), ("", "", "unreadable From"))
    return Inbound(
        raw=raw,
        message_id=_safe(lambda: message_id(_header(msg, "Message-ID") or ""), None) or _synthetic_id(raw),
        sender=sender,
        sender_name=sender_name,
        return_path=_safe(lambda: _return_path(msg), None),
        recipients=_safe(lambda: _recipients(msg), ()),
        subject=_subject(msg),
        text="" if oversized else _safe(lambda: _body_text(msg), ""),
        in_reply_to=_safe(lambda: message_id(_header(msg, "In-Reply-To") or ""), None),
        references=_safe(lambda: message_ids(_header(msg, "References") or ""), ()),
        headers=msg,
        sender_problem=problem,
        size=len(raw),
        oversized=oversized,
    )


def subject_of(raw: bytes) -> str:
    """The Subject of a message as `parse` reads it, from its header block alone: nothing of
    its MIME structure is looked at (a multipart's boundary would cost a pattern compiled)."""
    msg = _safe(lambda: email.parser.BytesParser().parsebytes(_header_block(raw), headersonly=True), None)
    return "" if msg is None else _subject(msg)


def _subject(msg: Message) -> str:
    return _safe(lambda: clean(_header(msg, "Subject") or "", _SUBJECT_CHARS), "")


def _header_block(raw: bytes) -> bytes:
    """The header block of a message (bounded), without its body."""
    head = raw[:_HEADER_BYTES]
    for end in (b"\r\n\r\n", b"\n\n"):
        cut = head.find(end)
        if cut >= 0:
            return head[:cut + len(end)]
    return head.rsplit(b"\n", 1)[0] + b"\n\n"


def _safe(fn: Callable[[], _T], default: _T) -> _T:
    # Broken mail is normal input; one bad header must not lose the others.
    try:
        return fn()
    except Exception:
        return default


def _header(msg: Message, name: str) -> str | None:
    """The first value of header ``name`` as text: 8-bit bytes read as UTF-8, encoded words decoded."""
    wanted = name.lower()
    for key, value in msg.raw_items():
        if key.lower() == wanted:
            return _decode_words(_text(value))
    return None


def _text(value: object) -> str:
    # The parser keeps undecodable header bytes as surrogates; they are the sender's UTF-8.
    return str(value).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _decode_words(value: str) -> str:
    """RFC 2047 encoded words (=?utf-8?q?...?=) to text; anything undecodable stays as it was."""
    if "=?" not in value:
        return value
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:
        return value


def _synthetic_id(raw: bytes) -> str:
    # Stable across re-reads of the same mailbox, so duplicates are still seen.
    return f"<{hashlib.sha256(raw).hexdigest()}{SYNTHETIC_ID_DOMAIN}>"


def _unfold(value: str) -> str:
    return re.sub(r"\r?\n[ \t]*", " ", value).strip()


def _from(msg: Message) -> tuple[str, str, str]:
    """(sender, display name, problem). The sender is the angle address when there is one, as
    MTAs and DMARC read it; a From that names more than one mailbox is ambiguous and gives no
    sender at all, and neither does an address that is not plain."""
    values = [_text(v) for k, v in msg.raw_items() if k.lower() == "from"]
    if not values:
        return "", "", ""
    if len(values) > 1:
        return "", "", "more than one From header"
    mailbox = _mailbox(_unfold(values[0])[:2000])
    if mailbox is None:
        return "", "", "a From that names no single mailbox"
    name, address = mailbox
    plain = plain_address(address)
    if plain is None:
        return "", "", "a From address that is not a plain address"
    return plain, clean(_decode_words(name), _NAME_CHARS), ""


def _mailbox(value: str) -> tuple[str, str] | None:
    """(display name, address) of a From value naming exactly one mailbox, else None."""
    bare: list[str] = []
    name: list[str] = []
    angles: list[str] = []
    quoted = escaped = False
    depth = 0
    angle: list[str] | None = None
    for ch in value:
        if escaped:
            escaped = False
            (angle if angle is not None else name if quoted else bare if not depth else []).append(ch)
            continue
        if ch == "\\" and (quoted or depth):
            escaped = True
        elif quoted:
            if ch == '"':
                quoted = False
            else:
                name.append(ch)
        elif depth:
            depth += {"(": 1, ")": -1}.get(ch, 0)
        elif angle is not None:
            if ch == "<":
                return None
            if ch == ">":
                angles.append("".join(angle))
                angle = None
            else:
                angle.append(ch)
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth = 1
        elif ch == ">":
            return None
        elif ch == "<":
            angle = []
        else:
            bare.append(ch)
    outside = "".join(bare).strip()
    if quoted or depth or angle is not None or len(angles) > 1 or any(c in outside for c in ":;"):
        return None
    if angles:
        if "," in outside and "@" in outside:
            return None  # "a@x, Name <b@y>": two mailboxes
        display = "".join(name).strip() or outside
        return display, angles[0].strip()
    if not outside or any(c.isspace() or c == "," for c in outside):
        return None
    return "".join(name).strip(), outside


def _return_path(msg: Message) -> str | None:
    value = _header(msg, "Return-Path")
    if value is None:
        return None
    inner = value[:1000].strip()
    match = re.search(r"<([^<>]*)>", inner)
    if match:
        inner = match.group(1)
    return "".join(inner.split()).lower()


def _recipients(msg: Message) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for name in _RECIPIENT_HEADERS:
        wanted = name.lower()
        for key, value in msg.raw_items():
            if key.lower() != wanted:
                continue
            for _, addr in email.utils.getaddresses([_text(value)[:4000]]):
                plain = plain_address(addr)
                if plain:
                    seen.setdefault(plain, None)
                if len(seen) >= _MOST_RECIPIENTS:
                    return tuple(seen)
    return tuple(seen)


# --- body -------------------------------------------------------------------


def _body_text(msg: Message) -> str:
    parts = list(_leaf_parts(msg))
    plain = next((p for p in parts if _is_inline(p, "text/plain")), None)
    if plain is not None:
        text = _newlines(_decoded(plain))
        flowed, delsp = _safe(lambda: _flowed(plain), (False, False))
        if flowed:
            text = unflow(text, delsp)
        if text.strip():
            return text
        # Some clients send an empty text part beside the HTML that holds the whole reply.
    html = next((p for p in parts if _is_inline(p, "text/html")), None)
    if html is not None:
        return _newlines(html_to_text(_decoded(html)[:_HTML_CHARS]))
    return ""


def _flowed(part: Message) -> tuple[bool, bool]:
    """Whether a text part is `format=flowed` (RFC 3676), and whether it says `DelSp=yes`."""
    def said(name: str) -> str:
        value = part.get_param(name, "")
        return (value if isinstance(value, str) else "").strip().strip('"').lower()
    return said("format") == "flowed", said("delsp") == "yes"


def _leaf_parts(part: Message) -> Iterator[Message]:
    # A forwarded message attached as message/rfc822 is not the player's
    # text, so the walk does not go into it.
    if part.is_multipart():
        if part.get_content_maintype() == "message":
            return
        for sub in part.get_payload():  # a multipart's payload: its parts, each a Message
            if isinstance(sub, Message):
                yield from _leaf_parts(sub)
    else:
        yield part


def _is_inline(part: Message, content_type: str) -> bool:
    return part.get_content_type() == content_type and part.get_content_disposition() != "attachment"


def _decoded(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = str(part.get_payload() or "").encode("utf-8", "surrogateescape")
    return decode_bytes(payload, _safe(part.get_content_charset, None))


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Text of ``data``, trusting the declared charset only as far as it works."""
    declared = _codec(charset)
    candidates = []
    if declared in _WESTERN and _is_utf8_text(data):
        candidates.append("utf-8")
    if declared:
        candidates.append(declared)
    candidates += ["utf-8", "cp1252"]
    for codec in candidates:
        try:
            return data.decode(codec)
        except (UnicodeError, LookupError):
            continue
    return data.decode("latin-1", errors="replace")


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    try:
        info = codecs.lookup(charset.strip().strip('"')[:40])
    except (LookupError, ValueError, TypeError):
        return None
    # bytes-to-bytes codecs (hex, base64, rot13) and the few text codecs no body is written in
    # are no charsets: the text is then read as UTF-8 or windows-1252 like unlabelled text.
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_MAIL_CHARSETS:
        return None
    return _ALIASES.get(info.name, info.name)


def _is_utf8_text(data: bytes) -> bool:
    # Valid multi-byte utf-8 almost never happens by chance in 8-bit text.
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def html_to_text(html: str) -> str:
    """Plain text of an HTML body, as the player saw it; quotes become "> "."""
    converter = html2text.HTML2Text()
    converter.body_width = 0
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    # A table's rows one a line, its cells apart as a browser shows them, not Markdown's pipes
    # (`Ann| 19`, a rule of dashes under the first row) which a reader never sees.
    converter.ignore_tables = True
    text = _MD_ESCAPE.sub(r"\1", converter.handle(html))
    # html2text ends <br> lines with two spaces (a markdown line break).
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def _newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
