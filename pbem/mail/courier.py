"""The outbox handed to a transport: a row is marked sent only once the server has taken it.

A connection is tried when some mail is due; once it is open, everything waiting goes out,
oldest first, whatever its own retry time (so an outage ends with the queue drained in order).
A temporary failure keeps the rows and tries again later, the wait doubling up to a few
minutes; a refusal of one recipient fails that one mail, is recorded once and reported; a
refusal of the settings (SettingsError) keeps every mail queued and is raised to the caller,
who tells the GM: no mail can go until the configuration is mended.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from datetime import datetime, timedelta
from collections.abc import Callable
from typing import Protocol

from pbem.store.faults import checkpoint
from pbem.mail.clean import BadAddress, clean
from pbem.mail.maildir import LocalTransport
from pbem.mail.smtp import PermanentFailure, SettingsError, TemporaryFailure
from pbem.store import Store

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
        nxt = store.outbox.next_try()
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
                  keep_open: bool = False, waiting_too: bool = False,
                  mark_sent: Callable[[int, datetime], None] | None = None,
                  gone: set[int] | frozenset[int] = frozenset()) -> Delivery:
    """Send the outbox when some mail is due (`waiting_too`: whether due or not, the server
    being back). With `keep_open` the connection stays open for the next call (the daemon);
    otherwise it is closed at the end. `mark_sent` records a mail the server took (by default
    in `store` at once); rows whose ids are in `gone` were sent already, their marks on the way."""
    result = Delivery()
    if not waiting_too and not [row for row in store.outbox.queued(clock()) if row["id"] not in gone]:
        return result
    # once connected, everything waiting goes, oldest first
    rows = [row for row in store.outbox.queued() if row["id"] not in gone]
    if not rows:
        return result
    checkpoint("sending")

    def wait(reason: str, waiting: list[dict]) -> None:
        for row in waiting:
            store.outbox.mark_failed(row["id"], reason, permanent=False,
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
                store.outbox.mark_failed(row["id"], str(e), permanent=True)
                log.error("outbox: %s mail %s to %s refused for good: %s", row["kind"], row["message_id"],
                          row["recipient"], e)
                result.failed.append({**row, "error": str(e)})
                continue
            except Exception as e:  # a barrier per mail: one that cannot be sent holds up no other
                error = f"could not be sent: {type(e).__name__}: {clean(e, 200)}"
                store.outbox.mark_failed(row["id"], error, permanent=True)
                log.error("outbox: %s mail %s to %s %s", row["kind"], row["message_id"],
                          clean(row["recipient"], 100), error)
                result.failed.append({**row, "error": error})
                continue
            checkpoint("written")
            (mark_sent or store.outbox.mark_sent)(row["id"], clock())
            log.info("sent %s mail %s to %s", row["kind"], row["message_id"], row["recipient"])
            result.sent += 1
    finally:
        if not keep_open or result.settings or result.deferred:
            await sender.close()
    return result


class Alongside:
    """The outbox sent from a thread of its own while the pass still handles the inbox, so that
    the mail of the first orders is on the wire while the next ones are read: a pass then takes
    about as long as its mail takes to fetch and to send, not that plus pbem's own work.

    The thread reads the store through a connection of its own and keeps its SMTP connection
    open between rounds; each commit of the pass nudges it, and a round sends whatever is
    queued and due by then. It writes nothing while the pass writes: a mail the server took is
    handed back (`settle`, called by the pass after each message and while it waits at the
    end), and the pass marks it sent, so the one writer never waits for the other (SQLite's
    lock would make the thread sleep through most of a message). It stops at the first mail
    that must wait (the server away, the settings refused) and leaves that, with everything
    after it, to the pass's own sending at its end, which reports and retries as it always
    did; mail refused for good is handed back (`finish`) for the pass to report."""

    def __init__(self, store_path: Path | str, make_sender: Callable[[], Sender],
                 clock: Callable[[], datetime], first_retry: float = 30.0):
        self.store_path = store_path
        self.make_sender = make_sender
        self.clock = clock
        self.first_retry = first_retry
        self.delivery = Delivery()
        self._taken: deque[tuple[int, datetime]] = deque()  # sent, not yet marked by the pass
        self._gone: set[int] = set()                         # every id this thread has sent
        self._wake = threading.Event()
        self._last = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pbem-courier", daemon=True)

    def start(self) -> Alongside:
        self._thread.start()
        return self

    def nudge(self) -> None:
        """Something was committed: mail may be queued."""
        self._wake.set()

    def settle(self, store: Store) -> None:
        """Mark sent (in one transaction) what the thread has sent since the last call."""
        taken: list[tuple[int, datetime]] = []
        while self._taken and len(taken) < 10_000:
            taken.append(self._taken.popleft())
        if taken:
            store.outbox.mark_sent_many(taken)

    def finish(self, store: Store) -> Delivery:
        """One last round for what is queued now, every mail sent marked, the thread ended."""
        self._last.set()
        self._wake.set()
        while self._thread.is_alive():
            self._thread.join(0.02)
            self.settle(store)
        self.settle(store)
        return self.delivery

    def _taken_by_server(self, outbox_id: int, when: datetime) -> None:
        self._gone.add(outbox_id)
        self._taken.append((outbox_id, when))

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        store = sender = None
        try:
            store = Store(self.store_path)
            sender = self.make_sender()
            while True:
                last = self._last.is_set()
                self._wake.clear()
                done = loop.run_until_complete(deliver(store, sender, self.clock, self.first_retry, keep_open=True,
                                                       mark_sent=self._taken_by_server, gone=self._gone))
                self.delivery.sent += done.sent
                self.delivery.deferred += done.deferred
                self.delivery.failed += done.failed
                if done.deferred or done.settings or last:
                    break  # the pass's own sending deals with what waits, and says why
                self._wake.wait()
        except Exception as e:  # a barrier: whatever stays queued goes with the pass's own sending
            log.warning("outbox: sending alongside stopped (%s: %s); the pass sends the rest",
                        type(e).__name__, clean(e, 200))
        finally:
            if sender is not None:
                try:
                    loop.run_until_complete(sender.close())
                except Exception:
                    pass
            loop.close()
            if store is not None:
                store.close()


def _held(store: Store, rows: list[dict], reason: str, result: Delivery) -> None:
    """The settings are wrong: every mail stays queued, due at once once they are mended."""
    for row in rows:
        store.outbox.note_error(row["id"], reason)
    result.settings = reason
    result.deferred += len(rows)
    log.error("outbox: %s; %d mail(s) wait until the settings are mended", reason, len(rows))


class MaildirSender:
    """The local transport behind the same face as SMTP."""

    def __init__(self, transport: LocalTransport) -> None:
        self.transport = transport

    async def connect(self) -> None:
        problem = self.transport.problem()
        if problem:  # a mail folder that cannot be made is a setting, as a wrong SMTP password is
            raise SettingsError(problem)

    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        try:
            self.transport.send(recipient, raw, key)
        except BadAddress as e:
            raise PermanentFailure(f"no Maildir for this address: {e}") from None
        except OSError as e:
            raise TemporaryFailure(f"cannot write to the Maildir of {clean(recipient, 100)}: "
                                   f"{clean(e, 200)}") from None

    async def greets(self) -> bool:
        return True  # a folder is always there; a write that fails says why

    async def close(self) -> None:
        pass
