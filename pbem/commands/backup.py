"""`pbem backup FILE`: a copy of the store, consistent while passes run, that pbem carries on from."""
from __future__ import annotations

from pathlib import Path

from pbem.commands import EXIT_TEMPFAIL, EXIT_USAGE, UsageError
from pbem.commands.common import read_config
from pbem.store.backup import back_up
from pbem.store.file import StoreError


def cmd_backup(args) -> int:
    """No pass lock and no App: the copy is one read transaction, so passes go on meanwhile and
    nothing in the store is written (not even the schema of a newer layer)."""
    config = read_config(args)
    target = Path(args.file)
    try:
        copied = back_up(Path(config.store), target, force=args.force)
    except StoreError as e:
        raise UsageError(str(e), EXIT_TEMPFAIL if e.temporary else EXIT_USAGE) from None
    print(f"backed up {config.store} to {target}: {copied.games} game(s), {copied.size} bytes")
    return 0
