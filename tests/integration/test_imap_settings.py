"""The IMAP adapter against the real Dovecot of the stack: settings the server refuses (a
settings error, one line, never the password), STARTTLS, the processed folder made once, and
a connection whose server has gone silent noticed within a minute.

A few cases Dovecot on loopback cannot show (a server without STARTTLS, one that disables
LOGIN, one that never greets) use a tiny scripted server on loopback instead."""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import time

import aioimaplib
import pytest

from integration.mailclient import Mailbox, password, send
from integration.mailstack import LOOPBACK, find_program
from pbem.config import IMAPConfig
from pbem.mail.imap import ImapError, ImapInbox, ImapSettingsError

GM, GEORGE = "gm@example.test", "george@example.test"
SECRET = "hunter2-secret"


def imap_config(stack, **changes) -> IMAPConfig:
    settings = dict(host=LOOPBACK, port=stack.imap_port, security="none", username=GM,
                    password=password(GM), poll_seconds=0.2)
    return IMAPConfig(**(settings | changes))


def connect(cfg, timeout: float = 10) -> None:
    """Connect and close again; whatever connect raises comes out."""
    async def scenario():
        inbox = ImapInbox(cfg, timeout=timeout)
        try:
            await inbox.connect()
        finally:
            await inbox.close()

    asyncio.run(scenario())


def refusal(cfg, timeout: float = 10) -> tuple[str, float]:
    """The one-line settings error a connect with ``cfg`` gives, and how long it took."""
    started = time.monotonic()
    with pytest.raises(ImapSettingsError) as refused:
        connect(cfg, timeout)
    text = str(refused.value)
    assert "\n" not in text and text.startswith("IMAP ")
    assert password(GM) not in text and SECRET not in text
    return text, time.monotonic() - started


# --- refused settings ---------------------------------------------------------------------------

def test_wrong_password_is_a_settings_error_without_the_password(fresh_stack):
    text, _ = refusal(imap_config(fresh_stack, password=SECRET))
    assert text.startswith(f"IMAP login at {LOOPBACK}:{fresh_stack.imap_port} refused: wrong username or password")
    assert "imap.username" in text and "imap.password" in text


def test_ssl_without_cafile_names_the_verify_reason(fresh_stack):
    text, _ = refusal(imap_config(fresh_stack, security="ssl", port=fresh_stack.imaps_port))
    assert "certificate verify failed: self-signed certificate" in text  # not just the OpenSSL code
    assert "imap.cafile" in text


def test_ssl_with_the_cafile_but_another_host_name_says_hostname(fresh_stack):
    # The stack's certificate is for localhost and 127.0.0.1; "127.1" reaches the same address
    # (inet_aton form) under a name the certificate does not carry.
    assert socket.getaddrinfo("127.1", None)[0][4][0] == LOOPBACK
    text, _ = refusal(imap_config(fresh_stack, host="127.1", security="ssl", port=fresh_stack.imaps_port,
                                  cafile=fresh_stack.cafile))
    assert "Hostname mismatch" in text and "imap.host" in text


def test_a_cafile_that_cannot_be_read_is_a_settings_error(fresh_stack, tmp_path):
    text, _ = refusal(imap_config(fresh_stack, security="ssl", port=fresh_stack.imaps_port,
                                  cafile=tmp_path / "missing.pem"))
    assert "imap.cafile" in text and "missing.pem" in text


def test_ssl_on_the_plain_port_is_a_settings_error_at_once(fresh_stack):
    text, took = refusal(imap_config(fresh_stack, security="ssl", cafile=fresh_stack.cafile))
    assert "did not speak TLS" in text and "starttls or none" in text
    assert took < 3


@pytest.mark.parametrize("security", ["none", "starttls"])
def test_plain_on_the_implicit_tls_port_is_a_settings_error_soon(fresh_stack, security):
    # No greeting ever comes; the adapter asks the port for a TLS handshake after a short wait
    # instead of waiting out its 10 s timeout.
    cfg = imap_config(fresh_stack, security=security, port=fresh_stack.imaps_port, cafile=fresh_stack.cafile)
    text, took = refusal(cfg)
    assert "implicit-TLS" in text and "imap.security: ssl" in text
    assert took < 6


# --- STARTTLS ----------------------------------------------------------------------------------

