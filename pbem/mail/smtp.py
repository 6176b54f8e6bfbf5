"""The SMTP outbound transport: hands each outbox row to a mail server with aiosmtplib.

A thin adapter that moves bytes. What matters to the outbox is what to do next, so every failure
comes out as one of three: TemporaryFailure (the server is away or busy: keep the mail, try
later), PermanentFailure (this one recipient was refused: trying again will not help), or
SettingsError (the server refuses the configured settings: a wrong password, a TLS mode it does
not speak, a certificate that does not verify; no mail can go until the GM mends them).
"""
from __future__ import annotations

import asyncio
import ssl
from types import ModuleType
from typing import Any, TypeVar

from pbem.errors import PbemError

# A server that takes the connection but says nothing for this long is probably waiting for a
# TLS handshake (an implicit-TLS port): no real server is that slow to greet.
GREETING_SECONDS = 10.0
# A probe (`greets`) gives up sooner: it is asked again in a moment.
PROBE_SECONDS = 3.0


class TemporaryFailure(PbemError):
    """The server is away, busy or answered 4xx: keep the message and try again later."""


class PermanentFailure(PbemError):
    """The server answered 5xx for this recipient: trying again will not help."""


class SettingsError(PbemError):
    """The server refuses the configured settings; the message says what to change."""


def _aiosmtplib() -> ModuleType:
    """aiosmtplib, loaded on first use: a cron pass with the local transport never needs it, and
    it takes longer to load than all of pbem's mail modules."""
    import aiosmtplib  # noqa: PLC0415 - start-up time, as said above

    return aiosmtplib


def _code(err: Exception) -> int | None:
    recipients = getattr(err, "recipients", None)
    if isinstance(recipients, list) and recipients:  # SMTPRecipientsRefused: the first says why
        return getattr(recipients[0], "code", None)
    code = getattr(err, "code", None)
    return code if isinstance(code, int) else None


def _message(err: BaseException) -> str:
    recipients = getattr(err, "recipients", None)
    if isinstance(recipients, list) and recipients:
        err = recipients[0]
    if isinstance(err, ssl.SSLCertVerificationError):
        return f"certificate verify failed: {err.verify_message}"
    text = getattr(err, "message", None) or str(err) or type(err).__name__
    return " ".join(str(text).split())


_E = TypeVar("_E", bound=BaseException)


def _cause(err: BaseException | None, kind: type[_E]) -> _E | None:
    """The error of `kind` behind ``err`` (aiosmtplib wraps TLS errors), if there is one."""
    seen = 0
    while err is not None and seen < 5:
        if isinstance(err, kind):
            return err
        err, seen = err.__cause__ or err.__context__, seen + 1
    return None


