"""The GM's own commands, by mail (from an admin address, with the GM secret) or from the CLI:

    EXTEND <game> <duration>        push the deadline back
    DEADLINE <game> <when>          set it: an ISO 8601 time, or a duration from now
    PAUSE <game> / RESUME <game>    stop the clock / start it again with the time that was left
    PROCESS <game>                  resolve the turn now, missing orders by the NMR policy
    REPLACE <game> <old address> <new spec>   a new player takes a seat (and gets a welcome)
    NEWSECRET <game> <address>      the seat gets a new secret, mailed to it; the old one stops working
    ABANDON <game>                  end the game without a result
    ROLLBACK <game> [TO <turn>]     back to the start of a turn (default: undo the last one played)
    REPLACE <league> <old address> <new spec>   in a league: every game in play and the rounds to come
    WITHDRAW <league> <address>     a player leaves a league (games left scored as the league says)
"""
from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass, field
from datetime import timedelta

from pbem.clock import format_duration, parse_duration, parse_time
from pbem.games.errors import IllegalOrder, InvalidOrder, OrderError
from pbem.mail.clean import base_address, given_name, quoted
from pbem.mail.kinds import MailKind
from pbem.store import LogEvent, iso
from pbem.gm import deadlines, games, layers, robot_seats, rollback
from pbem.gm.games import Table, new_secret
from pbem.gm.letters import Postman
from pbem.gm.observers import notice_to_spectators
from pbem.gm.turns import Turns
from pbem.gm.pacing import round_the_table

FURTHEST = timedelta(days=366)  # as for durations: a deadline further off is a typing mistake
YEAR_RULE = "a deadline may be a year away at most, however many EXTEND lines move it"
VERBS = {"EXTEND": 1, "DEADLINE": 1, "PAUSE": 0, "RESUME": 0, "PROCESS": 0, "REPLACE": 2, "NEWSECRET": 1,
         "ABANDON": 0, "WITHDRAW": 1, "ROLLBACK": 0}
EXAMPLES = {"EXTEND": "EXTEND cup1 24h", "DEADLINE": "DEADLINE cup1 48h",
            "PAUSE": "PAUSE cup1", "RESUME": "RESUME cup1", "PROCESS": "PROCESS cup1",
            "REPLACE": 'REPLACE cup1 bill@example.test "William <will@example.test>"',
            "NEWSECRET": "NEWSECRET cup1 bill@example.test",
            "ABANDON": "ABANDON cup1", "WITHDRAW": "WITHDRAW winter bill@example.test",
            "ROLLBACK": "ROLLBACK cup1 TO 2"}


@dataclass(frozen=True)
class GMCommand:
    verb: str
    game_id: str
    args: tuple[str, ...]
    lineno: int | None = field(default=None, compare=False)  # its line in the GM's mail

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
    if verb == "ROLLBACK":  # TO <turn>, or nothing: the last turn played
        rollback.read_target(words[1], rest, lineno)
        return GMCommand(verb, words[1], (rest,) if rest else (), lineno)
    args: tuple[str, ...]
    if verb == "REPLACE":
        m = re.match(r"^(\S+)\s+(.+)$", rest)
        args = (m.group(1), m.group(2).strip().strip('"')) if m else ()
    else:
        args = (rest,) if rest else ()
    if len(args) != VERBS[verb]:
        raise InvalidOrder(f"{verb} takes {VERBS[verb] + 1} argument(s)", line=line, lineno=lineno,
                           hint=EXAMPLES[verb])
    return GMCommand(verb, words[1], args, lineno)


