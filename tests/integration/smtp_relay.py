"""The test stack's SMTP server: takes mail on loopback and hands it to Dovecot over LMTP.

Run as its own process by ``mailstack.MailStack`` so that a test can stop and restart it, as a
real outage would. One port speaks plain SMTP (with STARTTLS and AUTH on offer), the other
implicit TLS. Nothing is queued: when Dovecot cannot take a message, the sender hears 451 and
keeps it, which is the behaviour pbem's outbox has to cope with.
"""
from __future__ import annotations

import argparse
import asyncio
import email.utils
import itertools
import signal
import smtplib
import ssl
from functools import partial
from pathlib import Path

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

LOOPBACK = "127.0.0.1"
ACCEPTED = itertools.count(1)  # the id in each Received line: the order this server took mail in


def read_users(path: Path) -> dict[str, str]:
    """address -> password, from Dovecot's passwd-file (``addr:{PLAIN}pw::::::``)."""
    users = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, rest = line.partition(":")
        secret = rest.split(":", 1)[0]
        if name and secret.startswith("{PLAIN}"):
            users[name.lower()] = secret[len("{PLAIN}"):]
    return users


def mailbox_of(address: str) -> str:
    """Whose mailbox ``address`` is: ``gm+secret@host`` is gm@host's, as on most real servers."""
    local, _, domain = address.lower().rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


class Authenticator:
    """Checks AUTH PLAIN/LOGIN against the users file, read anew so that added users count."""

    def __init__(self, users_file: Path):
        self.users_file = users_file

    def __call__(self, server, session, envelope, mechanism, auth_data) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", "replace").lower()
        password = auth_data.password.decode("utf-8", "replace")
        if read_users(self.users_file).get(login) != password:
            # handled=False makes aiosmtpd answer 535 itself; the default leaves the client hanging.
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, auth_data=login)


class LmtpHandler:
    """Accepts local users only and delivers each message to Dovecot's LMTP listener."""

    def __init__(self, users_file: Path, lmtp_port: int):
        self.users_file = users_file
        self.lmtp_port = lmtp_port

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if mailbox_of(address) not in read_users(self.users_file):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        loop = asyncio.get_running_loop()
        content = received_header(server, session) + envelope.content
        for recipient in envelope.rcpt_tos:
            answer = await loop.run_in_executor(
                None, partial(self.deliver, envelope.mail_from, recipient, content))
            if answer:
                return answer
        return "250 2.0.0 Delivered"

    def deliver(self, sender: str, recipient: str, content: bytes) -> str | None:
        """None when Dovecot took it, else the SMTP answer for the sender."""
        # One LMTP transaction per recipient: smtplib.LMTP reads a single DATA reply.
        try:
            with smtplib.LMTP(LOOPBACK, self.lmtp_port, local_hostname="localhost", timeout=10) as lmtp:
                lmtp.sendmail(sender, [recipient], content)
        except smtplib.SMTPRecipientsRefused as err:
            code, text = next(iter(err.recipients.values()))
            return f"{code} {text.decode('utf-8', 'replace')}"
        except smtplib.SMTPResponseException as err:
            return f"{err.smtp_code} {err.smtp_error.decode('utf-8', 'replace')}"
        except OSError:  # after the two above: smtplib's own errors are OSErrors too
            return "451 4.3.0 Mailbox server unavailable, try again later"
        return None


def received_header(server, session) -> bytes:
    """A trace line that says, as real servers do (RFC 3848), whether TLS and AUTH were used:
    the tests read it to know what the client really negotiated. Its id counts the messages
    this server process took, so a test can tell the order they came in, which the mailbox's
    UIDs do not promise (a Maildir save that waits for its lock gets its UID later)."""
    transport = server.transport
    tls = session.ssl is not None or (transport is not None
                                      and transport.get_extra_info("ssl_object") is not None)
    protocol = "ESMTP" + ("S" if tls else "") + ("A" if session.authenticated else "")
    user = f" (authenticated as {session.auth_data})" if session.authenticated else ""
    line = (f"Received: from {session.host_name} ([{session.peer[0]}]){user}\r\n"
            f"\tby localhost with {protocol} id {next(ACCEPTED):08d}; {email.utils.formatdate()}\r\n")
    return line.encode("utf-8")


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def smtp_factory(handler, authenticator, starttls: ssl.SSLContext | None, strict: bool = False):
    # The plain and implicit-TLS ports offer AUTH without TLS and never require it (loopback
    # only, like a submission port that trusts its own host). The strict one is a provider's
    # submission port: STARTTLS first ("530 Must issue a STARTTLS command first"), then AUTH.
    return lambda: SMTP(handler, hostname="localhost", tls_context=starttls, authenticator=authenticator,
                        auth_required=strict, auth_require_tls=strict, require_starttls=strict)


async def serve(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    users = Path(args.users)
    handler = LmtpHandler(users, args.lmtp_port)
    authenticator = Authenticator(users)
    context = tls_context(args.cert, args.key)
    plain = await loop.create_server(smtp_factory(handler, authenticator, context),
                                     LOOPBACK, args.port)
    implicit = await loop.create_server(smtp_factory(handler, authenticator, None),
                                        LOOPBACK, args.tls_port, ssl=context)
    servers = [plain, implicit]
    if args.submission_port:
        servers.append(await loop.create_server(smtp_factory(handler, authenticator, context, strict=True),
                                                LOOPBACK, args.submission_port))
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    for server in servers:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls-port", type=int, required=True)
    parser.add_argument("--lmtp-port", type=int, required=True)
    parser.add_argument("--submission-port", type=int, default=0)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--users", required=True)
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
