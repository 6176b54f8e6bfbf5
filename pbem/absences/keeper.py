"""What a player's absence lines do, once checked (`allowance.check`): the absences recorded,
SET ABSENCE OFF and SET AUTOABSENCE kept, the deadlines of every game the address plays that
fall inside an absence moved to its end, and the other players of each game moved told."""
from __future__ import annotations

from datetime import datetime

from pbem.clock.schedule import format_deadline
from pbem.gm import games
from pbem.mail.kinds import MailKind
from pbem.orders.commands import AbsenceOff, SetAbsence, SetAutoAbsence
from pbem.absences import rows
from pbem.absences.allowance import Allowance, active_games, later, moments, taken, today, zone_of


def take(postman, address: str, commands: list, per_year: int, table=None) -> dict:
    """Carry out one message's absence commands in their order; what its one acknowledgement
    says. `table`: the game the message was sent about, loaded already (saved with the rest)."""
    store, now = postman.store, postman.now
    address = address.lower()
    zone_name = zone_of(store, address, table)
    spans: list[dict] = []
    off: dict | None = None
    auto: bool | None = None
    for command in commands:
        if isinstance(command, SetAbsence):
            rows.add(store, address, command.first, command.last, zone_name, now)
            span = rows.spans(store, [address], rows.AWAY)[-1]
            spans.append({"first": command.first.isoformat(), "last": command.last.isoformat(),
                          "until": format_deadline(moments(span)[1], zone_name)})
        elif isinstance(command, AbsenceOff):
            off = end_now(store, address, now, zone_name)
        elif isinstance(command, SetAutoAbsence):
            rows.set_auto(store, address, command.on, now)
            auto = command.on
    moved = move(store, postman, address, table)
    allowance = Allowance(store, address, per_year)
    day = today(now, zone_name)
    return {"spans": spans, "off": off, "auto": auto, "moved": moved, "left": allowance.left_in(day.year),
            "year": day.year, "seasons": allowance.seasons()}


def end_now(store, address: str, now: datetime, zone_name: str | None) -> dict:
    """SET ABSENCE OFF: an absence under way ends now (today is its last day counted), one not
    begun is withdrawn; the days not used are given back. Deadlines it moved stay where they are."""
    mine = rows.spans(store, [address], rows.AWAY)
    before = taken(mine)
    ended = 0
    for span in mine:
        start, end = moments(span)
        if end <= now:
            continue
        if start > now:
            rows.drop(store, span.id)
        else:
            rows.end(store, span.id, today(now, span.zone), now)
        ended += 1
    back = len(before - taken(rows.spans(store, [address], rows.AWAY)))
    return {"ended": ended, "back": back, "at": format_deadline(now, zone_name)}


def move(store, postman, address: str, table=None) -> list[str]:
    """Move every deadline of the address's games in play that falls inside one of its
    absences to the absence's end; the other players of each game moved get a notice."""
    spans = [moments(span) for span in rows.spans(store, [address], rows.AWAY)]
    if not spans:
        return []
    moved = []
    for game_id in active_games(store, address):
        other = table if table is not None and table.id == game_id else games.load(store, game_id)
        if other is None or other.row.deadline is None or other.row.paused:
            continue
        until = later(other.row.deadline, spans)
        if until == other.row.deadline:
            continue
        other.row.deadline, other.row.reminded_turn = until, None
        games.save(store, other)
        moved.append(game_id)
        absent = other.seat_of(address)
        for seat in other.seats:
            if absent is not None and seat is not absent:
                postman.to_seat(MailKind.NOTICE, other, seat, template="absence_moved", absent=absent.name, auto=False)
    return moved


def said(commands: list, answered: dict) -> str:
    """The pass's note of what a message's absence lines did."""
    parts = []
    asked = [c for c in commands if isinstance(c, SetAbsence)]
    if asked:
        parts.append(f"absence {', '.join(f'{c.first} to {c.last}' for c in asked)}")
    if answered["off"] is not None:
        parts.append("absence off")
    if answered["auto"] is not None:
        parts.append(f"autoabsence {'on' if answered['auto'] else 'off'}")
    return f"{'; '.join(parts)}: {len(answered['moved'])} deadline(s) moved"


__all__ = ["end_now", "move", "said", "take"]
