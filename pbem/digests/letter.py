"""One digest: the items that wait for a reader, written as one mail and queued, and those items
marked carried, in the caller's transaction (so that both happen, or neither)."""
from __future__ import annotations

import secrets
import textwrap
from urllib.parse import quote

from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter, plus_address
from pbem.render import render
from pbem.store import Store
from pbem.digests import MOST_CHARS, MOST_ITEMS, TOKEN_PREFIX, local_day, next_moment, rows, shown, zone_of

WIDTH = 78
OFF = "SET DIGEST OFF"


def new_token() -> str:
    """A reader's digest token: `d` and 16 hex digits (a game's secret is hex alone)."""
    return TOKEN_PREFIX + secrets.token_hex(8)


def is_digest_token(token: str | None) -> bool:
    """Whether `token` has a digest token's shape (a text check: the store is asked after)."""
    token = (token or "").lower()
    return len(token) == 17 and token[0] == TOKEN_PREFIX and all(c in "0123456789abcdef" for c in token[1:])


def list_headers(gm_address: str, token: str) -> dict[str, str]:
    """What a digest says of itself as mail its reader asked to follow (RFC 2919, RFC 2369): which
    it is, and a mailto that turns it off as a mail program's button mails it, with no text."""
    domain = gm_address.partition("@")[2] or "localhost"
    return {"List-Id": f"Daily digest <digest.{domain}>",
            "List-Unsubscribe": f"<mailto:{plus_address(gm_address, token)}?subject={quote(OFF)}>"}


def send(postman, address: str, *, last: bool = False) -> int:
    """Queue the digest of what waits for `address` (through `postman`, so in the caller's
    transaction), mark its items carried, and set when the next falls due. How many items it
    carried (0: nothing waited, and nothing is sent)."""
    store = postman.store
    reader = rows.reader(store, address)
    if reader is None:
        return 0
    items, left = rows.waiting(store, address, MOST_ITEMS, MOST_CHARS)
    if not items:
        return 0
    where = zone_of(store, address)
    ctx = postman.context(None, None)
    ctx.update(day=local_day(postman.now, where), last=last, left=left,
               at=reader.at, zone=where, token=reader.token, off=OFF, followed=any(item.followed for item in items),
               items=[{"heading": _heading(item.subject), "when": shown(item.held, where),
                       "text": _body(item.text, postman.gm_name, postman.gm_address)} for item in items])
    subject, text = render("digest", None, **ctx)
    postman.post(Letter(kind=MailKind.DIGEST, to_addr=address, subject=subject, text=text, secret=reader.token,
                        extra_headers=list_headers(postman.gm_address, reader.token)))
    rows.carried(store, [item.id for item in items], postman.now)
    _next(store, address, reader.at, postman.now, bool(left))
    return len(items)


def flush(postman, address: str) -> int:
    """Everything that waits, now, as many digests as it takes (each carries one item at least)."""
    carried = 0
    while True:
        n = send(postman, address, last=True)
        if not n:
            return carried
        carried += n


def _next(store: Store, address: str, at: str | None, now, more: bool) -> None:
    """The next digest's moment: tomorrow's (or today's, still to come) for what is left over;
    none until an item waits again."""
    when = next_moment(now, at, zone_of(store, address)) if at and more else None
    rows.set_next(store, address, when)


def _heading(subject: str) -> str:
    """The item's subject as a heading that reads as one in the text and in the HTML part."""
    return "\n".join(textwrap.wrap(f"== {subject} ==", WIDTH, break_long_words=False, break_on_hyphens=False))


def _body(text: str, gm_name: str, gm_address: str) -> str:
    """The item's text without the greeting above it and the signature below it (the digest has
    its own)."""
    paragraphs = text.strip("\n").split("\n\n")
    if len(paragraphs) > 1 and paragraphs[0].startswith("Hello") and paragraphs[0].endswith(","):
        paragraphs = paragraphs[1:]
    if len(paragraphs) > 1 and paragraphs[-1].strip() in (gm_name, f"{gm_name} <{gm_address}>"):
        paragraphs = paragraphs[:-1]
    return "\n\n".join(paragraphs)


__all__ = ["OFF", "flush", "is_digest_token", "list_headers", "new_token", "send"]
