"""The GM's own commands, by mail (from an admin address, with the GM secret) or from the CLI:

    EXTEND <game> <duration>        push the deadline back
    DEADLINE <game> <when>          set it: an ISO 8601 time, or a duration from now
    PAUSE <game> / RESUME <game>    stop the clock / start it again with the time that was left
    PROCESS <game>                  resolve the turn now, missing orders by the NMR policy
    REPLACE <game> <old address> <new spec>   a new player takes a seat (and gets a welcome)
    ABANDON <game>                  end the game without a result
"""
from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass
from datetime import timedelta

from ..clock import parse_duration, parse_time
from ..games.errors import InvalidOrder
from ..store import iso
from . import games
from .games import Table, new_secret
from .letters import Postman
from .turns import Turns

VERBS = {"EXTEND": 1, "DEADLINE": 1, "PAUSE": 0, "RESUME": 0, "PROCESS": 0, "REPLACE": 2, "ABANDON": 0}
EXAMPLES = {"EXTEND": "EXTEND cup1 24h", "DEADLINE": "DEADLINE cup1 2026-12-24T18:00:00Z",
            "PAUSE": "PAUSE cup1", "RESUME": "RESUME cup1", "PROCESS": "PROCESS cup1",
            "REPLACE": 'REPLACE cup1 bill@example.test "William <will@example.test>"',
            "ABANDON": "ABANDON cup1"}


@dataclass(frozen=True)
class GMCommand:
    verb: str
    game_id: str
    args: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join((self.verb, self.game_id, *self.args))


def is_gm_command(line: str) -> bool:
    return line.split(None, 1)[0].upper() in VERBS if line.strip() else False


def parse(line: str, lineno: int | None = None) -> GMCommand:
    words = line.split(None, 2)
    verb = words[0].upper() if words else ""
    if verb not in VERBS:
        raise InvalidOrder("not a GM command", line=line, lineno=lineno, hint=" / ".join(VERBS))
    if len(words) < 2:
        raise InvalidOrder(f"{verb} needs a game id", line=line, lineno=lineno, hint=EXAMPLES[verb])
    rest = words[2].strip() if len(words) > 2 else ""
    if verb == "REPLACE":
        m = re.match(r"^(\S+)\s+(.+)$", rest)
        args = (m.group(1), m.group(2).strip().strip('"')) if m else ()
    else:
        args = (rest,) if rest else ()
    if len(args) != VERBS[verb]:
        raise InvalidOrder(f"{verb} takes {VERBS[verb] + 1} argument(s)", line=line, lineno=lineno,
                           hint=EXAMPLES[verb])
    return GMCommand(verb, words[1], args)


