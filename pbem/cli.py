"""The command line: `pbem [--config FILE] <command> ...` (see `pbem --help`)."""
from __future__ import annotations

import argparse
import email.utils
import json
import logging
import sys

from pbem.games.registry import GAMES, types as game_types
from pbem.mail.clean import quoted

EXIT_USAGE = 2
EXIT_TEMPFAIL = 75
EXIT_CONFIG = 78   # sysexits EX_CONFIG: a server refuses the settings (systemd: do not restart)


class UsageError(Exception):
    """A user's mistake: one line on stderr, exit 2 (or `code`), no traceback."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


class UnusableStore(UsageError):
    """The configured store cannot be opened: a setting to mend (2), or busy for now (75)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (the usage is a --help away), like every other."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


# What each command's --help says under its usage (the overview's one line is its `help`).
_ABOUT = {
    "process": "One pass, for cron: takes every new message from the inbox and handles it, resolves "
        "every turn that is complete or past its deadline, sends the reminders that are due and "
        "everything in the outbox. A second pass started meanwhile waits for the first. Exit 0; "
        "78 when a server or the mail folder refuses the settings, 75 when a server cannot be "
        "reached.",
    "deliver": "Reads one message on stdin (an MTA pipe, .forward, procmail) and handles it at once, as "
        "process does. Exit 0; 75 on a temporary failure, so the MTA keeps the message and tries "
        "again (a message handled before is recognised and not handled twice).",
    "run": "The daemon: IMAP IDLE (or polling where the server lacks it, or the local mail folder "
        "once a second), mail handled as it arrives, deadlines and reminders on time. SIGTERM or "
        "SIGINT finish the message in hand and exit 0; a setting a server refuses stops it with "
        "78.",
    "show": "A game as the GM sees it: everything, hidden cards and pending orders included. --json "
        "prints one JSON object (id, type, status, turn, players, result, to_move, history ...).",
    "list": "Every game, a line each: id, type, status, turn, deadline, and who the game waits for. "
        "--json prints the same as a JSON list.",
    "check": "Connects to the configured IMAP and SMTP servers with the configured settings and logs "
        "in (with the local transport: makes sure the mail folder can be written), then prints "
        "what is wrong, one line each, or 'all is well'. Exit 0 when all is well, 78 when a "
        "setting is wrong, 75 when a server cannot be reached now.",
    "demo": "Two scripted players play a whole MatchPlay match by mail, with the local transport in a "
        "fresh temporary folder; the exchange is printed as it goes.",
    "export": "Prints a game's public record as JSON: type, options, course, the players' names, the "
        "seed commitment, every accepted order in order, and once the game is over its chance, "
        "results and seed. No address unless gm.export_addresses is true.",
    "verify": "Checks a record written by pbem export, with nothing else (no configuration, no store): "
        "the seed against its commitment, then a replay of every order from the seed, comparing "
        "every deal, roll and result. Prints 'verified: <id>: <result line>' and exits 0, or 'not "
        "verified: <id>: <the first difference>' and exits 1.",
}


