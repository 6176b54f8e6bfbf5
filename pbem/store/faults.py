"""Crash points for the recovery tests: with PBEM_CRASH_AT=<point> the process kills itself
(SIGKILL, no clean-up at all) when it reaches that point, the way a power cut would."""
from __future__ import annotations

import os
import signal


def checkpoint(point: str) -> None:
    if os.environ.get("PBEM_CRASH_AT") == point:
        os.kill(os.getpid(), signal.SIGKILL)
