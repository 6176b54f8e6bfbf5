"""The GM's own mails that a reply answers, as the reader compares them (`orders.original`).

A reply names them in `In-Reply-To` and `References`. While retention keeps a mail's bytes its
text is read from them; after, the fingerprint kept in their place serves (`fingerprint`, which
the store's pruning calls before it forgets the bytes).
"""
from __future__ import annotations

import quopri

from ..mail.inbound import Inbound, parse, subject_of
from ..orders.original import MOST_ORIGINALS, Original
from ..store import Store, from_iso

__all__ = ["originals_of", "fingerprint"]


def originals_of(store: Store, msg: Inbound) -> list[Original]:
    """The GM's mails that `msg` answers, the one it replies to first; [] when it names none."""
    ids = tuple(i for i in (*msg.references, msg.in_reply_to) if i)
    if not ids or not msg.text:
        return []
    found = []
    for raw, kept, created in store.originals(ids, MOST_ORIGINALS):
        sent = from_iso(created)
        if raw is not None:
            text, subject = _own_text(raw)
            found.append(Original.of_text(text, sent, subject))
        elif kept:
            found.append(Original.of_fingerprint(kept, sent))
    return found


def fingerprint(raw: bytes) -> bytes:
    """What is kept of a sent mail's text when retention forgets it."""
    text, subject = _own_text(raw)
    return Original.of_text(text, subject=subject).fingerprint()


# The text part as `mail.outbound` writes it, alone or first in a multipart.
_TEXT_PART = b'Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: '
_BOUNDARY = b"\r\n--=_pbem_"


def _own_text(raw: bytes) -> tuple[str, str]:
    """(text, subject) of a mail pbem wrote: the headers parsed as any mail's, the text part cut
    out of the bytes where `mail.outbound` puts it (parsing the whole mail would compile a
    pattern for its MIME boundary, every time a new one), and any other shape read by `parse`."""
    text = _text_part(raw)
    if text is None:
        whole = parse(raw)
        return whole.text, whole.subject
    return text, subject_of(raw)


def _text_part(raw: bytes) -> str | None:
    start = raw.find(_TEXT_PART)
    if start < 0:
        return None
    line_end = raw.find(b"\r\n", start + len(_TEXT_PART))
    encoding = raw[start + len(_TEXT_PART):line_end]
    if encoding not in (b"7bit", b"quoted-printable") or raw[line_end:line_end + 4] != b"\r\n\r\n":
        return None
    body_start = line_end + 4
    if raw.find(b"\r\n\r\n") + 4 == body_start:  # the top-level header block: a single part
        body = raw[body_start:]
    else:
        end = raw.find(_BOUNDARY, body_start)
        if end < 0:
            return None
        body = raw[body_start:end]
    try:
        text = (quopri.decodestring(body) if encoding == b"quoted-printable" else body).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")
