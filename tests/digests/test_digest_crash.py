"""A digest is durable (CONTRACT section 14): the real `pbem process`, killed with SIGKILL at
each point between holding the day's mail and delivering its digest, then run again, delivers
one digest with every item, once."""
from __future__ import annotations

import sqlite3

import pytest

from conftest import body
from test_digest_day import CAROL, COURSE, DAVE, FAN, follow, play

pytestmark = pytest.mark.slow

DUE = "2026-12-02T18:00:00Z"


def digests(table) -> list:
    return [m for m in table.mails(FAN) if m["X-PBEM-Kind"] == "digest"]


def store_rows(table, sql: str) -> list:
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def crash(table, point: str) -> int:
    table.monkeypatch.setenv("PBEM_CRASH_AT", point)
    try:
        return table.pbem("process", now=DUE, check=False)[0]
    finally:
        table.monkeypatch.delenv("PBEM_CRASH_AT")


def test_a_process_killed_between_holding_and_sending_the_digest_loses_and_duplicates_nothing(cron_table):
    table = cron_table
    table.pbem("new-game", "matchplay", "--player", f"Carol <{CAROL}>", "--player", f"Dave <{DAVE}>",
               "--course", COURSE, "--id", "m2")
    token = follow(table, FAN, "m2")
    table.send(FAN, "SET DIGEST DAILY 18:00", subject="digest", to=token)
    table.pbem("process", now="2026-12-02T08:00:00Z")
    play(table, "m2", (CAROL, DAVE), 0, "2026-12-02T09:00:00Z")
    play(table, "m2", (CAROL, DAVE), 1, "2026-12-02T11:00:00Z")
    before = len(table.mails(FAN))
    assert store_rows(table, "SELECT count(*) FROM digest_items WHERE carried IS NULL") == [(2,)]

    # Killed inside the transaction that queues the digest: nothing of it stands.
    assert crash(table, "digest_queuing") == -9
    assert digests(table) == [] and store_rows(table, "SELECT count(*) FROM digest_items WHERE carried IS NULL") \
        == [(2,)] and store_rows(table, "SELECT count(*) FROM outbox WHERE kind = 'digest'") == [(0,)]

    # Killed after the commit, before the outbox is sent: the digest waits in the outbox, its
    # items carried, and no second digest is made of them.
    assert crash(table, "digest_queued") == -9
    assert digests(table) == [] and store_rows(table, "SELECT count(*) FROM digest_items WHERE carried IS NULL") \
        == [(0,)] and store_rows(table, "SELECT status FROM outbox WHERE kind = 'digest'") == [("queued",)]

    # Killed after the digest was written to the reader's mailbox, before it was marked sent.
    assert crash(table, "written") == -9
    assert len(digests(table)) == 1

    table.pbem("process", now=DUE)
    table.pbem("process", now="2026-12-03T18:00:00Z")
    digest, = digests(table)
    text = body(digest)
    assert "Mail 1 of 2" in text and "Mail 2 of 2" in text and "Mail 3" not in text
    assert text.index("Turn 1 is played") < text.index("Turn 2 is played")
    assert len(table.mails(FAN)) == before + 1  # the digest, and nothing else
    assert store_rows(table, "SELECT status FROM outbox WHERE kind = 'digest'") == [("sent",)]
