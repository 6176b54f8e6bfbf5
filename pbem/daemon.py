"""`pbem run`: mail handled as it arrives, deadlines and reminders on time, a clean stop.

With IMAP the daemon waits in IDLE (or polls where the server lacks it) and reconnects with
backoff after any drop. SIGTERM or SIGINT lets the message in hand finish, then stops.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Awaitable
from datetime import timedelta

from pbem import clock
from pbem.clock import reminders as reminder_times
from pbem.app import App, BadSettings, Busy, imap_problem
from pbem.digests.rows import next_due as next_digest
from pbem.mail.courier import PROBE_EVERY, Lookout
from pbem.mail.imap import ImapError, ImapInbox

log = logging.getLogger("pbem")
LONGEST_WAIT = 10.0       # re-check the clock and the store at least this often (a command may have
                          # queued mail or changed a deadline meanwhile)
SHORTEST_WAIT = 0.05
STUCK_WAIT = 1.0
LOCAL_POLL = 1.0
MAX_BACKOFF = 60.0


def run(app: App) -> int:
    """Runs until SIGTERM/SIGINT (then 0). A server that refuses the configured settings stops
    it with BadSettings: restarting cannot help, and retrying a wrong password gets accounts
    locked."""
    log.info("pbem run: started (%s transport)", app.config.transport)
    if app.uses_imap:
        asyncio.run(_main(app))
    else:
        _run_local(app)
    log.info("pbem run: stopped")
    return 0


async def _main(app: App) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await _run_imap(app, stop)
    finally:
        await app.close_sender()


def _run_local(app: App) -> None:
    """The Maildir has nothing to wait on: one cron-style pass a second, in this thread (the
    store's connection belongs to it). A signal ends the loop after the pass in hand."""
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    while not stopping.is_set():
        try:
            app.process()
        except Busy:
            pass
        stopping.wait(min(LOCAL_POLL, _until_next(app)))


async def _run_imap(app: App, stop: asyncio.Event) -> None:
    lookout = Lookout(app.sender)
    backoff = 1.0
    while not stop.is_set():
        inbox = app.inbox()
        try:
            await inbox.connect()
            log.info("pbem run: connected to %s:%s (IDLE %s)", app.config.imap.host, app.config.imap.port,
                     "yes" if inbox.has_idle and app.config.imap.idle else "no")
            backoff = 1.0
            while not stop.is_set():
                handled = await _pass(app, inbox, stop, lookout)
                if handled or stop.is_set():
                    continue  # more may have come while we worked
                await _first(inbox.wait_for_mail(_until_next(app, lookout)), stop)
        except ImapError as e:
            problem = imap_problem(e)
            if isinstance(problem, BadSettings):
                raise problem from None
            log.warning("pbem run: IMAP connection lost or refused (%s); trying again in %.0f s", e, backoff)
            await inbox.close()
            # New mail waits, but deadlines and the outbox do not wait for the IMAP server.
            await _offline_pass(app, lookout)
            await _sleep(min(backoff, _until_next(app, lookout)), stop)
            backoff = min(backoff * 2, MAX_BACKOFF)
        finally:
            await inbox.close()


async def _pass(app: App, inbox: ImapInbox, stop: asyncio.Event, lookout: Lookout) -> int:
    try:
        with app.lock(wait=5.0):
            if app.store.inbound.unhandled():
                app.gm.recover()
            handled = await app.handle_inbox(inbox, stop)
            app.tick()
            await _send(app, lookout)
            return handled
    except Busy:
        return 0  # a cron pass is at work; it does the same job


async def _offline_pass(app: App, lookout: Lookout) -> None:
    try:
        with app.lock(wait=5.0):
            app.tick()
            await _send(app, lookout)
    except Busy:
        pass


async def _send(app: App, lookout: Lookout) -> None:
    if await lookout.back(app.store, clock.now()):
        delivery = await app.send_outbox_async(keep_open=True, waiting_too=True)
        lookout.tried(delivery)
    else:
        delivery = await app.send_outbox_async(keep_open=True)
    if delivery.settings:
        raise BadSettings(delivery.settings)


def _until_next(app: App, lookout: Lookout | None = None) -> float:
    """Seconds until the next deadline, reminder, digest or outbox retry falls due (or the next
    look at a server that mail waits for)."""
    now = clock.now()
    moments = [m for m in (app.store.next_deadline(), app.store.outbox.next_try(),
                           reminder_times.next_moment(app.store, now, app.config.games.reminder_times),
                           next_digest(app.store)) if m]
    if not moments:
        return LONGEST_WAIT
    wait = (min(moments) - now) / timedelta(seconds=1)
    if wait <= 0:
        # Still due after the pass that should have done it: something is stuck (a retry that
        # keeps failing, say). Look again shortly, but never spin.
        return STUCK_WAIT
    if lookout is not None and lookout.waiting(app.store, now):
        wait = min(wait, PROBE_EVERY)
    return max(SHORTEST_WAIT, min(LONGEST_WAIT, wait))


async def _first(waiting: Awaitable[None], stop: asyncio.Event) -> None:
    """Wait for `waiting` unless a stop comes first (then the wait is dropped)."""
    task = asyncio.ensure_future(waiting)
    stopper = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    for t in (task, stopper):
        if t not in done:
            t.cancel()
    if task in done:
        task.result()  # an ImapError surfaces here


async def _sleep(seconds: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass
