"""A cron pass over real servers sends the outbox from a thread of its own while it still reads
the inbox (courier.Alongside): the mail of the first orders is on the wire before the last
order is handled, every mail goes exactly once and is marked sent, and what the thread cannot
send (a recipient refused for good) is reported by the pass as before. Nothing here is mocked."""
from __future__ import annotations

import email
import email.policy
import email.utils
import smtplib
import threading
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from integration.mailclient import Mailbox, password

GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
ADMIN = "mallory@example.test"
MATCHES = 8
NOW = "2026-12-01T18:00:00Z"


@pytest.fixture(autouse=True)
def given_clock(monkeypatch):
    """The GM's clock in these in-process passes is given, never the machine's."""
    monkeypatch.setenv("PBEM_NOW", NOW)
    monkeypatch.delenv("PBEM_CLOCK", raising=False)


def gm_app(stack, folder: Path):
    from pbem.app import App
    from pbem.config import load
    (folder / "pbem.yaml").write_text(
        f"gm:\n  address: {GM}\n  name: Golf GM\n  admins: [{ADMIN}]\nstore: ./pbem.sqlite3\n"
        f"transport: imap\nimap:\n  host: 127.0.0.1\n  port: {stack.imap_port}\n  security: none\n"
        f"  username: {GM}\n  password: {password(GM)}\n  poll_seconds: 1\n"
        f"smtp:\n  host: 127.0.0.1\n  port: {stack.smtp_port}\n  security: none\n  retry_seconds: 1\n"
        "limits:\n  messages_per_hour: 10000\n")
    return App.open(load(folder / "pbem.yaml"))


def into_gm_inbox(stack, sender: str, game: str, text: str) -> None:
    """An order straight into the GM's mailbox (Dovecot's LMTP), as a player's mail arrives."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM, f"Re: [{game}] orders"
    msg["Message-ID"] = email.utils.make_msgid(domain="player.test")
    msg.set_content(text)
    with smtplib.LMTP("127.0.0.1", stack.lmtp_port) as lmtp:
        lmtp.sendmail(sender, [GM], msg.as_bytes())


def matches_with_orders(app, stack) -> list[str]:
    from pbem.gm.courses import load_course
    course = load_course("parkland")
    games = []
    for i in range(MATCHES):
        game = app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], course, seed=i,
                               game_id=f"m{i}")
        seats = app.store.seats(game)
        into_gm_inbox(stack, GEORGE, game, f"PASSWORD {seats[0].secret}\nPLAY 4 4 3")
        into_gm_inbox(stack, BILL, game, f"PASSWORD {seats[1].secret}\nPLAY 4 3 4")
        games.append(game)
    return games


def message_ids(stack, address: str) -> list[str]:
    return [m["Message-ID"] for m in Mailbox(stack, address, password(address)).messages()]


def wait_for_count(stack, address: str, n: int, timeout: float = 20) -> list[str]:
    end = time.monotonic() + timeout
    while True:
        seen = message_ids(stack, address)
        if len(seen) >= n or time.monotonic() > end:
            return seen
        time.sleep(0.1)


def test_a_pass_sends_while_it_still_reads_and_every_mail_goes_once(fresh_stack, tmp_path):
    app = gm_app(fresh_stack, tmp_path)
    matches_with_orders(app, fresh_stack)
    receive, seen = app.gm.receive, {"handled": 0, "on_the_wire_first": None}

    def receive_and_look(raw):
        outcome = receive(raw)
        seen["handled"] += 1
        if seen["handled"] == MATCHES:  # half the orders read: the pass waits here until the
            end = time.monotonic() + 20  # thread has sent a mail, or gives up after 20 s
            while not app._alongside._gone and time.monotonic() < end:
                time.sleep(0.01)
            seen["on_the_wire_first"] = len(app._alongside._gone)
        return outcome

    app.gm.receive = receive_and_look
    counts = app.process()
    assert counts["handled"] == 2 * MATCHES
    assert seen["on_the_wire_first"] and seen["on_the_wire_first"] > 0  # sent before the last was read
    rows = app.store.conn.execute("SELECT status, recipient, message_id FROM outbox").fetchall()
    assert {status for status, _, _ in rows} == {"sent"}
    # welcomes, acks and reports: each in its player's mailbox once, no other copy
    assert counts["sent"] == len(rows) == 2 * MATCHES + 2 * MATCHES + 2 * MATCHES
    for player in (GEORGE, BILL):
        mine = sorted(mid for _, recipient, mid in rows if recipient == player)
        assert sorted(wait_for_count(fresh_stack, player, len(mine))) == mine
    assert threading.active_count() == 1  # the sending thread has ended with the pass
    app.close()


def test_a_refusal_met_while_sending_alongside_is_reported_once(fresh_stack, tmp_path):
    from pbem import clock
    app = gm_app(fresh_stack, tmp_path)
    matches_with_orders(app, fresh_stack)
    with app.store.transaction():  # a mail to a mailbox the server does not have: 550
        app.store.outbox.queue(now=clock.now(), game_id="m0", kind="notice", recipient="ghost@example.test",
                               message_id="<ghost.1@example.test>",
                               raw=b"From: gm@example.test\r\nTo: ghost@example.test\r\nSubject: x\r\n"
                               b"Message-ID: <ghost.1@example.test>\r\n\r\nx\r\n")
    counts = app.process()
    assert counts["handled"] == 2 * MATCHES and counts["deferred"] == 0
    failed = app.store.conn.execute("SELECT status, error FROM outbox WHERE recipient = 'ghost@example.test'").fetchall()
    assert failed[0][0] == "failed" and "550" in failed[0][1]
    report = Mailbox(fresh_stack, ADMIN, password(ADMIN)).wait_for(lambda m: "ghost@example.test" in str(m))
    assert "ghost@example.test" in report.get_body(("plain",)).get_content()
    app.process()  # nothing is tried or reported again
    time.sleep(0.3)
    assert Mailbox(fresh_stack, ADMIN, password(ADMIN)).count() == 1
    statuses = {s for s, in app.store.conn.execute("SELECT status FROM outbox WHERE recipient != 'ghost@example.test'")}
    assert statuses == {"sent"}
    app.close()
