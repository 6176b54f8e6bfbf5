"""SET DIGEST kept: the reader's wish, what it did (for its answer), and who has a digest on,
read once by each postman."""
from __future__ import annotations

from pbem.digests import letter, next_moment, rows, shown, zone_of

# The postman's memos: who has a digest on (read once a pass), and what SET DIGEST did, by address.
_READERS = "digest readers"
_DONE = "digest done"


def want(postman, address: str, at: str | None) -> None:
    """SET DIGEST DAILY <at> or (None) OFF for `address`; OFF sends what waits at once, as the
    last digest. What it did is kept for the answer (`told`)."""
    store, address = postman.store, address.lower()
    before = rows.reader(store, address)
    reader = rows.set_reader(store, address, at, letter.new_token(), postman.now)
    postman.memo.pop(_READERS, None)
    where = zone_of(store, address)
    flushed = 0
    if at is None:
        flushed = letter.flush(postman, address)
        rows.set_next(store, address, None)
        when = None
    else:
        when = next_moment(postman.now, at, where)
        rows.set_next(store, address, when)
    postman.memo.setdefault(_DONE, {})[address] = {
        "at": at, "zone": where, "next": shown(when, where) if when else None, "flushed": flushed,
        "was_off": at is None and (before is None or before.at is None), "token": reader.token}


def readers(postman) -> frozenset:
    found = postman.memo.get(_READERS)
    if found is None:
        found = postman.memo[_READERS] = rows.readers(postman.store)
    return found


def told(postman, address: str) -> dict:
    """What SET DIGEST did for `address` in this postman's work, as its answer tells it."""
    return postman.memo.get(_DONE, {}).get(address.lower(), {})


__all__ = ["readers", "told", "want"]
