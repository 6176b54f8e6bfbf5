"""A robot takes over the seat of a player who has gone quiet (CONTRACT section 14).

`takeover_after=N` (a game's option; a game without it follows `games.takeover_after` in the
config; 0: never): once a seat has missed N deadlines in a row, pbem's strong robot plays it
from its next move on, until its player writes again: the player's own mail to the game (one
that proves the seat and is taken) gives the seat back at once. The player, the other players
and the GM's admins are told of a takeover, everyone of the return.

Both are events of the game's log (`takeover`, `taken back`), so a rollback undoes them with the
rest, and the robot's moves are its seat's orders marked as a robot's (level, version, index of
the seat's robot moves), which `pbem verify` computes again as it does any robot's.

A missed deadline is a deadline pass (one moment of the log) at which the GM played the seat's
orders by the missed-deadline policy; a turn the GM closed early (`PROCESS`) is none. The count
starts again at the seat's own next act: an order of the player's, a resignation, a return, a
new player in the seat.
"""
from __future__ import annotations

from pbem.games.base import COMMON_OPTIONS
from pbem.mail.kinds import MailKind
from pbem.store import LogEvent, Seat
from pbem.gm.pacing import plays_by_toss, round_the_table

LEVEL = "strong"  # the robot that takes a seat over (CONTRACT section 14)
OPTION = "takeover_after"
# What ends a run of missed deadlines: the seat's own act, or a new player in it.
_OWN_ACTS = (LogEvent.RESIGN, LogEvent.TAKEN_BACK, LogEvent.TAKEOVER, LogEvent.REPLACE)


def threshold(table, default: int) -> int:
    """After how many missed deadlines in a row a robot takes a seat of this game (0: never)."""
    given = table.row.options.get(OPTION)
    return COMMON_OPTIONS[OPTION].coerce(OPTION, given) if given is not None else default


def taken(events: list[dict]) -> set[int]:
    """The seats the robot plays for their players now, by the game's log."""
    seats: set[int] = set()
    for ev in events:
        if ev["kind"] == LogEvent.TAKEOVER:
            seats.add(ev["seat"])
        elif ev["kind"] in (LogEvent.TAKEN_BACK, LogEvent.REPLACE):
            seats.discard(ev["seat"])
    return seats


def missed_in_a_row(events: list[dict], seat: int) -> int:
    """The deadlines `seat` has missed since its own last act."""
    closed = {ev["at"] for ev in events if ev["kind"] == LogEvent.GM
              and str(ev.get("command", "")).upper().startswith("PROCESS ")}
    missed: set[str] = set()
    for ev in events:
        if ev.get("seat") != seat:
            continue
        if ev["kind"] in _OWN_ACTS or (ev["kind"] == LogEvent.ORDERS and not ev.get("robot")):
            missed = set()
        elif ev["kind"] == LogEvent.NMR and ev["at"] not in closed:
            missed.add(ev["at"])
    return len(missed)


def taking(table, store, default: int) -> frozenset[int]:
    """Before a deadline's orders are played: the seats the robot plays for their players once
    they are, those it plays already and those this miss hands it (the mail of the pass is
    written knowing it)."""
    limit = threshold(table, default)
    if limit <= 0 or table.row.status != "active" or store is None:
        return frozenset()
    events = store.events(table.id)
    already = taken(events)
    owing = table.state.to_move()
    return frozenset(already | {seat.seat for seat in table.seats if not seat.robot and seat.seat in owing
                                and missed_in_a_row(events, seat.seat) + 1 >= limit})


def after_deadline(turns, default: int) -> list[str]:
    """A deadline has passed: every player's seat that has now missed too many in a row is the
    robot's from its next move on (the caller's `robot_seats.move` plays it)."""
    table = turns.table
    limit = threshold(table, default)
    if limit <= 0 or table.row.status != "active":
        return []
    events = turns.store.events(table.id)
    already = taken(events)
    notes = []
    for seat in table.seats:
        if seat.robot or seat.seat in already:
            continue
        misses = missed_in_a_row(events, seat.seat)
        if misses >= limit:
            notes.append(_take_over(turns, seat, misses))
    return notes


def _take_over(turns, seat: Seat, misses: int) -> str:
    table, postman = turns.table, turns.postman
    turns.store.add_event(table.id, turns.now, LogEvent.TAKEOVER, seat.seat, robot=LEVEL, misses=misses)
    table.ever_taken = True
    for reader in table.seats:  # the player's own notice asks them something: it goes at once
        postman.to_seat(MailKind.NOTICE, table, reader, template="takeover", player=seat, misses=misses,
                        level=LEVEL, asks=reader.seat == seat.seat)
    for address in sorted(postman.admins):
        postman.to_address(MailKind.NOTICE, address, template="takeover_admin", game_id=table.id, game=table.row,
                           player=seat, misses=misses, level=LEVEL, seat_number=seat.seat + 1)
    return f"{seat.name} missed {misses} deadlines in a row: the {LEVEL} robot plays the seat"


def come_back(turns, seat: Seat) -> str | None:
    """The player of a seat the robot plays has written (mail that proved the seat, and is
    taken): the seat is theirs again at once, and everyone is told."""
    table = turns.table
    if seat.robot or table.row.status != "active" or not _ever_taken(turns.store, table) \
            or seat.seat not in taken(turns.store.events(table.id)):
        return None
    turns.store.add_event(table.id, turns.now, LogEvent.TAKEN_BACK, seat.seat)
    table.robot_plays = table.robot_plays - {seat.seat}  # their mail asks of them again from now on
    turns.back_from_robot = True
    # Turns of orders sent together: the robot's for the open turn stand until the player's own replace them.
    simultaneous = not (round_the_table(table.state) or plays_by_toss(table.state))
    for reader in table.seats:  # the player's own notice answers what they wrote: at once
        turns.postman.to_seat(MailKind.NOTICE, table, reader, template="taken_back", player=seat,
                              owes=seat.seat in table.state.to_move(), simultaneous=simultaneous,
                              asks=reader.seat == seat.seat)
    return f"{seat.name} took the seat back from the robot"


def _ever_taken(store, table) -> bool:
    """Whether a robot ever took a seat of the game over (most games: no, without reading the
    log), asked of the store once for a loaded game."""
    if table.ever_taken is None:
        table.ever_taken = store.has_event(table.id, LogEvent.TAKEOVER)
    return table.ever_taken


def robot_played(store, table) -> set[int]:
    """The seats the robot plays for their players (none, in a game where no seat was ever taken)."""
    return taken(store.events(table.id)) if _ever_taken(store, table) else set()


__all__ = ["LEVEL", "OPTION", "after_deadline", "come_back", "missed_in_a_row", "robot_played", "taken",
           "threshold"]
