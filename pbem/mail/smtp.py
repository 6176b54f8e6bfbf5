"""The SMTP outbound transport: hands each outbox row to a mail server with aiosmtplib.

A thin adapter that moves bytes. What matters to the outbox is only whether to try the same
message again later: every failure comes out as TemporaryFailure or PermanentFailure.
"""
from __future__ import annotations

import ssl
from typing import Any


class TemporaryFailure(Exception):
    """The server is away, busy or answered 4xx: keep the message and try again later."""


class PermanentFailure(Exception):
    """The server answered 5xx for this message: trying again will not help."""


def _code(err: Exception) -> int | None:
    recipients = getattr(err, "recipients", None)
    if isinstance(recipients, list) and recipients:  # SMTPRecipientsRefused: the first says why
        return getattr(recipients[0], "code", None)
    code = getattr(err, "code", None)
    return code if isinstance(code, int) else None


def _message(err: Exception) -> str:
    recipients = getattr(err, "recipients", None)
    if isinstance(recipients, list) and recipients:
        err = recipients[0]
    text = getattr(err, "message", None) or str(err) or type(err).__name__
    return " ".join(str(text).split())


class SmtpOutbox:
    """One connection to ``cfg.host``, opened on demand and reused for every message of a pass."""

    def __init__(self, cfg: Any, envelope_from: str):
        self.cfg = cfg
        self.envelope_from = envelope_from
        self._smtp: Any = None

    async def connect(self) -> None:
        import aiosmtplib  # here, not at the top: a cron pass with the local transport never needs it

        await self.close()
        smtp = aiosmtplib.SMTP(hostname=self.cfg.host, port=self.cfg.port, timeout=self.cfg.timeout,
                               **self._tls_settings())
        try:
            await smtp.connect()
            if self.cfg.username:
                await smtp.login(self.cfg.username, self.cfg.password)
        except Exception as err:
            smtp.close()
            raise self._failure("connect", err, permanent=self._auth_refused(err)) from None
        self._smtp = smtp

    async def send(self, recipient: str, raw: bytes, key: str | None = None) -> None:
        """One message to one recipient; raises TemporaryFailure or PermanentFailure. (`key`
        names the mail for transports that deduplicate; the SMTP server does that by itself.)"""
        import aiosmtplib

        for attempt in (1, 2):
            if self._smtp is None or not self._smtp.is_connected:
                await self.connect()
            try:
                await self._smtp.sendmail(self.envelope_from, [recipient], raw)
                return
            except aiosmtplib.SMTPServerDisconnected as err:
                # The server hung up on an idle connection: one fresh connection, then give up.
                await self.close()
                if attempt == 2:
                    raise self._failure("send", err, permanent=False) from None
            except aiosmtplib.SMTPNotSupported as err:
                raise self._failure("send", err, permanent=True) from None
            except ValueError as err:  # an address that cannot be written on the wire
                raise self._failure("send", err, permanent=True) from None
            except Exception as err:
                raise self._failure("send", err, permanent=self._is_5xx(err)) from None

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

    def _tls_settings(self) -> dict:
        if self.cfg.security == "none":
            # start_tls=None would upgrade whenever offered; "none" means plain, as configured.
            return {"use_tls": False, "start_tls": False}
        cafile = str(self.cfg.cafile) if self.cfg.cafile else None
        context = ssl.create_default_context(cafile=cafile)
        if self.cfg.security == "ssl":
            return {"use_tls": True, "start_tls": False, "tls_context": context}
        return {"use_tls": False, "start_tls": True, "tls_context": context}

    @staticmethod
    def _is_5xx(err: Exception) -> bool:
        code = _code(err)
        return code is not None and 500 <= code < 600

    def _auth_refused(self, err: Exception) -> bool:
        import aiosmtplib

        return isinstance(err, aiosmtplib.SMTPAuthenticationError) and self._is_5xx(err)

    def _failure(self, what: str, err: Exception, permanent: bool) -> Exception:
        code = _code(err)
        reason = f"{code} {_message(err)}" if code and code > 0 else _message(err)
        if self.cfg.password:
            reason = reason.replace(self.cfg.password, "***")
        kind = PermanentFailure if permanent else TemporaryFailure
        return kind(f"SMTP {what} via {self.cfg.host}:{self.cfg.port}: {reason}")
