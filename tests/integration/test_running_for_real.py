"""A GM's first hour over the real stack: wrong settings, outages and the queue, as `pbem`
commands meet them (each run as its own process, as cron and systemd run it)."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from integration.mailclient import Mailbox, password

GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
NOW = "2026-12-01T18:00:00Z"


def settings(stack, *, imap: dict | None = None, smtp: dict | None = None) -> dict:
    """A working configuration for the stack (TLS with the stack's CA, logins), with changes."""
    good_imap = {"host": "127.0.0.1", "port": stack.imap_port, "security": "none", "username": GM,
                 "password": password(GM), "poll_seconds": 1}
    good_smtp = {"host": "127.0.0.1", "port": stack.submission_port, "security": "starttls",
                 "cafile": str(stack.cafile), "username": GM, "password": password(GM), "retry_seconds": 1,
                 "timeout": 10}
    return {"imap": good_imap | (imap or {}), "smtp": good_smtp | (smtp or {})}


class Host:
    """A GM's folder for the stack. Every `pbem` it runs is given its clock: NOW unless told,
    or the host's own running clock (`now()`), which starts at NOW as the host is made; a
    daemon's clock runs on by itself (`PBEM_CLOCK=running`), so its deadlines come on time
    whatever the machine's date."""

    def __init__(self, stack, folder: Path, **changes):
        self.stack, self.folder = stack, folder
        self.configure(**changes)
        self.daemon: subprocess.Popen | None = None
        self.started = time.monotonic()

    def configure(self, **changes) -> None:
        conf = settings(self.stack, **changes)
        text = (f"gm:\n  address: {GM}\n  name: Golf GM\n  admins: [boss@example.test]\n"
                "store: ./pbem.sqlite3\ntransport: imap\ngames:\n  deadline: 48h\nlog:\n  file: pbem.log\n")
        for section, values in conf.items():
            text += f"{section}:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in values.items())
        (self.folder / "pbem.yaml").write_text(text)

    def moment(self) -> datetime:
        """The host's running clock: NOW when the host was made, and the time since then."""
        return datetime.fromisoformat(NOW) + timedelta(seconds=time.monotonic() - self.started)

    def now(self) -> str:
        return self.moment().astimezone(UTC).isoformat()

    def env(self, now: str = NOW, running: bool = False) -> dict:
        """The environment of a `pbem` process: its clock pinned at `now`, or starting there and
        running on."""
        env = dict(os.environ, PBEM_CONFIG=str(self.folder / "pbem.yaml"), PBEM_NOW=now)
        env.pop("PBEM_CLOCK", None)
        if running:
            env["PBEM_CLOCK"] = "running"
        return env

    def pbem(self, *args: str, now: str = NOW, running: bool = False,
             timeout: float = 90) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True,
                              cwd=self.folder, env=self.env(now, running), timeout=timeout)

    def new_match(self) -> subprocess.CompletedProcess:
        return self.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
                         "--course", "examples", "--id", "cup1")

    def outbox(self) -> list[dict]:
        return json.loads(self.pbem("outbox", "--json").stdout)


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert "Traceback" not in result.stderr, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


