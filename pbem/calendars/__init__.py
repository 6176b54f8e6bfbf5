"""Calendars (CONTRACT section 13): the deadlines a player owes, as iCalendar (RFC 5545).

One event per deadline owed: a seat that owes a move now (`to_move`) with a deadline. Its `UID`
is fixed by the game, the seat and the turn, so a calendar that has it moves the entry when the
deadline moves; its `SEQUENCE` goes up each time pbem states that deadline at another time
(kept in the store by UID). A league's calendar adds each round's opening. Times are UTC
(`DTSTART:...Z`): a calendar program shows them in its owner's own time zone.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from pbem.calendars.rows import restated
from pbem.mail.clean import clean
from pbem.store import GameStatus

PRODID = "-//pbem//golf by mail//EN"


@dataclass(frozen=True)
class Entry:
    uid: str
    start: datetime
    summary: str
    description: str


def domain_of(gm_address: str) -> str:
    return gm_address.partition("@")[2] or "pbem.invalid"


def deadline_uid(game_id: str, seat: int, turn: int, gm_address: str) -> str:
    """The same for one seat's deadline of one turn, however often it moves."""
    return f"{game_id}.seat{seat + 1}.turn{turn}@{domain_of(gm_address)}"


def owed(table, gm_address: str, address: str | None = None) -> list[Entry]:
    """The deadlines the game's players owe now (those of `address` alone, when given)."""
    row, state = table.row, table.state
    if row.status != GameStatus.ACTIVE or row.deadline is None or row.paused:
        return []
    out = []
    for s in sorted(state.to_move()):
        seat = table.seats[s]
        if seat.robot or (address is not None and seat.address != address.lower()):
            continue
        title = type(state).TITLE
        out.append(Entry(deadline_uid(table.id, s, state.turn, gm_address), _utc(row.deadline),
                         f"{title}: move due in game {table.id} (turn {state.turn}, {seat.name})",
                         f"Your move in game {table.id} is due by then: reply to the GM's last mail about "
                         f"[{table.id}] with your orders."))
    return out


def openings(league_id: str, plan, gm_address: str, now: datetime) -> list[Entry]:
    """Each round of a league still to open."""
    out = []
    for number in range(1, plan.rounds + 1):
        at = plan.opens(number)
        if at <= now:
            continue
        out.append(Entry(f"{league_id}.round{number}@{domain_of(gm_address)}", _utc(at),
                         f"{plan.name}: round {number} opens",
                         f"Round {number} of league {league_id} opens: its games and their first deadlines "
                         "come by mail then."))
    return out


def calendar(store, entries: list[Entry], now: datetime, *, publish: bool = False) -> str:
    """The iCalendar text of `entries`; each one's SEQUENCE as the store keeps it for its UID,
    raised when its time is not the one stated before."""
    # Here, not at the head: icalendar takes longer to load than the rest of a pass's mail, and
    # only a player who asked for calendar parts needs it.
    from icalendar import Calendar, Event  # noqa: PLC0415
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    if publish:
        cal.add("method", "PUBLISH")
    for entry in entries:
        event = Event()
        event.add("uid", entry.uid)
        event.add("dtstamp", _utc(now))
        event.add("dtstart", entry.start)
        # RFC 5545 TEXT takes no control character: a name kept from before names were cleaned
        # on the way in must not bring one.
        event.add("summary", clean(entry.summary, 250))
        event.add("description", clean(entry.description, 500))
        event.add("sequence", sequence(store, entry.uid, entry.start))
        cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def sequence(store, uid: str, start: datetime) -> int:
    """The event's SEQUENCE: 0 the first time, one more each time its time has moved since."""
    return restated(store, uid, _utc(start).strftime("%Y-%m-%dT%H:%M:%SZ"))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


__all__ = ["Entry", "calendar", "deadline_uid", "openings", "owed", "sequence"]
