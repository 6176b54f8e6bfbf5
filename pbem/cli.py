"""The command line: `pbem [--config FILE] <command> ...` (see `pbem --help`).

The parser and the usage errors are here; each command's body is in `pbem.commands`, imported
only when that command runs.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys

from pbem import __version__
from pbem.commands import EXIT_CONFIG, EXIT_TEMPFAIL, EXIT_USAGE, UnusableStore, UsageError
from pbem.games import compiled
from pbem.games.registry import GAMES, types as game_types

__all__ = ["COMMANDS", "EXIT_CONFIG", "EXIT_TEMPFAIL", "EXIT_USAGE", "UnusableStore", "UsageError",
           "build_parser", "main", "run_with"]


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
    "backup": "Writes a copy of the store to FILE while passes may run (SQLite's online backup: the copy "
        "is the store as one moment left it, checked before it is named FILE). To restore, stop pbem, "
        "then point store: at the copy (or put it in the store's place). FILE must not exist unless "
        "--force. Exit 0; 2 for a FILE or store that cannot be used; 75 when the store stays busy.",
    "verify": "Checks a record written by pbem export, with nothing else (no configuration, no store): "
        "the seed against its commitment, then a replay of every order from the seed, comparing "
        "every deal, roll and result. Prints 'verified: <id>: <result line>' and exits 0, or 'not "
        "verified: <id>: <the first difference>' and exits 1.",
}


def build_parser(types: str | None = None) -> argparse.ArgumentParser:
    p = Parser(prog="pbem", description="A play-by-email game master for golf games.")
    p.add_argument("--version", action="version", version=f"pbem {__version__}",
                   help="print pbem's version (pbem <version>) and exit")
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
    pl = add("players", help="every address that has played here: games finished and running, and the share of "
                             "deadlines met in the last 365 days",
             description="One row per address that has had a seat in a game (robots are left out): the name it "
                         "last played under, its games finished (played) and on now (running), on_time (the "
                         "share of the deadlines it owed in the last 365 days, over every game, that its orders "
                         "came before; null with none owed), owed (how many), and absences_left (the days of "
                         "absence.days_per_year not used this calendar year).")
    pl.add_argument("--json", action="store_true", help="a JSON list")
    cal = add("calendar", help="the deadlines owed in a game or a league as an iCalendar file (RFC 5545)",
              description="Prints an iCalendar file: one event for each deadline owed now in the game (or in "
                          "the league's games, with each round still to open), in UTC; with --player, that "
                          "player's alone. With no event to print (no deadline stands, or the player plays "
                          "no seat there) it prints why on stderr and exits 1: an iCalendar file holds at "
                          "least one event.")
    cal.add_argument("target", metavar="GAME|LEAGUE")
    cal.add_argument("--player", metavar="ADDRESS", help="only the deadlines that player owes")
    ib = add("inbox", help="kept mail that could not be handled or was screened; `inbox retry ID` handles "
                           "one again",
                        description="Lists the kept inbound mail whose handling failed (with the reason) and "
                                    "the mail a screening rule kept from any answer (status screened, with the "
                                    "rule), each with the inbox's step that ended it (or was at work when it "
                                    "failed), or with `retry ID` handles that message again (screened mail "
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
    dm.add_argument("--keep", nargs="?", const=True, default=False, metavar="DIR",
                    help="keep the demo's folder (its path is printed); with DIR, play in that new or empty "
                         "folder and leave it there")
    gm = add("gm", help="a GM command, the same as by mail: EXTEND, DEADLINE, PAUSE, RESUME, "
                                   "PROCESS, REPLACE, NEWSECRET, ABANDON, WITHDRAW, ROLLBACK",
                        description="EXTEND <game> <duration> | DEADLINE <game> <when> | PAUSE <game> | "
                                    "RESUME <game> | PROCESS <game> | "
                                    "REPLACE <game or league> <old address> <new spec> | "
                                    "NEWSECRET <game> <address> | ABANDON <game> | WITHDRAW <league> <address> | "
                                    "ROLLBACK <game> [TO <turn>]")
    gm.add_argument("words", nargs="+", metavar="WORD", help="the command and its arguments")
    ex = add("export", help="a game's public record as JSON, for pbem verify")
    ex.add_argument("game", metavar="GAME")
    vf = add("verify", help="check a game's record: the seed against its commitment, then a replay of every "
                            "order (exit 0 verified, 1 with the first difference)")
    vf.add_argument("file", metavar="FILE", help="a record written by `pbem export` (- for stdin)")
    bk = add("backup", help="a consistent copy of the store, taken while passes run; pbem carries on from it")
    bk.add_argument("file", metavar="FILE", help="the copy to write (a new file, unless --force)")
    bk.add_argument("--force", action="store_true", help="replace FILE if it exists (once the new copy is whole)")
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
    ar = add("arena", help="robots and programs play each other: N games, no mail, no store",
             description="Plays N games of TYPE on this machine between the seats given (robot:<level>, or "
                         "exec:<command line>: a program that reads one JSON line per move, the seat's view, "
                         "its seat and the legal orders, and writes the order as one line), seats rotated "
                         "between games, game k on seed N+k; prints each seat's games won and shared, its "
                         "mean score and decision times. An unreadable or illegal line, or no answer within "
                         "--timeout seconds, loses that game.")
    ar.add_argument("type", metavar="TYPE", help="the game")
    ar.add_argument("--seat", action="append", required=True, metavar="SPEC",
                    help="robot:easy, robot:strong or exec:<command line> (repeat per seat)")
    ar.add_argument("--course", help="a course template name or a par string")
    ar.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    ar.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    ar.add_argument("--seed", type=int, default=1, help="game k (from 0) uses seed N+k (default 1)")
    ar.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                    help="how long a program may think about one move (default 10)")
    ar.add_argument("--json", action="store_true", help="one JSON object")
    return p


def _table_parser(add) -> None:
    tb = add("table", help="open tables that players join by mail: `table open TYPE --seats N`, `table list`, "
                           "`table close ID`",
             description="open TYPE --seats N [--min M] [--course C] [--option K=V ...] [--deadline D] "
                         "[--starts WHEN] [--fill robots|wait|cancel] [--id ID] [--min-on-time X]: open a table "
                         "that players join by mail (JOIN <table>), and print its id | list [--json]: every "
                         "table, open ones first: seats taken and free, who has joined, when it starts | "
                         "close ID: close an open table; "
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
    tb.add_argument("--min-on-time", metavar="X",
                    help="open: refuse a JOIN from an address whose orders met less than X of its deadlines in "
                         "the last 365 days (see `pbem players`); X a fraction from 0 to 1 (0.8) or a "
                         "percentage (80%%). An address that has owed no deadline yet may join")
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
    stale = compiled.refusal()
    if stale:  # the optional build (scripts/native.py) shadows sources changed since
        print(f"pbem {args.command}: {stale}", file=sys.stderr)
        # `deliver` answers its MTA: a temporary failure keeps the player's mail queued until
        # the admin builds again; any other exit would bounce it.
        return EXIT_TEMPFAIL if args.command == "deliver" else EXIT_CONFIG
    try:
        return _command(args.command)(args)
    except UsageError as e:
        print(f"pbem {args.command}: {e}", file=sys.stderr)
        return e.code
    except BrokenPipeError:
        # `pbem show x --json | head`: the reader has enough. Quietly, like any Unix tool.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def run_with(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """`pbem ARGS` in this process with `env` set for the call alone: (exit code, stdout,
    stderr). For scripts that drive pbem many times over (the transcripts, the benches)."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return code, out.getvalue(), err.getvalue()


