"""`pbem calendar GAME|LEAGUE`: the deadlines of one game, or of every game of a league with the
openings of its rounds still to come. Apart from the calendars themselves, which the GM's mail
uses and which know nothing of leagues.

RFC 5545 has no calendar without an event: where there is nothing to put in one (no deadline
stands, or the address given plays no seat there), `NoCalendar` says why in one line."""
from __future__ import annotations

from datetime import datetime

from pbem.calendars import Organizer, calendar, openings, owed
from pbem.errors import PbemError
from pbem.gm import games
from pbem.league import rows
from pbem.league.plan import read_plan
from pbem.league.season import current_addresses
from pbem.store import GameStatus


class NoCalendar(PbemError):
    """Nothing for `pbem calendar` to print: why, in one line."""


def for_target(store, target: str, address: str | None, now: datetime, organizer: Organizer) -> str | None:
    """`pbem calendar GAME|LEAGUE [--player ADDRESS]`: the calendar, or None when `target`
    names neither; NoCalendar when it would hold no event."""
    address = address.strip().lower() if address else None
    gm_address = organizer.address
    table = games.load(store, target)
    if table is not None:
        if address is not None and table.seat_of(address) is None:
            players = ", ".join(s.address for s in table.seats if not s.robot) or "robots only"
            raise NoCalendar(f"{address} plays no seat in game {target} (its players: {players})")
        entries = owed(store, table, gm_address, address)
        if not entries:
            raise NoCalendar(_none_owed(table, address))
        return calendar(store, entries, now, organizer)
    league = rows.league(store, target)
    if league is None:
        return None
    plan = read_plan(dict(league["plan"], id=target))
    entries = [] if league["status"] != "active" else openings(store, target, plan, gm_address, now)
    played = False
    for row in rows.league_games(store, target):
        one = games.load(store, row.id)
        assert one is not None  # a league's game is in the store
        played = played or (address is not None and one.seat_of(address) is not None)
        if row.status == GameStatus.ACTIVE:
            entries += owed(store, one, gm_address, address)
    if address is not None and not played and address not in current_addresses(store, target):
        raise NoCalendar(f"{address} plays in no row and no game of league {target}")
    if not entries:
        whose = f" by {address}" if address else ""
        raise NoCalendar(f"league {target} ({league['status']}) has no deadline owed now{whose} and no round "
                         "still to open: no calendar to print")
    return calendar(store, sorted(entries, key=lambda e: (e.start, e.uid)), now, organizer)


def _none_owed(table, address: str | None) -> str:
    """Why a game has no deadline to put in a calendar now."""
    row, game = table.row, f"game {table.id}"
    if row.status != GameStatus.ACTIVE:
        why = f"{game} is {row.status}: no deadline stands"
    elif row.paused:
        why = f"{game} is paused: no deadline runs until the GM resumes it"
    elif row.deadline is None:
        how = ("it waits for every player's orders (nmr=wait)" if row.options.get("nmr") == "wait"
               else "it was created without one (--deadline)")
        why = f"{game} has no deadline: {how}"
    elif address is not None:
        why = f"{address} owes no move in {game} now"
    else:
        why = f"nobody owes a move in {game} now"
    return why + ": no calendar to print"


def known(store) -> list[str]:
    """The ids `pbem calendar` takes: every game's, then every league's."""
    return [row.id for row in store.games()] + [league["id"] for league in rows.leagues(store)]


__all__ = ["NoCalendar", "for_target", "known"]
