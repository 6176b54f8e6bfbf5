"""The commands about a game's public record: export, and verify (which needs no configuration)."""
from __future__ import annotations

import json
import sys

from pbem.commands import UsageError
from pbem.commands.common import open_app
from pbem.gm.admin import no_such_game
from pbem.gm.fairness import Difference, export_record, quoted as as_json, verify_record
from pbem.mail.clean import clean


def cmd_export(args) -> int:
    with open_app(args) as app:
        record = export_record(app.store, args.game, with_addresses=app.config.gm.export_addresses)
        if record is None:
            raise UsageError(no_such_game(args.game, [row.id for row in app.store.games()]))
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


def cmd_verify(args) -> int:
    """Needs no configuration and no store: the record and the rules are enough. The record may
    come from anyone: what it says is quoted only cut short and cleaned."""
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        record = json.loads(text)
    except (OSError, ValueError, RecursionError) as e:
        raise UsageError(f"cannot read a record from {clean(args.file, 80)}: {clean(e)}") from None
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
