"""The commands about what players follow across games: ratings, and the calendar of deadlines."""
from __future__ import annotations

import json
import sys

from pbem.calendars.targets import for_target, known
from pbem.clock import now
from pbem.commands import UsageError
from pbem.commands.common import open_app, words
from pbem.games import game_type
from pbem.gm.admin import no_such_game
from pbem.ratings import ratings, ratings_text


def cmd_ratings(args) -> int:
    if args.type is not None:
        try:
            game_type(args.type)
        except KeyError as e:
            raise UsageError(words(e)) from None
    with open_app(args) as app:
        rows = ratings(app.store, args.type.lower() if args.type else None)
    print(json.dumps(rows, indent=2, ensure_ascii=False) if args.json else ratings_text(rows))
    return 0


def cmd_calendar(args) -> int:
    with open_app(args) as app:
        with app.store.transaction():
            text = for_target(app.store, args.target, args.player, now(), app.config.gm.address)
        if text is None:
            said = no_such_game(args.target, known(app.store), "games and leagues")
            raise UsageError(said.replace("no game", "no game or league"))
    sys.stdout.write(text)
    return 0
