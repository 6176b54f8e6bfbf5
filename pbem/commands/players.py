"""The commands about what players follow across games: ratings, the players and how reliable
they are, and the calendar of deadlines."""
from __future__ import annotations

import json
import sys

from pbem.calendars import Organizer
from pbem.calendars.targets import NoCalendar, for_target, known
from pbem.clock import now
from pbem.commands import UsageError
from pbem.commands.common import open_app, words
from pbem.games import game_type
from pbem.gm.admin import no_such_game
from pbem.ratings import ratings, ratings_text
from pbem.ratings.players import players, players_text


def cmd_ratings(args) -> int:
    if args.type is not None:
        try:
            game_type(args.type)
        except KeyError as e:
            raise UsageError(words(e)) from None
    with open_app(args) as app:
        rows = ratings(app.store, args.type.lower() if args.type else None, now=now())
    print(json.dumps(rows, indent=2, ensure_ascii=False) if args.json else ratings_text(rows))
    return 0


def cmd_players(args) -> int:
    with open_app(args) as app:
        rows = players(app.store, now(), app.config.absence.days_per_year)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(players_text(rows))
    return 0


def cmd_calendar(args) -> int:
    with open_app(args) as app:
        organizer = Organizer(app.config.gm.name, app.config.gm.address)
        try:
            with app.store.transaction():
                text = for_target(app.store, args.target, args.player, now(), organizer)
        except NoCalendar as e:
            # RFC 5545 has no calendar without an event: nothing on stdout, and why on stderr.
            print(f"pbem calendar: {e}", file=sys.stderr)
            return 1
        if text is None:
            said = no_such_game(args.target, known(app.store), "games and leagues")
            raise UsageError(said.replace("no game", "no game or league"))
    sys.stdout.write(text)
    return 0
