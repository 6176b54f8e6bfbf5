"""pbem's IMAP and SMTP transports against the real test stack."""
from __future__ import annotations

import asyncio
import time
import uuid
from email.message import EmailMessage

import pytest

from integration.mailclient import Mailbox, password, send
from integration.mailstack import LOOPBACK
from pbem.config import IMAPConfig, SMTPConfig
from pbem.mail.imap import ImapError, ImapInbox
from pbem.mail.smtp import PermanentFailure, SettingsError, SmtpOutbox, TemporaryFailure

GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
PROCESSED = "pbem-processed"


def imap_config(stack, **changes) -> IMAPConfig:
    settings = dict(host=LOOPBACK, port=stack.imap_port, security="none", username=GM,
                    password=password(GM), poll_seconds=0.2)
    return IMAPConfig(**(settings | changes))


def smtp_config(stack, **changes) -> SMTPConfig:
    settings = dict(host=LOOPBACK, port=stack.smtp_port, security="none", timeout=10)
    return SMTPConfig(**(settings | changes))


def gm_box(stack) -> Mailbox:
    return Mailbox(stack, GM, password(GM))


def deliver_to_gm(stack, count: int) -> list[str]:
    ids = [send(stack, GEORGE, GM, f"orders {n}", f"PLAY {n}\n") for n in range(count)]
    gm_box(stack).wait_for(lambda m: m["Message-ID"] == ids[-1])
    return ids


def letter(to: str, subject: str) -> tuple[str, bytes]:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GM, to, subject
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@gm.test>"
    msg.set_content("Your move.\n")
    return msg["Message-ID"], msg.as_bytes()


async def connected(cfg, timeout: float = 10) -> ImapInbox:
    inbox = ImapInbox(cfg, timeout=timeout)
    await inbox.connect()
    return inbox


# --- IMAP --------------------------------------------------------------------------------------

def test_fetch_new_peeks_oldest_first_and_done_files_the_message(fresh_stack):
    ids = deliver_to_gm(fresh_stack, 3)

    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        try:
            fetched = await inbox.fetch_new()
            seen_before = gm_box(fresh_stack).flags()
            again = await inbox.fetch_new()
            await inbox.done(fetched[0][0])
            await inbox.done(fetched[0][0])  # a pass that died after the move does it again
            after = await inbox.fetch_new()
            return fetched, seen_before, again, after
        finally:
            await inbox.close()

    fetched, seen_before, again, after = asyncio.run(scenario())
    assert [uid for uid, _ in fetched] == sorted((uid for uid, _ in fetched), key=int)
    assert [f"Message-ID: {i}".encode() in raw for (_, raw), i in zip(fetched, ids)] == [True] * 3
    assert b"PLAY 0" in fetched[0][1] and b"PLAY 2" in fetched[2][1]
    assert all("\\Seen" not in flags for flags in seen_before)
    assert again == fetched
    assert after == fetched[1:]
    processed = gm_box(fresh_stack)
    assert [m["Message-ID"] for m in processed.messages(PROCESSED)] == ids[:1]
    [flags] = processed.flags(PROCESSED)
    assert "\\Seen" in flags
    assert [m["Message-ID"] for m in processed.messages()] == ids[1:]


def test_raw_bytes_are_the_message_as_delivered(fresh_stack):
    deliver_to_gm(fresh_stack, 1)

    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        try:
            return await inbox.fetch_new()
        finally:
            await inbox.close()

    [(uid, raw)] = asyncio.run(scenario())
    assert uid.isdigit()
    assert raw.startswith(b"Return-Path: <george@example.test>\r\n")
    assert raw.endswith(b"PLAY 0\r\n")


def test_processed_mailbox_is_created_when_missing(fresh_stack):
    assert gm_box(fresh_stack).folders() == ["INBOX"]

    async def scenario():
        for _ in range(2):  # the second connect finds it there and must not fail
            inbox = await connected(imap_config(fresh_stack, processed_mailbox="pbem done"))
            await inbox.close()

    asyncio.run(scenario())
    assert sorted(gm_box(fresh_stack).folders()) == ["INBOX", "pbem done"]


