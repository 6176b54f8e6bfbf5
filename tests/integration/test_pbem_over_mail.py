"""pbem against real servers: players send over SMTP and read their IMAP inboxes; the GM is
`pbem run` or `pbem process` with the imap transport. Nothing here is mocked."""
from __future__ import annotations

import email.message
import email.utils
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import as_written

from integration.mailclient import Mailbox, password, send

GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
NOW = "2026-12-01T18:00:00Z"
# The seed's second example, turn by turn: George ends up winning 4 and 3 after hole 15.
EXAMPLE_TWO = [("PLAY 4 4 5\nSPECIAL RED+1 HOLE 1", "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 3"),
               ("PLAY 3 4 5\nSPECIAL RED-1 HOLE 4", "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 6"),
               ("PLAY 4 3 4", "PLAY 5 4 4"),
               ("PLAY 4 4 3", "PLAY 5 4 3\nSPECIAL RED+1 HOLE 10"),
               ("PLAY 4 3 4\nSPECIAL BLUE+1 HOLE 13", "PLAY 4 4 4\nSPECIAL RED-1 HOLE 13")]


class GMHost:
    """A pbem install in a temp folder, configured for the stack's IMAP and SMTP."""

    def __init__(self, stack, folder: Path, now: str | None = NOW, **smtp_extra):
        self.stack, self.folder, self.now = stack, folder, now
        smtp = "".join(f"  {k}: {v}\n" for k, v in {"retry_seconds": 1, **smtp_extra}.items())
        (folder / "pbem.yaml").write_text(
            f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\ntransport: imap\n"
            f"imap:\n  host: 127.0.0.1\n  port: {stack.imap_port}\n  security: none\n"
            f"  username: {GM}\n  password: {password(GM)}\n  poll_seconds: 1\n"
            f"smtp:\n  host: 127.0.0.1\n  port: {stack.smtp_port}\n  security: none\n{smtp}"
            "games:\n  deadline: 48h\n")
        self.daemon: subprocess.Popen | None = None

    def env(self, **extra) -> dict:
        env = dict(os.environ, PBEM_CONFIG=str(self.folder / "pbem.yaml"))
        if self.now:
            env["PBEM_NOW"] = self.now
        env.update(extra)
        return env

    def pbem(self, *args: str, check: bool = True, **env) -> subprocess.CompletedProcess:
        r = subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True,
                           cwd=self.folder, env=self.env(**env), timeout=120)
        if check and r.returncode != 0:
            raise AssertionError(f"pbem {args}: {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r

    def new_match(self, game="cup1"):
        return self.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
                         f"Bill <{BILL}>", "--course", "examples", "--id", game,
                         # An open seed: two runs of one match write the same commitment.
                         "--seed", "1").stdout.strip()

    def start_daemon(self) -> None:
        self.log = open(self.folder / "daemon.log", "w")
        self.daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=self.folder, env=self.env(),
                                       stdout=self.log, stderr=subprocess.STDOUT)

    def stop_daemon(self) -> int:
        self.daemon.send_signal(signal.SIGTERM)
        code = self.daemon.wait(timeout=30)
        self.log.close()
        return code

    def daemon_log(self) -> str:
        return (self.folder / "daemon.log").read_text()


class Player:
    def __init__(self, stack, address: str):
        self.stack, self.address = stack, address
        self.box = Mailbox(stack, address, password(address))
        self.reply_to: str | None = None

    def mails(self):
        return self.box.messages()

    def kinds(self):
        return [m["X-PBEM-Kind"] for m in self.mails()]

    def wait_kind(self, kind: str, count: int = 1, timeout: float = 20):
        self.box.wait_for(lambda _m: self.kinds().count(kind) >= count, timeout=timeout)
        return [m for m in self.mails() if m["X-PBEM-Kind"] == kind][count - 1]

    def welcome(self):
        welcome = self.wait_kind("welcome")
        self.reply_to = email.utils.parseaddr(welcome["Reply-To"])[1]
        return welcome

    def order(self, text: str, game="cup1") -> None:
        send(self.stack, self.address, self.reply_to, f"Re: [{game}] orders", text)


def body(m) -> str:
    part = m.get_body(preferencelist=("plain",)) if m.is_multipart() else m
    return as_written(part.get_content(), part.get_param("format") == "flowed")


def gm_inbox_count(stack) -> int:
    return Mailbox(stack, GM, password(GM)).count("INBOX")