def build_parser(types: str | None = None) -> argparse.ArgumentParser:
    p = Parser(prog="pbem", description="A play-by-email game master for golf games.")
    _common(p, None)
    # The same options after the command (`pbem list --config F`); SUPPRESS keeps a value given
    # before the command from being overwritten by the subcommand's default.
    common = Parser(add_help=False)
    _common(common, argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p.set_defaults(commands=sub.choices)

    def add(name: str, **kwargs) -> argparse.ArgumentParser:
        kwargs.setdefault("description", _ABOUT.get(name))
        return sub.add_parser(name, parents=[common], **kwargs)

    if types is None:  # only `new-game --help` loads the engines to name them (a cron pass does not)
        types = ", ".join(GAMES[:3]) + " ... (pbem new-game --help lists them all)"
    ng = add("new-game", help="create a game and mail each player a welcome",
                        description=f"Creates a game and mails each player a welcome. Game types: {types}.")
    ng.add_argument("type", metavar="TYPE", help=f"the game: {types}")
    ng.add_argument("--player", action="append", required=True, metavar="SPEC",
                    help='a player: addr@host or "Name <addr@host>", or a robot: robot, robot:easy, '
                         'robot:strong or "Name <robot:strong>" (repeat per player)')
    ng.add_argument("--id", help="the game id (default: <type>-<n>)")
    ng.add_argument("--course", help="a course template name or a par string like '443 544 354 445 345 434'")
    ng.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    ng.add_argument("--seed", type=int, default=None,
                    help="an open seed for tests and replays (0 to 2**128-1; default: 16 secret random bytes)")
    ng.add_argument("--deadline", metavar="DURATION", help="time for each turn, like 48h, 3d, 90m")

    add("process", help="one pass for cron: handle new mail, deadlines, send the outbox")
    add("deliver", help="handle one message read from stdin (MTA pipe); 75 on a temporary failure")
    add("run", help="the daemon: handle mail as it arrives, deadlines on time")
    sh = add("show", help="a game as the GM sees it")
    sh.add_argument("game", metavar="GAME")
    sh.add_argument("--json", action="store_true", help="one JSON object")
    ls = add("list", help="every game, a line each")
    ls.add_argument("--json", action="store_true", help="a JSON list")
    rt = add("ratings", help="every player's rating per game type (OpenSkill), from the finished games",
             description="Rates every player from the results of every finished game, per game type, with "
                         "OpenSkill's Plackett-Luce model (a robot level is one player): by type, highest "
                         "ordinal (mu - 3 sigma) first.")
    rt.add_argument("--type", metavar="TYPE", help="one game type only")
    rt.add_argument("--json", action="store_true", help="a JSON list")
    cal = add("calendar", help="the deadlines owed in a game or a league as an iCalendar file (RFC 5545)",
              description="Prints an iCalendar file: one event for each deadline owed now in the game (or in "
                          "the league's games, with each round still to open), in UTC; with --player, that "
                          "player's alone.")
    cal.add_argument("target", metavar="GAME|LEAGUE")
    cal.add_argument("--player", metavar="ADDRESS", help="only the deadlines that player owes")
    ib = add("inbox", help="kept mail that could not be handled or was screened; `inbox retry ID` handles "
                           "one again",
                        description="Lists the kept inbound mail whose handling failed (with the reason) and "
                                    "the mail a screening rule kept from any answer (status screened, with the "
                                    "rule), or with `retry ID` handles that message again (screened mail "
                                    "passes the screening rules again: it is read only if it now passes them).")
    ib.add_argument("action", nargs="?", choices=["retry"], help="retry: handle message ID again")
    ib.add_argument("id", nargs="?", type=int, metavar="ID", help="the message's id from the listing")
    ib.add_argument("--json", action="store_true", help="a JSON list")
    add("check", help="connect to the configured servers, log in, and say what is wrong "
                      "(exit 0 all well, 78 a setting is wrong, 75 a server cannot be reached)")
    ob = add("outbox", help="mail waiting to be sent, refused or bounced; `outbox retry [ID]` "
                                       "queues failed mail again",
                        description="Lists the mail that waits (with its last error), was refused for good, "
                                    "or bounced. `retry` queues failed mail again (one, or all of it) and sends it.")
    ob.add_argument("action", nargs="?", choices=["retry"], help="retry: queue failed mail again")
    ob.add_argument("id", nargs="?", type=int, metavar="ID", help="one mail's id (default: all failed mail)")
    ob.add_argument("--json", action="store_true", help="a JSON list")
    dm = add("demo", help="two scripted players play a whole MatchPlay match by mail in a temp folder")
    dm.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    gm = add("gm", help="a GM command, the same as by mail: EXTEND, DEADLINE, PAUSE, RESUME, "
                                   "PROCESS, REPLACE, NEWSECRET, ABANDON, WITHDRAW, ROLLBACK",
                        description="EXTEND <game> <duration> | DEADLINE <game> <when> | PAUSE <game> | "
                                    "RESUME <game> | PROCESS <game> | REPLACE <game or league> <old address> <new spec> | "
                                    "NEWSECRET <game> <address> | ABANDON <game> | WITHDRAW <league> <address> | "
                                    "ROLLBACK <game> [TO <turn>]")
    gm.add_argument("words", nargs="+", metavar="WORD", help="the command and its arguments")
    ex = add("export", help="a game's public record as JSON, for pbem verify")
    ex.add_argument("game", metavar="GAME")
    vf = add("verify", help="check a game's record: the seed against its commitment, then a replay of every "
                            "order (exit 0 verified, 1 with the first difference)")
    vf.add_argument("file", metavar="FILE", help="a record written by `pbem export` (- for stdin)")
    lg = add("league", help="leagues: `league create FILE`, `league show LEAGUE`, `league standings LEAGUE`, "
                            "`league list`",
             description="create FILE: create a league from its YAML file (prints its id) | show LEAGUE "
                         "[--json]: rounds, games, standings | standings LEAGUE [--html FILE] [--json]: the "
                         "standings as text, a self-contained web page, or JSON | list: every league")
    lg.add_argument("action", choices=["create", "show", "standings", "list"], help="what to do")
    lg.add_argument("target", nargs="?", metavar="FILE|LEAGUE", help="the league file (create) or the league id")
    lg.add_argument("--json", action="store_true", help="JSON")
    lg.add_argument("--html", metavar="FILE", help="standings: write a self-contained web page to FILE")
    _table_parser(add)
    return p


def _table_parser(add) -> None:
    tb = add("table", help="open tables that players join by mail: `table open TYPE --seats N`, `table list`, "
                           "`table close ID`",
             description="open TYPE --seats N [--min M] [--course C] [--option K=V ...] [--deadline D] "
                         "[--starts WHEN] [--fill robots|wait|cancel] [--id ID]: open a table that players join "
                         "by mail (JOIN <table>), and print its id | list [--json]: every table, open ones first: "
                         "seats taken and free, who has joined, when it starts | close ID: close an open table; "
                         "everyone who joined is told")
    tb.add_argument("action", choices=["open", "list", "close"], help="what to do")
    tb.add_argument("target", nargs="?", metavar="TYPE|ID", help="the game type (open) or the table's id (close)")
    tb.add_argument("--seats", type=int, metavar="N", help="open: how many players the game takes")
    tb.add_argument("--min", type=int, metavar="M",
                    help="open: the fewest players it starts with at --starts (default: every seat)")
    tb.add_argument("--course", help="open: a course template name or a par string (as new-game)")
    tb.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="open: a game option")
    tb.add_argument("--deadline", metavar="DURATION",
                    help="open: time for each turn, like 48h (default: games.deadline of the configuration)")
    tb.add_argument("--starts", metavar="WHEN",
                    help="open: when it starts with those who joined, an ISO 8601 time or a duration from now "
                         "(default: only once every seat is taken)")
    tb.add_argument("--fill", choices=["robots", "wait", "cancel"],
                    help="open: at --starts with fewer than --min: robots take the empty seats, it waits "
                         "for --min (the default), or it is called off")
    tb.add_argument("--id", help="open: the table's id, which the game takes too (default: table-<n>)")
    tb.add_argument("--json", action="store_true", help="list: a JSON list")


