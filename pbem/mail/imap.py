"""The IMAP inbound transport: the GM's mailbox on a real server, read with aioimaplib.

A thin adapter that moves bytes. A message stays in the mailbox, unflagged, until pbem has
committed it; only then does ``done`` file it away, so a crash in between means the message is
read again (and the store, keyed by Message-ID, knows it has seen it).

Two kinds of failure: ``ImapError`` is temporary (the server is away, slow or dropped us: try
again later); ``ImapSettingsError`` means the server refuses what the configuration says (the
password, the TLS mode, the certificate), so trying again cannot help until the GM mends it.
"""
from __future__ import annotations

import asyncio
import re
import ssl
from types import ModuleType
from collections.abc import Awaitable
from typing import Any

from pbem.errors import PbemError

_LITERAL_HEAD = re.compile(rb"^\d+ FETCH \(.*BODY\[\] \{\d+\}$")
_UID = re.compile(rb"\bUID (\d+)")
# aioimaplib hands LIST answers over without "* LIST ": `(\HasNoChildren) "/" name`.
_LIST_LINE = re.compile(rb'^\((?P<flags>[^)]*)\) (?:NIL|"(?:[^"\\]|\\.)*") (?P<name>.+)$')
_CODE = re.compile(r"^\[([A-Z-]+)")
# RFC 5530 codes that say "not now" rather than "not like this".
_TEMPORARY = frozenset({"UNAVAILABLE", "INUSE", "SERVERBUG", "LIMIT", "OVERQUOTA"})
# OpenSSL's reasons when the other side answered, but not in TLS (a plain greeting, say).
_NOT_TLS = frozenset({"WRONG_VERSION_NUMBER", "HTTP_REQUEST", "UNKNOWN_PROTOCOL",
                      "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"})
_NO_COMMON_TLS = frozenset({"UNSUPPORTED_PROTOCOL", "NO_PROTOCOLS_AVAILABLE", "NO_SHARED_CIPHER",
                            "TLSV1_ALERT_PROTOCOL_VERSION", "SSLV3_ALERT_HANDSHAKE_FAILURE"})

# RFC 2177 lets a client end IDLE and start it again at will. A slice this short, ended by DONE
# and a NOOP that must be answered, notices a silently dead connection (a NAT that forgot us, a
# frozen server) in well under a minute instead of after the whole wait.
IDLE_SLICE = 25.0
HEARTBEAT = 10.0          # a live server answers DONE or NOOP well within this
GREETING_PROBE = 2.0      # no greeting this long after connecting: does the port speak TLS?


class ImapError(PbemError):
    """The server could not be reached or dropped us; temporary by nature, so try again later."""


class ImapSettingsError(ImapError):
    """The server refuses the configured settings (login, TLS mode, certificate): retrying cannot
    help until they are mended. The message is one line naming the setting to change."""


def _aioimaplib() -> ModuleType:
    """aioimaplib, loaded on first use: a cron pass with the local transport never needs it, and
    it takes longer to load than all of pbem's mail modules."""
    import aioimaplib  # noqa: PLC0415 - start-up time, as said above

    return aioimaplib


def _quote(name: str) -> str:
    # Mailbox names go out as quoted strings, so that spaces and specials are safe.
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(response: Any) -> str:
    lines = [line for line in response.lines if isinstance(line, bytes)]
    return lines[-1].decode("utf-8", "replace").strip() if lines else response.result


def _code(response: Any) -> str:
    """The response code of a tagged answer (``AUTHENTICATIONFAILED``), or ''."""
    found = _CODE.match(_text(response))
    return found.group(1) if found else ""


def _reason(err: BaseException) -> str:
    if isinstance(err, ConnectionRefusedError):
        return "connection refused (is the server running, and is imap.port right?)"
    if isinstance(err, (TimeoutError, asyncio.TimeoutError)):
        return "timed out"
    if isinstance(err, ssl.SSLError):
        return f"TLS failed: {getattr(err, 'reason', None) or err}"
    detail = str(err).splitlines()[0] if str(err) else ""
    return f"{type(err).__name__}: {detail}" if detail else type(err).__name__


def _says_new_mail(lines: Any) -> bool:
    return any(isinstance(line, bytes) and line.endswith((b" EXISTS", b" RECENT")) for line in lines)


