"""The GM's own mails that a reply answers, as the reader compares them (`orders.original`).

A reply names them in `In-Reply-To` and `References`. While retention keeps a mail's bytes its
text is read from them; after, the fingerprint kept in their place serves (`fingerprint`, which
the store's pruning calls before it forgets the bytes).
"""
from __future__ import annotations

from pbem.mail.inbound import Inbound, parse, subject_of
from pbem.mail.outbound import text_of
from pbem.orders.original import MOST_ORIGINALS, Original
from pbem.store import Store, from_iso

__all__ = ["originals_of", "fingerprint"]


def originals_of(store: Store, msg: Inbound) -> list[Original]:
    """The GM's mails to the sender's own address that `msg` answers, the one it replies to
    first; [] when it names none (naming another address's mail names none)."""
    ids = tuple(i for i in (*msg.references, msg.in_reply_to) if i)
    if not ids or not msg.text or not msg.sender:
        return []
    found = []
    for raw, kept, created in store.outbox.originals(ids, MOST_ORIGINALS, msg.sender):
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


def _own_text(raw: bytes) -> tuple[str, str]:
    """(text, subject) of a mail pbem wrote: the text as the composer cut it (`text_of`), the
    subject from the header block alone; a mail of any other shape parsed whole."""
    text = text_of(raw)
    if text is None:
        whole = parse(raw)
        return whole.text, whole.subject
    return text, subject_of(raw)
