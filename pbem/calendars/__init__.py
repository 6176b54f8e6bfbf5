"""Calendars (CONTRACT sections 5 and 13): the deadlines a player owes, as iCalendar (RFC 5545).

One event per deadline owed: a seat that owes a move now (`to_move`) with a deadline. Its `UID`
is fixed by the game, the seat and the turn, and by this install's own random id (the store
keeps it), so that two GMs whose games have the same ids never share one: a calendar that has
the event moves the entry when the deadline moves. Its `SEQUENCE` goes up each time pbem states
that deadline at another time, or withdraws it (kept in the store by UID). Every event names the
GM as its `ORGANIZER` (iTIP, RFC 5546). A deadline sent to a reader that no longer stands is
withdrawn by a calendar of its own, `METHOD:CANCEL` (`cancel`). A league's calendar adds each
round's opening. Times are UTC (`DTSTART:...Z`): a calendar program shows them in its owner's
own time zone.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from pbem.calendars.rows import Held, restated, withdrawn
from pbem.mail.clean import clean
from pbem.store import GameStatus, Store

PRODID = "-//pbem//golf by mail//EN"


@dataclass(frozen=True)
class Entry:
    uid: str
    start: datetime
    summary: str
    description: str


@dataclass(frozen=True)
class Organizer:
    """The GM, as every event names it: `ORGANIZER;CN=<name>:mailto:<address>`."""
    name: str
    address: str


def domain_of(gm_address: str) -> str:
    return gm_address.partition("@")[2] or "pbem.invalid"


def deadline_uid(store: Store, game_id: str, seat: int, turn: int, gm_address: str) -> str:
    """The same for one seat's deadline of one turn in this install, however often it moves."""
    return f"{game_id}.seat{seat + 1}.turn{turn}.{store.install_id()}@{domain_of(gm_address)}"


def stamp(moment: datetime) -> str:
    """A moment as the store keeps an event's time (ISO, UTC, to the second)."""
    return _utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def standing(store: Store, table, gm_address: str, address: str) -> list[Entry]:
    """The deadline of the turn now of each seat `address` plays, owed or met: what an event
    sent to that reader stands for until the turn resolves, the game is paused, finished or
    abandoned, or the seat changes hands."""
    row = table.row
    if row.status != GameStatus.ACTIVE or row.deadline is None or row.paused:
        return []
    return [_entry(store, table, s, gm_address) for s, seat in enumerate(table.seats)
            if not seat.robot and seat.address == address.lower()]


def owed(store: Store, table, gm_address: str, address: str | None = None) -> list[Entry]:
    """The deadlines the game's players owe now (those of `address` alone, when given)."""
    row, state = table.row, table.state
    if row.status != GameStatus.ACTIVE or row.deadline is None or row.paused:
        return []
    return [_entry(store, table, s, gm_address) for s in sorted(state.to_move())
            if not table.seats[s].robot and (address is None or table.seats[s].address == address.lower())]


def _entry(store: Store, table, s: int, gm_address: str) -> Entry:
    state, seat = table.state, table.seats[s]
    title = type(state).TITLE
    return Entry(deadline_uid(store, table.id, s, state.turn, gm_address), _utc(table.row.deadline),
                 f"{title}: move due in game {table.id} (turn {state.turn}, {seat.name})",
                 f"Your move in game {table.id} is due by then: reply to the GM's last mail about "
                 f"[{table.id}] with your orders.")


def openings(store: Store, league_id: str, plan, gm_address: str, now: datetime) -> list[Entry]:
    """Each round of a league still to open."""
    out = []
    for number in range(1, plan.rounds + 1):
        at = plan.opens(number)
        if at <= now:
            continue
        out.append(Entry(f"{league_id}.round{number}.{store.install_id()}@{domain_of(gm_address)}", _utc(at),
                         f"{plan.name}: round {number} opens",
                         f"Round {number} of league {league_id} opens: its games and their first deadlines "
                         "come by mail then."))
    return out


def calendar(store: Store, entries: list[Entry], now: datetime, organizer: Organizer, *,
             publish: bool = False) -> str:
    """The iCalendar text of `entries` (at least one: RFC 5545 has no calendar without a
    component); each one's SEQUENCE as the store keeps it for its UID, raised when its time is
    not the one stated before."""
    assert entries, "a calendar holds at least one event"
    cal = _vcalendar("PUBLISH" if publish else None)
    for entry in entries:
        cal.add_component(_event(entry.uid, entry.start, entry.summary, now, organizer,
                                 sequence(store, entry.uid, entry.start), entry.description))
    return cal.to_ical().decode("utf-8")


def cancel(store: Store, gone: Held, now: datetime, organizer: Organizer) -> str:
    """A calendar that withdraws one event sent before (iTIP's `METHOD:CANCEL`: one UID to an
    object, as calendar programs read it): its UID and time, `STATUS:CANCELLED` and its
    SEQUENCE raised past every one stated before."""
    cal = _vcalendar("CANCEL")
    event = _event(gone.uid, datetime.strptime(gone.at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC), gone.summary,
                   now, organizer, withdrawn(store, gone.uid))
    event.add("status", "CANCELLED")
    cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def _vcalendar(method: str | None):
    # Here, not at the head: icalendar takes longer to load than the rest of a pass's mail, and
    # only a player who asked for calendar parts (or `pbem calendar`) needs it.
    from icalendar import Calendar  # noqa: PLC0415
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    if method is not None:
        cal.add("method", method)
    return cal


def _event(uid: str, start: datetime, summary: str, now: datetime, organizer: Organizer, seq: int,
           description: str | None = None):
    from icalendar import Event, vCalAddress, vText  # noqa: PLC0415 - see _vcalendar
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", _utc(now))
    event.add("dtstart", _utc(start))
    # RFC 5545 TEXT takes no control character: a name kept from before names were cleaned
    # on the way in must not bring one.
    event.add("summary", clean(summary, 250))
    if description is not None:
        event.add("description", clean(description, 500))
    event.add("sequence", seq)
    gm = vCalAddress(f"mailto:{organizer.address}")
    gm.params["cn"] = vText(clean(organizer.name, 64) or organizer.address)
    event.add("organizer", gm)
    return event


def sequence(store: Store, uid: str, start: datetime) -> int:
    """The event's SEQUENCE: 0 the first time, one more each time its time has moved since (or
    it was withdrawn)."""
    return restated(store, uid, stamp(start))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


__all__ = ["Entry", "Organizer", "calendar", "cancel", "deadline_uid", "openings", "owed", "sequence", "stamp",
           "standing"]