def test_starttls_on_the_plain_port_logs_in_over_tls_and_fetches(fresh_stack):
    # Only the adapter logs in to the GM's mailbox in this test: Dovecot writes its log through
    # a separate process, so another client's login (a helper waiting for the mail) could land
    # in the log after any mark the test takes.
    log = fresh_stack.logs / "dovecot.log"
    log_before = log.stat().st_size
    send(fresh_stack, GEORGE, GM, "over starttls", "PLAY 1\n")
    cfg = imap_config(fresh_stack, security="starttls", cafile=fresh_stack.cafile)

    async def scenario():
        inbox = ImapInbox(cfg, timeout=10)
        await inbox.connect()
        try:
            for _ in range(100):  # the mail is delivered within seconds
                fetched = await inbox.fetch_new()
                if fetched:
                    break
                await inbox.wait_for_mail(0.2)
            return inbox._caps, fetched
        finally:
            await inbox.close()

    caps, fetched = asyncio.run(scenario())
    assert len(fetched) == 1 and b"Subject: over starttls" in fetched[0][1]
    assert "STARTTLS" not in caps and "IDLE" in caps  # capabilities read again after the upgrade

    def logins() -> list[str]:
        with open(log, "rb") as handle:
            handle.seek(log_before)
            return [line for line in handle.read().decode(errors="replace").splitlines()
                    if f"Login: user=<{GM}>" in line]

    for _ in range(50):  # the log line may trail the session by a moment
        if logins():
            break
        time.sleep(0.1)
    # Dovecot notes a login over TLS with ", TLS," (a plain one on loopback says "secured").
    assert len(logins()) == 1 and ", TLS," in logins()[0], logins()


def test_starttls_without_cafile_refuses_the_certificate_before_login(fresh_stack):
    text, _ = refusal(imap_config(fresh_stack, security="starttls", password=SECRET))
    assert "certificate verify failed: self-signed certificate" in text and "imap.cafile" in text


@contextlib.asynccontextmanager
async def scripted_server(capabilities: str, silent: bool = False):
    """A loopback server that greets with ``capabilities`` and answers CAPABILITY and LOGOUT
    (NO to anything else); ``silent`` never says a word. Yields its port and what it heard."""
    heard: list[str] = []

    async def serve(reader, writer):
        try:
            if silent:
                await reader.read()
                return
            writer.write(f"* OK [CAPABILITY {capabilities}] scripted\r\n".encode())
            while line := await reader.readline():
                heard.append(line.decode(errors="replace").strip())
                tag, _, command = heard[-1].partition(" ")
                verb = command.split(" ", 1)[0].upper()
                if verb == "CAPABILITY":
                    writer.write(f"* CAPABILITY {capabilities}\r\n{tag} OK done\r\n".encode())
                elif verb == "LOGOUT":
                    writer.write(f"* BYE bye\r\n{tag} OK done\r\n".encode())
                else:
                    writer.write(f"{tag} NO not here\r\n".encode())
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass  # the client went away, or the test is over
        finally:
            writer.close()

    server = await asyncio.start_server(serve, LOOPBACK, 0)
    try:
        yield server.sockets[0].getsockname()[1], heard
    finally:
        server.close()


def scripted_refusal(capabilities: str, security: str, **settings) -> tuple[Exception, list[str]]:
    async def scenario():
        async with scripted_server(capabilities, **settings.pop("server", {})) as (port, heard):
            inbox = ImapInbox(IMAPConfig(host=LOOPBACK, port=port, security=security, username=GM,
                                         password=SECRET, **settings), timeout=3)
            try:
                await inbox.connect()
            except ImapError as err:
                return err, heard
            finally:
                await inbox.close()
        raise AssertionError("connect should have failed")

    return asyncio.run(scenario())


def test_starttls_where_the_server_offers_none_is_a_settings_error():
    refused, heard = scripted_refusal("IMAP4rev1 AUTH=PLAIN", "starttls")
    assert isinstance(refused, ImapSettingsError)
    assert "offers no STARTTLS" in str(refused) and "imap.security" in str(refused)
    assert not any("LOGIN" in line for line in heard)


def test_login_disabled_without_tls_is_a_settings_error_and_the_password_stays_home():
    refused, heard = scripted_refusal("IMAP4rev1 STARTTLS LOGINDISABLED", "none")
    assert isinstance(refused, ImapSettingsError)
    assert "disables LOGIN" in str(refused) and "imap.security: starttls" in str(refused)
    assert not any("LOGIN" in line.split(" ", 2)[1:2] for line in heard)
    assert not any(SECRET in line for line in heard)


