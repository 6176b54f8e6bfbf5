"""Reminders before a deadline, as the GM sends them (CONTRACT section 14; the rows and the
moments are `pbem.clock.reminders`).

A reminder goes to a seat that owes orders when one of its player's moments comes. A pass that
finds several of a seat's moments come at once (pbem was not running) sends one mail, for the
latest of them: the earlier ones are not sent late. A deadline that has passed is never
reminded of, and a seat that owes nothing when its moment comes gets none.
"""
from __future__ import annotations

from pbem.clock.reminders import Befores, deal, dealt, set_times, times_of
from pbem.clock.schedule import format_deadline, reminder_words
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.store import GameStatus, Seat
from pbem.gm.games import Table
from pbem.gm.letters import Postman


def remind(postman: Postman, table: Table, default: Befores, played_by_robot: set[int]) -> list[str]:
    """Each seat whose reminder moment has come gets one reminder, if it owes orders (a seat
    pbem's robot plays for its player, `played_by_robot`, owes none). Every moment that has come
    is dealt with, mailed or not. Returns the addresses reminded."""
    store, now, row = postman.store, postman.now, table.row
    if row.deadline is None or row.deadline <= now or row.status != GameStatus.ACTIVE or row.paused:
        return []
    owing = set(table.state.to_move()) - played_by_robot
    reminded = []
    for seat in table.seats:
        if seat.robot:
            continue
        seen = dealt(store, table.id, seat.seat, row.deadline)
        come = [b for b in times_of(store, seat.address, default)
                if row.deadline - b <= now and int(b.total_seconds()) not in seen]
        if not come:
            continue
        if seat.seat in owing:
            postman.to_seat(MailKind.REMINDER, table, seat)
            reminded.append(seat.address)
        deal(store, table.id, seat.seat, row.deadline, come)
    return reminded


def answer(postman: Postman, table: Table, seat: Seat, befores: Befores, msg: Inbound) -> str:
    """SET REMINDERS: kept for the address, and answered with the times, with those of the
    deadline the player owes in this game now in the player's zone, and how many games of
    theirs they count for."""
    store, row = postman.store, table.row
    set_times(store, seat.address, befores, postman.now)
    owes = seat.seat in table.state.to_move() and row.deadline is not None and not row.paused
    coming = [format_deadline(row.deadline - b, seat.timezone) for b in befores
              if owes and row.deadline is not None and row.deadline - b > postman.now]
    postman.to_seat(MailKind.ACK, table, seat, answer=msg, template="reminders", times=reminder_words(befores),
                    coming=coming, games=games_playing(store, seat.address))
    return f"reminders {reminder_words(befores)}"


def games_playing(store, address: str) -> int:
    """How many games in play the address has a seat in: the games its reminder times hold for."""
    playing = {s.game_id for s in store.seats_of(address)}
    return sum(1 for game_id in sorted(playing)
               if (found := store.game(game_id)) is not None and found.status == GameStatus.ACTIVE)


__all__ = ["answer", "games_playing", "remind"]
