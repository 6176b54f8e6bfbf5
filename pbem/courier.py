"""The outbox handed to a transport: a row is marked sent only once the server has taken it.

A temporary failure (4xx, the server away) keeps the row and tries again later, backing off
exponentially; a permanent one (5xx) is recorded once and reported, never retried.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable, Protocol

from .faults import checkpoint
from .mail.clean import clean
from .mail.smtp import PermanentFailure, TemporaryFailure
from .store import Store

log = logging.getLogger("pbem")
LAST_RETRY = timedelta(hours=1)


class Sender(Protocol):
    async def connect(self) -> None: ...
    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None: ...
    async def close(self) -> None: ...


@dataclass
class Delivery:
    sent: int = 0
    deferred: int = 0
    failed: list[dict] = field(default_factory=list)  # outbox rows refused for good


def retry_after(attempts: int, first: float = 30.0) -> timedelta:
    return min(timedelta(seconds=first) * (2 ** attempts), LAST_RETRY)


async def deliver(store: Store, sender: Sender, clock: Callable[[], datetime], first_retry: float = 30.0) -> Delivery:
    """Send every due outbox row; stop at the first temporary failure (the server is away)."""
    result = Delivery()

    def later(row: dict) -> datetime:
        return clock() + retry_after(row["attempts"] or 0, first_retry)

    rows = store.queued(clock())
    if not rows:
        return result
    try:
        await sender.connect()
    except TemporaryFailure as e:
        for row in rows:
            store.mark_failed(row["id"], str(e), permanent=False, next_try=later(row))
        log.warning("outbox: server unavailable (%s); %d mail(s) wait", e, len(rows))
        result.deferred = len(rows)
        return result
    try:
        for i, row in enumerate(rows):
            try:
                await sender.send(row["recipient"], row["raw"], row["message_id"])
            except TemporaryFailure as e:
                for waiting in rows[i:]:
                    store.mark_failed(waiting["id"], str(e), permanent=False, next_try=later(waiting))
                log.warning("outbox: %s; %d mail(s) wait", e, len(rows) - i)
                result.deferred = len(rows) - i
                break
            except PermanentFailure as e:
                store.mark_failed(row["id"], str(e), permanent=True)
                log.error("outbox: %s mail %s to %s refused for good: %s", row["kind"], row["message_id"],
                          row["recipient"], e)
                result.failed.append({**row, "error": str(e)})
                continue
            except Exception as e:  # a barrier per mail: one that cannot be sent holds up no other
                error = f"could not be sent: {type(e).__name__}: {clean(e, 200)}"
                store.mark_failed(row["id"], error, permanent=True)
                log.exception("outbox: %s mail %s to %s %s", row["kind"], row["message_id"],
                              clean(row["recipient"], 100), error)
                result.failed.append({**row, "error": error})
                continue
            checkpoint("written")
            store.mark_sent(row["id"], clock())
            log.info("sent %s mail %s to %s", row["kind"], row["message_id"], row["recipient"])
            result.sent += 1
    finally:
        await sender.close()
    return result


class MaildirSender:
    """The local transport behind the same face as SMTP."""

    def __init__(self, transport):
        self.transport = transport

    async def connect(self) -> None:
        pass

    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        try:
            self.transport.send(recipient, raw, key)
        except ValueError as e:
            raise PermanentFailure(f"no Maildir for this address: {e}") from None
        except OSError as e:
            raise TemporaryFailure(f"cannot write to the Maildir of {clean(recipient, 100)}: "
                                   f"{clean(e, 200)}") from None

    async def close(self) -> None:
        pass
