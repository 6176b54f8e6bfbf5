"""`pbem check`: the configured servers tried with the configured settings, and what is wrong."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from pbem.app import App, BadSettings, imap_problem
from pbem.commands.common import open_app
from pbem.mail.imap import ImapError
from pbem.mail.smtp import SettingsError, TemporaryFailure

OK, CONFIG, TEMPFAIL = 0, 78, 75


@dataclass
class Findings:
    lines: list[str] = field(default_factory=list)
    code: int = OK

    def add(self, line: str, code: int = OK) -> None:
        self.lines.append(line)
        # A setting to mend outranks a server that is away: that is what the GM must do first.
        if code == CONFIG or (code == TEMPFAIL and self.code == OK):
            self.code = code


async def check(app: App) -> Findings:
    found = Findings()
    if not app.uses_imap:
        problem = app.local().problem()
        found.add(problem if problem else f"local: mail folder {app.config.local.maildir} is ready",
                  CONFIG if problem else OK)
        return found
    await _imap(app, found)
    await _smtp(app, found)
    return found


async def _imap(app: App, found: Findings) -> None:
    cfg = app.config.imap
    inbox = app.inbox()
    try:
        await inbox.connect()
        found.add(f"imap: ok: {cfg.host}:{cfg.port} ({cfg.security}), logged in as {cfg.username}, "
                  f"mailbox {cfg.mailbox}, IDLE {'yes' if inbox.has_idle else 'no'}")
    except ImapError as e:
        problem = imap_problem(e)
        found.add(f"imap: {e}", CONFIG if isinstance(problem, BadSettings) else TEMPFAIL)
    finally:
        await inbox.close()


async def _smtp(app: App, found: Findings) -> None:
    cfg = app.config.smtp
    outbox = app.sender()
    try:
        await outbox.probe()
        who = f", logged in as {cfg.username}" if cfg.username else ", no login"
        found.add(f"smtp: ok: {cfg.host}:{cfg.port} ({cfg.security}){who}")
    except SettingsError as e:
        found.add(f"smtp: {e}", CONFIG)
    except TemporaryFailure as e:
        found.add(f"smtp: {e}", TEMPFAIL)
    finally:
        await outbox.close()


def cmd_check(args) -> int:
    with open_app(args) as app:
        found = asyncio.run(check(app))
    for line in found.lines:
        print(line)
    if found.code == 0:
        print("all is well")
    return found.code
