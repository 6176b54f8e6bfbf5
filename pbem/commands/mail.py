"""The commands about mail: process (cron), deliver (an MTA's pipe), run (the daemon), inbox, outbox.

Light on purpose: `pbem deliver` runs once per mail and `pbem process` every few minutes; the GM
is loaded by the app only when there is mail to handle or a deadline due.
"""
from __future__ import annotations

import sqlite3
import sys

from pbem.app import BadSettings, Busy, Unreachable
from pbem.commands import EXIT_CONFIG, EXIT_TEMPFAIL, UnusableStore, UsageError
from pbem.commands.common import listing, open_app, send_or_warn, words
from pbem.daemon import run
from pbem.mail.clean import clean


def cmd_process(args) -> int:
    try:
        with open_app(args) as app:
            counts = app.process()
    except Busy as e:
        print(f"pbem process: {e}; not running twice", file=sys.stderr)
        return 0
    except BadSettings as e:
        print(f"pbem process: {e}", file=sys.stderr)
        return EXIT_CONFIG
    except Unreachable as e:
        print(f"pbem process: mail server unreachable: {e}", file=sys.stderr)
        return EXIT_TEMPFAIL
    waiting = f", {counts['deferred']} waiting" if counts.get("deferred") else ""
    print(f"handled {counts['handled']} message(s), {counts['deadlines']} deadline action(s), "
          f"sent {counts['sent']} mail(s){waiting}")
    return 0


def cmd_deliver(args) -> int:
    raw = sys.stdin.buffer.read()
    if not raw.strip():
        raise UsageError("no message on stdin")
    try:
        with open_app(args) as app:
            delivery = app.deliver(raw)
    except UnusableStore as e:  # exit 2 would have the MTA bounce the player's mail: it waits
        print(f"pbem deliver: temporary failure: {e}", file=sys.stderr)
        return EXIT_TEMPFAIL
    except (Busy, OSError, sqlite3.OperationalError) as e:
        print(f"pbem deliver: temporary failure: {e}", file=sys.stderr)
        return EXIT_TEMPFAIL
    except Exception as e:  # a fault of pbem's own: the MTA keeps the message and tries again
        print(f"pbem deliver: temporary failure: {type(e).__name__}: {clean(e, 200)}", file=sys.stderr)
        return EXIT_TEMPFAIL
    if delivery.settings:
        print(f"pbem deliver: mail waits in the outbox: {delivery.settings}", file=sys.stderr)
        return EXIT_TEMPFAIL
    if delivery.deferred:
        # The message is stored and handled; asking the MTA to retry brings us back to send the
        # outbox (the retried message itself is recognised and not handled again).
        print(f"pbem deliver: {delivery.deferred} mail(s) could not be sent yet", file=sys.stderr)
        return EXIT_TEMPFAIL
    return 0


def cmd_run(args) -> int:
    try:
        with open_app(args) as app:
            return run(app)
    except BadSettings as e:
        print(f"pbem run: {e}; stopping (mend the settings, then start again)", file=sys.stderr)
        return EXIT_CONFIG


def cmd_outbox(args) -> int:
    if args.action == "retry":
        with open_app(args) as app:
            count = app.store.outbox.requeue(args.id)
            if args.id is not None and not count:
                raise UsageError(f"no failed mail {args.id} (pbem outbox lists them)")
            print(f"queued {count} mail(s) again")
            send_or_warn(app, "outbox")
        return 0
    if args.id is not None:
        raise UsageError(f"unexpected {args.id}: did you mean `pbem outbox retry {args.id}`?")
    with open_app(args) as app:
        rows = app.store.outbox.rows()
    return listing(args.json, rows, "nothing waits, failed or bounced", lambda r: (
        f"{r['id']:<6} {r['status']:<8} {r['kind']:<9} {r['recipient']:<28.28} tries {r['attempts'] or 0}"
        + (f"  {r['error']}" if r["error"] else "")))


def cmd_inbox(args) -> int:
    if args.action == "retry":
        if args.id is None:
            raise UsageError("inbox retry needs the ID of a message (pbem inbox lists them)")
        with open_app(args) as app:
            try:
                with app.lock():
                    outcome = app.gm.retry(args.id)
                    app.send_outbox()
            except KeyError as e:
                raise UsageError(words(e)) from None
            except Busy as e:
                print(f"pbem inbox: {e}; try again", file=sys.stderr)
                return EXIT_TEMPFAIL
        print(f"message {args.id}: {outcome.status}" + (f" ({outcome.note})" if outcome.note else ""))
        return 0
    if args.id is not None:
        raise UsageError(f"unexpected {args.id}: did you mean `pbem inbox retry {args.id}`?")
    with open_app(args) as app:
        rows = app.store.inbound.rows("failed", "screened")
    # A screening note starts with its rule's name ("list: List-Id header"). `step`: the inbox's
    # step that ended the message (or was at work when it failed), None when none is known.
    rows = [{"id": r["id"], "received": r["received"], "sender": r["sender"] or None,
             "subject": r["subject"], "size": r["size"], "attempts": r["attempts"],
             "status": r["status"], "reason": r["note"],
             "rule": (r["note"] or "").split(":", 1)[0] if r["status"] == "screened" else None,
             "step": r["step"] or None} for r in rows]
    return listing(args.json, rows, "no failed mail, none screened",
                   lambda r: f"{r['id']:<6} {r['received']}  {(r['sender'] or '-'):<30.30} "
                             + (f"{r['step']}: " if r["step"] else "")
                             + (f"screened ({r['reason']})" if r["status"] == "screened" else r["reason"]))
