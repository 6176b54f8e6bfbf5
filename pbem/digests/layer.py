"""Digests as a layer above the GM (`pbem.gm.layers`): the letters it keeps (`hold`), SET DIGEST
(from a player's game mail through `setting`, from anyone else through `mail`), and the clock
(`tick`: the digests that fall due). The GM never imports it."""
from __future__ import annotations

import logging
from datetime import datetime

from pbem.gm.layers import Layer
from pbem.mail.clean import clean
from pbem.mail.outbound import short_subject
from pbem.store.faults import checkpoint
from pbem.digests import letter, next_moment, rows, zone_of
from pbem.digests.replies import answer
from pbem.digests.settings import readers, told, want

log = logging.getLogger("pbem")


class DigestLayer(Layer):
    name = "digests"

    def hold(self, postman, mail) -> bool:
        """A letter that asks nothing of its reader (the GM marks it) waits for the reader's
        digest, when the reader has one: kept here, in the transaction that would have queued it."""
        if not mail.digest or mail.in_reply_to is not None or mail.calendar or mail.calendar_cancels:
            return False
        address = mail.to_addr.lower()
        if address not in readers(postman):
            return False
        store = postman.store
        first = rows.hold(store, address, postman.now, mail.game_id, str(mail.kind), short_subject(mail.subject),
                          mail.text, "List-Unsubscribe" in mail.extra_headers)
        if first:  # the first item of a digest sets its moment, in the reader's zone as it is now
            reader = rows.reader(store, address)
            if reader is not None and reader.at:
                rows.set_next(store, address, next_moment(postman.now, reader.at, zone_of(store, address)))
        return True

    def setting(self, postman, address: str, what: str, value) -> bool:
        if what != "digest":
            return False
        want(postman, address, value)
        return True

    def told(self, postman, address: str, what: str) -> dict:
        if what != "digest":
            return {}
        return {"digest": told(postman, address)}

    def mail(self, door, msg, lines: list, token: str | None):
        return answer(door, msg, lines, token)

    def tick(self, gm, now: datetime) -> list[str]:
        """Each digest that falls due, in a transaction of its own: queued with its items marked
        carried, or (killed before the commit) neither."""
        done = []
        for address in rows.due(gm.store, now):
            postman = gm.postman()
            try:
                with gm.store.transaction():
                    n = letter.send(postman, address)
                    checkpoint("digest_queuing")
                checkpoint("digest_queued")
            except Exception as e:  # a barrier: one reader's digest never stops another's
                log.error("digest to %s failed: %s: %s", clean(address, 100), type(e).__name__, clean(e, 200))
                continue
            done.append(f"digest to {address}: {n} mail(s)")
        return done


__all__ = ["DigestLayer"]
