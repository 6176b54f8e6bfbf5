"""One incoming mail, parsed once into the fields the game master reads.

Players write from every kind of mail client, so nothing here may raise: a
message that cannot be understood still becomes an ``Inbound`` (with empty
fields) and is refused or screened out later, rather than stopping the run.
"""

from __future__ import annotations

import codecs
import email
import email.header
import email.utils
import hashlib
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Callable, Iterator, TypeVar

__all__ = ["Inbound", "parse", "decode_bytes", "html_to_text"]

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
_MSG_ID = re.compile(r"<[^<>\s]+>")


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


def parse(raw: bytes) -> Inbound:
    """Parse one RFC 5322 message; never raises."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    # The legacy policy reads headers as text without parsing each one (several times faster on
    # a busy inbox); the few headers read here are decoded by hand below.
    msg = _safe(lambda: email.message_from_bytes(raw), None)
    if msg is None:
        msg = Message()
    sender, sender_name = _safe(lambda: _from(msg), ("", ""))
    return Inbound(
        raw=raw,
        message_id=_safe(lambda: _message_id(msg), "") or _synthetic_id(raw),
        sender=sender,
        sender_name=sender_name,
        return_path=_safe(lambda: _return_path(msg), None),
        recipients=_safe(lambda: _recipients(msg), ()),
        subject=_safe(lambda: _unfold(_header(msg, "Subject") or ""), ""),
        text=_safe(lambda: _body_text(msg), ""),
        in_reply_to=_safe(lambda: _in_reply_to(msg), None),
        references=_safe(lambda: _references(msg), ()),
        headers=msg,
    )


def _safe(fn: Callable[[], _T], default: _T) -> _T:
    # Broken mail is normal input; one bad header must not lose the others.
    try:
        return fn()
    except Exception:
        return default


def _header(msg: Message, name: str) -> str | None:
    value = msg.get(name)
    return None if value is None else _decode_words(str(value))


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
    return f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _message_id(msg: Message) -> str:
    return "".join((_header(msg, "Message-ID") or "").split())


def _unfold(value: str) -> str:
    return re.sub(r"\r?\n[ \t]*", " ", value).strip()


def _addresses(value: object) -> list[tuple[str, str]]:
    """(display name, addr-spec) pairs of one address header."""
    return [(_decode_words(name), addr) for name, addr in email.utils.getaddresses([str(value)])]


def _from(msg: Message) -> tuple[str, str]:
    value = msg.get("From")
    if value is None:
        return "", ""
    for name, addr in _addresses(value):
        addr = addr.strip().lower()
        # Without a domain there is nobody to answer, which is what "no
        # sender" means to the screening rules.
        if "@" in addr:
            return addr, _unfold(name or "")
    return "", ""


def _return_path(msg: Message) -> str | None:
    value = _header(msg, "Return-Path")
    if value is None:
        return None
    inner = value.strip()
    match = re.search(r"<([^<>]*)>", inner)
    if match:
        inner = match.group(1)
    return "".join(inner.split()).lower()


def _recipients(msg: Message) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for name in _RECIPIENT_HEADERS:
        for value in msg.get_all(name) or ():
            for _, addr in _addresses(value):
                addr = addr.strip().lower()
                if "@" in addr:
                    seen.setdefault(addr, None)
    return tuple(seen)


def _in_reply_to(msg: Message) -> str | None:
    value = "".join((_header(msg, "In-Reply-To") or "").split())
    return value or None


def _references(msg: Message) -> tuple[str, ...]:
    value = _header(msg, "References") or ""
    return tuple(_MSG_ID.findall(value)) or tuple(value.split())


# --- body -------------------------------------------------------------------


def _body_text(msg: Message) -> str:
    parts = list(_leaf_parts(msg))
    plain = next((p for p in parts if _is_inline(p, "text/plain")), None)
    if plain is not None:
        return _newlines(_decoded(plain))
    html = next((p for p in parts if _is_inline(p, "text/html")), None)
    if html is not None:
        return _newlines(html_to_text(_decoded(html)))
    return ""


def _leaf_parts(part: Message) -> Iterator[Message]:
    # A forwarded message attached as message/rfc822 is not the player's
    # text, so the walk does not go into it.
    if part.is_multipart():
        if part.get_content_maintype() == "message":
            return
        for sub in part.get_payload():
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
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("latin-1", errors="replace")


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    try:
        name = codecs.lookup(charset.strip().strip('"')).name
    except (LookupError, ValueError, TypeError):
        return None
    return _ALIASES.get(name, name)


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
    import html2text  # only HTML-only mail needs it

    converter = html2text.HTML2Text()
    converter.body_width = 0
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    text = _MD_ESCAPE.sub(r"\1", converter.handle(html))
    # html2text ends <br> lines with two spaces (a markdown line break).
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def _newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