# Each command's body, as "module:function": imported by `_command` when the command runs.
COMMANDS = {
    "new-game": "pbem.commands.games:cmd_new_game",
    "process": "pbem.commands.mail:cmd_process",
    "deliver": "pbem.commands.mail:cmd_deliver",
    "run": "pbem.commands.mail:cmd_run",
    "show": "pbem.commands.games:cmd_show",
    "list": "pbem.commands.games:cmd_list",
    "ratings": "pbem.commands.players:cmd_ratings",
    "players": "pbem.commands.players:cmd_players",
    "calendar": "pbem.commands.players:cmd_calendar",
    "inbox": "pbem.commands.mail:cmd_inbox",
    "check": "pbem.commands.check:cmd_check",
    "outbox": "pbem.commands.mail:cmd_outbox",
    "demo": "pbem.commands.demo:cmd_demo",
    "gm": "pbem.commands.gm:cmd_gm",
    "export": "pbem.commands.records:cmd_export",
    "verify": "pbem.commands.records:cmd_verify",
    "backup": "pbem.commands.backup:cmd_backup",
    "league": "pbem.commands.leagues:cmd_league",
    "arena": "pbem.commands.arena:cmd_arena",
    "table": "pbem.commands.leagues:cmd_table",
}


def _command(name: str):
    """The one lazy door: the command's module is imported now, when it runs, and no other.
    Start-up time: `pbem deliver` runs once per mail and `pbem process` from cron every few
    minutes; the modules of the other commands (and the GM behind most) cost several times the
    CLI's own start, and `pbem --help` needs none of them."""
    module, _, function = COMMANDS[name].partition(":")
    return getattr(importlib.import_module(module), function)


if __name__ == "__main__":
    sys.exit(main())
