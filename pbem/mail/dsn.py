"""Delivery status notifications (bounces): which player address failed, and why.

A bounce is the only way the GM learns that a player's address is mistyped or dead. Reports come
in two kinds: the standard one (RFC 3464 ``multipart/report`` with a ``message/delivery-status``
part, which Postfix, Exim, Sendmail, Gmail and Exchange all send today), and the plain-text
notices of older or stripped-down servers (qmail, old Exim, old Sendmail, Postfix relayed through
gateways, Exchange and Gmail text). The standard part is trusted first; the text only when there
is none.

Bounces are mail from strangers like any other: nothing here raises, every part is read only up
to ``PART_BYTES``, and a report names at most ``MOST_BOUNCES`` recipients. Anyone can write a
bounce, so what is read here is a claim: callers should only act on a bounce that names a mail
they really sent (its ``message_id``).
"""
from __future__ import annotations

import binascii
import email
import email.utils
import itertools
import quopri
import re
from dataclasses import dataclass, replace
from email.message import Message
from collections.abc import Callable, Iterator

from pbem.mail.clean import clean, message_id, plain_address
from pbem.mail.inbound import Inbound, decode_bytes

__all__ = ["Bounce", "read_bounce", "PART_BYTES", "MOST_BOUNCES"]

PART_BYTES = 256 << 10
MOST_BOUNCES = 50
_MOST_PARTS = 200
_MOST_DEPTH = 16
# A header value longer than this is no address, status or reason anyone wrote.
_VALUE_CHARS = 4000
_DIAGNOSTIC_CHARS = 200
_ROBOTS = {"mailer-daemon", "mailer_daemon", "mailerdaemon", "mail-daemon", "maildaemon", "postmaster"}
_DS_TYPES = {"message/delivery-status", "message/global-delivery-status"}
_ORIGINAL_TYPES = {"message/rfc822", "message/global", "text/rfc822-headers", "message/global-headers"}
_NO_BOUNCE_ACTIONS = {"delivered", "relayed", "expanded"}

_STATUS = re.compile(r"(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])")
_REPLY_CODE = re.compile(r"(?<![\d.])([245])\d\d(?:[ -]|$)")
_FIELD = re.compile(r"([A-Za-z][A-Za-z0-9-]{0,76})[ \t]*:(.*)")
_ADDRESS = r"[^\s<>()\[\]\"',;:@]{1,64}@[A-Za-z0-9.-]{1,255}"
_HEADER_LINE = re.compile(r"[!-9;-~]{1,76}:")
_ALIAS = re.compile(r"\((?:generated|expanded) from:? <?(" + _ADDRESS + r")>?\)", re.I)
_MESSAGE_ID = re.compile(r"^message-id[ \t]*:[ \t]*(?:\r?\n[ \t]+)?(<[^<>\s]{1,250}>)", re.I | re.M)
# Where a plain-text notice ends and its copy of the original mail begins.
_COPY_MARKER = re.compile(
    r"^[ \t]*(?:-{2,}[ \t]*(?:below this line is a copy of the message"
    r"|this is a copy of the message"
    r"|(?:original|unsent|undelivered|returned) message(?: headers?)?(?: follows?)?"
    r"|message headers? follows?)"
    r"|original message headers:"
    r"|content-type:[ \t]*(?:message/rfc822|text/rfc822-headers))",
    re.I | re.M)


@dataclass(frozen=True)
class Bounce:
    # The address the bounced mail was sent to: the original recipient when the report names
    # one (the GM's own address book, before forwards and aliases), else the final one; plain and
    # lower-case, or None when the report names no readable address.
    recipient: str | None
    status: str | None             # RFC 3463 enhanced status, e.g. "5.1.1"
    permanent: bool                # a hard failure; False for "delivery delayed" warnings
    message_id: str | None         # the Message-ID of the mail that bounced, if the report shows it
    diagnostic: str                # a short cleaned reason for humans


def read_bounce(msg: Inbound) -> list[Bounce]:
    """The failed recipients a delivery report speaks of; [] when the message is no bounce."""
    try:
        return _read(msg)
    except Exception:
        return []


