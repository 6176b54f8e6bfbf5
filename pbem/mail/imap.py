"""The IMAP inbound transport: the GM's mailbox on a real server, read with aioimaplib.

A thin adapter that moves bytes. A message stays in the mailbox, unflagged, until pbem has
committed it; only then does ``done`` file it away, so a crash in between means the message is
read again (and the store, keyed by Message-ID, knows it has seen it).
"""
from __future__ import annotations

import asyncio
import re
import ssl
from typing import Any, Awaitable

_LITERAL_HEAD = re.compile(rb"^\d+ FETCH \(.*BODY\[\] \{\d+\}$")
_UID = re.compile(rb"\bUID (\d+)")


class ImapError(Exception):
    """The server could not be reached or refused us; temporary by nature, so try again later."""


def _quote(name: str) -> str:
    # Mailbox names go out as quoted strings, so that spaces and specials are safe.
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(response: Any) -> str:
    lines = [line for line in response.lines if isinstance(line, bytes)]
    return lines[-1].decode("utf-8", "replace").strip() if lines else response.result


def _reason(err: BaseException) -> str:
    if isinstance(err, ConnectionRefusedError):
        return "connection refused"
    if isinstance(err, (TimeoutError, asyncio.TimeoutError)):
        return "timed out"
    if isinstance(err, ssl.SSLError):
        return f"TLS failed: {getattr(err, 'reason', None) or err}"
    detail = str(err).splitlines()[0] if str(err) else ""
    return f"{type(err).__name__}: {detail}" if detail else type(err).__name__


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


class ImapInbox:
    """The mailbox ``cfg.mailbox`` on ``cfg.host``; handled mail goes to ``cfg.processed_mailbox``."""

    def __init__(self, cfg: Any, timeout: float = 30):
        self.cfg = cfg
        self.timeout = timeout
        self._client: Any = None
        self._lost: asyncio.Future | None = None
        self._caps: frozenset[str] = frozenset()

    @property
    def has_idle(self) -> bool:
        return "IDLE" in self._caps

    async def connect(self) -> None:
        await self.close()
        try:
            await self._open()
            await self._expect_ok("login", self._client.login(self.cfg.username, self.cfg.password))
            # The greeting lists only pre-login capabilities; MOVE and UIDPLUS come after LOGIN.
            await self._step("capability", self._client.protocol.capability())
            self._caps = frozenset(c.upper() for c in self._client.protocol.capabilities)
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
        """Return when new mail may have arrived, or after ``timeout`` seconds at the latest."""
        self._connected()
        if self.cfg.idle and self.has_idle:
            await self._idle(timeout)
            return
        await asyncio.sleep(max(0.0, min(self.cfg.poll_seconds, timeout)))
        await self._expect_ok("noop", self._client.noop())

    async def close(self) -> None:
        client, self._client, self._caps = self._client, None, frozenset()
        if client is None:
            return
        try:
            if client.protocol.transport is not None and not self._lost.done():
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
        import aioimaplib  # here, not at the top: a cron pass with the local transport never needs it

        self._lost = asyncio.get_running_loop().create_future()
        try:
            if self.cfg.security == "ssl":
                cafile = str(self.cfg.cafile) if self.cfg.cafile else None
                context = ssl.create_default_context(cafile=cafile)
                self._client = aioimaplib.IMAP4_SSL(self.cfg.host, self.cfg.port, timeout=self.timeout,
                                                    ssl_context=context)
            else:
                self._client = aioimaplib.IMAP4(self.cfg.host, self.cfg.port, timeout=self.timeout)
        except (OSError, ssl.SSLError) as err:
            raise self._error("connect", _reason(err)) from None
        # IMAP4_SSL takes no callback; the protocol calls this one as soon as the socket closes.
        self._client.protocol.conn_lost_cb = self._on_lost
        await self._step("connect", self._client.wait_hello_from_server())

    def _on_lost(self, exc: Exception | None) -> None:
        if self._lost is not None and not self._lost.done():
            self._lost.set_result(exc)

    def _connected(self) -> Any:
        if self._client is None:
            raise ImapError("IMAP: not connected")
        if self._lost.done():
            raise self._error("connection", "closed by the server")
        return self._client

    def _error(self, what: str, reason: str) -> ImapError:
        if self.cfg.password:
            reason = reason.replace(self.cfg.password, "***")
        return ImapError(f"IMAP {what} at {self.cfg.host}:{self.cfg.port}: {reason}")

    async def _step(self, what: str, awaitable: Awaitable, limit: float | None = None) -> Any:
        """Await one command; a dropped connection or silence becomes an ImapError at once."""
        task = asyncio.ensure_future(awaitable)
        try:
            done, _ = await asyncio.wait({task, self._lost}, timeout=limit or self.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task in done:
            try:
                return task.result()
            except Exception as err:
                raise self._error(what, _reason(err)) from None
        task.cancel()
        if self._lost.done():
            raise self._error(what, "connection closed by the server")
        raise self._error(what, f"no answer within {limit or self.timeout:g} s")

    async def _expect_ok(self, what: str, awaitable: Awaitable) -> Any:
        response = await self._step(what, awaitable)
        if response.result != "OK":
            raise self._error(what, f"refused: {response.result} {_text(response)}")
        return response

    async def _ensure_mailbox(self, name: str) -> None:
        listed = await self._expect_ok("list", self._client.list('""', _quote(name)))
        if any(isinstance(line, bytes) and line.startswith(b"LIST ") for line in listed.lines[:-1]):
            return
        created = await self._step("create", self._client.create(_quote(name)))
        # Another pass may have created it between our LIST and CREATE.
        if created.result != "OK" and b"ALREADYEXISTS" not in b" ".join(created.lines):
            raise self._error("create", f"refused: {created.result} {_text(created)}")

    # --- IDLE ------------------------------------------------------------------------------

    async def _idle(self, timeout: float) -> None:
        client = self._client
        _drain(client.protocol.idle_queue)  # leftovers of an earlier IDLE are not news
        idle = await self._step("idle", client.idle_start(timeout=timeout))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while await self._push_is_noise(client, deadline - loop.time()):
                pass
        finally:
            if not self._lost.done():
                client.idle_done()
        response = await self._step("idle", idle)
        if response.result != "OK":
            raise self._error("idle", f"refused: {response.result} {_text(response)}")

    async def _push_is_noise(self, client: Any, left: float) -> bool:
        """Wait for one push; True when it says nothing about new mail and time is left."""
        if left <= 0:
            return False
        push = asyncio.ensure_future(client.wait_server_push(left + 1))
        done, _ = await asyncio.wait({push, self._lost}, timeout=left,
                                     return_when=asyncio.FIRST_COMPLETED)
        if push not in done:
            push.cancel()
            if self._lost.done():
                raise self._error("idle", "connection closed by the server")
            return False
        try:
            lines = push.result()
        except (TimeoutError, asyncio.TimeoutError):
            return False
        import aioimaplib

        if lines == aioimaplib.STOP_WAIT_SERVER_PUSH:  # idle_start's own timer ran out
            return False
        return not any(isinstance(line, bytes) and line.endswith((b" EXISTS", b" RECENT"))
                       for line in lines)


def _drain(queue: asyncio.Queue) -> None:
    while not queue.empty():
        queue.get_nowait()
