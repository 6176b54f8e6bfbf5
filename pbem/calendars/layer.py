"""Calendars as a layer above the GM (`pbem.gm.layers`): the calendar part of a player's mail
and SET CALENDAR, kept here so that the GM never imports the calendars."""
from __future__ import annotations

from pbem.calendars import calendar, owed
from pbem.calendars import rows as calendar_rows
from pbem.gm.layers import Layer
from pbem.mail.kinds import MailKind

# The mail that states a deadline for its reader (CONTRACT section 13, calendars).
CALENDAR_KINDS = (MailKind.WELCOME, MailKind.TURN, MailKind.REPORT, MailKind.REMINDER, MailKind.NOTICE)
_PLAYERS = "calendar players"  # the postman's memo: who asked for calendar parts, read once a pass


class CalendarLayer(Layer):
    name = "calendars"

    def attachment(self, postman, kind: MailKind, template: str | None, table, seat) -> str | None:
        """The deadline this mail states for `seat`, as one calendar event, when the player asked
        for calendar parts (SET CALENDAR ON) and owes a move with a deadline now."""
        if kind not in CALENDAR_KINDS and template not in ("calendar", "absence"):
            return None
        players = postman.memo.get(_PLAYERS)
        if players is None:
            players = postman.memo[_PLAYERS] = calendar_rows.calendar_players(postman.store)
        if seat.address not in players:
            return None
        entries = owed(table, postman.gm_address, seat.address)
        return calendar(postman.store, entries, postman.now, publish=True) if entries else None

    def setting(self, postman, address: str, what: str, on: bool) -> bool:
        if what != "calendar":
            return False
        want(postman, address, on)
        return True


def want(postman, address: str, on: bool) -> None:
    """SET CALENDAR ON|OFF: the player's wish kept, and read again for the next mail."""
    calendar_rows.set_calendar(postman.store, address, on, postman.now)
    postman.memo.pop(_PLAYERS, None)


__all__ = ["CALENDAR_KINDS", "CalendarLayer", "want"]
