"""The test mail stack itself: mail goes in over SMTP and comes out over IMAP, on every port."""
from __future__ import annotations

import imaplib
import smtplib
import ssl
import uuid
from email.message import EmailMessage

import pytest

from integration.mailclient import Mailbox, password, send
from integration.mailstack import LOOPBACK, greets

GEORGE, BILL, GM = "george@example.test", "bill@example.test", "gm@example.test"


def box(stack, address: str) -> Mailbox:
    return Mailbox(stack, address, password(address))


def letter(sender: str, to: str, subject: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@player.test>"
    msg.set_content(f"body of {subject}\n")
    return msg


def test_smtp_in_imap_out(fresh_stack):
    message_id = send(fresh_stack, GEORGE, BILL, "hello Bill", "PLAY 4 5 3\n",
                      headers={"X-Test": "yes"})
    got = box(fresh_stack, BILL).wait_for(lambda m: m["Message-ID"] == message_id)
    assert got["Subject"] == "hello Bill"
    assert got["X-Test"] == "yes"
    assert got["Delivered-To"] == BILL
    assert got.get_content() == "PLAY 4 5 3\n"
    assert box(fresh_stack, GEORGE).count() == 0


def test_plus_address_lands_in_the_base_mailbox(fresh_stack):
    message_id = send(fresh_stack, GEORGE, "gm+s3cret@example.test", "orders", "PLAY 1 2 3\n")
    got = box(fresh_stack, GM).wait_for(lambda m: m["Message-ID"] == message_id)
    assert got["To"] == "gm+s3cret@example.test"
    assert box(fresh_stack, GEORGE).count() == 0


def test_every_recipient_gets_a_copy_in_order(fresh_stack):
    first = send(fresh_stack, GM, [GEORGE, BILL], "turn 1", "your move\n")
    second = send(fresh_stack, GM, [GEORGE, BILL], "turn 2", "your move\n")
    for address in (GEORGE, BILL):
        mailbox = box(fresh_stack, address)
        mailbox.wait_for(lambda m: m["Message-ID"] == second)
        assert [m["Message-ID"] for m in mailbox.messages()] == [first, second]


def test_unknown_local_user_is_refused_with_550(fresh_stack):
    with smtplib.SMTP(LOOPBACK, fresh_stack.smtp_port, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            smtp.send_message(letter(GEORGE, "nobody@example.test", "lost"))
    code, _ = refused.value.recipients["nobody@example.test"]
    assert code == 550


def test_implicit_tls_and_starttls_with_the_stack_certificate(fresh_stack):
    context = fresh_stack.client_tls()
    with smtplib.SMTP_SSL(LOOPBACK, fresh_stack.smtps_port, context=context, timeout=10) as smtp:
        smtp.login(GEORGE, password(GEORGE))
        smtp.send_message(letter(GEORGE, BILL, "over smtps"))
    with smtplib.SMTP(LOOPBACK, fresh_stack.smtp_port, timeout=10) as smtp:
        smtp.starttls(context=context)
        smtp.send_message(letter(GEORGE, BILL, "over starttls"))
    with imaplib.IMAP4_SSL(LOOPBACK, fresh_stack.imaps_port, ssl_context=context, timeout=10) as imap:
        imap.login(BILL, password(BILL))
        imap.select("INBOX", readonly=True)
        _, data = imap.uid("FETCH", "1:*", "(BODY.PEEK[HEADER.FIELDS (SUBJECT RECEIVED)])")
    headers = b"".join(part[1] for part in data if isinstance(part, tuple))
    assert b"Subject: over smtps" in headers and b"Subject: over starttls" in headers
    assert b"with ESMTPSA id " in headers and b"with ESMTPS id " in headers


def test_tls_ports_refuse_a_client_that_does_not_trust_the_certificate(fresh_stack):
    untrusting = ssl.create_default_context()  # the system store lacks the stack's own cert
    assert not greets(fresh_stack.imaps_port, b"* OK", untrusting)
    assert not greets(fresh_stack.smtps_port, b"220", untrusting)
    assert greets(fresh_stack.imaps_port, b"* OK", fresh_stack.client_tls())


def test_smtp_auth_checks_the_password(fresh_stack):
    with smtplib.SMTP(LOOPBACK, fresh_stack.smtp_port, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPAuthenticationError) as refused:
            smtp.login(GEORGE, "wrong")
        assert refused.value.smtp_code == 535
        smtp.login(GEORGE, password(GEORGE))


def test_reset_empties_mailboxes_and_removes_folders(fresh_stack):
    send(fresh_stack, GEORGE, GM, "old", "old\n")
    gm = box(fresh_stack, GM)
    gm.wait_for(lambda m: m["Subject"] == "old")
    with imaplib.IMAP4(LOOPBACK, fresh_stack.imap_port, timeout=10) as imap:
        imap.login(GM, password(GM))
        assert imap.create("pbem-processed")[0] == "OK"
        assert imap.create("games/cup1")[0] == "OK"
    assert "pbem-processed" in gm.folders()
    fresh_stack.reset()
    assert gm.count() == 0
    assert gm.folders() == ["INBOX"]


def test_added_user_receives_mail(fresh_stack):
    fresh_stack.add_user("tom@example.test", "tom-pw")
    message_id = send(fresh_stack, GEORGE, "tom@example.test", "welcome Tom", "hi\n")
    Mailbox(fresh_stack, "tom@example.test", "tom-pw").wait_for(lambda m: m["Message-ID"] == message_id)


def test_dovecot_restart_keeps_ports_and_mail(fresh_stack):
    kept = send(fresh_stack, GEORGE, BILL, "kept", "kept\n")
    bill = box(fresh_stack, BILL)
    bill.wait_for(lambda m: m["Message-ID"] == kept)
    fresh_stack.stop_dovecot()
    try:
        with pytest.raises(ConnectionRefusedError):
            bill.count()
        with smtplib.SMTP(LOOPBACK, fresh_stack.smtp_port, timeout=10) as smtp:
            with pytest.raises(smtplib.SMTPDataError) as deferred:
                smtp.send_message(letter(GEORGE, BILL, "while down"))
        assert deferred.value.smtp_code == 451
    finally:
        fresh_stack.start_dovecot()
    assert [m["Message-ID"] for m in bill.messages()] == [kept]


def test_smtp_restart_keeps_ports(fresh_stack):
    fresh_stack.stop_smtp()
    try:
        with pytest.raises(ConnectionRefusedError):
            smtplib.SMTP(LOOPBACK, fresh_stack.smtp_port, timeout=10)
    finally:
        fresh_stack.start_smtp()
    message_id = send(fresh_stack, GEORGE, BILL, "after restart", "hi\n")
    box(fresh_stack, BILL).wait_for(lambda m: m["Message-ID"] == message_id)
