"""The one clock of pbem, and the durations that deadlines are written in.

Everything that needs the time asks ``now()``, so that ``PBEM_NOW`` can pin it for replays and
tests. With ``PBEM_CLOCK=running`` as well, the clock is not pinned but starts at ``PBEM_NOW`` when
the process starts (when this module is loaded) and runs on from there at the pace of the
machine's monotonic clock: a daemon under test meets its deadlines on time, whatever the machine's
date. Times are always aware and in UTC; players' own time zones are a matter of display.
"""
from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime, timedelta

from pbem.errors import BadValue
from pbem.mail.clean import quoted

ENV_NOW = "PBEM_NOW"
ENV_CLOCK = "PBEM_CLOCK"
_CLOCKS = ("pinned", "running")  # what PBEM_CLOCK may say; unset or empty is "pinned"
_STARTED = time.monotonic()  # the process's start, as far as the clock is concerned

_UNIT_SECONDS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"([0-9]{1,6})\s*([wdhms])")  # ASCII digits only, and few of them
_DURATION_HINT = "a duration like 48h, 3d or 90m"
_LONGEST_DURATION = 366 * 86400  # a deadline further off than that is a typing mistake


class BadTime(BadValue):
    """A time, a duration or the clock's own setting (`PBEM_NOW`, `PBEM_CLOCK`) that cannot be read."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time as an aware UTC datetime; a value without an offset is taken as UTC."""
    value = text.strip()
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise BadTime(
            f"expected an ISO 8601 time like 2026-12-01T18:00:00Z, got {_shown(text)}") from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def now() -> datetime:
    """The current time (aware, UTC): ``$PBEM_NOW`` when it is set, else the real time.

    With ``$PBEM_CLOCK`` set to ``running``, ``$PBEM_NOW`` is where the clock stood when the
    process started, and the time since then (by the monotonic clock) is added."""
    kind = os.environ.get(ENV_CLOCK, "").strip().lower() or "pinned"
    if kind not in _CLOCKS:
        raise BadTime(f"{ENV_CLOCK}: expected 'running' or 'pinned', got {_shown(os.environ[ENV_CLOCK])}")
    pinned = os.environ.get(ENV_NOW, "").strip()
    if not pinned:
        return datetime.now(UTC)
    try:
        start = parse_time(pinned)
    except BadTime as err:
        raise BadTime(f"{ENV_NOW}: {err}") from None
    if kind == "running":
        return start + timedelta(seconds=time.monotonic() - _STARTED)
    return start


def parse_duration(text: str) -> timedelta:
    """``48h``, ``3d``, ``90m``, ``30s``, ``2w`` or a sum such as ``1d12h`` / ``1d 12h``."""
    if not isinstance(text, str):
        raise BadTime(f"expected {_DURATION_HINT}, got {_shown(text)}")
    compact = text.strip().lower()
    if compact.startswith("-"):
        raise BadTime(f"a duration must be longer than zero, got {_shown(text)}")
    pos, seconds = 0, 0
    for part in _PART.finditer(compact):
        if compact[pos:part.start()].strip():
            pos = -1
            break
        seconds += int(part.group(1)) * _UNIT_SECONDS[part.group(2)]
        pos = part.end()
    if pos <= 0 or compact[pos:].strip():
        raise BadTime(f"expected {_DURATION_HINT}, got {_shown(text)}")
    if seconds <= 0:
        raise BadTime(f"a duration must be longer than zero, got {_shown(text)}")
    if seconds > _LONGEST_DURATION:
        raise BadTime(f"a duration may be a year at most, got {_shown(text)}")
    return timedelta(seconds=seconds)


def _shown(text: str) -> str:
    return quoted(text, 40)


def format_duration(span: timedelta) -> str:
    """Days, hours and minutes, largest first: ``2d 4h``, ``1h 30m``; seconds only under a minute."""
    total = int(span.total_seconds())
    sign, total = ("-", -total) if total < 0 else ("", total)
    if total < 60:
        return f"{sign}{total}s"
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
    return sign + " ".join(parts)


def format_utc(moment: datetime) -> str:
    """``2026-12-01 18:00 UTC``; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
