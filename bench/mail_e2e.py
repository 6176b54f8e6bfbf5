"""End-to-end mail figures over real servers on 127.0.0.1 (the test suite's Dovecot + SMTP stack).

    python bench/mail_e2e.py            # all three; figures go into BENCHMARKS.md

P1  pbem handling 1,000 orders for 500 matches in one `process` pass, divided by the bare I/O of
    the same traffic: fetching the same 1,000 messages with aioimaplib and sending, with
    aiosmtplib over one connection, the very mails pbem sent (target: at most 1.15); the bare
    I/O runs once before the pass (with the same mails written by a run without servers) and
    once after, and the ratio is to their mean, as the machine's speed drifts; beside it
    pbem's own milliseconds an order (its time less the bare I/O's, over 1,000) and the SQL
    statements an order (sqlite3's trace callback over the pass; target: at most 25).
P2  ack latency under `pbem run`: from an order landing in the GM's inbox to the ack in the
    player's inbox, median and p95 over 200 orders (target: p95 at most 1 s).
P1q the same as P1 with every order a reply as clients write it: In-Reply-To naming the
    player's welcome, the whole welcome quoted below the orders (what reading by the original
    costs: the lookup, the original's text, the comparison).
P3  a cron pass on an empty inbox divided by `python -c pass` (target: at most 8).

`bench/side_by_side.py` runs P1 and P1q on two versions of pbem in turn, for a ratio in one run.
"""
from __future__ import annotations

import asyncio
import email.policy
import email.utils
import imaplib
import os
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from integration.mailstack import MailStack  # noqa: E402

GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
PASSWORDS = {a: a.split("@")[0] + "-pw" for a in (GM, GEORGE, BILL)}


def config_text(stack: MailStack, submission: bool = False) -> str:
    return (f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\ntransport: imap\n"
            f"imap:\n  host: 127.0.0.1\n  port: {stack.imap_port}\n  security: none\n  username: {GM}\n"
            f"  password: {PASSWORDS[GM]}\n  poll_seconds: 1\n"
            + (f"smtp:\n  host: 127.0.0.1\n  port: {stack.submission_port}\n  security: starttls\n"
               f"  cafile: {stack.cafile}\n  username: {GM}\n  password: {PASSWORDS[GM]}\n" if submission else
               f"smtp:\n  host: 127.0.0.1\n  port: {stack.smtp_port}\n  security: none\n")
            + "log:\n  level: warning\nlimits:\n  messages_per_hour: 1000000\n")