def _listed_names(lines: list) -> set[str]:
    """The selectable mailboxes in aioimaplib's LIST answer (a name may come as a literal)."""
    names = set()
    for index, line in enumerate(lines):
        found = _LIST_LINE.match(line) if isinstance(line, bytes) else None
        if not found or re.search(rb"\\(NonExistent|NoSelect)\b", found.group("flags"), re.I):
            continue
        name = found.group("name")
        if re.fullmatch(rb"\{\d+\}", name) and index + 1 < len(lines):
            name = bytes(lines[index + 1])
        elif name.startswith(b'"') and name.endswith(b'"') and len(name) > 1:
            name = re.sub(rb'\\(.)', rb"\1", name[1:-1])
        names.add(name.decode("utf-8", "replace"))
    return names


def _messages(lines: list) -> list[tuple[str, bytes]]:
    """(uid, raw) pairs out of aioimaplib's FETCH answer: a head line, the literal, a tail."""
    found = []
    for index, line in enumerate(lines[:-1]):
        if not isinstance(line, bytes) or not _LITERAL_HEAD.match(line):
            continue
        tail = lines[index + 2] if index + 2 < len(lines) else b""
        uid = _UID.search(line) or _UID.search(bytes(tail))
        if uid:
            found.append((uid.group(1).decode(), bytes(lines[index + 1])))
    return found


def _verify_problem(err: BaseException | None) -> ssl.SSLCertVerificationError | None:
    while err is not None and not isinstance(err, ssl.SSLCertVerificationError):
        err = err.__cause__ or err.__context__
    return err


