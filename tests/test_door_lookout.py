"""The daemon's lookout for a server that mail waits for (pbem.mail.courier.Lookout): it asks every few
seconds, says "send now" when the server greets again, and never turns into a retry every few
seconds for a server that greets but takes no mail."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from pbem.mail.courier import PROBE_EVERY, Delivery, Lookout

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


class Outbox:
    """What the lookout reads of the store's outbox: when the next try of waiting mail falls due."""

    def __init__(self, due):
        self.due = due

    def next_try(self):
        return self.due


def waiting_store(due) -> SimpleNamespace:
    return SimpleNamespace(outbox=Outbox(due))


class Server:
    def __init__(self):
        self.up = False
        self.asked = 0

    async def greets(self) -> bool:
        self.asked += 1
        return self.up


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def back(lookout, store) -> bool:
    return asyncio.run(lookout.back(store, NOW))


def test_the_lookout_asks_every_few_seconds_and_says_send_when_the_server_is_back():
    server, clock = Server(), Clock()
    lookout = Lookout(lambda: server, monotonic=clock)
    store = waiting_store(NOW + timedelta(seconds=30))  # put off by the backoff: 30 s to the next try
    assert back(lookout, store) is False and server.asked == 1
    clock.t += PROBE_EVERY / 2
    assert back(lookout, store) is False and server.asked == 1  # not asked again so soon
    clock.t += PROBE_EVERY
    server.up = True
    assert back(lookout, store) is True and server.asked == 2   # long before the 30 s


def test_nothing_waiting_or_mail_due_is_no_reason_to_ask():
    server = Server()
    lookout = Lookout(lambda: server, monotonic=Clock())
    assert back(lookout, waiting_store(None)) is False
    assert back(lookout, waiting_store(NOW - timedelta(seconds=1))) is False  # due: it goes the usual way
    assert server.asked == 0


def test_a_server_that_greets_but_takes_no_mail_gets_one_early_try_until_it_is_seen_away_again():
    server, clock = Server(), Clock()
    lookout = Lookout(lambda: server, monotonic=clock)
    store = waiting_store(NOW + timedelta(seconds=60))
    server.up = True
    assert back(lookout, store) is True
    lookout.tried(Delivery(deferred=3))  # it greeted, but the mail was put off again
    early = 0
    for _ in range(20):                  # a minute of probes: none says "send" again
        clock.t += PROBE_EVERY
        early += back(lookout, store)
    assert early == 0 and server.asked == 21
    server.up = False                    # away again ...
    clock.t += PROBE_EVERY
    assert back(lookout, store) is False
    server.up = True                     # ... and back: one early try again
    clock.t += PROBE_EVERY
    assert back(lookout, store) is True
    lookout.tried(Delivery(sent=3))
    clock.t += PROBE_EVERY
    assert back(lookout, store) is True  # all went: the next wait may end early too
