"""Real mail servers on loopback for the integration tests: Dovecot (IMAP, IMAPS, LMTP) and a
small aiosmtpd server (``smtp_relay.py``) that hands mail to Dovecot over LMTP.

Everything lives under one temporary root, so the stack never touches the machine's own mail
setup and several stacks could run side by side.
"""
from __future__ import annotations

import atexit
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOPBACK = "127.0.0.1"
START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0
RELAY_SCRIPT = Path(__file__).with_name("smtp_relay.py")
# Debian's packages; scripts/test.sh installs them when the binary is missing.
INSTALL_HINT = "apt-get install dovecot-imapd dovecot-lmtpd openssl (scripts/test.sh does this)"


class MailStackError(Exception):
    """The stack could not be started or stopped; the message says why, with the server's log."""


def find_program(name: str) -> str:
    # Debian puts dovecot in /usr/sbin, which a non-login PATH may lack.
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if not found:
        raise MailStackError(f"`{name}` not found: {INSTALL_HINT}")
    return found


def free_ports(count: int) -> list[int]:
    """Ports the kernel has just handed out, held together so that no two are the same."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((LOOPBACK, 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def process_alive(pid: int) -> bool:
    # A zombie still answers kill -0, and PID 1 here reaps orphans late: read its state instead.
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def children_of(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            children.append(int(entry.name))
    return children


def is_dovecot(pid: int) -> bool:
    # Guards against a pid that was reused after the process we knew had ended.
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"dovecot")
    except OSError:
        return False


def terminate(pid: int) -> None:
    """SIGTERM, then SIGKILL if ``pid`` is still there after STOP_TIMEOUT."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        if not process_alive(pid):
            return
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            return
        if wait_until(lambda: not process_alive(pid), STOP_TIMEOUT):
            return


def log_tail(*paths: Path, lines: int = 30) -> str:
    out = []
    for path in paths:
        if path.exists():
            tail = path.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {path.name} ---\n" + "\n".join(tail))
    return "\n".join(out) or "(no log written)"