@pytest.mark.parametrize("missing", [{"MOVE"}, {"MOVE", "UIDPLUS"}])
def test_done_without_move_copies_and_expunges_only_that_message(fresh_stack, missing):
    ids = deliver_to_gm(fresh_stack, 2)

    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        try:
            assert {"MOVE", "UIDPLUS"} <= inbox._caps  # Dovecot has both: take them away
            inbox._caps -= missing
            fetched = await inbox.fetch_new()
            await inbox.done(fetched[0][0])
            return await inbox.fetch_new()
        finally:
            await inbox.close()

    left = asyncio.run(scenario())
    assert len(left) == 1 and ids[1].encode() in left[0][1]
    box = gm_box(fresh_stack)
    assert [m["Message-ID"] for m in box.messages(PROCESSED)] == ids[:1]
    [flags] = box.flags(PROCESSED)
    assert "\\Seen" in flags
    assert [m["Message-ID"] for m in box.messages()] == ids[1:]


def test_imaps_with_the_stack_cafile(fresh_stack):
    deliver_to_gm(fresh_stack, 1)
    cfg = imap_config(fresh_stack, security="ssl", port=fresh_stack.imaps_port,
                      cafile=fresh_stack.cafile)

    async def scenario():
        inbox = await connected(cfg)
        try:
            return await inbox.fetch_new()
        finally:
            await inbox.close()

    assert len(asyncio.run(scenario())) == 1


def test_imaps_refuses_a_certificate_it_cannot_verify(fresh_stack):
    cfg = imap_config(fresh_stack, security="ssl", port=fresh_stack.imaps_port)
    with pytest.raises(ImapError, match="TLS|CERTIFICATE"):
        asyncio.run(connected(cfg))


def test_wrong_password_is_an_imap_error_without_the_password(fresh_stack):
    cfg = imap_config(fresh_stack, password="hunter2-secret")
    with pytest.raises(ImapError, match="login") as refused:
        asyncio.run(connected(cfg))
    assert "hunter2-secret" not in str(refused.value)
    assert "\n" not in str(refused.value)


def test_missing_mailbox_is_an_imap_error(fresh_stack):
    with pytest.raises(ImapError, match="select"):
        asyncio.run(connected(imap_config(fresh_stack, mailbox="No Such Box")))


def test_stopped_dovecot_is_an_imap_error(fresh_stack):
    fresh_stack.stop_dovecot()
    try:
        started = time.monotonic()
        with pytest.raises(ImapError, match="refused"):
            asyncio.run(connected(imap_config(fresh_stack)))
        assert time.monotonic() - started < 2
    finally:
        fresh_stack.start_dovecot()


