"""Deadlines and reminders: all stored in UTC, shown in each player's own time zone.

A deadline is an instant (the turn's start plus a duration), so a daylight-saving change between
now and then moves only how it is written in local time, never when it falls.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pbem.clock import BadTime, format_duration, parse_duration
from pbem.mail.clean import quoted
from pbem.store import GameRow, GameStatus

ZONE_EXAMPLES = "Europe/Paris, America/New_York, Asia/Tokyo or UTC"


class UnknownZone(BadTime):
    """A time zone the tz database does not know (or a name that could leave its folder)."""


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """The tz database zone `name` (UnknownZone when there is none)."""
    if not name or name.startswith(("/", ".")) or ".." in name:
        raise UnknownZone(f"unknown time zone {quoted(name)}: use a name like {ZONE_EXAMPLES}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownZone(f"unknown time zone {quoted(name)}: use a name like {ZONE_EXAMPLES}") from None


def canonical_zone(name: str) -> str:
    """The zone's name as the tz database spells it (`europe/paris` -> `Europe/Paris`)."""
    try:
        return str(zone(name).key)
    except UnknownZone:
        for known in _all_zones():
            if known.lower() == name.lower():
                return known
        raise


@lru_cache(maxsize=1)
def _all_zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def format_deadline(moment: datetime | None, zone_name: str | None = None) -> str | None:
    """`2026-12-03 19:00 CET (18:00 UTC)` in the player's zone, or `2026-12-03 18:00 UTC`."""
    if moment is None:
        return None
    utc = moment.astimezone(UTC)
    plain = utc.strftime("%Y-%m-%d %H:%M UTC")
    if not zone_name or zone_name.upper() == "UTC":
        return plain
    try:
        local = utc.astimezone(zone(zone_name))
    except UnknownZone:
        return plain
    same_day = local.date() == utc.date()
    utc_part = utc.strftime("%H:%M UTC") if same_day else plain
    return f"{local.strftime('%Y-%m-%d %H:%M')} {local.tzname()} ({utc_part})"


def stated_deadline(row: GameRow) -> datetime | None:
    """The deadline a mail may state: the stored one of a game in play whose clock runs (while
    the GM has paused a game its stored deadline is stale, and the time left counts instead)."""
    if row.status != GameStatus.ACTIVE or row.paused:
        return None
    return row.deadline


def time_left(row: GameRow) -> str | None:
    """`1d 6h`: what a paused game's turn has left when it resumes (None: not paused, or no deadline)."""
    if row.status != GameStatus.ACTIVE or not row.paused or row.paused_left is None:
        return None
    return format_duration(timedelta(seconds=max(row.paused_left, 0)))


def clock_stopped(row: GameRow, owed: bool = True) -> str | None:
    """What every mail of a paused game says of its clock (None: the clock runs). `owed`: some
    orders are owed now, and the time left is theirs (not when the orders just sent are the
    last of a turn, whose report tells the next turn's time)."""
    if row.status != GameStatus.ACTIVE or not row.paused:
        return None
    left = time_left(row)
    if left is None or not owed:
        return "The game is paused: the clock is stopped until the GM resumes it."
    return (f"The game is paused: the clock is stopped, and when the GM resumes it, turn "
            f"{row.turn} has {left} left for orders.")


# Reminders before a deadline (CONTRACT section 14): at most this many, each this far before it.
MOST_REMINDERS = 3
EARLIEST_REMINDER = timedelta(days=7)
LATEST_REMINDER = timedelta(minutes=30)
REMINDERS_EXAMPLE = "SET REMINDERS 24h 4h 1h"
REMINDERS_RULE = ("SET REMINDERS takes at most three durations before the deadline, each from 30m to 7d "
                  "(such as 24h, 4h or 90m), or OFF for no reminders")


class BadReminders(BadTime):
    """Reminder times that break the rule (`REMINDERS_RULE`): the message says which and why."""


def read_reminders(words: list[str]) -> tuple[timedelta, ...]:
    """The moments before a deadline that `words` name (each word one duration; `OFF` alone:
    none), latest reminder last and each once: (24h, 4h, 1h)."""
    if len(words) == 1 and words[0].lower() == "off":
        return ()
    if not words:
        raise BadReminders(f"no times given; {REMINDERS_RULE}")
    if len(words) > MOST_REMINDERS:
        raise BadReminders(f"{len(words)} times given; {REMINDERS_RULE}")
    found: set[timedelta] = set()
    for word in words:
        try:
            span = parse_duration(word)
        except BadTime:
            raise BadReminders(f"{quoted(word, 20)} is not a duration; {REMINDERS_RULE}") from None
        if not LATEST_REMINDER <= span <= EARLIEST_REMINDER:
            how = "too short" if span < LATEST_REMINDER else "too long"
            raise BadReminders(f"{quoted(word, 20)} is {how}; {REMINDERS_RULE}")
        found.add(span)
    return tuple(sorted(found, reverse=True))


def reminder_words(befores: tuple[timedelta, ...]) -> str:
    """`24h, 4h and 1h` (`off` for none), as the mail and the config write them."""
    said = [_short(b) for b in befores]
    if not said:
        return "off"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _short(span: timedelta) -> str:
    """A reminder's time before the deadline: `24h` (not `1d`: what a player wrote most often),
    `90m` as `1h 30m`, `3d` for whole days past a day."""
    total = int(span.total_seconds())
    if total % 86400 == 0 and total > 86400:
        return f"{total // 86400}d"
    if total % 3600 == 0:
        return f"{total // 3600}h"
    return format_duration(span)
