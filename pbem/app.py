"""Wiring: a configuration becomes a store, a GM and a transport; one cron pass; the outbox sent."""
from __future__ import annotations

import fcntl
import logging
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from . import clock
from .config import Config
from .gm import GM
from .mail.maildir import LocalTransport
from .store import Store

log = logging.getLogger("pbem")


class Busy(Exception):
    """Another pass holds the lock."""


@dataclass
class App:
    config: Config
    store: Store
    gm: GM
    transport: LocalTransport
    log_lines: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, config: Config) -> "App":
        store = Store(config.store)
        gm = GM(store, gm_address=config.gm.address, gm_name=config.gm.name, clock=clock.now,
                default_deadline=config.games.deadline, default_nmr=config.games.nmr,
                reminder_before=config.games.reminder_delta, admins=tuple(config.gm.admins),
                gm_secret=config.gm.secret, messages_per_hour=config.limits.messages_per_hour)
        if config.transport != "local":
            raise NotImplementedError("the imap transport is not available in this version; use transport: local")
        return cls(config, store, gm, LocalTransport(config.local.maildir, config.gm.address))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "App":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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

    def process(self) -> dict:
        """One cron pass: recover, fetch and handle, deadlines, send."""
        counts = {"handled": 0, "deadlines": 0, "sent": 0}
        with self.lock():
            counts["handled"] += len(self.gm.recover())
            for key, raw in self.transport.fetch():
                self.gm.receive(raw)
                self.transport.done(key)
                counts["handled"] += 1
            counts["deadlines"] = len(self.gm.tick())
            counts["sent"] = self.send_outbox()
        return counts

    def deliver(self, raw: bytes) -> None:
        """One message from an MTA pipe, handled at once."""
        with self.lock():
            self.gm.receive(raw)
            self.send_outbox()

    def send_outbox(self) -> int:
        n = 0
        for row in self.store.queued(clock.now()):
            self.transport.send(row["recipient"], row["raw"])
            self.store.mark_sent(row["id"], clock.now())
            log.info("sent %s mail %s to %s", row["kind"], row["message_id"], row["recipient"])
            n += 1
        return n