class SmtpOutbox:
    """One connection to ``cfg.host``, opened on demand and reused for every message (and, in
    the daemon, kept open between passes; a connection the server dropped is opened again)."""

    def __init__(self, cfg: Any, envelope_from: str):
        self.cfg = cfg
        self.envelope_from = envelope_from
        self._smtp: Any = None

    @property
    def where(self) -> str:
        return f"{self.cfg.host}:{self.cfg.port}"

    async def connect(self) -> None:
        """Connected and logged in: an open connection is kept, a dropped one opened anew."""
        if self._smtp is not None and self._smtp.is_connected:
            return
        aiosmtplib = _aiosmtplib()

        await self.close()
        smtp = aiosmtplib.SMTP(hostname=self.cfg.host, port=self.cfg.port, timeout=self.cfg.timeout,
                               **self._tls_settings())
        try:
            await smtp.connect(timeout=min(self.cfg.timeout, GREETING_SECONDS))
            if self.cfg.username:
                await smtp.login(self.cfg.username, self.cfg.password)
        except Exception as err:
            smtp.close()
            raise await self._connect_failure(err) from None
        self._smtp = smtp

    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        """One message to one recipient. (`key` names the mail for transports that deduplicate;
        the SMTP server does that by itself.)"""
        aiosmtplib = _aiosmtplib()

        for attempt in (1, 2):
            await self.connect()
            try:
                await self._smtp.sendmail(self.envelope_from, [recipient], raw)
                return
            except aiosmtplib.SMTPServerDisconnected as err:
                # The server hung up on an idle connection: one fresh connection, then give up.
                await self.close()
                if attempt == 2:
                    raise self._failure("send", err, TemporaryFailure) from None
            except aiosmtplib.SMTPRecipientsRefused as err:
                # Only a refusal after RCPT TO is about this recipient alone.
                kind = PermanentFailure if self._is_5xx(err) else TemporaryFailure
                raise self._failure("send", err, kind) from None
            except aiosmtplib.SMTPSenderRefused as err:
                # Refused at MAIL FROM: the session, not the mail (530 "Must issue a STARTTLS
                # command first", 530 authentication required, a sender the server will not take).
                raise self._session_refusal(err) from None
            except aiosmtplib.SMTPDataError as err:  # the content of this one mail
                kind = PermanentFailure if self._is_5xx(err) else TemporaryFailure
                raise self._failure("send", err, kind) from None
            except ValueError as err:  # an address that cannot be written on the wire
                raise self._failure("send", err, PermanentFailure) from None
            except Exception as err:
                await self.close()
                raise self._failure("send", err, TemporaryFailure) from None

    async def probe(self) -> None:
        """Connect and log in, then MAIL FROM and RSET (no mail is sent): a server that takes
        the session but refuses to send (530 "Must issue a STARTTLS command first") says so."""
        aiosmtplib = _aiosmtplib()

        await self.connect()
        try:
            await self._smtp.mail(self.envelope_from)
            await self._smtp.rset()
        except aiosmtplib.SMTPResponseException as err:
            raise self._session_refusal(err) from None
        except Exception as err:
            raise self._failure("send", err, TemporaryFailure) from None

    async def greets(self) -> bool:
        """Whether the server is there and ready: it takes a connection and greets with 220
        (after the handshake, on an implicit-TLS port). No login, nothing sent but QUIT: cheap
        enough to ask every few seconds while mail waits for it."""
        context = self._context() if self.cfg.security == "ssl" else None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                self.cfg.host, self.cfg.port, ssl=context, server_hostname=self.cfg.host if context else None),
                PROBE_SECONDS)
        except (TimeoutError, OSError, ssl.SSLError):
            return False
        try:
            ready = (await asyncio.wait_for(reader.readline(), PROBE_SECONDS)).startswith(b"220")
            if ready:
                writer.write(b"QUIT\r\n")
                await asyncio.wait_for(writer.drain(), PROBE_SECONDS)
            return ready
        except (TimeoutError, OSError, ValueError):
            return False
        finally:
            writer.close()

    async def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        try:
            if smtp.is_connected:
                await smtp.quit(timeout=min(self.cfg.timeout, 5))
        except Exception:
            pass  # a QUIT that fails leaves nothing to undo
        finally:
            smtp.close()

    def _context(self) -> ssl.SSLContext:
        cafile = str(self.cfg.cafile) if self.cfg.cafile else None
        return ssl.create_default_context(cafile=cafile)

    def _tls_settings(self) -> dict:
        if self.cfg.security == "none":
            # start_tls=None would upgrade whenever offered; "none" means plain, as configured.
            return {"use_tls": False, "start_tls": False}
        if self.cfg.security == "ssl":
            return {"use_tls": True, "start_tls": False, "tls_context": self._context()}
        return {"use_tls": False, "start_tls": True, "tls_context": self._context()}

    @staticmethod
    def _is_5xx(err: Exception) -> bool:
        code = _code(err)
        return code is not None and 500 <= code < 600

    async def _connect_failure(self, err: Exception) -> Exception:
        """What a failed connect or login means: settings to mend, or a server away for now."""
        aiosmtplib = _aiosmtplib()

        security = self.cfg.security
        verify = _cause(err, ssl.SSLCertVerificationError)
        if verify is not None:
            hint = "set smtp.cafile to the CA that signed the server's certificate" \
                if "hostname" not in (verify.verify_message or "") else "smtp.host must be the name in the certificate"
            return self._settings("TLS", f"certificate verify failed: {verify.verify_message} ({hint})")
        if isinstance(err, aiosmtplib.SMTPAuthenticationError) or (
                isinstance(err, aiosmtplib.SMTPResponseException) and _code(err) in (530, 534, 535, 538)):
            if _code(err) == 530 or "starttls" in _message(err).lower():
                return self._settings("login", f"{_code(err)} {_message(err)} (the server wants TLS first: "
                                               "smtp.security: starttls or ssl)")
            return self._settings("login", f"refused: {_code(err)} {_message(err)} "
                                           "(check smtp.username and smtp.password)")
        if isinstance(err, aiosmtplib.SMTPException) and "STARTTLS" in str(err) and "not supported" in str(err):
            return self._settings("TLS", "the server offers no STARTTLS (smtp.security: ssl for an "
                                         "implicit-TLS port, or none)")
        if isinstance(err, aiosmtplib.SMTPException) and "AUTH" in str(err) and "not supported" in str(err):
            return self._settings("login", "the server offers no login here (without TLS it may hide it: "
                                           "smtp.security: starttls)")
        tls = _cause(err, ssl.SSLError)
        if tls is not None and security == "ssl":
            return self._settings("TLS", f"the server did not speak TLS ({tls.reason or tls}; is this a plain "
                                         "port? try smtp.security: starttls or none)")
        if isinstance(err, (aiosmtplib.SMTPConnectTimeoutError, aiosmtplib.SMTPTimeoutError,
                            asyncio.TimeoutError, TimeoutError)) and security != "ssl":
            if await self._speaks_tls():
                return self._settings("connect", "the port wants TLS from the start (an implicit-TLS "
                                                 "port): smtp.security: ssl")
        if "Errno 111" in str(err) or "Connect call failed" in str(err):
            return TemporaryFailure(f"SMTP connect via {self.where}: connection refused (is the server "
                                    "running, and is smtp.port right?)")
        if isinstance(err, aiosmtplib.SMTPConnectResponseError) and self._is_5xx(err):
            return self._settings("connect", f"the server refused us: {_code(err)} {_message(err)}")
        return self._failure("connect", err, TemporaryFailure)

    async def _speaks_tls(self) -> bool:
        """Whether the port answers a TLS handshake: a silent server that does is an
        implicit-TLS port, not a server away (checked only after a greeting never came)."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection(self.cfg.host, self.cfg.port, ssl=context), GREETING_SECONDS)
        except Exception:
            return False
        writer.close()
        return True

    def _session_refusal(self, err: Exception) -> Exception:
        code = _code(err)
        if code is not None and 500 <= code < 600:
            hint = " (the server wants TLS: smtp.security: starttls)" if "starttls" in _message(err).lower() \
                else " (the server wants a login: smtp.username and smtp.password)" if code == 530 \
                else f" (the server will not send as {self.envelope_from}: gm.address)"
            return self._settings("send", f"{code} {_message(err)}{hint}")
        return self._failure("send", err, TemporaryFailure)

    def _settings(self, what: str, reason: str) -> SettingsError:
        return SettingsError(self._hide(f"SMTP {what} at {self.where}: {reason}"))

    def _failure(self, what: str, err: Exception, kind: type) -> Exception:
        code = _code(err)
        reason = f"{code} {_message(err)}" if code and code > 0 else _message(err)
        return kind(self._hide(f"SMTP {what} via {self.where}: {reason}"))

    def _hide(self, text: str) -> str:
        return text.replace(self.cfg.password, "***") if self.cfg.password else text
