"""Digests (CONTRACT section 14): the mail that asks nothing of its reader, one mail a day.

`SET DIGEST DAILY [<HH:MM>]` (the reader's time zone; 18:00 by default) or `SET DIGEST OFF`, per
address. While it is on, a report, result or notice of a game in which the reader owes nothing
at the time, the standings, and every mail the address gets as a spectator are not queued: the
GM marks such a letter (`Letter.digest`) and this layer keeps it (`rows.hold`) in the same
transaction that would have queued it. At the reader's time of day the clock's tick writes one
digest of what waits, oldest first, and queues it in the outbox in one transaction that marks
its items carried: a process killed anywhere loses no item and sends none twice. Mail that asks
something of the reader (a turn, a reminder, an error, an answer, a confirmation, a welcome)
is never held.

A digest is mail the reader asked to follow: it carries `List-Id` and a `List-Unsubscribe`
mailto whose address holds the reader's digest token and whose subject is `SET DIGEST OFF`, so
that the button turns the digest off with no password (what waits then comes at once, as a last
digest). The same token in its Reply-To lets a reply set the time.
"""
from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from pbem.clock.schedule import UnknownZone, format_deadline, zone
from pbem.store import Store
from pbem.digests import rows

# A digest holds at most this many items, and about this much text; the rest waits for the next.
MOST_ITEMS = 200
MOST_CHARS = 200_000
TOKEN_PREFIX = "d"


def zone_of(store: Store, address: str) -> str:
    """The reader's time zone (its seats' SET TIMEZONE, or a league's), UTC when it has none."""
    return rows.latest_zone(store, address) or "UTC"


def next_moment(after: datetime, at: str, zone_name: str) -> datetime:
    """The first `at` (HH:MM) in the zone strictly after `after`, in UTC."""
    try:
        where = zone(zone_name)
    except UnknownZone:
        where = zone("UTC")
    hour, minute = (int(part) for part in at.split(":"))
    local = after.astimezone(where)
    for days in range(3):  # today's, tomorrow's, or (over a change of clocks) the day after
        candidate = datetime.combine(local.date() + timedelta(days=days), time(hour, minute), tzinfo=where)
        if candidate.astimezone(UTC) > after:
            return candidate.astimezone(UTC)
    raise AssertionError("a time of day comes again within three days")


def local_day(moment: datetime, zone_name: str) -> str:
    """The reader's date at `moment` (ISO)."""
    try:
        return moment.astimezone(zone(zone_name)).date().isoformat()
    except UnknownZone:
        return moment.astimezone(UTC).date().isoformat()


def shown(moment: datetime, zone_name: str) -> str:
    """A moment as the reader reads it: `2026-12-01 18:00 CET (17:00 UTC)`."""
    return format_deadline(moment, zone_name) or ""


__all__ = ["MOST_CHARS", "MOST_ITEMS", "TOKEN_PREFIX", "local_day", "next_moment", "shown", "zone_of"]
