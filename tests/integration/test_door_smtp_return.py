"""After a short SMTP outage the daemon's waiting mail goes out within seconds of the server's
return, in order, not at the backoff's next try (30 s after the first failure, then longer): a
real relay stopped and started again, the daemon as its own process."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

from integration.mailclient import Mailbox, password
from integration.test_running_for_real import BILL, GEORGE, GM, Host, relay_id


def wait_until(check, timeout: float, every: float = 0.2) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(every)
    return check()


def outbox(folder) -> list[dict]:
    with sqlite3.connect(folder / "pbem.sqlite3") as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute(
            "SELECT id, recipient, status, attempts, next_try, sent FROM outbox ORDER BY id")]


def test_after_a_short_smtp_outage_the_waiting_mail_goes_before_the_backoff_would_send_it(fresh_stack, tmp_path):
    # The first retry waits 30 s, as a GM's configuration has it by default.
    host = Host(fresh_stack, tmp_path, smtp={"port": fresh_stack.smtp_port, "security": "none", "username": "",
                                             "password": "", "retry_seconds": 30})
    fresh_stack.stop_smtp()
    log = open(tmp_path / "daemon.log", "w")
    # The daemon's clock runs on from the host's (the times compared below are the store's).
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=tmp_path,
                              env=host.env(host.now(), running=True), stdout=log, stderr=subprocess.STDOUT)
    try:
        for game in ("g1", "g2", "g3"):  # mail queued while the server is away
            made = host.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
                             f"Bill <{BILL}>", "--course", "examples", "--id", game, now=host.now())
            assert made.returncode == 0 and "wait" in made.stderr, made.stderr
        # Every mail has been tried and put off by the backoff (the new-game commands tried first).
        assert wait_until(lambda: len(outbox(tmp_path)) == 6 and all(
            r["attempts"] >= 1 and r["next_try"] for r in outbox(tmp_path)), timeout=20), outbox(tmp_path)
        # The daemon has seen that mail waits, and asks the server every few seconds.
        assert wait_until(lambda: "whether it is back" in (tmp_path / "pbem.log").read_text(), timeout=20)
        time.sleep(3)  # a probe or two find it away
        fresh_stack.start_smtp()
        box = Mailbox(fresh_stack, GEORGE, password(GEORGE))
        box.wait_for(lambda _m: box.count() >= 3, timeout=90)
        taken = sorted(box.messages(), key=relay_id)
        assert wait_until(lambda: all(r["status"] == "sent" for r in outbox(tmp_path)), timeout=30)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
        log.close()
    text = (tmp_path / "pbem.log").read_text()
    rows = outbox(tmp_path)
    # Each mail went before the backoff's next try for it: the server's return was noticed, not
    # waited out (the times are the store's own, to the second).
    assert all(r["sent"] < r["next_try"] for r in rows), (rows, text)
    assert "answers again" in text, text  # the probe saw it back
    # In order: the oldest first, as the relay took them.
    assert [m["Subject"].split("]")[0] for m in taken] == ["[g1", "[g2", "[g3"], text
    assert [r["id"] for r in sorted(rows, key=lambda r: (r["sent"], r["id"]))] == [r["id"] for r in rows]


def test_the_probe_tells_a_server_away_from_one_that_greets_on_every_security(fresh_stack):
    import asyncio

    from pbem.mail.smtp import SmtpOutbox

    from integration.test_transports import smtp_config

    ports = {"none": fresh_stack.smtp_port, "starttls": fresh_stack.smtp_port, "ssl": fresh_stack.smtps_port}
    outboxes = [SmtpOutbox(smtp_config(fresh_stack, security=s, port=p, cafile=fresh_stack.cafile), GM)
                for s, p in ports.items()]

    async def greeted() -> list[bool]:
        return [await o.greets() for o in outboxes]

    assert asyncio.run(greeted()) == [True, True, True]
    fresh_stack.stop_smtp()
    try:
        assert asyncio.run(greeted()) == [False, False, False]
    finally:
        fresh_stack.start_smtp()
    assert all(o._smtp is None for o in outboxes)  # a probe logs in to nothing and keeps nothing open
