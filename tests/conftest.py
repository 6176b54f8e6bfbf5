"""Shared fixtures: a GM with the local transport in a temp folder, driven through the CLI."""
from __future__ import annotations

import contextlib
import email
import email.policy
import email.utils
import io
import json
import mailbox
import os
import subprocess
import sys
import uuid
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem import cli

GEORGE, BILL = "george@example.test", "bill@example.test"
GM = "gm@example.test"
EXAMPLE_COURSE = "445 345 434 543 434 454"
TABLE_NOW = "2026-12-01T18:00:00Z"  # a LocalTable's clock until a test moves it: never the machine's
CHROMIUM = "/usr/bin/chromium"  # Debian's, which scripts/test.sh installs

# -- the tiers: `pytest -m "not slow"` is the fast loop ------------------------------------------
# A test that talks to a real server or a real browser is marked here, in one place, by where it
# stands or what it asks for, so a new one cannot forget it; such a test is slow too. Other slow
# tests carry `@pytest.mark.slow` (or a module's `pytestmark`) where they stand.
INTEGRATION_FOLDER = Path(__file__).with_name("integration")
INTEGRATION_FIXTURES = {"mailstack", "fresh_stack", "chromium"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        if (INTEGRATION_FOLDER in item.path.parents
                or INTEGRATION_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.integration)
            item.add_marker(pytest.mark.slow)


class LocalTable:
    """One GM in a fresh folder: players drop files into its Maildir, `pbem` runs in-process."""

    def __init__(self, root: Path, monkeypatch, external: bool = False):
        self.external = external  # run `python -m pbem` as its own process, as cron would
        self.root = root
        self.monkeypatch = monkeypatch
        (root / "pbem.yaml").write_text(
            f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\ntransport: local\n"
            "local:\n  maildir: ./mail\n")
        monkeypatch.setenv("PBEM_CONFIG", str(root / "pbem.yaml"))
        monkeypatch.setenv("PBEM_NOW", TABLE_NOW)  # every pbem it runs has a given clock
        monkeypatch.delenv("PBEM_CLOCK", raising=False)
        self.read: dict[str, int] = {}

    def pbem(self, *args: str, now: str | None = None, check: bool = True, stdin: bytes | None = None):
        if now:
            self.monkeypatch.setenv("PBEM_NOW", now)
        if self.external:
            r = subprocess.run([sys.executable, "-m", "pbem", *args], input=stdin, capture_output=True,
                               cwd=self.root, env=dict(os.environ), timeout=120)
            if check and r.returncode != 0:
                raise AssertionError(f"pbem {args} -> {r.returncode}\n{r.stdout!r}\n{r.stderr!r}")
            return r.returncode, r.stdout.decode(), r.stderr.decode()
        out, err = io.StringIO(), io.StringIO()
        if stdin is not None:
            self.monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(list(args))
            except SystemExit as e:
                code = e.code
        if check and code != 0:
            raise AssertionError(f"pbem {args} -> {code}\n{out.getvalue()}\n{err.getvalue()}")
        return code, out.getvalue(), err.getvalue()

    def new_match(self, game_id: str = "m1", course: str = EXAMPLE_COURSE, *extra: str) -> str:
        _, out, _ = self.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>",
                              "--player", f"Bill <{BILL}>", "--course", course, "--id", game_id, *extra)
        return out.strip()

    def new_cup(self, players: dict[str, str], now: str = "2026-12-06T10:00:00Z") -> None:
        """The league `cup` (Winter Cup): MatchPlay on parkland, round-robin of `players` (name:
        address), rounds of 7 days from 2026-12-07 18:00 UTC, 48h deadlines; created at `now`."""
        path = self.root / "league.yaml"
        path.write_text("id: cup\nname: Winter Cup\ngame: matchplay\ncourse: parkland\nplayers:\n"
                        + "".join(f"  - {name} <{address}>\n" for name, address in players.items())
                        + "start: 2026-12-07T18:00:00Z\nround_length: 7d\ndeadline: 48h\nformat: round-robin\n")
        self.pbem("league", "create", str(path), now=now)

    def send(self, sender: str, body: str = "", subject: str = "orders", to: str = GM,
             headers: dict | None = None, raw: bytes | None = None, message_id: str | None = None) -> str:
        if raw is None:
            msg = EmailMessage()
            msg["From"] = sender
            msg["To"] = to
            msg["Subject"] = subject
            msg["Date"] = email.utils.formatdate()
            msg["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@player.test>"
            for k, v in (headers or {}).items():
                msg[k] = v
            msg.set_content(body)
            raw = msg.as_bytes()
        (self.root / "mail").mkdir(exist_ok=True)
        box = mailbox.Maildir(str(self.root / "mail" / GM), factory=None, create=True)
        box.add(raw)
        box.close()
        return raw.decode("utf-8", "replace")

    def mails(self, addr: str, start: int = 0) -> list[EmailMessage]:
        """The GM's mail to `addr`, oldest first; from the `start`-th on (only those are parsed)."""
        folder = self.root / "mail" / addr
        files = [p for sub in ("new", "cur") if (folder / sub).is_dir() for p in (folder / sub).iterdir()]
        files.sort(key=lambda p: (p.stat().st_mtime_ns, p.name))
        return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in files[start:]]

    def new_mails(self, addr: str) -> list[EmailMessage]:
        start = self.read.get(addr, 0)
        fresh = self.mails(addr, start)
        self.read[addr] = start + len(fresh)
        return fresh

    def secret(self, addr: str) -> str:
        for m in self.mails(addr):
            local = email.utils.parseaddr(m.get("Reply-To", ""))[1].split("@")[0]
            if "+" in local:
                return local.split("+", 1)[1]
        raise AssertionError(f"no secret for {addr}")

    def reply_to(self, addr: str) -> str:
        return email.utils.parseaddr(self.mails(addr)[0]["Reply-To"])[1]

    def reply_to_game(self, addr: str, game_id: str) -> str:
        """The reply address (with the seat's secret) of `addr`'s mail about `game_id`."""
        mail = next(m for m in self.mails(addr) if m["X-PBEM-Game"] == game_id)
        return email.utils.parseaddr(mail["Reply-To"])[1]

    def order(self, sender: str, body: str, game: str = "m1", now: str | None = None) -> list[EmailMessage]:
        """Send orders the way a mail client's Reply does, run one pass, return the sender's new mail."""
        self.new_mails(sender)
        self.send(sender, body, subject=f"Re: [{game}] your turn", to=self.reply_to(sender))
        self.pbem("process", now=now)
        return self.new_mails(sender)

    def show(self, game: str = "m1") -> dict:
        return json.loads(self.pbem("show", game, "--json")[1])

    def load(self, game_id: str = "m1"):
        """The game as the GM keeps it (its engine state, seats and row), read from the store."""
        from pbem.gm import games
        from pbem.store import Store
        store = Store(self.root / "pbem.sqlite3")
        try:
            return games.load(store, game_id)
        finally:
            store.close()