def _read(msg: Inbound) -> list[Bounce]:
    root = _root(msg)
    if not _automated(msg, root):
        return []
    scan = _Scan(root)
    fields: dict[str, str | None] = {}
    bounces = None
    for text in scan.reports:
        found = _report_bounces(text, fields)
        if found is not None:
            bounces = (bounces or []) + found
    texts = list(dict.fromkeys(([msg.text] if msg.text and not msg.oversized else []) + scan.texts))[:8]
    if bounces is None:
        bounces = next((found for found in map(_text_bounces, texts) if found is not None), [])
        bounces = bounces or _failed_recipients_header(root)
    original = (scan.original_id or _quoted_id_in(texts) or fields.get("original_id")
                or msg.in_reply_to or (msg.references[-1] if msg.references else None))
    return [replace(b, message_id=original) for b in _unique(bounces)]


# --- the message and its parts ------------------------------------------------


def _root(msg: Inbound) -> Message:
    if not msg.oversized:
        return msg.headers
    # Only the headers of mail too large to read were parsed; a bounce's report comes first.
    try:
        return email.message_from_bytes(msg.raw[:PART_BYTES])
    except Exception:
        return msg.headers


def _automated(msg: Inbound, root: Message) -> bool:
    """Whether ``msg`` may be a bounce at all: written by a program, not quoted by a person."""
    if msg.return_path == "" or _content_type(root) == "multipart/report":
        return True
    senders = [msg.sender] + [email.utils.parseaddr(_value(v))[1] for k, v in _items(root) if k == "from"]
    locals_ = {sender.rsplit("@", 1)[0].strip().lower() for sender in senders}
    if locals_ & _ROBOTS or any(local.startswith("microsoftexchange") for local in locals_):
        return True
    return any(name == "x-failed-recipients" or name == "auto-submitted"
               and _value(value).split(";")[0].strip().lower() not in ("", "no") for name, value in _items(root))


def _items(part: Message) -> Iterator[tuple[str, object]]:
    for key, value in itertools.islice(part.raw_items(), _MOST_PARTS):
        yield str(key).lower(), value


def _value(value: object) -> str:
    # Undecodable header bytes arrive as surrogates; they are the sender's UTF-8 (or junk).
    text = str(value)[:_VALUE_CHARS]
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return " ".join(text.split())


def _content_type(part: Message) -> str:
    try:
        return part.get_content_type()
    except Exception:
        return "text/plain"


class _Scan:
    """What a report's parts hold: its delivery-status texts, plain texts and original ID."""

    def __init__(self, root: Message):
        self.reports: list[str] = []
        self.texts: list[str] = []
        self.original_id: str | None = None
        for part in _parts(root):
            try:
                self._read(part, _content_type(part))
            except Exception:
                continue

    def _read(self, part: Message, ctype: str) -> None:
        payload = part.get_payload()
        if ctype in _DS_TYPES:
            self.reports.append(_status_text(part, payload))
        elif ctype in _ORIGINAL_TYPES:
            if self.original_id is None:
                self.original_id = _original_id(part, payload)
        elif ctype.startswith("multipart/"):
            if isinstance(payload, str):
                # A broken boundary leaves the whole report as one text: read it both ways.
                text = _part_text(part, payload)
                self.reports.append(text)
                self.texts.append(text)
                if self.original_id is None:
                    self.original_id = _quoted_id(text)
        elif ctype == "text/plain" and part.get_content_disposition() != "attachment":
            if isinstance(payload, str):
                self.texts.append(_part_text(part, payload))


def _parts(root: Message) -> Iterator[Message]:
    # Iterative and bounded: nesting and part counts are the sender's to choose. A returned
    # message is read for its Message-ID only, never walked into.
    stack = [(root, 0)]
    seen = 0
    while stack and seen < _MOST_PARTS:
        part, depth = stack.pop()
        seen += 1
        yield part
        if depth >= _MOST_DEPTH or not _content_type(part).startswith("multipart/"):
            continue
        payload = part.get_payload()
        if isinstance(payload, list):
            subs = [p for p in payload[:_MOST_PARTS] if isinstance(p, Message)]
            stack.extend((p, depth + 1) for p in reversed(subs))