async def _speaks_tls(host: str, port: int, limit: float) -> bool:
    """Whether ``host:port`` answers a TLS handshake (certificate unchecked: only asked to tell an
    implicit-TLS port from a server that is merely slow to greet)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port, ssl=context), limit)
    except ssl.SSLError as err:
        return "ALERT" in (err.reason or "")  # a TLS alert is TLS too
    except (TimeoutError, OSError):
        return False
    writer.transport.abort()
    return True


class ImapInbox:
    """The mailbox ``cfg.mailbox`` on ``cfg.host``; handled mail goes to ``cfg.processed_mailbox``."""

    def __init__(self, cfg: Any, timeout: float = 30):
        self.cfg = cfg
        self.timeout = timeout
        self._client: Any = None
        self._lost: asyncio.Future[Exception | None] | None = None  # made by `_open`
        self._stalled = False
        self._tls: ssl.SSLContext | None = None
        self._caps: frozenset[str] = frozenset()

    @property
    def has_idle(self) -> bool:
        return "IDLE" in self._caps

    async def connect(self) -> None:
        await self.close()
        try:
            await self._open()
            if self.cfg.security == "starttls":
                await self._starttls()
            await self._login()
            # The greeting lists only pre-login capabilities; MOVE and UIDPLUS come after LOGIN.
            await self._step("capability", self._client.protocol.capability())
            self._caps = self._server_caps()
            await self._ensure_mailbox(self.cfg.processed_mailbox)
            await self._expect_ok("select", self._client.select(_quote(self.cfg.mailbox)))
        except ImapError:
            await self.close()
            raise

    async def fetch_new(self) -> list[tuple[str, bytes]]:
        """Every message in the mailbox, lowest UID first, none of them flagged by reading."""
        response = await self._expect_ok(
            "fetch", self._connected().uid("fetch", "1:*", "(UID BODY.PEEK[])"))
        return sorted(_messages(response.lines), key=lambda message: int(message[0]))

    async def done(self, uid: str) -> None:
        """The message is committed: mark it read and file it in the processed mailbox."""
        client, target = self._connected(), _quote(self.cfg.processed_mailbox)
        # \Seen first, so that the copy (MOVE keeps flags too) arrives already read.
        await self._expect_ok("store", client.uid("store", uid, "+FLAGS.SILENT", r"(\Seen)"))
        if "MOVE" in self._caps:
            await self._expect_ok("move", client.uid("move", uid, target))
            return
        await self._expect_ok("copy", client.uid("copy", uid, target))
        await self._expect_ok("store", client.uid("store", uid, "+FLAGS.SILENT", r"(\Deleted)"))
        if "UIDPLUS" in self._caps:
            await self._expect_ok("expunge", client.uid("expunge", uid))
        else:
            # Without UIDPLUS this also expunges anything else flagged \Deleted in the mailbox.
            await self._expect_ok("expunge", client.expunge())

    async def wait_for_mail(self, timeout: float) -> None:
        """Return when new mail may have arrived, or after ``timeout`` seconds at the latest.

        Whatever the timeout, the server must answer something every IDLE_SLICE + HEARTBEAT
        seconds; a connection that stays silent longer raises ImapError."""
        client = self._connected()
        loop = asyncio.get_running_loop()
        idle = self.cfg.idle and self.has_idle
        deadline = loop.time() + max(0.0, timeout if idle else min(self.cfg.poll_seconds, timeout))
        _drain(client.protocol.idle_queue)  # leftovers of an earlier IDLE are not news
        while True:
            left = min(IDLE_SLICE, deadline - loop.time())
            if idle:
                # The server's answer to DONE proved it alive: no NOOP once the wait is over.
                if left <= 0 or await self._idle(left) or deadline - loop.time() <= 0:
                    return
            else:
                await self._pause(left)
            if await self._heartbeat() or deadline - loop.time() <= 0:
                return

    async def close(self) -> None:
        client, self._client, self._caps = self._client, None, frozenset()
        if client is None:
            return
        try:
            if client.protocol.transport is not None and not self._closed.done() and not self._stalled:
                await asyncio.wait_for(client.logout(), min(self.timeout, 5))
        except Exception:
            pass  # closing must never fail: the connection is dropped below either way
        finally:
            transport = client.protocol.transport
            if transport is not None:
                transport.close()
            connecting = getattr(client, "_client_task", None)
            if connecting is not None and not connecting.done():
                connecting.cancel()  # a connect that timed out is still trying in the background

    # --- connection ------------------------------------------------------------------------

    async def _open(self) -> None:
        aioimaplib = _aioimaplib()

        self._lost = asyncio.get_running_loop().create_future()
        self._stalled = False
        # Made before connecting, so that an unusable cafile is reported as what it is.
        self._tls = self._tls_context() if self.cfg.security != "none" else None
        try:
            if self.cfg.security == "ssl":
                self._client = aioimaplib.IMAP4_SSL(self.cfg.host, self.cfg.port, timeout=self.timeout,
                                                    ssl_context=self._tls)
            else:
                self._client = aioimaplib.IMAP4(self.cfg.host, self.cfg.port, timeout=self.timeout)
        except (OSError, ssl.SSLError) as err:
            raise self._failure("connect", err) from None
        # IMAP4_SSL takes no callback; the protocol calls this one as soon as the socket closes.
        self._client.protocol.conn_lost_cb = self._on_lost
        # The TCP connection (and, for ssl, the TLS handshake) first, then the greeting.
        await self._step("connect", self._client._client_task)
        await self._greeting()

    def _tls_context(self) -> ssl.SSLContext:
        cafile = self.cfg.cafile
        try:
            return ssl.create_default_context(cafile=str(cafile) if cafile else None)
        except (OSError, ssl.SSLError) as err:
            detail = getattr(err, "strerror", None) or getattr(err, "reason", None) or str(err)
            raise self._settings(f"TLS at {self._where}: imap.cafile {cafile} cannot be used: "
                                 f"{detail}") from None

    async def _greeting(self) -> None:
        """Wait for the server's first line. A plain client on an implicit-TLS port hears
        nothing at all; rather than wait out the timeout, ask the port whether it speaks TLS."""
        protocol = self._client.protocol
        hello = asyncio.ensure_future(self._step("connect", protocol.wait("AUTH|NONAUTH")))
        probe: asyncio.Future | None = None
        try:
            if self.cfg.security != "ssl":
                await asyncio.wait({hello}, timeout=min(GREETING_PROBE, self.timeout))
                if not hello.done():
                    probe = asyncio.ensure_future(
                        _speaks_tls(self.cfg.host, self.cfg.port, min(5.0, self.timeout)))
                    await asyncio.wait({hello, probe}, return_when=asyncio.FIRST_COMPLETED)
                    if not hello.done() and probe.result():
                        raise self._settings(
                            f"connect at {self._where}: no IMAP greeting, but the port answers TLS: "
                            "an implicit-TLS port (try imap.security: ssl)")
            await hello
        except ImapSettingsError:
            raise
        except ImapError as err:
            if not self._stalled or self.cfg.security == "ssl":
                raise  # refused, or closed by the server: not a question of TLS
            raise self._error("connect", f"no greeting within {self.timeout:g} s (if this port "
                                         "wants TLS from the first byte, try imap.security: ssl)") from err
        finally:
            for task in (hello, probe):
                if task is not None and not task.done():
                    task.cancel()

    async def _starttls(self) -> None:
        """Upgrade the plain connection before anything secret crosses it (RFC 3501 6.2.1)."""
        aioimaplib = _aioimaplib()

        protocol = self._client.protocol
        if "STARTTLS" not in self._server_caps():
            raise self._settings(f"TLS at {self._where}: the server offers no STARTTLS (try "
                                 "imap.security: ssl on its implicit-TLS port, or none)")
        response = await self._step("starttls", protocol.execute(
            aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)))
        if response.result != "OK":
            raise self._settings(f"TLS at {self._where}: STARTTLS refused: {response.result} "
                                 f"{_text(response)} (try imap.security: ssl or none)")
        if protocol.incomplete_line:
            # Bytes after the OK were sent in the clear yet would be read as if protected.
            raise self._error("starttls", "the server sent data before the TLS handshake")
        loop = asyncio.get_running_loop()
        context = self._tls or self._tls_context()  # made by `_open` for every mode but none
        protocol.transport = await self._step("TLS", loop.start_tls(
            protocol.transport, protocol, context, server_hostname=self.cfg.host))
        # What was said before TLS may have been changed in transit: forget it, ask again.
        protocol.capabilities = set()
        await self._step("capability", protocol.capability())

    async def _login(self) -> None:
        if "LOGINDISABLED" in self._server_caps():
            hint = ("try imap.security: starttls, or ssl on the implicit-TLS port"
                    if self.cfg.security == "none" else "even over TLS; pbem logs in with LOGIN only")
            raise self._settings(f"IMAP login at {self._where} refused: the server disables LOGIN ({hint})")
        response = await self._step("login", self._client.login(self.cfg.username, self.cfg.password))
        if response.result == "OK":
            return
        said, code = _text(response), _code(response)
        if code in _TEMPORARY:
            raise self._error("login", f"refused for now: {response.result} {said}")
        if code == "PRIVACYREQUIRED":
            why = "the server wants TLS first (try imap.security: starttls or ssl)"
        elif code == "EXPIRED":
            why = "the password has expired (imap.password)"
        else:
            why = "wrong username or password (imap.username, imap.password)"
        raise self._settings(f"IMAP login at {self._where} refused: {why}; the server said: "
                             f"{response.result} {said}")

    def _server_caps(self) -> frozenset[str]:
        return frozenset(c.upper() for c in self._client.protocol.capabilities)

    @property
    def _closed(self) -> asyncio.Future[Exception | None]:
        """Done once the connection is gone: the protocol's own word, made by `_open`."""
        if self._lost is None:
            raise ImapError("IMAP: not connected")
        return self._lost

    def _on_lost(self, exc: Exception | None) -> None:
        if self._lost is not None and not self._lost.done():
            self._lost.set_result(exc)

    def _connected(self) -> Any:
        if self._client is None:
            raise ImapError("IMAP: not connected")
        if self._stalled:
            raise self._error("connection", "dropped after the server stopped answering")
        if self._closed.done():
            raise self._error("connection", "closed by the server")
        return self._client

    @property
    def _where(self) -> str:
        return f"{self.cfg.host}:{self.cfg.port}"

    def _hide(self, text: str) -> str:
        if self.cfg.password:
            text = text.replace(self.cfg.password, "***")
        return " ".join(text.split())  # one line, whatever the server said

    def _error(self, what: str, reason: str) -> ImapError:
        return ImapError(self._hide(f"IMAP {what} at {self._where}: {reason}"))

    def _settings(self, text: str) -> ImapSettingsError:
        return ImapSettingsError(self._hide(text if text.startswith("IMAP ") else f"IMAP {text}"))

    def _failure(self, what: str, err: BaseException) -> ImapError:
        """What an exception means: settings to mend (certificate, TLS mode) or a passing fault."""
        verify = _verify_problem(err)
        if verify is not None:
            message = verify.verify_message or str(verify)
            if "hostname" in message.lower():
                hint = "imap.host must be a name the certificate carries"
            elif "expired" in message.lower():
                hint = "the server's certificate has expired: it must be renewed on the server"
            elif self.cfg.cafile:
                hint = f"imap.cafile {self.cfg.cafile} must hold the CA that signed the server's certificate"
            else:
                hint = "set imap.cafile to the CA that signed the server's certificate"
            return self._settings(f"TLS at {self._where}: certificate verify failed: {message} ({hint})")
        if isinstance(err, ssl.SSLError):
            reason = err.reason or ""
            if reason in _NOT_TLS and self.cfg.security == "ssl":
                return self._settings(f"TLS at {self._where}: the server did not speak TLS ({reason}; "
                                      "is this a plain port? try imap.security: starttls or none)")
            if reason in _NO_COMMON_TLS:
                return self._settings(f"TLS at {self._where}: no TLS version or cipher in common "
                                      f"with the server ({reason})")
        return self._error(what, _reason(err))

    async def _step(self, what: str, awaitable: Awaitable, limit: float | None = None) -> Any:
        """Await one command; a dropped connection or silence becomes an ImapError at once."""
        limit = limit or self.timeout
        task = asyncio.ensure_future(awaitable)
        try:
            done, _ = await asyncio.wait({task, self._closed}, timeout=limit,
                                         return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task in done:
            try:
                return task.result()
            except Exception as err:
                raise self._failure(what, err) from None
        task.cancel()
        if self._closed.done():
            raise self._error(what, "connection closed by the server")
        # After silence the protocol's state is unknown: this connection is done for.
        self._stalled = True
        transport = self._client.protocol.transport if self._client else None
        if transport is not None:
            transport.abort()
        raise self._error(what, f"no answer within {limit:g} s")

    async def _expect_ok(self, what: str, awaitable: Awaitable) -> Any:
        response = await self._step(what, awaitable)
        if response.result != "OK":
            raise self._error(what, f"refused: {response.result} {_text(response)}")
        return response

    async def _ensure_mailbox(self, name: str) -> None:
        if await self._has_mailbox(name):
            return
        created = await self._step("create", self._client.create(_quote(name)))
        if created.result == "OK" or _code(created) == "ALREADYEXISTS":
            return
        # Another pass may have made it since our LIST, and some servers refuse to CREATE an
        # existing folder without saying [ALREADYEXISTS]: look again before failing.
        if await self._has_mailbox(name):
            return
        said = f"{created.result} {_text(created)}"
        if _code(created) in _TEMPORARY:
            raise self._error("create", f"refused: {said}")
        raise self._settings(f"create at {self._where}: the server will not make the folder "
                             f"{name!r}: {said} (imap.processed_mailbox)")

    async def _has_mailbox(self, name: str) -> bool:
        listed = await self._expect_ok("list", self._client.list('""', _quote(name)))
        names = _listed_names(listed.lines[:-1])
        return name in names or (name.upper() == "INBOX" and "INBOX" in {n.upper() for n in names})

    # --- waiting -----------------------------------------------------------------------------

    async def _pause(self, seconds: float) -> None:
        """Sleep, but notice at once when the server closes the connection meanwhile."""
        if seconds > 0:
            await asyncio.wait({self._closed}, timeout=seconds)
        self._connected()

    async def _heartbeat(self) -> bool:
        """A NOOP that must be answered soon; True when its answer tells of new mail."""
        response = await self._step("noop", self._client.noop(), limit=HEARTBEAT)
        if response.result != "OK":
            raise self._error("noop", f"refused: {response.result} {_text(response)}")
        return _says_new_mail(response.lines)

    async def _idle(self, seconds: float) -> bool:
        """One IDLE of at most ``seconds``; True when the server told of new mail."""
        client = self._client
        idle = await self._step("idle", client.idle_start(timeout=seconds), limit=HEARTBEAT)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        news = False
        try:
            while not news:
                lines = await self._next_push(client, deadline - loop.time())
                if lines is None:
                    break
                news = _says_new_mail(lines)
        finally:
            if not self._closed.done() and not self._stalled:
                client.idle_done()
        response = await self._step("idle", idle, limit=HEARTBEAT)
        if response.result != "OK":
            raise self._error("idle", f"refused: {response.result} {_text(response)}")
        # Pushes that came in between our DONE and the server's OK are news all the same.
        return _drain(client.protocol.idle_queue) or news

    async def _next_push(self, client: Any, left: float) -> list | None:
        """The next batch of lines the server pushes during IDLE, or None once time is up."""
        aioimaplib = _aioimaplib()

        if left <= 0:
            return None
        push = asyncio.ensure_future(client.wait_server_push(left + 1))
        done, _ = await asyncio.wait({push, self._closed}, timeout=left,
                                     return_when=asyncio.FIRST_COMPLETED)
        if push not in done:
            push.cancel()
            if self._closed.done():
                raise self._error("idle", "connection closed by the server")
            return None
        try:
            lines = push.result()
        except TimeoutError:
            return None
        return None if lines == aioimaplib.STOP_WAIT_SERVER_PUSH else lines  # idle_start's own timer


def _drain(queue: asyncio.Queue) -> bool:
    """Empty the queue of IDLE pushes; True when one of them told of new mail."""
    news = False
    while not queue.empty():
        news = _says_new_mail(queue.get_nowait()) or news
    return news
