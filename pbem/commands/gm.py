"""`pbem gm`: a GM command from the shell, the same as by mail."""
from __future__ import annotations

from pbem.commands import UsageError
from pbem.commands.common import open_app, send_or_warn
from pbem.games.errors import OrderError


def cmd_gm(args) -> int:
    line = " ".join(f'"{w}"' if " " in w else w for w in args.words)
    with open_app(args) as app:
        try:
            done = app.gm.gm_command(line)
        except OrderError as e:
            hint = f" (e.g. {' or '.join(e.hint.splitlines())})" if e.hint else ""
            raise UsageError(f"{e.message}{hint}") from None
        send_or_warn(app, "gm")
    print(done)
    return 0