def _part_bytes(part: Message, payload: str) -> bytes:
    """The first ``PART_BYTES`` of a part's body, transfer encoding undone."""
    encoding = str(part.get("Content-Transfer-Encoding", "") or "")[:40].strip().lower()
    head = payload[: PART_BYTES * 2]
    if encoding == "base64":
        compact = re.sub(r"[^A-Za-z0-9+/]", "", head)
        try:
            return binascii.a2b_base64(compact[: len(compact) // 4 * 4])[:PART_BYTES]
        except (binascii.Error, ValueError):
            return b""
    raw = head.encode("utf-8", "surrogateescape")
    if encoding == "quoted-printable":
        raw = quopri.decodestring(raw)
    return raw[:PART_BYTES]


def _part_text(part: Message, payload: str) -> str:
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    return decode_bytes(_part_bytes(part, payload), charset)


def _status_text(part: Message, payload: object) -> str:
    """A delivery-status part as text, however the parser left it: the stdlib splits it into one
    Message per block, leaves an unknown ``message/*`` as one Message with a body, or a string."""
    if isinstance(payload, str):
        return _part_text(part, payload)
    blocks, size = [], 0
    for block in payload[:_MOST_PARTS * 100] if isinstance(payload, list) else ():
        if not isinstance(block, Message) or size > PART_BYTES:
            break
        items = itertools.islice(block.raw_items(), _MOST_PARTS)
        lines = [f"{key}: {str(value)[:_VALUE_CHARS]}" for key, value in items]
        body = block.get_payload()
        if isinstance(body, str) and body.strip():
            lines.append("")
            lines.append(body[:PART_BYTES])
        text = "\n".join(lines)
        size += len(text)
        blocks.append(text)
    return "\n\n".join(blocks)[:PART_BYTES]


def _original_id(part: Message, payload: object) -> str | None:
    if isinstance(payload, list):
        inner = next((p for p in payload if isinstance(p, Message)), None)
        if inner is None:
            return None
        items = list(_items(inner))
        ids = [message_id(_value(value)) for name, value in items if name == "message-id"]
        # Headers that did not parse as such (a broken first line) still sit in the text.
        body = inner.get_payload()
        return ids[0] if ids else _header_id(body[:PART_BYTES]) if isinstance(body, str) and not items else None
    if isinstance(payload, str):
        return _header_id(_part_text(part, payload))
    return None


def _header_id(text: str) -> str | None:
    match = _MESSAGE_ID.search(text)
    return message_id(match.group(1)) if match else None


# --- RFC 3464 ---------------------------------------------------------------------


def _blocks(text: str) -> Iterator[dict[str, str]]:
    """The field blocks of a delivery-status text (blank-line separated; folded lines joined;
    lines that are no field ignored); the first value of a field wins."""
    block: dict[str, str] = {}
    last = None
    for line in text[:PART_BYTES].splitlines():
        if not line.strip():
            if block:
                yield block
            block, last = {}, None
        elif line[:1] in " \t":
            if last is not None and len(block[last]) < _VALUE_CHARS:
                block[last] += " " + line.strip()
        else:
            match = _FIELD.fullmatch(line.strip())
            last = None
            if match:
                name = match.group(1).lower()
                if name not in block:
                    block[name] = match.group(2).strip()[:_VALUE_CHARS]
                    last = name
    if block:
        yield block


def _report_bounces(text: str, fields: dict[str, str | None]) -> list[Bounce] | None:
    """The bounces of one delivery-status text; None when it has no recipient block at all.
    Gmail and Exchange name the original mail among the per-message fields: kept in ``fields``."""
    found: list[Bounce] | None = None
    for number, block in enumerate(_blocks(text)):
        if number > MOST_BOUNCES * 100:
            break
        if not fields.get("original_id") and "x-original-message-id" in block:
            fields["original_id"] = message_id(block["x-original-message-id"])
        if not {"final-recipient", "original-recipient", "action"} & block.keys():
            continue
        found = found if found is not None else []
        bounce = _block_bounce(block)
        if bounce is not None:
            found.append(bounce)
            if len(found) >= MOST_BOUNCES:
                break
    return found


def _block_bounce(block: dict[str, str]) -> Bounce | None:
    action = block.get("action", "").split(";")[0].split("(")[0].strip().lower()
    status = _status(block.get("status", "")) or _status(block.get("diagnostic-code", ""))
    if action in _NO_BOUNCE_ACTIONS:
        return None
    if action == "failed":
        permanent = True
    elif action == "delayed":
        permanent = False
    else:
        # An unknown or missing action: the status class (or the SMTP reply code) says it.
        reply = _REPLY_CODE.match(_strip_type(block.get("diagnostic-code", "")))
        kind = status[0] if status else reply.group(1) if reply else None
        if kind not in ("4", "5"):
            return None
        permanent = kind == "5"
    recipient = (_address(_strip_type(block.get("original-recipient", "")))
                 or _address(_strip_type(block.get("final-recipient", ""))))
    diagnostic = _strip_type(block.get("diagnostic-code", ""))
    if not diagnostic:
        diagnostic = ("delivery failed" if permanent else "delivery delayed") + (f" ({status})" if status else "")
    return Bounce(recipient, status, permanent, None, clean(diagnostic, _DIAGNOSTIC_CHARS))


def _strip_type(value: str) -> str:
    # "smtp; 550 ..." and "rfc822; a@b": the type names the kind of value, not part of it.
    kind, semi, rest = value.partition(";")
    return rest.strip() if semi and re.fullmatch(r"\s*[A-Za-z0-9-]{1,20}\s*", kind) else value.strip()


def _address(text: str) -> str | None:
    text = text.strip()
    angle = re.search(r"<([^<>]{1,300})>", text[:1000])
    if angle:
        text = angle.group(1)
    text = text.strip().strip("'\"").strip().rstrip(".")
    if text.lower().startswith("mailto:"):
        text = text[7:]
    return plain_address(text)


def _status(text: str) -> str | None:
    match = _STATUS.search(text[:_VALUE_CHARS])
    return ".".join(match.groups()) if match else None


def _unique(bounces: list[Bounce]) -> list[Bounce]:
    """One bounce per address (a failure wins over a delay), at most ``MOST_BOUNCES``."""
    kept: dict[str | None, Bounce] = {}
    for bounce in bounces:
        known = kept.get(bounce.recipient)
        if known is None:
            if len(kept) < MOST_BOUNCES:
                kept[bounce.recipient] = bounce
        elif bounce.permanent and not known.permanent:
            kept[bounce.recipient] = bounce
    return list(kept.values())


def _failed_recipients_header(root: Message) -> list[Bounce]:
    """Exim and Gmail name failed addresses in X-Failed-Recipients, whatever the notice's language."""
    items = [item for name, value in _items(root) if name == "x-failed-recipients"
             for item in _value(value).split(",")]
    addresses = filter(None, map(_address, items[:MOST_BOUNCES]))
    return [Bounce(a, None, True, None, "delivery failed (X-Failed-Recipients)") for a in addresses]


# --- plain-text notices -------------------------------------------------------------


def _split(text: str) -> tuple[str, str]:
    """A plain-text notice and its copy of the original mail (headers first, or "")."""
    marker = _COPY_MARKER.search(text)
    if marker is None:
        return text, ""
    # The copy starts on the line after the marker (whose rest is "----" or "., including ...").
    after = text.find("\n", marker.end())
    return text[: marker.start()], text[after + 1:] if after >= 0 else ""


def _text_bounces(text: str) -> list[Bounce] | None:
    """The bounces of a plain-text notice; None when no known form matches."""
    notice = _split(text[:PART_BYTES].replace("\r\n", "\n"))[0]
    for form in _FORMS:
        found = form(notice)
        if found is not None:
            return found[:MOST_BOUNCES * 2]
    return None


def _quoted_id(copy: str) -> str | None:
    """The Message-ID in the first header blocks of a quoted original."""
    lines = copy[:PART_BYTES].replace("\r\n", "\n").split("\n")
    index, blocks = 0, 0
    while index < len(lines) and blocks < 2:
        while index < len(lines) and (not lines[index].strip() or lines[index].lstrip().startswith("---")):
            index += 1
        if index >= len(lines) or not _HEADER_LINE.match(lines[index]):
            return None
        start = index
        while index < len(lines) and lines[index].strip():
            index += 1
        found = _header_id("\n".join(lines[start:index]))
        if found:
            return found
        blocks += 1
    return None


def _quoted_id_in(texts: list[str]) -> str | None:
    found = (_quoted_id(_split(text[:PART_BYTES].replace("\r\n", "\n"))[1]) for text in texts)
    return next((f for f in found if f), None)


def _bounce(address: str | None, reason: list[str], permanent: bool) -> Bounce | None:
    if address is None:
        return None
    text = " ".join(" ".join(reason).split())
    # Exim's "(generated from a@b)" and Sendmail's "(expanded from: <a@b>)" name the address the
    # mail was sent to, before an alias or forward; Sendmail wraps its reason in "(reason: ...)".
    alias = _ALIAS.search(text)
    address = (_address(alias.group(1)) if alias else None) or address
    text = " ".join(_ALIAS.sub(" ", text).split())
    if text.startswith("(reason:") and text.endswith(")"):
        text = text[8:-1].strip()
    status = _status(text)
    # The remote server's reply says it best; the words before it name hosts and commands.
    reply = re.search(r"(?<![\d.])[45]\d\d[ -][245]\.\d{1,3}\.\d{1,3}(?![\d.])", text)
    diagnostic = text[reply.start():] if reply else text
    diagnostic = diagnostic or ("delivery failed" if permanent else "delivery delayed")
    return Bounce(address, status, permanent, None, clean(diagnostic, _DIAGNOSTIC_CHARS))


def _entries(lines: list[str], start: Callable[[str], tuple[str | None, str] | None],
             stop: Callable[[str], bool], permanent: bool) -> list[Bounce]:
    """Bounces from notice lines where ``start`` opens an entry (its address and the rest of the
    line) and the lines after it, up to the next entry or ``stop``, give its reason."""
    found: list[Bounce | None] = []
    address: str | None = None
    reason: list[str] = []
    opened = False
    for line in lines:
        if stop(line):
            break
        entry = start(line)
        if entry is not None:
            if opened:
                found.append(_bounce(address, reason, permanent))
            address, rest = entry
            reason = [rest] if rest else []
            opened = True
        elif opened and line.strip():
            reason.append(line.strip())
        if len(found) > MOST_BOUNCES:
            break
    if opened:
        found.append(_bounce(address, reason, permanent))
    return [b for b in found if b is not None]


def _angle_line(pattern: str) -> Callable[[str], tuple[str | None, str] | None]:
    regex = re.compile(pattern)

    def start(line: str) -> tuple[str | None, str] | None:
        match = regex.match(line)
        if match is None:
            return None
        groups = match.groupdict()
        address = _address(groups.get("original") or "") or _address(groups["address"])
        return address, (groups.get("rest") or "").strip()
    return start


def _qmail(text: str) -> list[Bounce] | None:
    if not re.search(r"this is the qmail-send program", text, re.I):
        return None
    warning = bool(re.search(r"warning message only|not (?:yet )?been delivered", text, re.I))
    start = _angle_line(r"<(?P<address>[^<>\s]{1,300})>:[ \t]*(?P<rest>.*)$")
    return _entries(text.split("\n"), start, lambda line: False, not warning)


def _postfix(text: str) -> list[Bounce] | None:
    if not re.search(r"this is the (?:mail system|postfix program) at host", text, re.I):
        return None
    if re.search(r"was successfully delivered|delivery status notification \(success\)", text, re.I):
        return []  # its "<address>: delivered" lines are no failures
    warning = bool(re.search(r"this is a warning only|could not be delivered for more than", text, re.I))
    start = _angle_line(r"<(?P<address>[^<>\s]{1,300})>(?: \(expanded from <(?P<original>[^<>\s]{1,300})>\))?:"
                        r"[ \t]*(?P<rest>.*)$")
    return _entries(text.split("\n"), start, lambda line: False, not warning)


def _section(text: str, heading: str, end: str | None = None) -> list[str] | None:
    """The lines after the first line matching ``heading`` (up to one matching ``end``)."""
    match = re.search(heading, text, re.I | re.M)
    if match is None:
        return None
    body = text[match.end():]
    if end:
        stop = re.search(end, body, re.I | re.M)
        body = body[: stop.start()] if stop else body
    # The rest of the heading's own line is no entry.
    return body.split("\n")[1:]


def _exim(text: str) -> list[Bounce] | None:
    if not re.search(r"created automatically by mail delivery software", text, re.I):
        return None
    failed = _section(text, r"address\(es\) failed:.*$|following addresses? failed:.*$")
    delayed = _section(text, r"(?:address|addresses) to which the message has not yet been delivered (?:is|are):.*$")
    lines, permanent = (failed, True) if failed is not None else (delayed, False)
    if lines is None:
        return []
    start = _angle_line(r"[ \t]{0,3}<?(?P<address>[^<>\s:@]{1,300}@[^<>\s:@]{1,300})>?:?[ \t]*$")

    def stop(line: str) -> bool:
        return bool(line.strip()) and not line.startswith(" ") and start(line) is None

    return _entries(lines, start, stop, permanent)


def _sendmail(text: str) -> list[Bounce] | None:
    # Anchored at a line start: a run of dashes must not be tried from each of its characters.
    match = re.search(r"^[ \t]*-{3,}[ \t]*the following addresses? had (permanent fatal|transient non-fatal) errors",
                      text, re.I | re.M)
    if match is None:
        return None
    permanent = match.group(1).lower().startswith("permanent")
    lines = text[match.end():].split("\n")[1:]
    start = _angle_line(r"[ \t]{0,3}<?(?P<address>[^<>\s@]{1,300}@[^<>\s@]{1,300})>?[ \t]*$")
    found = _entries(lines, start, lambda line: not line.strip() or line.lstrip().startswith("---"), permanent)
    return [_with_transcript(b, text) for b in found]


def _with_transcript(bounce: Bounce, text: str) -> Bounce:
    """A Sendmail entry without a "(reason: ...)" line: the transcript's reply for its address."""
    if bounce.status or not bounce.recipient:
        return bounce
    for line in text.split("\n"):
        if bounce.recipient in line.lower() and _REPLY_CODE.match(line.lstrip("<> ")):
            reply = line.lstrip("<> ").strip()
            return replace(bounce, status=_status(reply), diagnostic=clean(reply, _DIAGNOSTIC_CHARS))
    return bounce


_GMAIL = (
    (r"your message wasn't delivered to (" + _ADDRESS + r") because", True),
    (r"delivery to the following recipients? failed permanently:\s+(" + _ADDRESS + ")", True),
    (r"delivery to the following recipients? has been delayed:\s+(" + _ADDRESS + ")", False),
    (r"there was a temporary problem delivering your message to (" + _ADDRESS + r")", False),
)


def _gmail(text: str) -> list[Bounce] | None:
    for pattern, permanent in _GMAIL:
        match = re.search(pattern, text, re.I)
        if match:
            address = _address(match.group(1).rstrip("."))
            reply = re.search(r"(?:the response (?:from the remote server )?was|technical details of "
                              r"(?:permanent|temporary) failure):[ \t]*\n\s*((?:.+\n?){1,4})", text, re.I)
            reason = [reply.group(1)] if reply else []
            bounce = _bounce(address, reason, permanent)
            return [bounce] if bounce else []
    return None


def _exchange(text: str) -> list[Bounce] | None:
    failed = _section(text, r"^.*delivery has failed to these recipients or groups:.*$",
                      r"^.*diagnostic information for administrators")
    delayed = _section(text, r"^.*delivery is delayed to these recipients or groups:.*$",
                       r"^.*diagnostic information for administrators")
    single = re.search(r"your message to (" + _ADDRESS + r") couldn't be delivered", text, re.I)
    if failed is None and delayed is None and single is None:
        return None
    permanent = failed is not None or (delayed is None)
    lines = failed if failed is not None else delayed or []
    # Lines are stripped first: runs of blanks on both sides of an optional part would be tried
    # in every split (quadratic on a line of tabs).
    start = _angle_line(r"(?:[^\s@<>()]+[ \t]+){0,4}[<('\"]?(?P<address>" + _ADDRESS +
                        r")[>)'\"]?(?:[ \t]*<mailto:[^<>]*>)?$")
    addresses = [entry[0] for entry in map(start, (line.strip() for line in lines)) if entry and entry[0]]
    if single and not addresses:
        named = _address(single.group(1))
        addresses = [named] if named else []
    reasons = _exchange_reasons(_section(text, r"^.*diagnostic information for administrators.*$") or [])
    found = [_bounce(a, [reasons.get(a, "")], permanent) for a in dict.fromkeys(a for a in addresses if a)]
    return [b for b in found if b is not None]


def _exchange_reasons(lines: list[str]) -> dict[str, str]:
    """address -> the "#550 5.1.1 ... ##" or "Remote Server returned '...'" line below it."""
    reasons: dict[str, str] = {}
    address = None
    for line in lines[:2000]:
        line = line.strip()
        if address and (line.startswith("#") or line.lower().startswith("remote server returned")):
            reasons.setdefault(address, line.strip("#").strip())
        address = _address(line)
    return reasons


_FORMS: tuple[Callable[[str], list[Bounce] | None], ...] = (_qmail, _exim, _sendmail, _exchange, _gmail, _postfix)
