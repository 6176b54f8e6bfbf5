"""The CLI's commands, one module per subject: `pbem.cli` parses the words and imports the one
module the command needs (a cron pass never loads what `pbem league` does).

Here, what every command and the CLI share: the usage error and the exit codes. Nothing heavier
is imported here: `pbem --help` imports this package.
"""
from __future__ import annotations

from pbem.errors import PbemError

EXIT_USAGE = 2
EXIT_TEMPFAIL = 75
EXIT_CONFIG = 78   # sysexits EX_CONFIG: a server refuses the settings (systemd: do not restart)


class UsageError(PbemError):
    """A user's mistake: one line on stderr, exit 2 (or `code`), no traceback."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


class UnusableStore(UsageError):
    """The configured store cannot be opened: a setting to mend (2), or busy for now (75)."""