def test_idle_wakes_soon_after_new_mail(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        try:
            assert inbox.has_idle
            assert await inbox.fetch_new() == []
            loop = asyncio.get_running_loop()
            waiting = asyncio.ensure_future(inbox.wait_for_mail(20))
            await asyncio.sleep(0.3)
            assert not waiting.done()
            sent = time.monotonic()
            await loop.run_in_executor(None, send, fresh_stack, GEORGE, GM, "wake up", "hi\n")
            await waiting
            woke = time.monotonic() - sent
            return woke, await inbox.fetch_new()
        finally:
            await inbox.close()

    woke, fetched = asyncio.run(scenario())
    assert woke < 5
    assert len(fetched) == 1 and b"Subject: wake up" in fetched[0][1]


def test_idle_returns_on_timeout_and_the_connection_still_works(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        try:
            started = time.monotonic()
            await inbox.wait_for_mail(1.0)
            waited = time.monotonic() - started
            await inbox.wait_for_mail(0.2)  # IDLE again on the same connection
            return waited, await inbox.fetch_new()
        finally:
            await inbox.close()

    waited, fetched = asyncio.run(scenario())
    assert 0.9 <= waited < 3
    assert fetched == []


def test_idle_raises_when_the_server_drops_the_connection(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        loop = asyncio.get_running_loop()
        try:
            waiting = asyncio.ensure_future(inbox.wait_for_mail(30))
            await asyncio.sleep(0.2)
            await loop.run_in_executor(None, fresh_stack.kick, GM)
            started = time.monotonic()
            with pytest.raises(ImapError, match="closed"):
                await waiting
            dropped_after = time.monotonic() - started
            with pytest.raises(ImapError):
                await inbox.fetch_new()
            await inbox.connect()  # what the daemon does next
            return dropped_after, await inbox.fetch_new()
        finally:
            await inbox.close()

    dropped_after, fetched = asyncio.run(scenario())
    assert dropped_after < 2
    assert fetched == []


def test_idle_raises_soon_after_dovecot_stops(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        loop = asyncio.get_running_loop()
        try:
            waiting = asyncio.ensure_future(inbox.wait_for_mail(30))
            await asyncio.sleep(0.2)
            started = time.monotonic()
            await loop.run_in_executor(None, fresh_stack.stop_dovecot)
            with pytest.raises(ImapError):
                await waiting
            return time.monotonic() - started
        finally:
            await inbox.close()

    try:
        assert asyncio.run(scenario()) < 4
    finally:
        fresh_stack.start_dovecot()


def test_polling_when_idle_is_off(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack, idle=False, poll_seconds=0.3))
        try:
            started = time.monotonic()
            await inbox.wait_for_mail(10)
            polled = time.monotonic() - started
            started = time.monotonic()
            await inbox.wait_for_mail(0.1)  # the timeout caps the poll interval
            capped = time.monotonic() - started
            return polled, capped
        finally:
            await inbox.close()

    polled, capped = asyncio.run(scenario())
    assert 0.25 <= polled < 2
    assert capped < 0.3


def test_close_never_raises(fresh_stack):
    async def scenario():
        inbox = await connected(imap_config(fresh_stack))
        await asyncio.get_running_loop().run_in_executor(None, fresh_stack.kick, GM)
        await asyncio.sleep(0.1)
        await inbox.close()
        await inbox.close()
        await ImapInbox(imap_config(fresh_stack)).close()

    asyncio.run(scenario())


# --- SMTP --------------------------------------------------------------------------------------

SECURITY = [("none", "smtp_port", "ESMTP"), ("starttls", "smtp_port", "ESMTPS"),
            ("ssl", "smtps_port", "ESMTPS")]


@pytest.mark.parametrize("auth", [False, True], ids=["anonymous", "auth"])
@pytest.mark.parametrize("security,port,protocol", SECURITY, ids=[s[0] for s in SECURITY])
def test_smtp_outbox_sends(fresh_stack, security, port, protocol, auth):
    credentials = {"username": GM, "password": password(GM)} if auth else {}
    cfg = smtp_config(fresh_stack, security=security, port=getattr(fresh_stack, port),
                      cafile=fresh_stack.cafile, **credentials)
    message_id, raw = letter(GEORGE, f"over {security}")

    async def scenario():
        outbox = SmtpOutbox(cfg, envelope_from=GM)
        try:
            await outbox.send(GEORGE, raw)
        finally:
            await outbox.close()

    asyncio.run(scenario())
    got = Mailbox(fresh_stack, GEORGE, password(GEORGE)).wait_for(
        lambda m: m["Message-ID"] == message_id)
    assert got["Return-Path"] == f"<{GM}>"
    expected = protocol + ("A" if auth else "")
    assert f"with {expected} id " in " ".join(got.get_all("Received"))


def test_smtp_outbox_reuses_its_connection_and_reconnects_once_after_a_drop(fresh_stack):
    cfg = smtp_config(fresh_stack)
    first_id, first = letter(GEORGE, "first")
    second_id, second = letter(BILL, "second")

    async def scenario():
        outbox = SmtpOutbox(cfg, envelope_from=GM)
        try:
            await outbox.send(GEORGE, first)
            connection = outbox._smtp
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, fresh_stack.stop_smtp)
            await loop.run_in_executor(None, fresh_stack.start_smtp)
            await outbox.send(BILL, second)
            return connection is not outbox._smtp
        finally:
            await outbox.close()

    assert asyncio.run(scenario())
    Mailbox(fresh_stack, GEORGE, password(GEORGE)).wait_for(lambda m: m["Message-ID"] == first_id)
    Mailbox(fresh_stack, BILL, password(BILL)).wait_for(lambda m: m["Message-ID"] == second_id)


def run_send(cfg, recipient: str = GEORGE) -> None:
    async def scenario():
        outbox = SmtpOutbox(cfg, envelope_from=GM)
        try:
            await outbox.send(recipient, letter(recipient, "test")[1])
        finally:
            await outbox.close()

    asyncio.run(scenario())


def test_smtp_down_is_a_temporary_failure(fresh_stack):
    fresh_stack.stop_smtp()
    try:
        with pytest.raises(TemporaryFailure, match="connect"):
            run_send(smtp_config(fresh_stack))
    finally:
        fresh_stack.start_smtp()


def test_unknown_recipient_is_a_permanent_failure(fresh_stack):
    with pytest.raises(PermanentFailure, match="550"):
        run_send(smtp_config(fresh_stack), "nobody@example.test")


def test_dovecot_down_is_a_temporary_failure(fresh_stack):
    fresh_stack.stop_dovecot()
    try:
        with pytest.raises(TemporaryFailure, match="451"):
            run_send(smtp_config(fresh_stack))
    finally:
        fresh_stack.start_dovecot()
    assert Mailbox(fresh_stack, GEORGE, password(GEORGE)).count() == 0


def test_auth_rejection_is_a_settings_error_without_the_password(fresh_stack):
    cfg = smtp_config(fresh_stack, username=GM, password="hunter2-secret")
    with pytest.raises(SettingsError, match="535") as refused:
        run_send(cfg)
    assert "hunter2-secret" not in str(refused.value) and "smtp.password" in str(refused.value)


def test_untrusted_certificate_is_a_settings_error_that_says_why(fresh_stack):
    cfg = smtp_config(fresh_stack, security="ssl", port=fresh_stack.smtps_port)
    with pytest.raises(SettingsError, match="certificate verify failed: .*(self.signed|issuer)") as refused:
        run_send(cfg)
    assert "smtp.cafile" in str(refused.value)


def test_the_wrong_tls_mode_is_a_settings_error(fresh_stack):
    for security, port, words in (("ssl", fresh_stack.smtp_port, "did not speak TLS"),
                                  ("starttls", fresh_stack.smtps_port, "security: ssl"),
                                  ("none", fresh_stack.submission_port, "STARTTLS")):
        cfg = smtp_config(fresh_stack, security=security, port=port, cafile=fresh_stack.cafile,
                          username=GM, password=password(GM))
        with pytest.raises(SettingsError, match=words):
            run_send(cfg)


def test_a_recipient_refusal_is_permanent_a_session_refusal_is_not(fresh_stack):
    cfg = smtp_config(fresh_stack, security="starttls", port=fresh_stack.submission_port, cafile=fresh_stack.cafile,
                      username=GM, password=password(GM))
    run_send(cfg)  # the strict submission port takes mail once TLS and AUTH are done
    with pytest.raises(PermanentFailure, match="550"):
        run_send(cfg, recipient="nobody@example.test")


def test_a_530_session_refusal_is_a_settings_error_not_the_recipients(fresh_stack):
    """No login configured against a port that demands STARTTLS: the server answers MAIL FROM
    with 530, which says nothing about the recipient."""
    cfg = smtp_config(fresh_stack, security="none", port=fresh_stack.submission_port)
    with pytest.raises(SettingsError, match="530.*STARTTLS"):
        run_send(cfg)