def order_mail(sender: str, game: str, secret: str, text: str, answers: bytes | None = None) -> bytes:
    """An order; with `answers` (the GM's mail), a reply to it that quotes it whole below."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM, f"Re: [{game}] orders"
    msg["Message-ID"] = email.utils.make_msgid(domain="bench.test")
    quote = ""
    if answers is not None:
        original = email.message_from_bytes(answers, policy=email.policy.default)
        msg["In-Reply-To"] = original["Message-ID"]
        text_part = original.get_body(preferencelist=("plain",)).get_content()
        quote = (f"\nOn Wed, 2 Dec 2026 at 10:00, Golf GM <{GM}> wrote:\n"
                 + "".join(f"> {line}\n" for line in text_part.splitlines()))
    msg.set_content(f"PASSWORD {secret}\n{text}\n{quote}")
    return msg.as_bytes()


def drop_into_gm_inbox(stack: MailStack, raws: list[bytes]) -> None:
    """Put messages in the GM's inbox through Dovecot's LMTP (untimed set-up)."""
    with smtplib.LMTP("127.0.0.1", stack.lmtp_port) as lmtp:
        for raw in raws:
            lmtp.sendmail("player@bench.test", [GM], raw)


def imap_count(stack: MailStack, address: str, folder: str = "INBOX") -> int:
    box = imaplib.IMAP4("127.0.0.1", stack.imap_port)
    box.login(address, PASSWORDS[address])
    n = int(box.status(folder, "(MESSAGES)")[1][0].split()[-1].rstrip(b")"))
    box.logout()
    return n


def course_loader():
    """`load_course` where this pbem keeps it: with the GM now, at the top of the package before
    issue 32 (bench/side_by_side.py runs this script on both)."""
    try:
        from pbem.gm.courses import load_course
    except ImportError:
        from pbem.courses import load_course
    return load_course


def gm_app(folder: Path, stack: MailStack, submission: bool = False):
    from pbem.app import App
    from pbem.config import load
    (folder / "pbem.yaml").write_text(config_text(stack, submission))
    return App.open(load(folder / "pbem.yaml"))


def p1q(stack: MailStack) -> str:
    return p1(stack, quoting=True)


def p1_traffic(app, quoting: bool = False) -> list[bytes]:
    """P1's 1,000 orders for 500 new matches of `app` (P1q's quoting replies with `quoting`);
    the welcomes are marked sent, so that they are not part of what is measured."""
    load_course = course_loader()
    course = load_course("parkland")
    raws = []
    for i in range(500):
        game = app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], course, seed=i, game_id=f"g{i}")
        seats = app.store.seats(game)
        welcomes = dict(app.store.conn.execute("SELECT recipient, raw FROM outbox WHERE game_id = ?", [game]))
        raws.append(order_mail(GEORGE, game, seats[0].secret, "PLAY 4 4 3", welcomes[GEORGE] if quoting else None))
        raws.append(order_mail(BILL, game, seats[1].secret, "PLAY 4 3 4\nSPECIAL BLUE+1 HOLE 2",
                               welcomes[BILL] if quoting else None))
    app.store.conn.execute("UPDATE outbox SET status = 'sent'")
    app.store.conn.commit()
    return raws


def p1(stack: MailStack, quoting: bool = False) -> str:
    """pbem's pass between two runs of the bare I/O, the first of mails like pbem's (those of a
    local-transport run of the same traffic), the second of the very mails the pass sent: the
    ratio is to their mean, so the machine's drift over the minute falls on both sides."""
    before = asyncio.run(bare_io(stack, local_replies(quoting)))[1]
    stack.reset()
    folder = Path(tempfile.mkdtemp(prefix="pbem-p1-"))
    app = gm_app(folder, stack)
    raws = p1_traffic(app, quoting)
    welcomes = app.store.conn.execute("SELECT max(id) FROM outbox").fetchone()[0]
    drop_into_gm_inbox(stack, raws)
    statements = count_statements(app.store.conn)
    start = time.perf_counter()
    counts = app.process()
    pbem_time = time.perf_counter() - start
    app.store.conn.set_trace_callback(None)
    assert counts["handled"] == 1000, counts
    sent = counts["sent"]
    replies = app.store.conn.execute("SELECT recipient, raw FROM outbox WHERE id > ? AND status = 'sent'"
                                     " ORDER BY id", [welcomes]).fetchall()
    assert len(replies) == sent
    stack.reset()
    drop_into_gm_inbox(stack, raws)
    fetched, after = asyncio.run(bare_io(stack, replies))
    assert fetched == 1000, fetched
    app.close()
    bare_time = (before + after) / 2
    own = (pbem_time - bare_time) / 1000 * 1000
    return (f"{'P1q' if quoting else 'P1'}: pbem {pbem_time:.2f} s for 1,000 orders of 500 matches "
            f"({sent} mails sent); bare aioimaplib fetch of 1,000 + aiosmtplib send of {sent}: "
            f"{bare_time:.2f} s (mean of {before:.2f} s before the pass and {after:.2f} s after); "
            f"ratio {pbem_time / bare_time:.2f} (target <= 1.15); pbem's own work {own:.2f} ms an order; "
            f"{statements[0] / 1000:.1f} SQL statements an order (target <= 25)")


def local_replies(quoting: bool) -> list[tuple[str, bytes]]:
    """The mails pbem writes for P1's traffic, made with the local transport (no servers)."""
    from pbem.app import App
    from pbem.config import load
    folder = Path(tempfile.mkdtemp(prefix="pbem-p1-local-"))
    (folder / "pbem.yaml").write_text(f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\n"
                                      "transport: local\nlocal:\n  maildir: ./mail\nlog:\n  level: warning\n"
                                      "limits:\n  messages_per_hour: 1000000\n")
    app = App.open(load(folder / "pbem.yaml"))
    raws = p1_traffic(app, quoting)
    welcomes = app.store.conn.execute("SELECT max(id) FROM outbox").fetchone()[0]
    for raw in raws:
        app.gm.receive(raw)
    replies = app.store.conn.execute("SELECT recipient, raw FROM outbox WHERE id > ? ORDER BY id",
                                     [welcomes]).fetchall()
    app.close()
    return replies


def count_statements(conn) -> list[int]:
    """The statements `conn` runs from now on, counted by sqlite3's trace callback (one list
    cell, so that the count can be read after)."""
    seen = [0]

    def traced(_statement: str) -> None:
        seen[0] += 1

    conn.set_trace_callback(traced)
    return seen


async def bare_io(stack: MailStack, mails: list[tuple[str, bytes]]) -> tuple[int, float]:
    """Fetch the inbox and send `mails` (the very bytes pbem sent), with nothing in between."""
    import aioimaplib
    import aiosmtplib
    start = time.perf_counter()
    imap = aioimaplib.IMAP4(host="127.0.0.1", port=stack.imap_port, timeout=60)
    await imap.wait_hello_from_server()
    await imap.login(GM, PASSWORDS[GM])
    await imap.select("INBOX")
    response = await imap.uid("fetch", "1:*", "(UID BODY.PEEK[])")
    fetched = sum(1 for line in response.lines if isinstance(line, bytearray))
    await imap.logout()
    smtp = aiosmtplib.SMTP(hostname="127.0.0.1", port=stack.smtp_port, start_tls=False)
    await smtp.connect()
    for rcpt, raw in mails:
        await smtp.sendmail(GM, [rcpt], raw)
    await smtp.quit()
    return fetched, time.perf_counter() - start


