"""Wiring: a configuration becomes a store, a GM and a transport; one cron pass; one piped message.

The inbound side moves a message out of the inbox only after the store has committed it, so a
crash at any point loses nothing and handles nothing twice.
"""
from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pbem import clock
from pbem.clock import reminders as reminder_times
from pbem.config import Config
from pbem.digests.rows import due as digests_due
from pbem.errors import PbemError
from pbem.league.rows import leagues
from pbem.mail.courier import Alongside, Delivery, MaildirSender, Sender, deliver
from pbem.mail.maildir import LocalTransport
from pbem.mail.smtp import SmtpOutbox
from pbem.store import Store
from pbem.store.faults import checkpoint
from pbem.tables.book import has_open_tables

if TYPE_CHECKING:
    from pbem.gm import GM

log = logging.getLogger("pbem")


class Busy(PbemError):
    """Another pass holds the lock."""


class Unreachable(PbemError):
    """The mail server could not be reached: try again later."""


class BadSettings(PbemError):
    """A mail server refuses the configured settings: nothing helps but mending them."""


def _imap() -> ModuleType:
    """The IMAP side, loaded only where IMAP is configured (its library is loaded later still)."""
    # Start-up time: a cron pass or a piped message with the local transport never needs it.
    from pbem.mail import imap  # noqa: PLC0415 (start-up time, above)
    return imap


def _wiring() -> ModuleType:
    """The GM and the layers above it, built in `pbem.commands.wiring`."""
    # Start-up time: the GM with its layers costs several times the CLI's own start, and a cron
    # pass or a piped message with nothing to handle never needs it.
    from pbem.commands import wiring  # noqa: PLC0415 (start-up time, above)
    return wiring


def imap_problem(error: Exception) -> Exception:
    """An IMAP error as the app tells it: settings to mend, or a server away for now."""
    if isinstance(error, _imap().ImapSettingsError):
        return BadSettings(str(error))
    return Unreachable(str(error))


