"""The commands about games: new-game, show, list (the public record: `records`; ratings and
calendars: `players`)."""
from __future__ import annotations

import email.utils
import json

from pbem.clock import parse_duration
from pbem.commands import UsageError
from pbem.commands.common import open_app, options, send_or_warn, words
from pbem.games import game_type, rng
from pbem.gm.admin import no_such_game
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.gm.robot_seats import RobotSpecError, read_spec
from pbem.mail.clean import clean, quoted
from pbem.render.report import game_json, game_text, list_json


def player(spec: str) -> tuple[str, str]:
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


def cmd_new_game(args) -> int:
    try:
        game_type(args.type)
        course = load_course(args.course or DEFAULT_COURSE)
        if args.deadline:
            parse_duration(args.deadline)
    except (KeyError, ValueError) as e:
        raise UsageError(words(e)) from None
    players = [player(s) for s in args.player]
    if args.id is not None and not args.id.strip():
        raise UsageError("--id '': a game id is letters, digits, - and _ (leave --id out to number it)")
    try:
        seed = rng.seed_from_int(args.seed) if args.seed is not None else rng.new_seed()
    except ValueError as e:
        raise UsageError(f"--seed: {e}") from None
    with open_app(args) as app:
        try:
            game_id = app.gm.new_game(args.type.lower(), players, course, options=options(args.option),
                                      seed=seed, game_id=args.id, deadline=args.deadline)
        except ValueError as e:
            raise UsageError(str(e)) from None
        send_or_warn(app, "new-game")
    print(game_id)
    return 0


def cmd_show(args) -> int:
    with open_app(args) as app:
        data = game_json(app.store, args.game)
        if data is None:
            raise UsageError(no_such_game(args.game, [row.id for row in app.store.games()]))
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else game_text(data))
    return 0


def cmd_list(args) -> int:
    with open_app(args) as app:
        rows = list_json(app.store)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        status = "paused" if r["paused"] else r["status"]
        # A game that is over has no deadline to speak of, stopped or running.
        deadline = "-" if r["status"] != "active" else \
            (r["deadline"] or "-") + (" (clock stopped)" if r["paused"] else "")
        waiting = "  (its state cannot be read: see pbem show)" if r["waiting_for"] is None else \
            f"  waiting for {', '.join(clean(name, 40) for name in r['waiting_for'])}" if r["waiting_for"] else ""
        print(f"{r['id']:<20} {r['type']:<10} {status:<9} turn {r['turn']:<3} deadline {deadline}{waiting}")
    return 0