def body(m: EmailMessage) -> str:
    """The text part, line by line as the GM wrote it: a flowed part (RFC 3676) without the marks
    of the format, which a reader takes off (a soft break's space, a space stuffed in front)."""
    part = m.get_body(preferencelist=("plain",)) if m.is_multipart() else m
    return as_written(part.get_content(), part.get_param("format") == "flowed")


def as_written(text: str, flowed: bool) -> str:
    if not flowed:
        return text
    return "\n".join((line[1:] if line.startswith(" ") else line).rstrip(" ") for line in text.split("\n"))


def too_wide(text: str, width: int = 78) -> list[str]:
    """The lines of a mail's text wider than `width`, but for the two the contract gives whole:
    `Seed commitment: <64 hex digits>` (81 columns, CONTRACT section 11) and the `Result: ` line
    (one line whatever the names: three long names sharing a win cannot fit 78 columns)."""
    return [line for line in text.splitlines()
            if len(line) > width and not line.startswith(("Seed commitment: ", "Result: "))]


def follow(table, who: str, target: str) -> str:
    """OBSERVE, and the question it gets answered from the same address, as a spectator does:
    the reply address of the acknowledgement (the spectator's token), as all their mail has it."""
    table.new_mails(who)
    table.send(who, f"OBSERVE {target}", subject="watching")
    table.pbem("process")
    question, = table.new_mails(who)
    table.send(who, "", subject=f"Re: {question['Subject']}", to=email.utils.parseaddr(question["Reply-To"])[1],
               headers={"In-Reply-To": question["Message-ID"]})
    table.pbem("process")
    ack, = table.new_mails(who)
    assert ack["X-PBEM-Kind"] == "ack"
    return email.utils.parseaddr(ack["Reply-To"])[1]


def kinds(msgs) -> list[str]:
    return [m["X-PBEM-Kind"] for m in msgs]


class MailClock:
    """PBEM_NOW moving on 150 s a mail (under the hourly limit of answers), from `start`."""

    def __init__(self, start: datetime = datetime(2026, 12, 1, 10, 0)):
        self.at = start

    def tick(self) -> str:
        self.at += timedelta(seconds=150)
        return self.at.strftime("%Y-%m-%dT%H:%M:%SZ")


def verified(table: LocalTable, game: str) -> str:
    """`pbem verify` of the record `pbem export` writes of `game`: what it says (it must pass)."""
    _, record, _ = table.pbem("export", game)
    (table.root / f"{game}.json").write_text(record)
    code, out, _ = table.pbem("verify", str(table.root / f"{game}.json"), check=False)
    assert code == 0, out
    return out


@pytest.fixture
def table(tmp_path, monkeypatch) -> LocalTable:
    monkeypatch.chdir(tmp_path)
    return LocalTable(tmp_path, monkeypatch)


@pytest.fixture
def chromium() -> str:
    """Headless Chromium's program, for tests of what a browser shows; missing is a failure."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium")
    return CHROMIUM


@pytest.fixture
def cron_table(tmp_path, monkeypatch) -> LocalTable:
    """Every `pbem` command a separate process."""
    monkeypatch.chdir(tmp_path)
    return LocalTable(tmp_path, monkeypatch, external=True)