def _common(parser: argparse.ArgumentParser, default) -> None:
    parser.add_argument("--config", metavar="FILE", default=default,
                        help="the YAML configuration (else $PBEM_CONFIG, else ./pbem.yaml)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        default=default if default is argparse.SUPPRESS else False,
                        help="log what is done with every message")


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    types = None
    if "new-game" in words and ("-h" in words or "--help" in words):
        types = ", ".join(game_types())
    parser = build_parser(types)
    args, extra = parser.parse_known_args(words)
    if extra and args.command == "gm" and not any(w.startswith("--") for w in extra):
        args.words += extra  # `EXTEND cup1 -5h` is a GM's mistake to answer, not an unknown option
    elif extra:
        args.commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return COMMANDS[args.command](args)
    except UsageError as e:
        print(f"pbem {args.command}: {e}", file=sys.stderr)
        return e.code
    except BrokenPipeError:
        # `pbem show x --json | head`: the reader has enough. Quietly, like any Unix tool.
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _words(error: Exception) -> str:
    """What an error says: a KeyError's own words, not their Python quoting."""
    if isinstance(error, KeyError) and error.args and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def _config(args):
    from pbem.config import ConfigError, find_path, load
    try:
        return load(find_path(args.config))
    except ConfigError as e:
        for line in e.problems:
            print(line, file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _app(args):
    from pbem.app import App
    from pbem.clock import now
    try:
        now()
    except ValueError as e:
        raise UsageError(str(e))
    config = _config(args)
    _logging(config, args.verbose)
    from pbem.store.file import StoreError
    try:
        return App.open(config)
    except StoreError as e:
        raise UnusableStore(str(e), EXIT_TEMPFAIL if e.temporary else EXIT_USAGE) from None


def _logging(config, verbose: bool) -> None:
    """One line per message handled, to `log.file` or stderr; never a secret in it."""
    logger = logging.getLogger("pbem")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    if config.log.file:
        handler = logging.FileHandler(config.log.file)
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s pbem[%(process)d] %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else getattr(logging, config.log.level.upper()))
    logger.propagate = False