def wait_in_gm_inbox(stack, n: int, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while gm_inbox_count(stack) < n:
        assert time.monotonic() < end, f"the GM's inbox never held {n} message(s)"
        time.sleep(0.05)


def play_example_two(george: Player, bill: Player, after_each) -> None:
    for turn, (g, b) in enumerate(EXAMPLE_TWO, start=1):
        george.order(g)
        after_each()
        george.wait_kind("ack", turn)
        bill.order(b)
        after_each()
        for p in (george, bill):
            p.wait_kind("report", turn)


def normalised(player: Player) -> list[tuple[str, str]]:
    """The player's mail as (kind, body) with what differs between two installs taken out."""
    out = []
    for m in player.mails():
        text = re.sub(r"\b[0-9a-f]{16}\b", "<secret>", body(m))
        out.append((m["X-PBEM-Kind"], text))
    return out


def test_a_whole_match_with_the_daemon_and_the_same_mail_from_cron_passes(fresh_stack, tmp_path):
    daemon_dir, cron_dir = tmp_path / "daemon", tmp_path / "cron"
    daemon_dir.mkdir()
    cron_dir.mkdir()
    host = GMHost(fresh_stack, daemon_dir)
    host.start_daemon()
    try:
        assert host.new_match() == "cup1"
        george, bill = Player(fresh_stack, GEORGE), Player(fresh_stack, BILL)
        george.welcome()
        bill.welcome()
        play_example_two(george, bill, after_each=lambda: None)
        for p in (george, bill):
            result = p.wait_kind("result")
            assert "Result: George wins 4 and 3" in body(result)
            assert result["X-PBEM-Game"] == "cup1" and result["Auto-Submitted"] == "auto-generated"
    finally:
        assert host.stop_daemon() == 0
    assert "Result: George wins 4 and 3" == host.pbem("show", "cup1", "--json").stdout.split('"result": "')[1].split('"')[0]
    by_daemon = {p: normalised(Player(fresh_stack, p)) for p in (GEORGE, BILL)}
    processed = Mailbox(fresh_stack, GM, password(GM)).count("pbem-processed")
    assert processed == 10 and gm_inbox_count(fresh_stack) == 0

    fresh_stack.reset()
    cron = GMHost(fresh_stack, cron_dir)
    cron.new_match()
    george, bill = Player(fresh_stack, GEORGE), Player(fresh_stack, BILL)
    george.welcome()
    bill.welcome()
    received = [0]

    def one_pass():
        received[0] += 1
        wait_in_gm_inbox(fresh_stack, 1)
        cron.pbem("process")

    play_example_two(george, bill, after_each=one_pass)
    for p in (george, bill):
        p.wait_kind("result")
    by_cron = {p: normalised(Player(fresh_stack, p)) for p in (GEORGE, BILL)}
    assert by_cron == by_daemon


def test_the_daemon_reconnects_after_dovecot_restarts(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.start_daemon()
    try:
        host.new_match()
        george = Player(fresh_stack, GEORGE)
        george.welcome()
        fresh_stack.stop_dovecot()
        time.sleep(1.5)  # the daemon sees the drop and starts backing off
        fresh_stack.start_dovecot()
        george.order("PLAY 3 5 4")  # arrives after the restart, while the daemon reconnects
        ack = george.wait_kind("ack", timeout=60)
        assert "PLAY 3 5 4" in body(ack)
    finally:
        assert host.stop_daemon() == 0
    assert "IMAP connection lost" in host.daemon_log()


def test_mail_waits_in_the_outbox_while_smtp_is_down(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    fresh_stack.stop_smtp()
    deliver_directly(fresh_stack, GEORGE, george.reply_to, "PLAY 3 5 4")
    r = host.pbem("process")
    assert "1 waiting" in r.stdout
    assert george.kinds() == ["welcome"]
    fresh_stack.start_smtp()
    host.now = "2026-12-01T18:00:05Z"  # past the first retry time (1 s here)
    host.pbem("process")
    ack = george.wait_kind("ack")
    assert "PLAY 3 5 4" in body(ack)
    host.pbem("process")
    time.sleep(0.3)
    assert george.kinds() == ["welcome", "ack"]  # once, not twice


@pytest.mark.parametrize("point", ["fetched", "stored", "committed", "sending"])
def test_a_crash_at_any_point_loses_nothing_and_sends_nothing_twice(fresh_stack, tmp_path, point):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    george.order("PLAY 3 5 4")
    wait_in_gm_inbox(fresh_stack, 1)
    crashed = host.pbem("process", check=False, PBEM_CRASH_AT=point)
    assert crashed.returncode == -signal.SIGKILL
    host.pbem("process")
    ack = george.wait_kind("ack")
    assert "PLAY 3 5 4" in body(ack)
    host.pbem("process")
    time.sleep(0.3)
    assert george.kinds() == ["welcome", "ack"]
    history = host.pbem("show", "cup1", "--json").stdout
    assert history.count('"kind": "orders"') == 1
    assert gm_inbox_count(fresh_stack) == 0
    assert Mailbox(fresh_stack, GM, password(GM)).count("pbem-processed") == 1


def test_a_silent_player_gets_one_reminder_and_the_deadline_plays_for_him(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()  # at NOW: deadline two days later
    george, bill = Player(fresh_stack, GEORGE), Player(fresh_stack, BILL)
    george.welcome()
    bill.welcome()
    george.order("PLAY 3 5 4")
    wait_in_gm_inbox(fresh_stack, 1)
    host.pbem("process")
    host.now = "2026-12-03T05:59:00Z"
    host.pbem("process")
    host.now = "2026-12-03T06:00:00Z"
    host.pbem("process")
    host.now = "2026-12-03T12:00:00Z"
    host.pbem("process")
    reminder = bill.wait_kind("reminder")
    assert "2026-12-03 18:00 UTC" in body(reminder)
    host.now = "2026-12-03T18:00:00Z"
    host.pbem("process")
    report = bill.wait_kind("report")
    assert "Bill sent no orders by the deadline (autoplay)" in body(report)
    assert bill.kinds().count("reminder") == 1 and "reminder" not in george.kinds()


def test_two_passes_at_once_handle_each_message_exactly_once(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    for i in range(8):
        george.order("STATUS" if i % 2 else "HELP")
    wait_in_gm_inbox(fresh_stack, 8)
    passes = [subprocess.Popen([sys.executable, "-m", "pbem", "process"], cwd=tmp_path, env=host.env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in passes]
    assert all(p.returncode == 0 for p in passes), outs
    george.box.wait_for(lambda _m: len(george.mails()) >= 9)
    time.sleep(0.5)
    assert sorted(george.kinds()) == sorted(["welcome"] + ["help", "status"] * 4)
    assert Mailbox(fresh_stack, GM, password(GM)).count("pbem-processed") == 8


def deliver_directly(stack, sender: str, to: str, text: str) -> None:
    """Mail that reaches the GM's mailbox without the SMTP server (straight into Dovecot's LMTP)."""
    import smtplib
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "Re: [cup1] orders"
    msg["Message-ID"] = email.utils.make_msgid(domain="player.test")
    msg.set_content(text)
    with smtplib.LMTP("127.0.0.1", stack.lmtp_port) as lmtp:
        lmtp.sendmail(sender, [GM], msg.as_bytes())


def test_a_permanent_refusal_is_recorded_once_and_reported_to_the_admins(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    config = (tmp_path / "pbem.yaml").read_text().replace(
        "  name: Golf GM\n", "  name: Golf GM\n  admins: [mallory@example.test]\n")
    (tmp_path / "pbem.yaml").write_text(config)
    host.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
              "Ghost <ghost@example.test>", "--id", "cup1")  # no such mailbox: 550
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    admin = Player(fresh_stack, "mallory@example.test")
    notice = admin.wait_kind("error")
    assert "ghost@example.test" in body(notice) and "550" in body(notice)
    host.now = "2026-12-01T20:00:00Z"  # long past any retry time, before the deadline
    host.pbem("process")
    host.pbem("process")
    time.sleep(0.3)
    assert admin.kinds() == ["error"]  # not retried, not reported again


def test_deliver_from_a_pipe_asks_the_mta_to_retry_while_smtp_is_down(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GEORGE, george.reply_to, "Re: [cup1] orders"
    msg["Message-ID"] = "<piped-1@player.test>"
    msg.set_content("PLAY 3 5 4\n")
    fresh_stack.stop_smtp()
    first = subprocess.run([sys.executable, "-m", "pbem", "deliver"], input=msg.as_bytes(), cwd=tmp_path,
                           env=host.env(), capture_output=True, timeout=60)
    assert first.returncode == 75, first.stderr
    fresh_stack.start_smtp()
    again = subprocess.run([sys.executable, "-m", "pbem", "deliver"], input=msg.as_bytes(), cwd=tmp_path,
                           env=host.env(PBEM_NOW="2026-12-01T18:05:00Z"), capture_output=True, timeout=60)
    assert again.returncode == 0, again.stderr
    george.wait_kind("ack")
    time.sleep(0.3)
    assert george.kinds() == ["welcome", "ack"]
    assert host.pbem("show", "cup1", "--json").stdout.count('"kind": "orders"') == 1


def test_the_log_has_a_line_per_message_and_no_secret(fresh_stack, tmp_path):
    host = GMHost(fresh_stack, tmp_path)
    host.new_match()
    george = Player(fresh_stack, GEORGE)
    george.welcome()
    secret = george.reply_to.split("+")[1].split("@")[0]
    george.order("PLAY 3 5 4")
    send(fresh_stack, GEORGE, GM, "no game", "HELLO")
    wait_in_gm_inbox(fresh_stack, 2)
    r = host.pbem("process", "-v")  # a command's stderr says what was done with each message when asked
    lines = [ln for ln in r.stderr.splitlines() if " message <" in ln]
    assert len(lines) == 2, r.stderr
    assert any("george@example.test: handled (orders for turn 1)" in ln for ln in lines)
    assert any("george@example.test: refused (no game named)" in ln for ln in lines)
    assert secret not in r.stderr
