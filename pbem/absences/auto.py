"""SET AUTOABSENCE ON: a deadline that passes while a player owes orders takes a day of that
player's allowance and moves a day later, instead of the game's rule for missed deadlines, up
to three times in a row (no orders of theirs in the game between). Each time the player is
told, in a notice, and the other players that the deadline moved."""
from __future__ import annotations

from datetime import datetime, timedelta

from pbem.mail.kinds import MailKind
from pbem.store import LogEvent
from pbem.absences import rows
from pbem.absences.allowance import DAY, Allowance, zone_of, where

IN_A_ROW = 3
# A pass that runs long after the deadline still gives the player a whole day from now, at least.
_SOONEST = timedelta(hours=1)
# What shows a player is here: an order of theirs taken, or a resignation (a move announced may
# be one the rule for missed deadlines played).
_THEIRS = (LogEvent.ORDERS, LogEvent.RESIGN)


def in_a_row(store, table, seat) -> int:
    """The days AUTOABSENCE took for this seat's game since the seat last played (its own orders)."""
    played = [ev["at"] for ev in store.events(table.id) if ev["seat"] == seat.seat and ev["kind"] in _THEIRS
              and not ev.get("robot")]
    since = max(played, default="")
    return sum(1 for span in rows.spans(store, [seat.address], rows.AUTO)
               if span.game_id == table.id and span.at > since)


def grant(store, postman, table, now: datetime, per_year: int) -> datetime | None:
    """A day more for every seat that owes orders at a passed deadline, when each of them has
    AUTOABSENCE on, fewer than three such days in a row in this game, and a day of allowance
    left (the year's, and the season's of a league they play in); else None, and the game's
    rule plays. The new deadline is set on `table` (saved by the caller) and told."""
    row = table.row
    if row.deadline is None or row.paused or row.options.get("nmr") == "wait":
        return None
    owing = [table.seats[s] for s in sorted(table.state.to_move())]
    if not owing or any(seat.robot or not rows.auto_on(store, seat.address) for seat in owing):
        return None
    until = row.deadline + DAY
    if until <= now + _SOONEST:
        until = now + DAY
    until = table.settled(until)
    granted = []
    for seat in owing:
        count = in_a_row(store, table, seat)
        zone_name = zone_of(store, seat.address, table)
        day = until.astimezone(where(zone_name)).date()
        allowance = Allowance(store, seat.address, per_year)
        if count >= IN_A_ROW or (day not in allowance.used and allowance.short({day}) is not None):
            return None
        granted.append((seat, count + 1, day, zone_name))
    for seat, _, day, zone_name in granted:
        rows.add(store, seat.address, day, day, zone_name, now, kind=rows.AUTO, game_id=table.id)
    row.deadline, row.reminded_turn = until, None
    owed = {seat.seat for seat, *_ in granted}
    for seat, count, day, _ in granted:
        allowance = Allowance(store, seat.address, per_year)
        postman.to_seat(MailKind.NOTICE, table, seat, template="absence_auto", count=count, most=IN_A_ROW,
                        left=allowance.left_in(day.year), year=day.year, seasons=allowance.seasons())
    names = [seat.name for seat, *_ in granted]
    absent = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    for seat in table.seats:
        if seat.seat not in owed:
            postman.to_seat(MailKind.NOTICE, table, seat, template="absence_moved", absent=absent, auto=True)
    return until


__all__ = ["IN_A_ROW", "grant", "in_a_row"]
