"""Calendars as a layer above the GM (`pbem.gm.layers`): the calendar parts of a player's mail
and SET CALENDAR, kept here so that the GM never imports the calendars.

A mail that states a deadline to a player who asked (SET CALENDAR ON) carries it as an event
(`METHOD:PUBLISH`), and the store notes that the reader holds it. Every later mail about that
game to that reader looks at what they hold: an event whose deadline has moved comes again at
its new time (the same UID, its SEQUENCE raised: the entry moves), and one that no longer stands
(the turn resolved, the game paused, finished or abandoned, the seat handed to another) is
withdrawn by a part of its own (`METHOD:CANCEL`), once. A reader who will get no more mail
about the game (a seat handed on) gets the withdrawal in a notice of its own.

A league's welcome puts the season's round openings in every player's calendar (`season.ics`);
the store notes them apart from the deadlines (`hold_season`), and a player who leaves the league
(withdrawn, or the row handed to another or to a robot) has those still to come withdrawn in the
mail that tells them so (`withdraw_season`).
"""
from __future__ import annotations

from pbem import calendars
from pbem.calendars import Organizer, calendar, owed, stamp, standing
from pbem.calendars import rows as calendar_rows
from pbem.gm.layers import Layer
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter
from pbem.render import render

# The mail that states a deadline for its reader (CONTRACT section 13, calendars).
CALENDAR_KINDS = (MailKind.WELCOME, MailKind.TURN, MailKind.REPORT, MailKind.REMINDER, MailKind.NOTICE)
# The postman's memos, read once a pass: who asked for calendar parts, and who holds an event.
_PLAYERS = "calendar players"
_HOLDERS = "calendar holders"


class CalendarLayer(Layer):
    name = "calendars"

    def attachment(self, postman, kind: MailKind, template: str | None, table, seat, stated: bool = True) -> dict:
        """The calendar parts of this mail to `seat`: the deadline it states, as one event, when
        the player asked for calendar parts and owes a move with a deadline now (`stated`: the
        mail states one); the events the reader holds of this game that have moved since, or
        that no longer stand (each withdrawn by a part of its own)."""
        address = seat.address
        asked = address in _players(postman)
        holds = address in _holders(postman)
        if not asked and not holds:
            return {}
        store, organizer = postman.store, _organizer(postman)
        publish = []
        if asked and stated and (kind in CALENDAR_KINDS or template in ("calendar", "absence")):
            publish = owed(store, table, postman.gm_address, address)
        gone = []
        if holds:
            now = {entry.uid: entry for entry in standing(store, table, postman.gm_address, address)}
            stated_uids = {entry.uid for entry in publish}
            for event in calendar_rows.held(store, address, table.id):
                entry = now.get(event.uid)
                if entry is None:
                    gone.append(event)
                elif event.at != stamp(entry.start) and entry.uid not in stated_uids:
                    publish.append(entry)  # the deadline it holds has moved: the entry moves
        parts: dict = {}
        if publish:
            parts["calendar"] = calendar(store, publish, postman.now, organizer, publish=True)
            for entry in publish:
                calendar_rows.hold(store, address, table.id, entry.uid, stamp(entry.start), entry.summary)
            _holders(postman).add(address)
        if gone:
            parts["calendar_cancels"] = _withdrawn(postman, address, gone, organizer)
        return parts

    def setting(self, postman, address: str, what: str, on: bool) -> bool:
        if what != "calendar":
            return False
        want(postman, address, on)
        return True

    def seat_replaced(self, store, postman, table, seat, old_address: str) -> None:
        """The leaver gets no more mail about the game: what they hold of it is withdrawn now."""
        if old_address.lower() != seat.address:
            withdraw_by_notice(postman, table, old_address.lower())

    def game_ended(self, store, postman, table) -> None:
        """The result (or the abandonment's notice) withdrew the players' events; anyone who
        still holds one of the game (nothing more comes to them) has it withdrawn now."""
        for address in calendar_rows.holders_of(store, table.id):
            withdraw_by_notice(postman, table, address)


def want(postman, address: str, on: bool) -> None:
    """SET CALENDAR ON|OFF: the player's wish kept, and read again for the next mail. OFF stops
    new events; what the reader holds is still withdrawn when it no longer stands, so that no
    entry of pbem's is left standing for a deadline that is gone."""
    calendar_rows.set_calendar(postman.store, address, on, postman.now)
    postman.memo.pop(_PLAYERS, None)


def withdraw_by_notice(postman, table, address: str) -> None:
    """A notice to `address` that withdraws each event of the game it holds that no longer
    stands for it, when there is any."""
    if address not in _holders(postman):
        return
    mine = {entry.uid for entry in standing(postman.store, table, postman.gm_address, address)}
    gone = [event for event in calendar_rows.held(postman.store, address, table.id) if event.uid not in mine]
    if not gone:
        return
    ctx = postman.context(None, None)
    subject, text = render("calendar_withdrawn", None, **ctx, game_id=table.id,
                           entries=[event.summary for event in gone])
    postman.post(Letter(kind=MailKind.NOTICE, to_addr=address, game_id=table.id, subject=f"[{table.id}] {subject}",
                        text=text, calendar_cancels=_withdrawn(postman, address, gone, _organizer(postman))))


def hold_season(postman, league_id: str, address: str, entries: list) -> None:
    """`address` was sent the round openings `entries` of the league (its welcome's part)."""
    for entry in entries:
        calendar_rows.hold_season(postman.store, address, league_id, entry.uid, stamp(entry.start), entry.summary)


def withdraw_season(postman, league_id: str, address: str) -> tuple[str, ...]:
    """The CANCEL parts, one each, for the round openings of the league that `address` holds and
    that are still to come, for the mail that tells them they have left it; after it they hold
    none of the league's (an opening gone by stands as it happened)."""
    store, now = postman.store, stamp(postman.now)
    ahead = [event for event in calendar_rows.season_held(store, address, league_id) if event.at > now]
    organizer = _organizer(postman)
    out = tuple(calendars.cancel(store, event, postman.now, organizer) for event in ahead)
    calendar_rows.release_season(store, address, league_id)
    return out


def _withdrawn(postman, address: str, gone: list, organizer: Organizer) -> tuple[str, ...]:
    """One CANCEL calendar for each event, and the reader holds them no more."""
    out = []
    for event in gone:
        out.append(calendars.cancel(postman.store, event, postman.now, organizer))
        calendar_rows.release(postman.store, address, event.uid)
    return tuple(out)


def _organizer(postman) -> Organizer:
    return Organizer(postman.gm_name, postman.gm_address)


def _players(postman) -> frozenset:
    players = postman.memo.get(_PLAYERS)
    if players is None:
        players = postman.memo[_PLAYERS] = calendar_rows.calendar_players(postman.store)
    return players


def _holders(postman) -> set:
    """Who holds an event (a superset: an address stays in it for the rest of the pass)."""
    holders = postman.memo.get(_HOLDERS)
    if holders is None:
        holders = postman.memo[_HOLDERS] = set(calendar_rows.holders(postman.store))
    return holders


__all__ = ["CALENDAR_KINDS", "CalendarLayer", "hold_season", "want", "withdraw_by_notice", "withdraw_season"]