def _player(spec: str) -> tuple[str, str]:
    from pbem.gm.robot_seats import RobotSpecError, read_spec
    try:
        robot = read_spec(spec)
    except RobotSpecError as e:
        raise UsageError(f"--player {e}") from None
    if robot is not None:  # (name, robot:<level>): the GM seats a robot
        return robot
    name, address = email.utils.parseaddr(spec)
    if "@" not in address or " " in address:
        raise UsageError(f'--player {quoted(spec)}: expected addr@host, "Name <addr@host>", robot, '
                         'robot:easy or robot:strong')
    if len(email.utils.getaddresses([spec])) > 1:
        raise UsageError(f"--player {quoted(spec)}: one player per --player (repeat --player for each)")
    return name, address.lower()


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {quoted(pair)}: expected KEY=VALUE")
        out[key.strip().lower()] = value.strip()
    return out


def cmd_new_game(args) -> int:
    import random
    from pbem.clock import parse_duration
    from pbem.gm.courses import DEFAULT_COURSE, load_course
    from pbem.games import game_type
    try:
        game_type(args.type)
        course = load_course(args.course or DEFAULT_COURSE)
        if args.deadline:
            parse_duration(args.deadline)
    except (KeyError, ValueError) as e:
        raise UsageError(_words(e))
    players = [_player(s) for s in args.player]
    if args.id is not None and not args.id.strip():
        raise UsageError("--id '': a game id is letters, digits, - and _ (leave --id out to number it)")
    from pbem.games import rng
    try:
        seed = rng.seed_from_int(args.seed) if args.seed is not None else rng.new_seed()
    except ValueError as e:
        raise UsageError(f"--seed: {e}")
    with _app(args) as app:
        try:
            game_id = app.gm.new_game(args.type.lower(), players, course, options=_options(args.option),
                                      seed=seed, game_id=args.id, deadline=args.deadline)
        except ValueError as e:
            raise UsageError(str(e))
        _send_or_warn(app, "new-game")
    print(game_id)
    return 0


def _send_or_warn(app, command: str) -> None:
    """The command's own work is done; its mail goes now, or waits in the outbox with one line
    on stderr saying why. Under the lock, so a daemon's pass never sends the same mail."""
    from pbem.app import Busy
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


def cmd_process(args) -> int:
    from pbem.app import BadSettings, Busy, Unreachable
    try:
        with _app(args) as app:
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
    from pbem.app import Busy
    raw = sys.stdin.buffer.read()
    if not raw.strip():
        raise UsageError("no message on stdin")
    import sqlite3
    try:
        with _app(args) as app:
            delivery = app.deliver(raw)
    except UnusableStore as e:  # exit 2 would have the MTA bounce the player's mail: it waits
        print(f"pbem deliver: temporary failure: {e}", file=sys.stderr)
        return EXIT_TEMPFAIL
    except (Busy, OSError, sqlite3.OperationalError) as e:
        print(f"pbem deliver: temporary failure: {e}", file=sys.stderr)
        return EXIT_TEMPFAIL
    except Exception as e:  # a fault of pbem's own: the MTA keeps the message and tries again
        from pbem.mail.clean import clean
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
    from pbem.app import BadSettings
    from pbem.daemon import run
    try:
        with _app(args) as app:
            return run(app)
    except BadSettings as e:
        print(f"pbem run: {e}; stopping (mend the settings, then start again)", file=sys.stderr)
        return EXIT_CONFIG


def cmd_check(args) -> int:
    import asyncio
    from pbem.check import check
    with _app(args) as app:
        found = asyncio.run(check(app))
    for line in found.lines:
        print(line)
    if found.code == 0:
        print("all is well")
    return found.code


def cmd_outbox(args) -> int:
    if args.action == "retry":
        with _app(args) as app:
            count = app.store.outbox.requeue(args.id)
            if args.id is not None and not count:
                raise UsageError(f"no failed mail {args.id} (pbem outbox lists them)")
            print(f"queued {count} mail(s) again")
            _send_or_warn(app, "outbox")
        return 0
    if args.id is not None:
        raise UsageError(f"unexpected {args.id}: did you mean `pbem outbox retry {args.id}`?")
    with _app(args) as app:
        rows = app.store.outbox.rows()
    return _listing(args.json, rows, "nothing waits, failed or bounced", lambda r: (
        f"{r['id']:<6} {r['status']:<8} {r['kind']:<9} {r['recipient']:<28.28} tries {r['attempts'] or 0}"
        + (f"  {r['error']}" if r["error"] else "")))