MISTAKES = {
    "smtp password": ({"smtp": {"password": "wrong-one"}}, "smtp.password"),
    "smtp none where STARTTLS is demanded": ({"smtp": {"security": "none"}}, "STARTTLS"),
    "smtp 530 at MAIL FROM": ({"smtp": {"security": "none", "username": "", "password": ""}}, "530"),
    "smtp starttls on an implicit-TLS port": ({"smtp": {"port": "smtps_port"}}, "security: ssl"),
    "smtp certificate": ({"smtp": {"cafile": None}}, "certificate verify failed"),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_smtp_mistake_gives_one_line_and_its_exit_code(fresh_stack, tmp_path, name):
    changes, words = MISTAKES[name]
    changes = {section: {k: getattr(fresh_stack, v) if isinstance(v, str) and v.endswith("_port") else v
                         for k, v in values.items()} for section, values in changes.items()}
    host = Host(fresh_stack, tmp_path, **changes)
    check = host.pbem("check")
    assert check.returncode == 78, check
    assert "imap: ok" in check.stdout and words in check.stdout and "Traceback" not in check.stderr
    made = host.new_match()
    assert made.returncode == 0 and made.stdout.strip() == "cup1"  # the game exists; its mail waits
    assert words in one_line(made) and "outbox" in one_line(made)
    assert {row["status"] for row in host.outbox()} == {"queued"} and len(host.outbox()) == 2
    process = host.pbem("process")
    assert process.returncode == 78 and words in one_line(process)
    run = host.pbem("run", running=True, timeout=60)
    assert run.returncode == 78 and words in run.stderr and "Traceback" not in run.stderr
    assert "wrong-one" not in check.stdout + made.stderr + process.stderr + run.stderr
    # Mended, the waiting mail goes at once.
    host.configure()
    assert host.pbem("process").returncode == 0
    assert host.outbox() == []
    assert Mailbox(fresh_stack, GEORGE, password(GEORGE)).count() == 1


def test_a_wrong_imap_password_is_a_settings_error_not_a_retry(fresh_stack, tmp_path):
    host = Host(fresh_stack, tmp_path, imap={"password": "wrong-one"})
    check = host.pbem("check")
    assert check.returncode == 78 and "imap" in check.stdout and "smtp: ok" in check.stdout
    assert "wrong-one" not in check.stdout + check.stderr
    process = host.pbem("process")
    assert process.returncode == 78 and "imap.password" in one_line(process)
    started = time.monotonic()
    run = host.pbem("run", running=True, timeout=60)
    assert run.returncode == 78 and time.monotonic() - started < 30  # stopped, not retried once a minute


def test_check_says_all_is_well(fresh_stack, tmp_path):
    check = Host(fresh_stack, tmp_path).pbem("check")
    assert check.returncode == 0, check
    assert "imap: ok" in check.stdout and "smtp: ok" in check.stdout and "all is well" in check.stdout


def test_check_tells_a_server_that_is_away(fresh_stack, tmp_path):
    fresh_stack.stop_smtp()
    try:
        check = Host(fresh_stack, tmp_path).pbem("check")
    finally:
        fresh_stack.start_smtp()
    assert check.returncode == 75 and "smtp:" in check.stdout and "refused" in check.stdout


def test_a_recipient_refusal_fails_one_mail_and_outbox_retry_sends_it_again(fresh_stack, tmp_path):
    host = Host(fresh_stack, tmp_path)
    made = host.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
                     "Newcomer <newcomer@example.test>", "--course", "examples", "--id", "cup1")
    assert made.returncode == 0
    rows = [r for r in host.outbox() if r["recipient"] != "boss@example.test"]  # the admin's report
    assert [(r["recipient"], r["status"]) for r in rows] == [("newcomer@example.test", "failed")]
    assert "550" in rows[0]["error"]
    listed = host.pbem("outbox").stdout
    assert f"{rows[0]['id']:<6} failed" in listed and "newcomer@example.test" in listed and "550" in listed
    assert Mailbox(fresh_stack, GEORGE, password(GEORGE)).count() == 1  # the other mail went
    fresh_stack.add_user("newcomer@example.test", password("newcomer@example.test"))
    retry = host.pbem("outbox", "retry", str(rows[0]["id"]))
    assert retry.returncode == 0 and "queued 1" in retry.stdout
    assert [r for r in host.outbox() if r["recipient"] != "boss@example.test"] == []
    assert Mailbox(fresh_stack, "newcomer@example.test", password("newcomer@example.test")).count() == 1


def test_with_imap_down_deadlines_pass_and_the_outbox_is_sent(fresh_stack, tmp_path):
    from integration.mailstack import free_ports
    host = Host(fresh_stack, tmp_path)
    assert host.new_match().returncode == 0
    # The IMAP server away (nothing listens on its port); SMTP, which delivers through Dovecot's
    # LMTP, still works.
    host.configure(imap={"port": free_ports(1)[0]})
    later = host.pbem("process", now="2026-12-03T19:00:00Z")  # past the 48 h deadline
    assert later.returncode == 75 and "unreachable" in one_line(later)
    shown = json.loads(host.pbem("show", "cup1", "--json", now="2026-12-03T19:00:00Z").stdout)
    assert shown["turn"] == 2  # the deadline played the turn
    assert host.outbox() == []  # and its reports went out over SMTP
    kinds = [m["X-PBEM-Kind"] for m in Mailbox(fresh_stack, GEORGE, password(GEORGE)).messages()]
    assert kinds.count("report") == 1


def relay_id(message) -> int:
    """The number the test stack's SMTP server gave ``message`` as it took it (its Received id)."""
    found = re.search(r" id (\d+);", " ".join(message.get_all("Received")))
    assert found, message.get_all("Received")
    return int(found.group(1))


def test_after_an_smtp_outage_the_daemon_sends_everything_oldest_first(fresh_stack, tmp_path):
    host = Host(fresh_stack, tmp_path, smtp={"port": fresh_stack.smtp_port, "security": "none",
                                             "username": "", "password": ""})
    fresh_stack.stop_smtp()
    log = open(tmp_path / "daemon.log", "w")
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=tmp_path,
                              env=host.env(host.now(), running=True), stdout=log, stderr=subprocess.STDOUT)
    try:
        for game in ("g1", "g2", "g3"):  # mail queued while the server is away, a few seconds apart
            made = host.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
                             f"Bill <{BILL}>", "--course", "examples", "--id", game, now=host.now())
            assert made.returncode == 0
            time.sleep(1)
        time.sleep(4)  # the daemon has tried and backed off meanwhile
        fresh_stack.start_smtp()
        back = time.monotonic()
        box = Mailbox(fresh_stack, GEORGE, password(GEORGE))
        box.wait_for(lambda _m: box.count() >= 3, timeout=30)
        drained = time.monotonic() - back
        # In the order the SMTP server took them (its Received id): the mailbox's UIDs need not
        # follow it, as a Maildir save that waits for its lock gets its UID later.
        taken = sorted(box.messages(), key=relay_id)
        subjects = [m["Subject"] for m in taken]
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
        log.close()
    assert drained < 20, (drained, (tmp_path / "daemon.log").read_text())
    # (On a failure the GM's log says in which order the daemon sent what, and what it met.)
    assert [s.split("]")[0] for s in subjects] == ["[g1", "[g2", "[g3"], (subjects, (tmp_path / "pbem.log").read_text())