def p2(stack: MailStack, orders: int = 200) -> str:
    load_course = course_loader()
    folder = Path(tempfile.mkdtemp(prefix="pbem-p2-"))
    # A provider's submission port: STARTTLS and AUTH, which the daemon's kept connection spares.
    app = gm_app(folder, stack, submission=True)
    games = [app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], load_course("parkland"),
                             seed=i, game_id=f"d{i}") for i in range(orders)]
    secrets = {g: app.store.seats(g)[0].secret for g in games}
    app.store.conn.execute("UPDATE outbox SET status = 'sent'")
    app.store.conn.commit()
    app.close()
    stack.reset()
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=folder,
                              env=dict(os.environ, PBEM_CONFIG=str(folder / "pbem.yaml")),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.0)
    box = imaplib.IMAP4("127.0.0.1", stack.imap_port)
    box.login(GEORGE, PASSWORDS[GEORGE])
    latencies = []
    try:
        for i, game in enumerate(games):
            drop_into_gm_inbox(stack, [order_mail(GEORGE, game, secrets[game], "PLAY 4 4 3")])
            landed = time.perf_counter()
            while True:
                n = int(box.status("INBOX", "(MESSAGES)")[1][0].split()[-1].rstrip(b")"))
                if n > i:
                    break
                if time.perf_counter() - landed > 30:
                    raise RuntimeError("no ack within 30 s")
                time.sleep(0.005)
            latencies.append(time.perf_counter() - landed)
    finally:
        box.logout()
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
    latencies.sort()
    p95 = latencies[int(0.95 * len(latencies)) - 1]
    return (f"P2: ack latency under pbem run over {len(latencies)} orders: median "
            f"{statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max "
            f"{latencies[-1] * 1000:.0f} ms (target p95 <= 1000 ms)")


def p2idle(stack: MailStack, samples: int = 100) -> str:
    """Dovecot's own notification delay: a bare IDLE client's wait from a message landing (LMTP)
    to the EXISTS push. pbem's P2 contains one such wait; the rest is pbem's own."""
    import aioimaplib

    async def measure() -> list[float]:
        imap = aioimaplib.IMAP4(host="127.0.0.1", port=stack.imap_port, timeout=60)
        await imap.wait_hello_from_server()
        await imap.login(GEORGE, PASSWORDS[GEORGE])
        await imap.select("INBOX")
        delays = []
        for i in range(samples):
            idle = await imap.idle_start(timeout=30)
            await asyncio.sleep(0.05)
            loop = asyncio.get_running_loop()
            landed = [0.0]

            def drop(i: int = i, landed: list[float] = landed) -> None:  # run at once: the defaults are this round's
                with smtplib.LMTP("127.0.0.1", stack.lmtp_port) as lmtp:
                    lmtp.sendmail(GM, [GEORGE], order_mail(GM, "x", "y", f"n{i}"))
                landed[0] = time.perf_counter()

            await loop.run_in_executor(None, drop)
            while True:
                lines = await imap.wait_server_push(30)
                if any(isinstance(ln, bytes) and ln.endswith(b"EXISTS") for ln in lines):
                    break
            delays.append(time.perf_counter() - landed[0])
            imap.idle_done()
            await asyncio.wait_for(idle, 30)
        await imap.logout()
        return delays

    delays = sorted(asyncio.run(measure()))
    p95 = delays[int(0.95 * len(delays)) - 1]
    return (f"P2-idle: a bare IDLE client's notification delay over {len(delays)} messages: median "
            f"{statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")


def p3(stack: MailStack, runs: int = 15) -> str:
    folder = Path(tempfile.mkdtemp(prefix="pbem-p3-"))
    (folder / "pbem.yaml").write_text(config_text(stack))
    env = dict(os.environ, PBEM_CONFIG=str(folder / "pbem.yaml"))
    subprocess.run([sys.executable, "-m", "pbem", "process"], cwd=folder, env=env, check=True,
                   capture_output=True)  # creates the store, the processed folder, the bytecode

    def timed(argv) -> float:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, cwd=folder, env=env, check=True, capture_output=True)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    bare = timed([sys.executable, "-c", "pass"])
    cron = timed([sys.executable, "-m", "pbem", "process"])
    return (f"P3: cron pass on an empty inbox {cron * 1000:.0f} ms, python -c pass {bare * 1000:.0f} ms "
            f"(medians of {runs}); ratio {cron / bare:.1f} (target <= 8)")


def main() -> None:
    which = sys.argv[1:] or ["p1", "p2", "p2idle", "p3"]
    stack = MailStack()
    for address, pw in PASSWORDS.items():
        stack.add_user(address, pw)
    stack.start()
    try:
        for name in which:
            stack.reset()
            print({"p1": p1, "p1q": p1q, "p2": p2, "p2idle": p2idle, "p3": p3}[name](stack), flush=True)
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
