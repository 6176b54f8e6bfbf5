"""The outbox sent alongside a pass (pbem.mail.courier.Alongside), on a real store with a sender that
keeps what it is given: each mail goes once, the thread writes nothing (the pass marks what it
took, `settle`), a mail that must wait stops it and stays queued for the pass's own sending.
(Over real IMAP and SMTP: tests/integration/test_sending_alongside.py.)"""
from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from pbem.mail.courier import Alongside
from pbem.mail.smtp import PermanentFailure, TemporaryFailure
from pbem.store import Store

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


class Kept:
    """A sender that keeps each mail; `fail` maps a recipient to the failure it raises."""

    def __init__(self, fail=None):
        self.sent: list[str] = []
        self.fail = fail or {}
        self.closed = 0
        self.first = threading.Event()

    async def connect(self):
        pass

    async def send(self, recipient, raw, key=None):
        if recipient in self.fail:
            raise self.fail[recipient]
        self.sent.append(key)
        self.first.set()

    async def greets(self):
        return True

    async def close(self):
        self.closed += 1


def queue(store: Store, n: int, start: int = 0, recipient: str = "george@example.test") -> None:
    for i in range(start, start + n):
        store.outbox.queue(now=NOW, game_id="g1", kind="ack", recipient=recipient, message_id=f"<m{i}@gm.test>",
                           raw=f"Subject: {i}\r\n\r\nx\r\n".encode())


def outbox_with_one_odd(tmp_path, odd: str, before: int, after: int) -> Store:
    """`before` mails to George, one to `odd`, `after` more to George: ids m0, m1, ..."""
    store = Store(tmp_path / "pbem.sqlite3")
    queue(store, before)
    queue(store, 1, start=before, recipient=odd)
    queue(store, after, start=before + 1)
    return store


def statuses(store: Store) -> dict[str, str]:
    return dict(store.conn.execute("SELECT message_id, status FROM outbox"))


def test_each_mail_goes_once_and_only_the_pass_marks_it_sent(tmp_path):
    store = Store(tmp_path / "pbem.sqlite3")
    queue(store, 3)
    sender = Kept()
    courier = Alongside(tmp_path / "pbem.sqlite3", lambda: sender, lambda: NOW).start()
    assert sender.first.wait(10)
    courier.nudge()
    queue(store, 4, start=3)  # the pass commits more while the thread sends
    courier.nudge()
    end = time.monotonic() + 10  # a wait of the test's own, not a date
    while len(sender.sent) < 7 and time.monotonic() < end:
        threading.Event().wait(0.01)
    assert sorted(sender.sent) == sorted(f"<m{i}@gm.test>" for i in range(7))
    assert set(statuses(store).values()) == {"queued"}  # the thread wrote nothing
    courier.settle(store)
    assert set(statuses(store).values()) == {"sent"}
    queue(store, 2, start=7)
    delivery = courier.finish(store)  # one last round, then every mail marked
    assert sorted(sender.sent) == sorted(f"<m{i}@gm.test>" for i in range(9))  # none twice
    assert delivery.sent == 9 and delivery.deferred == 0 and not delivery.failed
    assert set(statuses(store).values()) == {"sent"}
    assert not courier._thread.is_alive() and sender.closed == 1
    store.close()


def test_a_mail_that_must_wait_stops_the_thread_and_stays_queued(tmp_path):
    store = outbox_with_one_odd(tmp_path, "bill@example.test", before=2, after=2)
    sender = Kept(fail={"bill@example.test": TemporaryFailure("421 busy")})
    courier = Alongside(tmp_path / "pbem.sqlite3", lambda: sender, lambda: NOW, first_retry=30).start()
    courier._thread.join(10)
    assert not courier._thread.is_alive()  # stopped by itself, before any finish
    delivery = courier.finish(store)
    assert sender.sent == ["<m0@gm.test>", "<m1@gm.test>"]
    assert delivery.sent == 2 and delivery.deferred == 3
    waiting = store.conn.execute("SELECT message_id, next_try FROM outbox WHERE status = 'queued' ORDER BY id").fetchall()
    assert [m for m, _ in waiting] == ["<m2@gm.test>", "<m3@gm.test>", "<m4@gm.test>"]
    assert all(t == "2026-12-01T18:00:30Z" for _, t in waiting)  # the backoff's first wait
    store.close()


def test_a_recipient_refused_for_good_is_handed_back_and_the_rest_goes(tmp_path):
    store = outbox_with_one_odd(tmp_path, "ghost@example.test", before=1, after=1)
    sender = Kept(fail={"ghost@example.test": PermanentFailure("550 no such user")})
    courier = Alongside(tmp_path / "pbem.sqlite3", lambda: sender, lambda: NOW).start()
    delivery = courier.finish(store)
    assert sender.sent == ["<m0@gm.test>", "<m2@gm.test>"]
    assert [row["recipient"] for row in delivery.failed] == ["ghost@example.test"]
    assert "550" in delivery.failed[0]["error"]
    assert statuses(store) == {"<m0@gm.test>": "sent", "<m1@gm.test>": "failed", "<m2@gm.test>": "sent"}
    store.close()


def test_marks_of_many_mails_over_a_second_s_turn(tmp_path):
    store = Store(tmp_path / "pbem.sqlite3")
    queue(store, 1203)
    ids = [i for i, in store.conn.execute("SELECT id FROM outbox ORDER BY id")]
    later = NOW + timedelta(seconds=1)
    store.outbox.mark_sent_many([(i, NOW if n < 700 else later) for n, i in enumerate(ids[:-1])])
    rows = store.conn.execute("SELECT status, sent FROM outbox ORDER BY id").fetchall()
    assert rows[:700] == [("sent", "2026-12-01T18:00:00Z")] * 700
    assert rows[700:1202] == [("sent", "2026-12-01T18:00:01Z")] * 502
    assert rows[1202] == ("queued", None)
    store.close()