def test_a_port_that_never_greets_nor_speaks_tls_is_a_temporary_error_naming_ssl():
    # Only the timeout can tell here (3 s in this test), and a silent server may be a server in
    # trouble: a plain ImapError, whose words still point at imap.security: ssl.
    started = time.monotonic()
    refused, _ = scripted_refusal("", "none", server={"silent": True})
    assert type(refused) is ImapError
    assert "no greeting within 3 s" in str(refused) and "imap.security: ssl" in str(refused)
    assert time.monotonic() - started < 6


# --- the processed folder ----------------------------------------------------------------------

@pytest.mark.parametrize("folder", ["pbem-processed", "pbem done"])
def test_the_processed_folder_is_created_once_and_not_again(fresh_stack, monkeypatch, folder):
    created: list[str] = []
    real_create = aioimaplib.IMAP4.create

    async def counting_create(self, name):
        created.append(name)
        return await real_create(self, name)

    monkeypatch.setattr(aioimaplib.IMAP4, "create", counting_create)
    for _ in range(3):
        connect(imap_config(fresh_stack, processed_mailbox=folder))
    assert created == [f'"{folder}"']
    assert sorted(Mailbox(fresh_stack, GM, password(GM)).folders()) == ["INBOX", folder]


def refuse_create_and_miss_the_first_list(monkeypatch) -> list[str]:
    """A server whose first LIST misses the folder and whose CREATE says NO without
    [ALREADYEXISTS]; later LISTs are the real ones."""
    listed: list[str] = []
    real_list = aioimaplib.IMAP4.list

    async def list_missing_once(self, reference, pattern):
        listed.append(pattern)
        response = await real_list(self, reference, pattern)
        return aioimaplib.Response("OK", response.lines[-1:]) if len(listed) == 1 else response

    async def create_refused(self, name):
        return aioimaplib.Response("NO", [b"Mailbox exists, or so."])

    monkeypatch.setattr(aioimaplib.IMAP4, "list", list_missing_once)
    monkeypatch.setattr(aioimaplib.IMAP4, "create", create_refused)
    return listed


def test_a_refused_create_of_a_folder_that_exists_does_not_fail_the_connect(fresh_stack, monkeypatch):
    subprocess.run([find_program("doveadm"), "-c", str(fresh_stack.conf), "mailbox", "create", "-u", GM,
                    "pbem-processed"], check=True, capture_output=True, timeout=30)
    listed = refuse_create_and_miss_the_first_list(monkeypatch)
    connect(imap_config(fresh_stack))
    assert listed == ['"pbem-processed"'] * 2


def test_a_refused_create_of_a_missing_folder_is_a_settings_error(fresh_stack, monkeypatch):
    refuse_create_and_miss_the_first_list(monkeypatch)
    text, _ = refusal(imap_config(fresh_stack))
    assert "'pbem-processed'" in text and "imap.processed_mailbox" in text


# --- heartbeat ---------------------------------------------------------------------------------

def imap_pids(stack, user: str) -> list[int]:
    out = subprocess.run([find_program("doveadm"), "-c", str(stack.conf), "-f", "tab", "who", "-1", user],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return [int(row.split("\t")[2]) for row in out.splitlines()[1:] if row.count("\t") >= 3]


def test_a_frozen_server_is_noticed_within_a_minute(fresh_stack):
    # SIGSTOP the imap process serving us: the kernel keeps the TCP connection up, so only
    # silence tells. The IDLE slice ends, DONE goes unanswered, and the wait must fail long
    # before its 300 s.
    frozen: list[int] = []

    async def scenario():
        inbox = ImapInbox(imap_config(fresh_stack), timeout=10)
        await inbox.connect()
        try:
            waiting = asyncio.ensure_future(inbox.wait_for_mail(300))
            await asyncio.sleep(0.5)  # IDLE is running
            assert not waiting.done()
            for pid in imap_pids(fresh_stack, GM):
                os.kill(pid, signal.SIGSTOP)
                frozen.append(pid)
            assert frozen
            started = time.monotonic()
            with pytest.raises(ImapError) as dead:
                await waiting
            return time.monotonic() - started, dead.value
        finally:
            await inbox.close()

    try:
        took, dead = asyncio.run(scenario())
    finally:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    assert took < 90, took
    assert type(dead) is ImapError and "no answer" in str(dead)
