"""Deadlines and reminders: all stored in UTC, shown in each player's own time zone.

A deadline is an instant (the turn's start plus a duration), so a daylight-saving change between
now and then moves only how it is written in local time, never when it falls.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache

ZONE_EXAMPLES = "Europe/Paris, America/New_York, Asia/Tokyo or UTC"


@lru_cache(maxsize=64)
def zone(name: str):
    """The tz database zone `name` (ValueError when there is none)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    try:
        if not name or name.startswith(("/", ".")) or ".." in name:
            raise ValueError
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {name!r}: use a name like {ZONE_EXAMPLES}") from None


def canonical_zone(name: str) -> str:
    """The zone's name as the tz database spells it (`europe/paris` -> `Europe/Paris`)."""
    try:
        return str(zone(name).key)
    except ValueError:
        for known in _all_zones():
            if known.lower() == name.lower():
                return known
        raise


@lru_cache(maxsize=1)
def _all_zones() -> tuple[str, ...]:
    from zoneinfo import available_timezones
    return tuple(sorted(available_timezones()))


def format_deadline(moment: datetime | None, zone_name: str | None = None) -> str | None:
    """`2026-12-03 19:00 CET (18:00 UTC)` in the player's zone, or `2026-12-03 18:00 UTC`."""
    if moment is None:
        return None
    utc = moment.astimezone(timezone.utc)
    plain = utc.strftime("%Y-%m-%d %H:%M UTC")
    if not zone_name or zone_name.upper() == "UTC":
        return plain
    try:
        local = utc.astimezone(zone(zone_name))
    except ValueError:
        return plain
    same_day = local.date() == utc.date()
    utc_part = utc.strftime("%H:%M UTC") if same_day else plain
    return f"{local.strftime('%Y-%m-%d %H:%M')} {local.tzname()} ({utc_part})"