class Admin:
    def __init__(self, postman: Postman):
        self.postman = postman
        self.store = postman.store

    @property
    def now(self):
        return self.postman.now

    def run(self, command: GMCommand) -> str:
        """Carry out one command (inside the caller's transaction); returns what was done."""
        table = games.load(self.store, command.game_id)
        if table is None:
            raise InvalidOrder(f"there is no game {command.game_id!r}", line=str(command))
        if table.row.status != "active":
            raise InvalidOrder(f"game {table.id} is {table.row.status}; nothing to change", line=str(command))
        done = getattr(self, "_" + command.verb.lower())(table, *command.args)
        self.store.add_event(table.id, self.now, "gm", None, command=str(command), done=done)
        games.save(self.store, table)
        return done

    def _extend(self, table: Table, duration: str) -> str:
        span = self._duration(duration)
        base = table.row.deadline or self.now
        return self._set_deadline(table, base + span, f"extended by {duration}",
                                  f"The GM has extended the deadline of turn {table.state.turn} by {duration}.")

    def _deadline(self, table: Table, when: str) -> str:
        try:
            moment = parse_time(when)
        except ValueError:
            try:
                moment = self.now + parse_duration(when)
            except ValueError:
                raise InvalidOrder(f"expected an ISO 8601 time or a duration, got {when[:40]!r}",
                                   line=f"DEADLINE {table.id} {when[:40]}",
                                   hint=f"DEADLINE {table.id} 2026-12-24T18:00:00Z (UTC), or DEADLINE "
                                        f"{table.id} 48h (from now)") from None
        if moment <= self.now:
            raise InvalidOrder(f"{when} is already past", line=f"DEADLINE {table.id} {when}")
        return self._set_deadline(table, moment, "set", f"The GM has moved the deadline of turn {table.state.turn}.")

    def _set_deadline(self, table: Table, moment, how: str, notice: str) -> str:
        row = table.row
        if row.paused:
            row.paused_left = int((moment - self.now).total_seconds())
        else:
            row.deadline = moment
        row.reminded_turn = None  # a new deadline deserves its own reminder
        self._tell_players(table, notice)
        return f"deadline of {table.id} {how}: {iso(moment)}"

    def _pause(self, table: Table) -> str:
        row = table.row
        if row.paused:
            return f"{table.id} was already paused"
        row.paused = 1
        row.paused_left = int((row.deadline - self.now).total_seconds()) if row.deadline else None
        self._tell_players(table, "The GM has paused the game: the clock is stopped until it resumes.")
        return f"{table.id} paused"

    def _resume(self, table: Table) -> str:
        row = table.row
        if not row.paused:
            return f"{table.id} was not paused"
        row.paused = 0
        if row.paused_left is not None:
            row.deadline = self.now + timedelta(seconds=max(row.paused_left, 0))
        row.paused_left = None
        self._tell_players(table, "The GM has resumed the game: the clock runs again.")
        return f"{table.id} resumed; deadline {iso(row.deadline) or 'none'}"

    def _process(self, table: Table) -> str:
        notes = Turns(self.postman, table).missed_deadline(forced=True)
        return f"{table.id} resolved now" + (": " + "; ".join(notes) if notes else "")

    def _replace(self, table: Table, old_address: str, new_spec: str) -> str:
        seat = table.seat_of(old_address)
        if seat is None:
            raise InvalidOrder(f"{old_address} has no seat in game {table.id}", line=f"REPLACE {table.id} {old_address}")
        name, address = email.utils.parseaddr(new_spec)
        if "@" not in address:
            raise InvalidOrder(f"{new_spec!r} is not an address", line=f"REPLACE {table.id} {old_address} {new_spec}",
                               hint=EXAMPLES["REPLACE"])
        if table.seat_of(address) is not None:
            raise InvalidOrder(f"{address} already plays in game {table.id}", line=new_spec)
        old_name = seat.name
        self.postman.to_seat("status", table, seat, template="gm_notice",
                             notice=f"The GM has given your seat in game {table.id} to another player. "
                                    "Thank you for playing; you will get no more mail about this game.")
        seat.name = name or address.split("@")[0]
        seat.address = address.lower()
        seat.secret = new_secret()
        self.store.update_seat(seat)
        table.state.names[seat.seat] = seat.name
        self.store.add_event(table.id, self.now, "replace", seat.seat, name=seat.name)
        self.postman.to_seat("welcome", table, seat, course=games.course_of(self.store, table.id),
                             replacing=old_name)
        for other in table.seats:
            if other.seat != seat.seat:
                self.postman.to_seat("status", table, other, template="gm_notice",
                                     notice=f"{seat.name} now plays in place of {old_name}.")
        return f"{old_address} replaced by {address} in {table.id}"

    def _abandon(self, table: Table) -> str:
        table.row.status = "abandoned"
        table.row.deadline = None
        self._tell_players(table, "The GM has abandoned this game. It ends here, without a result.")
        return f"{table.id} abandoned"

    def _tell_players(self, table: Table, notice: str) -> None:
        for seat in table.seats:
            self.postman.to_seat("status", table, seat, template="gm_notice", notice=notice)

    @staticmethod
    def _duration(text: str) -> timedelta:
        try:
            return parse_duration(text)
        except ValueError as e:
            raise InvalidOrder(str(e), line=text, hint="a duration like 24h, 2d or 90m") from None