@dataclass
class App:
    config: Config
    store: Store
    _gm: GM | None = None
    _sender: Sender | None = None
    _alongside: Alongside | None = None  # a cron pass's, while it handles the inbox

    @classmethod
    def open(cls, config: Config) -> App:
        return cls(config, Store(config.store))

    @property
    def gm(self) -> GM:
        """The GM, loaded on first need: a cron pass with nothing to do never pays for it."""
        if self._gm is None:
            self._gm = _wiring().build_gm(self.config, self.store)
        return self._gm

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def uses_imap(self) -> bool:
        return self.config.transport == "imap"

    def local(self) -> LocalTransport:
        return LocalTransport(self.config.local.maildir, self.config.gm.address)

    def inbox(self):
        return _imap().ImapInbox(self.config.imap)

    def sender(self):
        if not self.uses_imap:
            return MaildirSender(self.local())
        return SmtpOutbox(self.config.smtp, self.config.gm.address)

    @contextmanager
    def lock(self, wait: float = 60.0) -> Iterator[None]:
        """One pass at a time: a second one waits up to `wait` seconds, then gives up."""
        path = Path(str(self.config.store) + ".lock")
        with open(path, "a+") as fh:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise Busy(f"another pbem pass holds {path.name}") from None
                    time.sleep(0.05)
            fh.seek(0)
            fh.truncate()
            fh.write(str(os.getpid()))
            fh.flush()
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    # -- one cron pass --------------------------------------------------------------------
    def process(self) -> dict:
        """Recover, fetch and handle, deadlines and reminders, send. With the IMAP server away
        or refusing, deadlines and the outbox still go on; the IMAP problem is raised after.
        Over IMAP and SMTP the mail of the messages handled goes out while the later ones are
        read (`courier.Alongside`); what is left, and what the deadlines make, goes at the end."""
        with self.lock():
            counts = {"handled": len(self.gm.recover()) if self.store.inbound.unhandled() else 0}
            inbound_problem: Exception | None = None
            alongside = Delivery()  # what went out while the inbox was handled
            if self.uses_imap:
                try:
                    counts["handled"] += asyncio.run(self._fetch_imap())
                except (Unreachable, BadSettings) as e:
                    inbound_problem = e
                finally:
                    if self._alongside is not None:
                        courier, self._alongside = self._alongside, None
                        alongside = courier.finish(self.store)
            else:
                try:
                    counts["handled"] += self._fetch_local()
                except BadSettings as e:
                    inbound_problem = e
            counts["deadlines"] = len(self.tick())
            for row in alongside.failed:
                self.gm.report_failed_delivery(row)
            delivery = self.send_outbox()
            counts["sent"] = delivery.sent + alongside.sent
            counts["deferred"] = delivery.deferred + alongside.deferred
            self.prune()
        if inbound_problem is not None:
            raise inbound_problem
        if delivery.settings:
            raise BadSettings(delivery.settings)
        return counts

    def prune(self) -> None:
        """Once a day: forget the raw bytes of mail handled or sent longer ago than the retention."""
        days = self.config.limits.retention_days
        now = clock.now()
        last = self.store.meta("pruned")
        if not days or (last and now.strftime("%Y-%m-%d") <= last):
            return
        # a reply to a forgotten mail is still read against its fingerprint
        inbound, outbox = self.store.prune(now, days, _wiring().fingerprint)
        self.store.set_meta("pruned", now.strftime("%Y-%m-%d"))
        if inbound or outbox:
            log.info("retention: forgot the text of %d received and %d sent mail(s) older than %d days",
                     inbound, outbox, days)

    def tick(self) -> list[str]:
        """Deadlines and reminders, when any is due, and games of robots only; then the leagues'
        rounds and standings, the tables to start, and the digests that fall due."""
        now = clock.now()
        done = []
        if self.store.due_games(now) or reminder_times.games_due(self.store, now, self.config.games.reminder_times) \
                or self.store.robot_games():
            done += self.gm.tick()
        if leagues(self.store, "active") or has_open_tables(self.store) or digests_due(self.store, now):
            gm = self.gm  # registers the layers
            for layer in _wiring().above():
                done += layer.tick(gm, now)
        return done

    def _fetch_local(self) -> int:
        transport = self.local()
        problem = transport.problem()
        if problem:
            raise BadSettings(problem)
        n = 0
        for key, raw in transport.fetch():
            try:
                self.gm.receive(raw)
            except sqlite3.OperationalError as e:  # the store is busy or full: the next pass
                log.warning("message file %s left for the next pass: %s", key, e)
                continue
            transport.done(key)
            n += 1
        return n

    async def _fetch_imap(self) -> int:
        inbox = self.inbox()
        try:
            await inbox.connect()
            messages = await inbox.fetch_new()
            if messages:  # their mail goes out while the later ones are read
                self._alongside = Alongside(self.config.store, self.sender, clock.now,
                                            self.config.smtp.retry_seconds).start()
            return await self.handle_inbox(inbox, fetched=messages)
        except _imap().ImapError as e:
            raise imap_problem(e) from None
        finally:
            await inbox.close()

    async def handle_inbox(self, inbox, stop=None, batch: int = 100, fetched=None) -> int:
        """Every message in the IMAP inbox: stored and handled first, moved out after the commit.

        Moves go in batches (one STORE and one MOVE for many messages): a crash before a batch
        moves leaves committed messages in the inbox, and the next pass knows them and only
        moves them."""
        n = 0
        handled: list[str] = []
        try:
            for uid, raw in (await inbox.fetch_new() if fetched is None else fetched):
                if stop is not None and stop.is_set():
                    break
                checkpoint("fetched")
                self.gm.receive(raw)
                checkpoint("committed")
                if self._alongside is not None:
                    self._alongside.settle(self.store)
                    self._alongside.nudge()
                handled.append(uid)
                n += 1
                if len(handled) >= batch:
                    await inbox.done(",".join(handled))
                    handled = []
        finally:
            if handled:
                await inbox.done(",".join(handled))
        return n

    # -- one message from an MTA ----------------------------------------------------------
    def deliver(self, raw: bytes) -> Delivery:
        with self.lock():
            self.gm.receive(raw)
            return self.send_outbox()

    # -- the outbox -----------------------------------------------------------------------
    def send_outbox(self) -> Delivery:
        if not self.store.outbox.queued(clock.now()):
            return Delivery()
        return asyncio.run(self.send_outbox_async())

    async def send_outbox_async(self, keep_open: bool = False, waiting_too: bool = False) -> Delivery:
        """Send what is due (`waiting_too`: and what waits for a retry, the server being back).
        `keep_open` (the daemon) keeps one sender and its connection for the next pass, so an
        ack pays no new TLS handshake and login."""
        first_retry = self.config.smtp.retry_seconds
        if keep_open:
            if self._sender is None:
                self._sender = self.sender()
            sender = self._sender
        else:
            sender = self.sender()
        delivery = await deliver(self.store, sender, clock.now, first_retry, keep_open=keep_open,
                                 waiting_too=waiting_too)
        for row in delivery.failed:
            self.gm.report_failed_delivery(row)
        if delivery.failed:  # the reports themselves
            again = await deliver(self.store, sender, clock.now, first_retry, keep_open=keep_open)
            delivery.sent += again.sent
        return delivery

    async def close_sender(self) -> None:
        if self._sender is not None:
            sender, self._sender = self._sender, None
            await sender.close()
