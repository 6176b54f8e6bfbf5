"""The commands about leagues and open tables: league create/show/standings/list, table open/list/close."""
from __future__ import annotations

import json

from pbem.clock import now
from pbem.commands import UsageError
from pbem.commands.common import open_app, options, send_or_warn, words
from pbem.league.commands import league_command
from pbem.mail.clean import quoted
from pbem.tables.opening import Opening, close_table, open_table, rows, rows_text


def cmd_league(args) -> int:
    if args.action != "list" and not args.target:
        raise UsageError(f"league {args.action} needs {'a league file' if args.action == 'create' else 'a league id'}")
    with open_app(args) as app:
        try:
            out = league_command(app, args.action, args.target, as_json=args.json, html=args.html)
        except (KeyError, ValueError, OSError) as e:
            raise UsageError(words(e)) from None
        if args.action == "create":
            send_or_warn(app, "league create")
    if out:
        print(out)
    return 0


def cmd_table(args) -> int:
    needs = {"open": "a game type: pbem table open TYPE --seats N", "close": "a table's id: pbem table close ID"}
    if args.action in needs and not args.target:
        raise UsageError(f"table {args.action} needs {needs[args.action]}")
    if args.action == "list" and args.target:
        raise UsageError(f"unexpected {quoted(args.target)}: table list takes no id")
    given = [f"--{k}" for k in ("seats", "min", "course", "deadline", "starts", "fill", "id")
             if getattr(args, k) is not None] + (["--option"] if args.option else []) \
        + (["--min-on-time"] if args.min_on_time is not None else [])
    if args.action != "open" and given:
        raise UsageError(f"{given[0]} is for table open")
    with open_app(args) as app:
        try:
            if args.action == "open":
                out = open_table(app.gm, Opening(args.target, args.seats, args.min, args.course,
                                                 options(args.option), args.deadline, args.starts, args.fill,
                                                 args.id, args.min_on_time), now())
            elif args.action == "list":
                found = rows(app.store, now())
                out = json.dumps(found, indent=2, ensure_ascii=False) if args.json else rows_text(found)
            else:
                out = close_table(app.gm, args.target)
                send_or_warn(app, "table close")
        except (KeyError, ValueError) as e:
            raise UsageError(words(e)) from None
    print(out)
    return 0
