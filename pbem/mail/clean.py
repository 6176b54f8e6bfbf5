"""The one place where a value from a mail becomes safe to put in a path, a header or a log line.

Everything a stranger writes is hostile until it has passed through here: control characters
(CR, LF and NUL first among them) could forge a header or a log line, `/` and `..` could leave a
folder, and a value of megabytes could fill a header or a log. Each function here either returns
a value that is safe for its one use or refuses (None / BadAddress); nothing is passed on raw.
"""
from __future__ import annotations

import re
import unicodedata

from pbem.errors import BadValue

__all__ = ["SYNTHETIC_ID_DOMAIN", "BadAddress", "base_address", "clean", "plain_address", "folder_name", "message_id",
           "message_ids", "LONGEST_ID", "NAME_CHARS", "given_name"]

# A Message-ID longer than this is nobody's real one (clients write 40-100 characters); echoing
# a longer one in In-Reply-To or References could push a header line past 998 octets.
LONGEST_ID = 250
# The domain of the Message-ID pbem makes up for a message that has none (a hash of its bytes).
SYNTHETIC_ID_DOMAIN = "@pbem.invalid"
# How many earlier Message-IDs an answer's References carries (RFC 5322 allows trimming).
MOST_REFERENCES = 8
# A name the GM gives (`clean(name, NAME_CHARS)`: --player, a league file, REPLACE): it reaches
# reports and calendars, so it is one clean line, cleaned as a mail's From name is; the GM may
# give a long one (a From name is cut shorter, at 64, and so is every name in a header).
NAME_CHARS = 120

_ID = re.compile(rf"<[\x21-\x3b\x3d\x3f-\x7e]{{1,{LONGEST_ID - 2}}}>")
_ID_SCAN = re.compile(rf"<[^<>]{{0,{LONGEST_ID}}}>")
# A plain address: the dot-atom local part of RFC 5322 without `/` (a folder separator) and
# without quoting, one `@`, a domain of letters, digits and hyphens. Lower case only: callers
# fold case first. Nothing else may name a Maildir folder or receive mail.
_LOCAL_ATOM = r"[a-z0-9!#$%&'*+=?^_`{|}~-]+"
_PLAIN = re.compile(rf"{_LOCAL_ATOM}(?:\.{_LOCAL_ATOM})*@[a-z0-9](?:[a-z0-9-]{{0,62}}[a-z0-9])?"
                    rf"(?:\.[a-z0-9](?:[a-z0-9-]{{0,62}}[a-z0-9])?)*")
_LONGEST_ADDRESS = 254
_LONGEST_LOCAL = 64


def _is_unsafe(ch: str) -> bool:
    # Cc: C0, DEL, C1 (CR, LF and NUL among them). Cf: format characters, the bidi overrides and
    # invisible marks that make a log line read other than it is. Zl/Zp: line and paragraph
    # separators, which some readers break lines at.
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")


def given_name(name: object, address: str) -> str:
    """A player's name as the GM gave it (--player, a league file, REPLACE), cleaned; the local
    part of the address when none is left."""
    return (clean(name, NAME_CHARS) if name else "") or address.split("@")[0]


def clean(value: object, limit: int = 200) -> str:
    """``value`` as one line of printable text of at most ``limit`` characters.

    Control and format characters become spaces, runs of white space one space; a longer value
    is cut and ends with "...". Use it for anything from a mail that reaches a header, a log line
    or a path (paths take only ``folder_name``)."""
    text = value if isinstance(value, str) else str(value)
    # Bound the work before looking at each character: a value of megabytes is cut first.
    text = text[: limit * 4 + 16]
    if not (text.isascii() and text.isprintable()):  # printable ASCII has nothing to replace
        text = "".join(" " if _is_unsafe(ch) else ch for ch in text)
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: max(limit - 3, 0)].rstrip() + "..."
    return text


def quoted(value: object, limit: int = 60) -> str:
    """A value a user wrote, shown back in an error as they wrote it: one clean line in double
    quotes, cut short (never as Python prints a string, with its quotes and escapes)."""
    return '"' + clean(value, limit) + '"'


def plain_address(value: object) -> str | None:
    """A plain, lower-case ``local@domain`` address, or None for anything else.

    Refused: non-ASCII, quoting, white space, control characters, `/` and `\\`, leading,
    trailing or doubled dots, more or fewer than one `@`, over-long parts."""
    if not isinstance(value, str) or len(value) > _LONGEST_ADDRESS:
        return None
    address = value.strip().lower()
    if not address.isascii() or not _PLAIN.fullmatch(address):
        return None
    if len(address.partition("@")[0]) > _LONGEST_LOCAL:
        return None
    return address


def base_address(address: str) -> str:
    """``gm+secret@host`` -> ``gm@host``: every plus-address is the same mailbox."""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return address.strip().lower()
    return f"{local.split('+', 1)[0]}@{domain}"


class BadAddress(BadValue):
    """A mail address that is not a plain one, where only a plain one will do."""


def folder_name(address: object) -> str:
    """The Maildir folder name for ``address``: the plain address itself; BadAddress otherwise.

    The only road from an address to a path. A plain address has no `/`, no `..` and does not
    start with a dot, so it names exactly one folder inside the mail root."""
    plain = plain_address(address)
    if plain is None or plain.startswith(".") or ".." in plain:
        raise BadAddress(f"not a plain mail address: {clean(address, 80)!r}")
    return plain


def message_id(value: object) -> str | None:
    """One well-formed ``<...>`` Message-ID of printable ASCII and sane length, or None."""
    if not isinstance(value, str):
        return None
    text = "".join(value[: LONGEST_ID * 2].split())
    match = _ID.fullmatch(text)
    return match.group(0) if match else None


def message_ids(value: object, most: int = MOST_REFERENCES) -> tuple[str, ...]:
    """The last ``most`` well-formed Message-IDs of a References-like header value."""
    if not isinstance(value, str):
        return ()
    found = []
    for candidate in _ID_SCAN.findall(value[-(LONGEST_ID + 2) * most * 4:]):
        good = message_id(candidate)
        if good:
            found.append(good)
    return tuple(found[-most:])