def dsn(original_id: str, recipient: str, n: int) -> bytes:
    return (f"From: MAILER-DAEMON@mx.example.test (Mail Delivery System)\r\nTo: {GM}\r\n"
            f"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn{n}@mx.example.test>\r\n"
            "Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
            f"--b\r\nContent-Type: text/plain\r\n\r\nYour message to {recipient} could not be delivered.\r\n"
            "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\n"
            f"Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n"
            f"Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: User unknown\r\n"
            f"--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Golf GM <{GM}>\r\nTo: {recipient}\r\n"
            f"Message-ID: {original_id}\r\nSubject: [cup1] Welcome\r\n\r\n--b--\r\n").encode()


def test_a_bounce_marks_the_mail_and_tells_the_admins_once(fresh_stack, tmp_path):
    import smtplib
    fresh_stack.add_user("boss@example.test", password("boss@example.test"))
    host = Host(fresh_stack, tmp_path)
    assert host.new_match().returncode == 0
    welcome = Mailbox(fresh_stack, BILL, password(BILL)).messages()[0]
    with smtplib.LMTP("127.0.0.1", fresh_stack.lmtp_port) as lmtp:
        for n in range(2):  # the report, and a second one for the same address
            lmtp.sendmail("", [GM], dsn(welcome["Message-ID"], BILL, n))
    assert host.pbem("process").returncode == 0
    bounced = json.loads(host.pbem("outbox", "--json").stdout)
    assert [(r["recipient"], r["status"], r["kind"]) for r in bounced] == [(BILL, "bounced", "welcome")]
    assert "User unknown" in bounced[0]["error"]
    boss = Mailbox(fresh_stack, "boss@example.test", password("boss@example.test")).messages()
    assert len(boss) == 1 and BILL in boss[0]["Subject"] and "REPLACE" in boss[0].get_content()
    shown = json.loads(host.pbem("show", "cup1", "--json").stdout)
    assert [p["bounced"] is not None for p in shown["players"]] == [False, True]
    assert "bounced" in host.pbem("show", "cup1").stdout
    # A bounce is never answered.
    assert Mailbox(fresh_stack, GM, password(GM)).count("INBOX") == 0


def test_the_daemon_keeps_one_smtp_connection_between_passes(fresh_stack, tmp_path, monkeypatch):
    """Two passes' mail over one STARTTLS+AUTH session: the second pays no new handshake."""
    import asyncio
    from pbem.app import App
    from pbem.config import load
    monkeypatch.setenv("PBEM_NOW", NOW)  # the in-process GM's clock, given
    monkeypatch.delenv("PBEM_CLOCK", raising=False)
    Host(fresh_stack, tmp_path)
    app = App.open(load(tmp_path / "pbem.yaml"))

    async def two_passes():
        from pbem.gm.courses import load_course
        sessions = []
        for game in ("k1", "k2"):
            app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], load_course("examples"),
                            game_id=game)
            delivery = await app.send_outbox_async(keep_open=True)
            assert delivery.sent == 2 and not delivery.deferred
            sessions.append(app._sender._smtp)
        connected = sessions[0] is not None and sessions[0].is_connected
        await app.close_sender()
        return sessions, connected

    try:
        sessions, connected = asyncio.run(two_passes())
    finally:
        app.close()
    assert connected and sessions[0] is sessions[1]
    assert Mailbox(fresh_stack, GEORGE, password(GEORGE)).count() == 2


def test_the_daemon_keeps_the_clock_while_imap_is_away(fresh_stack, tmp_path):
    from integration.mailstack import free_ports
    host = Host(fresh_stack, tmp_path)
    assert host.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
                     "--course", "examples", "--id", "cup1", now=host.now()).returncode == 0
    host.configure(imap={"port": free_ports(1)[0]})  # nothing listens there
    log = open(tmp_path / "daemon.log", "w")
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=tmp_path,
                              env=host.env(host.now(), running=True), stdout=log, stderr=subprocess.STDOUT)
    try:
        # The deadline a few seconds on, by the clock the daemon keeps; it passes while IMAP is away.
        soon = (host.moment() + timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert host.pbem("gm", "DEADLINE", "cup1", soon, now=host.now()).returncode == 0
        box = Mailbox(fresh_stack, GEORGE, password(GEORGE))
        box.wait_for(lambda _m: any(m["X-PBEM-Kind"] == "report" for m in box.messages()), timeout=40)
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=30)
        log.close()
    assert code == 0
    assert "IMAP" in (tmp_path / "pbem.log").read_text()