def _listing(as_json: bool, rows: list[dict], empty: str, line) -> int:
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    elif not rows:
        print(empty)
    else:
        for r in rows:
            print(line(r))
    return 0


def cmd_show(args) -> int:
    from pbem.gm.admin import no_such_game
    from pbem.render.report import game_json, game_text
    with _app(args) as app:
        data = game_json(app.store, args.game)
        if data is None:
            raise UsageError(no_such_game(args.game, [row.id for row in app.store.games()]))
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else game_text(data))
    return 0


def cmd_list(args) -> int:
    from pbem.render.report import list_json
    with _app(args) as app:
        rows = list_json(app.store)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    from pbem.mail.clean import clean
    for r in rows:
        status = "paused" if r["paused"] else r["status"]
        # A game that is over has no deadline to speak of, stopped or running.
        deadline = "-" if r["status"] != "active" else (r["deadline"] or "-") + (" (clock stopped)" if r["paused"] else "")
        waiting = "  (its state cannot be read: see pbem show)" if r["waiting_for"] is None else \
            f"  waiting for {', '.join(clean(name, 40) for name in r['waiting_for'])}" if r["waiting_for"] else ""
        print(f"{r['id']:<20} {r['type']:<10} {status:<9} turn {r['turn']:<3} deadline {deadline}{waiting}")
    return 0


def cmd_ratings(args) -> int:
    from pbem.games import game_type
    from pbem.ratings import ratings, ratings_text
    if args.type is not None:
        try:
            game_type(args.type)
        except KeyError as e:
            raise UsageError(_words(e)) from None
    with _app(args) as app:
        rows = ratings(app.store, args.type.lower() if args.type else None)
    print(json.dumps(rows, indent=2, ensure_ascii=False) if args.json else ratings_text(rows))
    return 0


def cmd_calendar(args) -> int:
    from pbem.calendars.targets import for_target, known
    from pbem.clock import now
    with _app(args) as app:
        with app.store.transaction():
            text = for_target(app.store, args.target, args.player, now(), app.config.gm.address)
        if text is None:
            from pbem.gm.admin import no_such_game
            raise UsageError(no_such_game(args.target, known(app.store), "games and leagues").replace("no game", "no game or league"))
    sys.stdout.write(text)
    return 0


def cmd_gm(args) -> int:
    from pbem.games.errors import OrderError
    line = " ".join(f'"{w}"' if " " in w else w for w in args.words)
    with _app(args) as app:
        try:
            done = app.gm.gm_command(line)
        except OrderError as e:
            hint = f" (e.g. {' or '.join(e.hint.splitlines())})" if e.hint else ""
            raise UsageError(f"{e.message}{hint}")
        _send_or_warn(app, "gm")
    print(done)
    return 0


def cmd_inbox(args) -> int:
    if args.action == "retry":
        if args.id is None:
            raise UsageError("inbox retry needs the ID of a message (pbem inbox lists them)")
        from pbem.app import Busy
        with _app(args) as app:
            try:
                with app.lock():
                    outcome = app.gm.retry(args.id)
                    app.send_outbox()
            except KeyError as e:
                raise UsageError(_words(e))
            except Busy as e:
                print(f"pbem inbox: {e}; try again", file=sys.stderr)
                return EXIT_TEMPFAIL
        print(f"message {args.id}: {outcome.status}" + (f" ({outcome.note})" if outcome.note else ""))
        return 0
    if args.id is not None:
        raise UsageError(f"unexpected {args.id}: did you mean `pbem inbox retry {args.id}`?")
    with _app(args) as app:
        rows = app.store.inbound.rows("failed", "screened")
    # A screening note starts with its rule's name ("list: List-Id header").
    listing = [{"id": r["id"], "received": r["received"], "sender": r["sender"] or None,
                "subject": r["subject"], "size": r["size"], "attempts": r["attempts"],
                "status": r["status"], "reason": r["note"],
                "rule": (r["note"] or "").split(":", 1)[0] if r["status"] == "screened" else None} for r in rows]
    return _listing(args.json, listing, "no failed mail, none screened",
                    lambda r: f"{r['id']:<6} {r['received']}  {(r['sender'] or '-'):<30.30} "
                              + (f"screened ({r['reason']})" if r["status"] == "screened" else r["reason"]))