def greets(port: int, expect: bytes, context: ssl.SSLContext | None = None) -> bool:
    """True when a server on ``port`` answers with a greeting that starts with ``expect``."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=2) as raw:
            sock = context.wrap_socket(raw, server_hostname="localhost") if context else raw
            with sock:
                return sock.recv(512).startswith(expect)
    except OSError:
        return False


def wait_until(check, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


class MailStack:
    """Dovecot and an SMTP server on free loopback ports; mail kept under ``root``."""

    def __init__(self, root: Path | None = None):
        self._own_root = root is None
        self.root = Path(root or tempfile.mkdtemp(prefix="pbem-mailstack-"))
        # mkdtemp makes 0700; Dovecot's unprivileged processes must pass through.
        self.root.chmod(0o711)
        (self.imap_port, self.imaps_port, self.smtp_port,
         self.smtps_port, self.lmtp_port, self.submission_port) = free_ports(6)
        self.users_file = self.root / "users"
        self.users_file.touch()
        self.users_file.chmod(0o644)
        self.cafile = self.root / "tls" / "cert.pem"
        self.keyfile = self.root / "tls" / "key.pem"
        self.conf = self.root / "dovecot.conf"
        self.logs = self.root / "log"
        self.relay: subprocess.Popen | None = None
        self._dovecot_pid: int | None = None
        self._registered = False

    # --- whole stack -----------------------------------------------------------------------

    def start(self) -> MailStack:
        find_program("dovecot")
        self._prepare()
        if not self._registered:
            atexit.register(self.stop)  # a crashed test run must not leave servers behind
            self._registered = True
        self.start_dovecot()
        self.start_smtp()
        return self

    def stop(self) -> None:
        """Both servers down; a root made by the stack is removed with its mail and logs."""
        self.stop_smtp()
        self.stop_dovecot()
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def add_user(self, address: str, password: str) -> None:
        # Dovecot and the SMTP server both re-read the file when it changes.
        lines = [line for line in self.users_file.read_text().splitlines()
                 if line.split(":", 1)[0].lower() != address.lower()]
        lines.append(f"{address.lower()}:{{PLAIN}}{password}::::::")
        self.users_file.write_text("\n".join(lines) + "\n")
        if self._dovecot_pid and process_alive(self._dovecot_pid):
            # Dovecot looks at the file at most once a second: wait until it knows the user.
            known = wait_until(lambda: self._auth_ok(address, password), START_TIMEOUT)
            if not known:
                raise MailStackError(f"dovecot did not pick up the new user {address}")

    def _auth_ok(self, address: str, password: str) -> bool:
        result = subprocess.run([find_program("doveadm"), "-c", str(self.conf), "auth", "test",
                                 address, password], stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=30)
        return result.returncode == 0

    def reset(self) -> None:
        """Every mailbox empty and only INBOX left, in well under a second."""
        self._doveadm("expunge", "-A", "mailbox", "*", "all")
        for user, folders in self._extra_folders().items():
            # Children before parents. A parent that only exists through its children is
            # listed too but cannot be deleted, so the result is checked, not the exit code.
            folders.sort(key=lambda name: name.count("/"), reverse=True)
            self._doveadm("mailbox", "delete", "-u", user, "-s", *folders, check=False)
        left = self._extra_folders()
        if left:
            raise MailStackError(f"reset could not delete these folders: {left}")

    def _extra_folders(self) -> dict[str, list[str]]:
        extra: dict[str, list[str]] = {}
        for user, folder in self._folders():
            if folder != "INBOX":
                extra.setdefault(user, []).append(folder)
        return extra

    def kick(self, address: str) -> None:
        """Drop every IMAP session of ``address`` at once, as a server restart would (a stopped
        Dovecot leaves an idling session open for about 10 s more)."""
        self._doveadm("kick", address)

    # --- Dovecot ---------------------------------------------------------------------------

    def start_dovecot(self) -> None:
        if self._dovecot_pid and process_alive(self._dovecot_pid):
            return
        stderr = self.logs / "dovecot.stderr"
        # Dovecot keeps stderr open after it daemonizes: a pipe here would never close.
        with open(stderr, "ab") as err:
            result = subprocess.run([find_program("dovecot"), "-c", str(self.conf)],
                                    stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                    timeout=START_TIMEOUT)
        if result.returncode != 0:
            raise MailStackError(f"dovecot did not start (exit {result.returncode}):\n"
                                 + log_tail(stderr, self.logs / "dovecot.log"))
        self._dovecot_pid = self._read_master_pid()
        context = self.client_tls()
        ready = wait_until(lambda: greets(self.imap_port, b"* OK")
                           and greets(self.imaps_port, b"* OK", context)
                           and greets(self.lmtp_port, b"220"), START_TIMEOUT)
        if not ready:
            raise MailStackError("dovecot did not greet on its ports within "
                                 f"{START_TIMEOUT:g} s:\n" + log_tail(stderr, self.logs / "dovecot.log"))

    def stop_dovecot(self) -> None:
        """Dovecot down, every client connection closed, as after a real server stop."""
        pid, self._dovecot_pid = self._dovecot_pid, None
        if not pid or not process_alive(pid):
            return
        # An imap process that outlives its master keeps an idling client connected for about
        # 10 s more and still sees new mail: end the whole family, not only the master.
        family = [pid] + children_of(pid)
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not process_alive(pid), STOP_TIMEOUT)
        for member in family:
            if is_dovecot(member):
                terminate(member)

    def _read_master_pid(self) -> int:
        pid_file = self.root / "run" / "master.pid"
        if not wait_until(pid_file.exists, START_TIMEOUT):
            raise MailStackError("dovecot wrote no master.pid:\n"
                                 + log_tail(self.logs / "dovecot.stderr", self.logs / "dovecot.log"))
        return int(pid_file.read_text().split()[0])

    def _doveadm(self, *args: str, check: bool = True) -> str:
        result = subprocess.run([find_program("doveadm"), "-c", str(self.conf), *args],
                                stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        if check and result.returncode != 0:
            raise MailStackError(f"doveadm {' '.join(args)} failed (exit {result.returncode}): "
                                 + result.stderr.decode(errors="replace").strip())
        return result.stdout.decode(errors="replace")

    def _folders(self) -> list[tuple[str, str]]:
        out = self._doveadm("-f", "tab", "mailbox", "list", "-A")
        rows = [line.split("\t") for line in out.splitlines()[1:] if "\t" in line]
        return [(user, folder) for user, folder in rows]

    # --- SMTP ------------------------------------------------------------------------------

    def start_smtp(self) -> None:
        if self.relay and self.relay.poll() is None:
            return
        log = self.logs / "smtp.log"
        with open(log, "ab") as out:
            self.relay = subprocess.Popen(
                [sys.executable, str(RELAY_SCRIPT), "--port", str(self.smtp_port),
                 "--tls-port", str(self.smtps_port), "--lmtp-port", str(self.lmtp_port),
                 "--submission-port", str(self.submission_port),
                 "--cert", str(self.cafile), "--key", str(self.keyfile),
                 "--users", str(self.users_file)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        context = self.client_tls()
        ready = wait_until(lambda: self.relay.poll() is not None
                           or (greets(self.smtp_port, b"220") and greets(self.smtps_port, b"220", context)
                               and greets(self.submission_port, b"220")),
                           START_TIMEOUT)
        if not ready or self.relay.poll() is not None:
            self.stop_smtp()
            raise MailStackError(f"the SMTP server did not greet within {START_TIMEOUT:g} s:\n"
                                 + log_tail(log))

    def stop_smtp(self) -> None:
        relay, self.relay = self.relay, None
        if relay is None or relay.poll() is not None:
            return
        relay.terminate()
        try:
            relay.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            relay.kill()
            relay.wait(STOP_TIMEOUT)

    def client_tls(self) -> ssl.SSLContext:
        """What a client that trusts this stack's self-signed certificate uses."""
        return ssl.create_default_context(cafile=str(self.cafile))

    # --- files -----------------------------------------------------------------------------

    def _prepare(self) -> None:
        self.logs.mkdir(exist_ok=True)
        if not self.cafile.exists():
            self._make_certificate()
        mail_user = pwd.getpwnam("mail")
        mail = self.root / "mail"
        mail.mkdir(exist_ok=True)
        # Dovecot refuses to deliver as root, so mail is stored as Debian's `mail` user.
        os.chown(mail, mail_user.pw_uid, mail_user.pw_gid)
        mail.chmod(0o700)
        self.conf.write_text(self._dovecot_conf(mail_user.pw_uid, mail_user.pw_gid))

    def _make_certificate(self) -> None:
        self.cafile.parent.mkdir(exist_ok=True)
        result = subprocess.run(
            [find_program("openssl"), "req", "-x509", "-newkey", "ec",
             "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", str(self.keyfile), "-out", str(self.cafile)],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        if result.returncode != 0:
            raise MailStackError("openssl could not make the test certificate: "
                                 + result.stderr.decode(errors="replace").strip())

    def _dovecot_conf(self, uid: int, gid: int) -> str:
        root = self.root
        return f"""\
protocols = imap lmtp
listen = {LOOPBACK}
base_dir = {root}/run
state_dir = {root}/state
instance_name = pbem-test-{self.imap_port}
log_path = {self.logs}/dovecot.log
default_internal_user = dovecot
default_login_user = dovenull
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = {uid}
first_valid_gid = {gid}
# sdbox, not Maildir: a Maildir delivery that finds the uid list locked (a client reading the
# box) gets its UID at a later sync, after mail delivered behind it; the tests read in UID order.
mail_location = sdbox:{root}/mail/%d/%n/sdbox
mail_fsync = never
mailbox_idle_check_interval = 1 secs
mail_max_userip_connections = 100
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
recipient_delimiter = +
ssl = yes
ssl_cert = <{self.cafile}
ssl_key = <{self.keyfile}

passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.users_file}
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {self.users_file}
  default_fields = home={root}/mail/%d/%n
}}
namespace inbox {{
  inbox = yes
  separator = /
}}
service imap-login {{
  inet_listener imap {{
    address = {LOOPBACK}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = {LOOPBACK}
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = {LOOPBACK}
    port = {self.lmtp_port}
  }}
}}
# Without this one wrong password makes the next right one wait seconds.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""
