"""The outbox handed to a transport: a row is marked sent only once the server has taken it.

A connection is tried when some mail is due; once it is open, everything waiting goes out,
oldest first, whatever its own retry time (so an outage ends with the queue drained in order).
A temporary failure keeps the rows and tries again later, the wait doubling up to a few
minutes; a refusal of one recipient fails that one mail, is recorded once and reported; a
refusal of the settings (SettingsError) keeps every mail queued and is raised to the caller,
who tells the GM: no mail can go until the configuration is mended.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable, Protocol

from .faults import checkpoint
from .mail.clean import clean
from .mail.smtp import PermanentFailure, SettingsError, TemporaryFailure
from .store import Store

log = logging.getLogger("pbem")
# The longest wait between tries while the server is away (cron passes come when they come;
# the daemon notices the server's return sooner, see Lookout).
LAST_RETRY = timedelta(minutes=3)
# How often the daemon asks a server that mail waits for whether it is back.
PROBE_EVERY = 2.0


class Sender(Protocol):
    async def connect(self) -> None: ...
    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None: ...
    async def greets(self) -> bool: ...
    async def close(self) -> None: ...


@dataclass
class Delivery:
    sent: int = 0
    deferred: int = 0
    failed: list[dict] = field(default_factory=list)  # outbox rows refused for good
    settings: str | None = None                       # the settings problem that stopped it all


def retry_after(attempts: int, first: float = 30.0) -> timedelta:
    return min(timedelta(seconds=first) * (2 ** min(attempts, 20)), LAST_RETRY)


class Lookout:
    """The daemon's eye on a server that mail waits for. While the outbox holds mail put off by
    the backoff, the server is asked every PROBE_EVERY seconds whether it is back (a connection
    and its greeting; nothing is sent), and once it is, what waits goes at once, oldest first,
    not at the backoff's next try (30 s after the first failure, then longer). A server that
    greets but still takes no mail gets one such early try, then the backoff again until it is
    seen away once more: a probe never becomes a retry every few seconds."""

    def __init__(self, make_sender: Callable[[], Sender], monotonic: Callable[[], float] = time.monotonic):
        self.make_sender = make_sender
        self.monotonic = monotonic
        self.early = True         # an early try is allowed (none failed since the server was away)
        self.next_probe = 0.0
        self.watching = False
        self._prober: Sender | None = None

    def waiting(self, store: Store, now: datetime) -> bool:
        """Whether mail waits for a retry and none is due (what is due goes the usual way)."""
        nxt = store.next_outbox_try()
        return nxt is not None and nxt > now

    async def back(self, store: Store, now: datetime) -> bool:
        """Whether to send what waits now, the server being back. Asks it only when a probe is due."""
        if not self.waiting(store, now):
            self.watching = False
            return False
        if self._prober is None:
            self._prober = self.make_sender()
        where = getattr(self._prober, "where", "the server")
        if not self.watching:
            self.watching = True
            log.info("outbox: mail waits for %s; asking it every %.0f s whether it is back", where, PROBE_EVERY)
        if self.monotonic() < self.next_probe:
            return False
        self.next_probe = self.monotonic() + PROBE_EVERY
        if not await self._prober.greets():
            self.early = True
            return False
        if self.early:
            log.info("outbox: %s answers again; sending the waiting mail now", where)
        return self.early

    def tried(self, delivery: Delivery) -> None:
        """After the early try: another only once the server has been seen away again."""
        self.early = not delivery.deferred


async def deliver(store: Store, sender: Sender, clock: Callable[[], datetime], first_retry: float = 30.0,
                  keep_open: bool = False, waiting_too: bool = False) -> Delivery:
    """Send the outbox when some mail is due (`waiting_too`: whether due or not, the server
    being back). With `keep_open` the connection stays open for the next call (the daemon);
    otherwise it is closed at the end."""
    result = Delivery()
    if not waiting_too and not store.queued(clock()):
        return result
    rows = store.queued()  # once connected, everything waiting goes, oldest first
    if not rows:
        return result

    def wait(reason: str, waiting: list[dict]) -> None:
        for row in waiting:
            store.mark_failed(row["id"], reason, permanent=False,
                              next_try=clock() + retry_after(row["attempts"] or 0, first_retry))
        result.deferred += len(waiting)

    try:
        await sender.connect()
    except TemporaryFailure as e:
        wait(str(e), rows)
        log.warning("outbox: server unavailable (%s); %d mail(s) wait", e, len(rows))
        return result
    except SettingsError as e:
        _held(store, rows, str(e), result)
        return result
    try:
        for i, row in enumerate(rows):
            try:
                await sender.send(row["recipient"], row["raw"], row["message_id"])
            except TemporaryFailure as e:
                wait(str(e), rows[i:])
                log.warning("outbox: %s; %d mail(s) wait", e, len(rows) - i)
                break
            except SettingsError as e:
                _held(store, rows[i:], str(e), result)
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
                log.error("outbox: %s mail %s to %s %s", row["kind"], row["message_id"],
                          clean(row["recipient"], 100), error)
                result.failed.append({**row, "error": error})
                continue
            checkpoint("written")
            store.mark_sent(row["id"], clock())
            log.info("sent %s mail %s to %s", row["kind"], row["message_id"], row["recipient"])
            result.sent += 1
    finally:
        if not keep_open or result.settings or result.deferred:
            await sender.close()
    return result


def _held(store: Store, rows: list[dict], reason: str, result: Delivery) -> None:
    """The settings are wrong: every mail stays queued, due at once once they are mended."""
    for row in rows:
        store.note_error(row["id"], reason)
    result.settings = reason
    result.deferred += len(rows)
    log.error("outbox: %s; %d mail(s) wait until the settings are mended", reason, len(rows))


class MaildirSender:
    """The local transport behind the same face as SMTP."""

    def __init__(self, transport):
        self.transport = transport

    async def connect(self) -> None:
        problem = self.transport.problem()
        if problem:  # a mail folder that cannot be made is a setting, as a wrong SMTP password is
            raise SettingsError(problem)

    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        try:
            self.transport.send(recipient, raw, key)
        except ValueError as e:
            raise PermanentFailure(f"no Maildir for this address: {e}") from None
        except OSError as e:
            raise TemporaryFailure(f"cannot write to the Maildir of {clean(recipient, 100)}: "
                                   f"{clean(e, 200)}") from None

    async def greets(self) -> bool:
        return True  # a folder is always there; a write that fails says why

    async def close(self) -> None:
        pass
