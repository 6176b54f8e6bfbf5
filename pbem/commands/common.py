"""What the commands share: the configuration read, the log set up, the app opened, the mail sent."""
from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from pbem.app import App, Busy
from pbem.clock import now
from pbem.commands import EXIT_TEMPFAIL, EXIT_USAGE, UnusableStore, UsageError
from pbem.config import ConfigError, find_path, load
from pbem.mail.clean import quoted
from pbem.store.file import StoreError


def words(error: Exception) -> str:
    """What an error says: a KeyError's own words, not their Python quoting."""
    if isinstance(error, KeyError) and error.args and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def read_config(args):
    try:
        return load(find_path(args.config))
    except ConfigError as e:
        for line in e.problems:
            print(line, file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None


def open_app(args) -> App:
    try:
        now()
    except ValueError as e:
        raise UsageError(str(e)) from None
    config = read_config(args)
    set_up_logging(config, args.verbose, daemon=getattr(args, "command", None) == "run")
    try:
        return App.open(config)
    except StoreError as e:
        raise UnusableStore(str(e), EXIT_TEMPFAIL if e.temporary else EXIT_USAGE) from None


def set_up_logging(config, verbose: bool, daemon: bool = False) -> None:
    """One line per message handled, to `log.file` or stderr; never a secret in it. The level is
    `log.level` when the configuration sets one; else a command at a terminal (or in cron, whose
    output is mailed to its owner) says on stderr only what needs a look, warnings and worse,
    while the daemon `pbem run` and a log file keep the line for every message. `-v` shows the
    info lines too."""
    logger = logging.getLogger("pbem")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    if config.log.file:
        handler = logging.FileHandler(config.log.file)
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ClockFormatter("%(asctime)s pbem[%(process)d] %(levelname)s %(message)s"))
    logger.addHandler(handler)
    level = getattr(logging, (config.log.level or ("info" if daemon or config.log.file else "warning")).upper())
    logger.setLevel(min(level, logging.INFO) if verbose else level)
    logger.propagate = False


class ClockFormatter(logging.Formatter):
    """Log lines dated by pbem's clock, in UTC: under `PBEM_NOW` (a replay, a test) the log
    tells the same time as the mail it writes about."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        try:
            moment = now()
        except ValueError:  # a clock setting that cannot be read: the machine's time, as logging keeps it
            moment = datetime.fromtimestamp(record.created, UTC)
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {quoted(pair)}: expected KEY=VALUE")
        out[key.strip().lower()] = value.strip()
    return out


def send_or_warn(app: App, command: str) -> None:
    """The command's own work is done; its mail goes now, or waits in the outbox with one line
    on stderr saying why. Under the lock, so a daemon's pass never sends the same mail."""
    try:
        with app.lock():
            delivery = app.send_outbox()
    except Busy:
        print(f"pbem {command}: the mail waits in the outbox for the running pass", file=sys.stderr)
        return
    if delivery.settings:
        print(f"pbem {command}: warning: mail waits in the outbox: {delivery.settings}", file=sys.stderr)
    elif delivery.deferred:
        print(f"pbem {command}: warning: {delivery.deferred} mail(s) wait in the outbox: the server "
              "cannot be reached now", file=sys.stderr)


def listing(as_json: bool, rows: list[dict], empty: str, line) -> int:
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    elif not rows:
        print(empty)
    else:
        for r in rows:
            print(line(r))
    return 0