class Admin:
    def __init__(self, postman: Postman):
        self.postman = postman
        self.store = postman.store

    @property
    def now(self):
        return self.postman.now

    def run(self, command: GMCommand) -> str:
        """Carry out one command (inside the caller's transaction); returns what was done. A
        refusal names the command's line of the GM's mail."""
        try:
            return self._run(command)
        except OrderError as e:
            if not command.lineno:
                raise
            raise e.at(str(command), command.lineno) from e

    def _run(self, command: GMCommand) -> str:
        above = layers.owner(self.store, command.game_id, command.verb)
        if above is not None:  # the command names a league (or another layer's own id)
            return above.gm_command(self, command)
        if command.verb == "WITHDRAW":
            raise InvalidOrder(f"WITHDRAW takes a league id; there is no league {quoted(command.game_id)}",
                               line=str(command), hint=EXAMPLES["WITHDRAW"])
        table = games.load(self.store, command.game_id)
        if table is None:
            active = [row.id for row in self.store.games() if row.status == "active"]
            raise InvalidOrder(no_such_game(command.game_id, active, "active games"), line=str(command))
        if table.row.status != "active" and not (command.verb == "ROLLBACK" and table.row.status == "finished"):
            raise InvalidOrder(f"game {table.id} is {table.row.status}; nothing to change", line=str(command))
        done = getattr(self, "_" + command.verb.lower())(table, *command.args)
        self.store.add_event(table.id, self.now, LogEvent.GM, None, command=str(command), done=done)
        robot_seats.move(Turns(self.postman, table))  # a seat handed to a robot, a turn resolved now
        games.save(self.store, table)
        return done

    def _rollback(self, table: Table, target: str = "") -> str:
        to_turn = rollback.read_target(table.id, target)
        return rollback.roll_back(self.postman, table, to_turn, f"ROLLBACK {table.id} {target}".strip())

    def _extend(self, table: Table, duration: str) -> str:
        try:
            span = parse_duration(duration)
        except ValueError as e:
            raise InvalidOrder(str(e), line=f"EXTEND {table.id} {duration[:40]}",
                               hint=f"EXTEND {table.id} 24h") from None
        base = self._current_deadline(table)
        if base is None:
            raise InvalidOrder(f"game {table.id} has no deadline to extend: {self._no_deadline(table)}; "
                               "DEADLINE sets one for this turn", line=f"EXTEND {table.id} {duration}",
                               hint=f"DEADLINE {table.id} {duration}")
        moment = base + span
        if moment > self.now + FURTHEST:
            # Every EXTEND of one message counts: each one starts where the one before ended.
            raise IllegalOrder(f"that moves the deadline of {table.id} from {iso(base)} to {iso(moment)}, more "
                               f"than a year from now ({iso(self.now)})", rule=YEAR_RULE,
                               line=f"EXTEND {table.id} {duration}", hint=self._longest_extend(table, base))
        return self._set_deadline(table, moment, f"extended by {duration}",
                                  f"The GM has extended the deadline of turn {table.state.turn} by {duration}.")

    def _longest_extend(self, table: Table, base) -> str:
        """The longest EXTEND that the cap still takes (in whole hours), or a DEADLINE when none."""
        room = self.now + FURTHEST - base
        hours = int(room.total_seconds()) // 3600
        if hours < 1:
            return self._deadline_examples(table)
        days, hours = divmod(hours, 24)
        return f"EXTEND {table.id} " + (f"{days}d" if days else "") + (f"{hours}h" if hours else "")

    def _deadline(self, table: Table, when: str) -> str:
        try:
            moment = parse_time(when)
        except ValueError:
            try:
                moment = self.now + parse_duration(when)
            except ValueError:
                raise InvalidOrder(f"expected an ISO 8601 time (UTC unless it says otherwise) or a duration "
                                   f"from now, got {quoted(when, 40)}", line=f"DEADLINE {table.id} {when[:40]}",
                                   hint=self._deadline_examples(table)) from None
        if moment <= self.now:
            raise InvalidOrder(f"{when} is already past (it is {iso(self.now)} now)",
                               line=f"DEADLINE {table.id} {when}", hint=self._deadline_examples(table))
        if moment > self.now + FURTHEST:
            raise InvalidOrder(f"{when} is more than a year ahead; a deadline may be a year away at most",
                               line=f"DEADLINE {table.id} {when}", hint=self._deadline_examples(table))
        had = "moved" if self._current_deadline(table) else "set"
        return self._set_deadline(table, moment, "set", f"The GM has {had} the deadline of turn {table.state.turn}.")

    def _deadline_examples(self, table: Table) -> str:
        """Two DEADLINE commands that would be taken now: a time a week ahead, and a duration."""
        week = (self.now + timedelta(days=7)).strftime("%Y-%m-%dT18:00:00Z")
        return f"DEADLINE {table.id} {week}\nDEADLINE {table.id} 48h"

    def _set_deadline(self, table: Table, moment, how: str, notice: str) -> str:
        row, turn = table.row, table.state.turn
        if row.paused:
            # The clock is stopped: what the GM sets is the time the turn will have left.
            row.paused_left = int((moment - self.now).total_seconds())
            done = (f"deadline of {table.id} {how}: the game is paused, and when it resumes turn {turn} "
                    f"has {format_duration(moment - self.now)} left")
        else:
            row.deadline = table.settled(moment)
            done = f"deadline of {table.id} {how}: {iso(row.deadline)}"
            moved = row.deadline != moment
            why = moved and deadlines.reason(self.store, table.id, [s.address for s in table.seats], moment)
            if why:  # told, so that the GM never reads one deadline and the players another
                done += f" ({iso(moment)} asked for, but {why})"
                notice += f" The GM asked for an earlier time, but {why}."
        if self._waits(table):
            # A wait game has no deadline of its own; one the GM sets acts like a PROCESS at that
            # time, for this turn only (a deadline that did nothing would mislead the players).
            notice += (" This game otherwise waits for every player's orders; at this deadline the GM "
                       "plays default orders for whoever has sent none. Later turns wait again.")
            done += (f"; the game waits for orders (nmr=wait), so this deadline is for turn {turn} only, "
                     "and at it the GM plays default orders (autoplay) for whoever has sent none")
        row.reminded_turn = None  # a new deadline deserves its own reminder
        self._tell_players(table, notice)
        return done

    def _current_deadline(self, table: Table):
        """The deadline as the clock stands; while paused the stored one is stale, and the time
        the turn has left counts from now."""
        row = table.row
        if not row.paused:
            return row.deadline
        return None if row.paused_left is None else self.now + timedelta(seconds=row.paused_left)

    def _no_deadline(self, table: Table) -> str:
        if self._waits(table):
            return "it waits for every player's orders (nmr=wait)"
        return "it was created without one (--deadline)"

    @staticmethod
    def _waits(table: Table) -> bool:
        return table.row.options.get("nmr") == "wait"

    def _pause(self, table: Table) -> str:
        row = table.row
        if row.paused:
            return f"{table.id} was already paused"
        row.paused = 1
        row.paused_left = int((row.deadline - self.now).total_seconds()) if row.deadline else None
        self._tell_players(table, "The GM has paused the game. Orders are still taken while it is paused, "
                                 "and a turn whose orders are all in is still played.")
        return f"{table.id} paused"

    def _resume(self, table: Table) -> str:
        row = table.row
        if not row.paused:
            return f"{table.id} was not paused"
        row.paused = 0
        if row.paused_left is not None:
            row.deadline = table.settled(self.now + timedelta(seconds=max(row.paused_left, 0)))
        row.paused_left = None
        self._tell_players(table, "The GM has resumed the game: the clock runs again.")
        return f"{table.id} resumed; deadline {iso(row.deadline) or 'none'}"

    def _process(self, table: Table) -> str:
        state, turn = table.state, table.state.turn
        owing = [table.seats[s].name for s in sorted(state.to_move())]
        if not owing:
            return f"{table.id}: nobody owes orders; nothing to resolve"
        # Told before the turn's own mail, so the report reads as the outcome of what the GM did.
        # The turn's time is over: the notice states neither its deadline nor the time it had left.
        self._tell_players(table, self._process_notice(table, owing), deadline=None, left=None,
                           paused_note=self._still_paused(table))
        first = len(self.store.events(table.id))
        self.postman.closing.add(table.id)  # the mail of this turn says the GM closed it
        try:
            Turns(self.postman, table).missed_deadline(forced=True, by_gm=True)
        finally:
            self.postman.closing.discard(table.id)
        played: dict[int, list[str]] = {}
        for ev in self.store.events(table.id)[first:]:
            if ev["kind"] == LogEvent.NMR:
                played.setdefault(ev["seat"], []).append(ev["orders"].replace("\n", " / "))
        row = table.row
        what = "; ".join(f"{table.seats[s].name}: {' / '.join(orders)}" for s, orders in played.items())
        if self._waits(table):
            how = "the game waits for orders (nmr=wait), so the GM played default orders (autoplay) for"
        else:
            how = f"missing orders were played as at a missed deadline (nmr={row.options.get('nmr')}) for"
        if round_the_table(state):
            return f"{table.id}: the move owed by {_together(owing)} (turn {turn}) played now; {how} {what}"
        return f"{table.id} turn {turn} resolved now; {how} {what or 'nobody'}"

    @staticmethod
    def _still_paused(table: Table) -> str | None:
        if not table.row.paused:
            return None
        return "The game stays paused: the clock of the next turn is stopped until the GM resumes it."

    def _process_notice(self, table: Table, owing: list[str]) -> str:
        who = _together(owing)
        if round_the_table(table.state):
            done = f"The GM has played {who}'s move now, without waiting for it."
        else:
            done = f"The GM has resolved turn {table.state.turn} now, without waiting for orders from {who}."
        if self._waits(table):
            return done + (" This game waits for every player's orders (nmr=wait), but when the GM "
                           "forces a turn, default orders are played in place of the missing ones.")
        policy = table.row.options.get("nmr", "autoplay")
        return done + f" The missing orders were played as at a missed deadline (nmr={policy})."

    def _replace(self, table: Table, old_address: str, new_spec: str) -> str:
        seat = table.seat_of(old_address) or robot_seats.seat_of_key(table.seats, old_address)
        if seat is None:
            raise InvalidOrder(f"{old_address} has no seat in game {table.id}",
                               line=f"REPLACE {table.id} {old_address}")
        line = f"REPLACE {table.id} {old_address} {new_spec}"
        try:
            robot = robot_seats.read_spec(new_spec)
            if robot is not None:
                robot_seats.check_game_type(table.type)
        except robot_seats.RobotSpecError as e:
            raise InvalidOrder(str(e), line=line, hint=f"REPLACE {table.id} {old_address} robot:strong") from None
        if robot is not None:
            return self._to_robot(table, seat, old_address, robot)
        name, address = email.utils.parseaddr(new_spec)
        if "@" not in address or len(email.utils.getaddresses([new_spec])) > 1:
            raise InvalidOrder(f"{quoted(new_spec)} is not one address", line=line,
                               hint=f'REPLACE {table.id} {old_address} "William <will@example.test>"')
        if base_address(address) == base_address(self.postman.gm_address):
            raise InvalidOrder(f"{address} is the GM's own address: a player needs an address of their own",
                               line=line)
        if table.seat_of(address) is not None:
            raise InvalidOrder(f"{address} already plays in game {table.id}", line=new_spec)
        old_name = seat.name
        self.postman.to_seat(MailKind.NOTICE, table, seat, template="gm_notice", deadline=None, paused_note=None,
                             notice=f"The GM has given your seat in game {table.id} to another player. "
                                    "Thank you for playing; you will get no more mail about this game.")
        seat.name = given_name(name, address)
        seat.address = address.lower()
        seat.secret = new_secret()
        seat.robot = None
        self.store.update_seat(seat)
        games.rename(table.state, seat.seat, seat.name)
        self.store.add_event(table.id, self.now, LogEvent.REPLACE, seat.seat, name=seat.name, address=seat.address)
        self.postman.to_seat(MailKind.WELCOME, table, seat, course=games.course_of(self.store, table.id),
                             replacing=old_name)
        Turns(self.postman, table).seat_taken(seat)  # the turn mail the welcome promises
        layers.tell("seat_replaced", self.store, self.postman, table, seat, old_address)
        for other in table.seats:
            if other.seat != seat.seat:
                self.postman.to_seat(MailKind.NOTICE, table, other, template="gm_notice",
                                     notice=f"{seat.name} now plays in place of {old_name}.")
        return f"{old_address} replaced by {address} in {table.id}"

    def _to_robot(self, table: Table, seat, old_address: str, robot: tuple[str, str]) -> str:
        """A seat handed to a robot: the leaver is told, the others hear who plays it now, and
        the robot makes the move the seat owes in this same pass (`Admin.run`)."""
        name, spec = robot  # spec: robot:<level>, or robot-<n>:<level> with a league's handle
        old_name = seat.name
        self.postman.to_seat(MailKind.NOTICE, table, seat, template="gm_notice", deadline=None, paused_note=None,
                             notice=f"The GM has given your seat in game {table.id} to a robot player. "
                                    "Thank you for playing; you will get no more mail about this game.")
        seat.name, seat.secret = name, ""
        given = robot_seats.handle_of(spec, -1)
        seat.address = given if given != "robot-0" else robot_seats.free_handle(table.seats, seat.seat)
        seat.robot = robot_seats.level_of(spec)
        self.store.update_seat(seat)
        games.rename(table.state, seat.seat, seat.name)
        self.store.add_event(table.id, self.now, LogEvent.REPLACE, seat.seat, name=seat.name, robot=seat.robot)
        layers.tell("seat_replaced", self.store, self.postman, table, seat, old_address)
        for other in table.seats:
            if other.seat != seat.seat:
                self.postman.to_seat(MailKind.NOTICE, table, other, template="gm_notice",
                                     notice=f"{seat.name}, a robot player of pbem's, now plays in place of "
                                            f"{old_name}. It moves as soon as a move is its to make.")
        return f"{old_address} replaced by a robot ({seat.robot}) in {table.id}"

    def _newsecret(self, table: Table, address: str) -> str:
        """A seat whose secret someone else has learnt gets a new one: mailed to the seat alone,
        in the Reply-To as always; the old one is refused from now on."""
        seat = table.seat_of(address.strip())
        if seat is None:
            seated = ", ".join(s.address for s in table.seats)
            raise InvalidOrder(f"{address[:60]} has no seat in game {table.id} (its players: {seated})",
                               line=f"NEWSECRET {table.id} {address[:60]}",
                               hint=f"NEWSECRET {table.id} {table.seats[0].address}")
        seat.secret = new_secret()
        self.store.update_seat(seat)
        self.postman.to_seat(MailKind.NOTICE, table, seat, template="gm_notice", notice=(
            f"The GM has given your seat in game {table.id} a new password: {seat.secret} (keep it to "
            "yourself). Your old one no longer works: mail that carries it is refused. The new one is "
            "in the reply address of this mail and of every mail I send you from now on, so replying "
            "just works."))
        return f"new secret for {seat.address} in {table.id}, mailed to them; the old one no longer works"

    def _abandon(self, table: Table) -> str:
        table.row.status = "abandoned"
        table.row.deadline = None
        self._tell_players(table, "The GM has abandoned this game. It ends here, without a result.")
        notice_to_spectators(self.postman, table, "the GM has abandoned it. It ends here, without a result.")
        layers.tell("game_ended", self.store, self.postman, table)
        return f"{table.id} abandoned"

    def _tell_players(self, table: Table, notice: str, **extra) -> None:
        for seat in table.seats:
            self.postman.to_seat(MailKind.NOTICE, table, seat, template="gm_notice", notice=notice, **extra)


def no_such_game(game_id: str, known: list[str], which: str = "games") -> str:
    """The answer to a game id that names no game: the ids there are, when they are few."""
    shown = game_id if len(game_id) <= 40 else game_id[:37] + "..."
    if not known:
        return f"there is no game `{shown}`, and there are no {which}"
    if len(known) > 8:
        return f"there is no game `{shown}` ({len(known)} {which}; pbem list shows them)"
    return f"there is no game `{shown}`; the {which}: {', '.join(sorted(known))}"


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