def cmd_demo(args) -> int:
    from pbem.demo import run_demo
    return run_demo(print, keep=args.keep)


def cmd_export(args) -> int:
    from pbem.gm.fairness import export_record
    from pbem.gm.admin import no_such_game
    with _app(args) as app:
        record = export_record(app.store, args.game, with_addresses=app.config.gm.export_addresses)
        if record is None:
            raise UsageError(no_such_game(args.game, [row.id for row in app.store.games()]))
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


def cmd_verify(args) -> int:
    """Needs no configuration and no store: the record and the rules are enough. The record may
    come from anyone: what it says is quoted only cut short and cleaned."""
    from pbem.gm.fairness import Difference, quoted as as_json, verify_record
    from pbem.mail.clean import clean
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        record = json.loads(text)
    except (OSError, ValueError, RecursionError) as e:
        raise UsageError(f"cannot read a record from {clean(args.file, 80)}: {clean(e)}")
    if not isinstance(record, dict):
        raise UsageError(f"{clean(args.file, 80)} holds no game record (a JSON object)")
    game = record.get("id")
    name = clean(game, 80) if isinstance(game, str) and game.strip() else as_json(game, 40)
    notes: list[str] = []
    try:
        line = verify_record(record, notes)
    except Difference as e:
        print(f"not verified: {name}: {clean(e, 400)}")
        return 1
    # The result line is the replay's, but it holds the record's player names: cleaned too.
    print(f"verified: {name}: {clean(line, 300) if line else 'no result (the game ended without one)'}")
    for note in notes:  # the robots' moves: rechecked, or made by a robot this pbem does not play
        print(f"  {note}")
    return 0


def cmd_league(args) -> int:
    from pbem.league.commands import league_command
    if args.action != "list" and not args.target:
        raise UsageError(f"league {args.action} needs {'a league file' if args.action == 'create' else 'a league id'}")
    with _app(args) as app:
        try:
            out = league_command(app, args.action, args.target, as_json=args.json, html=args.html)
        except (KeyError, ValueError, OSError) as e:
            raise UsageError(_words(e))
        if args.action == "create":
            _send_or_warn(app, "league create")
    if out:
        print(out)
    return 0


def cmd_table(args) -> int:
    from pbem.clock import now
    from pbem.tables.opening import Opening, close_table, open_table, rows, rows_text
    needs = {"open": "a game type: pbem table open TYPE --seats N", "close": "a table's id: pbem table close ID"}
    if args.action in needs and not args.target:
        raise UsageError(f"table {args.action} needs {needs[args.action]}")
    if args.action == "list" and args.target:
        raise UsageError(f"unexpected {quoted(args.target)}: table list takes no id")
    given = [f"--{k}" for k in ("seats", "min", "course", "deadline", "starts", "fill", "id")
             if getattr(args, k) is not None] + (["--option"] if args.option else [])
    if args.action != "open" and given:
        raise UsageError(f"{given[0]} is for table open")
    with _app(args) as app:
        try:
            if args.action == "open":
                out = open_table(app.gm, Opening(args.target, args.seats, args.min, args.course,
                                                 _options(args.option), args.deadline, args.starts, args.fill,
                                                 args.id), now())
            elif args.action == "list":
                found = rows(app.store, now())
                out = json.dumps(found, indent=2, ensure_ascii=False) if args.json else rows_text(found)
            else:
                out = close_table(app.gm, args.target)
                _send_or_warn(app, "table close")
        except (KeyError, ValueError) as e:
            raise UsageError(_words(e))
    print(out)
    return 0


COMMANDS = {"ratings": cmd_ratings, "calendar": cmd_calendar, "table": cmd_table, "export": cmd_export, "verify": cmd_verify, "league": cmd_league, "new-game": cmd_new_game, "process": cmd_process, "deliver": cmd_deliver, "run": cmd_run,
            "show": cmd_show, "list": cmd_list, "demo": cmd_demo, "gm": cmd_gm, "inbox": cmd_inbox,
            "check": cmd_check, "outbox": cmd_outbox}

if __name__ == "__main__":
    sys.exit(main())
