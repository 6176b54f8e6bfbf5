"""Orders into a game, turns resolved, and the mail each step owes the players."""
from __future__ import annotations

from pbem.games.base import Resign
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.orders.commands import (
    ABSENCE_COMMANDS, Help, History, Order, Press, SetCalendar, SetDigest, SetReminders, SetTimezone, Status,
    drop_sign_off,
)
from pbem.store import LogEvent, Seat
from pbem.gm.games import Table
from pbem.gm import layers, reminders, robot_seats
from pbem.gm.letters import Postman
from pbem.gm.pacing import plays_by_toss, round_the_table
from pbem.gm.round_table import RoundTheTable, marked
from pbem.gm.tosses import Tosses


class Turns:
    def __init__(self, postman: Postman, table: Table):
        self.postman = postman
        self.store = postman.store
        self.table = table
        self.when = "by the deadline"  # how a missed move came to be played, for the notes
        # The flow of the game's pacing besides simultaneous turns (`pacing`), made when asked.
        self._tosses: Tosses | None = None
        self._round: RoundTheTable | None = None
        # What the event of the order being played says of a robot's order (`robot_seats`).
        self.marks: dict = {}
        # The player took the seat back from the robot in this mail (`takeover`): orders it
        # replaces were the robot's.
        self.back_from_robot = False

    @property
    def tosses(self) -> Tosses:
        """Dice golf's side of the turns (one for all the orders of a mail)."""
        if self._tosses is None:
            self._tosses = Tosses(self)
        return self._tosses

    @property
    def round_table(self) -> RoundTheTable:
        """The card games' and On Par's side of the turns (one for all the orders of a mail)."""
        if self._round is None:
            self._round = RoundTheTable(self)
        return self._round

    @property
    def now(self):
        return self.postman.now

    def obey(self, seat: Seat, order: Order, msg: Inbound, ack: bool = True) -> str:
        command = order.command
        if isinstance(command, Help):
            self.postman.to_seat(MailKind.HELP, self.table, seat, answer=msg)
            return "help"
        if isinstance(command, Status):
            self.postman.to_seat(MailKind.STATUS, self.table, seat, answer=msg)
            return "status"
        if isinstance(command, History):
            extra = self.round_table.history() if round_the_table(self.table.state) else {}
            self.postman.to_seat(MailKind.HISTORY, self.table, seat, answer=msg, events=self._public_events(), **extra)
            return "history"
        if isinstance(command, Press):
            return self.press(seat, command.text, msg)
        if isinstance(command, ABSENCE_COMMANDS):
            return self.absent(seat, [command], msg)
        if isinstance(command, SetCalendar):
            layers.setting(self.postman, seat.address, "calendar", command.on)
            owes = command.on and seat.seat in self.table.state.to_move() and self.table.row.deadline is not None
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, template="calendar", on=command.on,
                                 owes=owes)
            return f"calendar {'on' if command.on else 'off'}"
        if isinstance(command, SetReminders):
            return reminders.answer(self.postman, self.table, seat, command.befores, msg)
        if isinstance(command, SetDigest):  # kept by the layer of digests, which says what it did
            layers.setting(self.postman, seat.address, "digest", command.at)
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, template="digest_set",
                                 **layers.told(self.postman, seat.address, "digest"))
            return f"digest {command.at or 'off'}"
        if isinstance(command, SetTimezone):
            seat.timezone = command.zone
            self.store.update_seat(seat)
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, template="timezone")
            return f"time zone {command.zone}"
        if isinstance(command, Resign):
            return self.resign(seat, msg)
        return self.orders(seat, command, msg if ack else None)

    def absent(self, seat: Seat, commands: list, msg: Inbound) -> str:
        """The absence lines of one message (SET ABSENCE, SET AUTOABSENCE), taken together and
        answered once."""
        for layer in layers.above():  # the absences' layer moves the deadlines of the player's games
            done = layer.take_orders(self, seat, commands, msg)
            if done is not None:
                return done
        raise AssertionError("no layer keeps absences")  # checked before: never reached

    def acknowledge(self, seat: Seat, commands: list, msg: Inbound) -> None:
        """One acknowledgement for several orders of one mail, once all are played."""
        if round_the_table(self.table.state):
            self.round_table.acknowledge(seat, commands, msg)
            return
        if plays_by_toss(self.table.state):
            self.tosses.answer(seat, commands, msg)
            return
        self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, orders="\n".join(map(str, commands)),
                             turn=self.table.state.turn, replaced=False, waiting=[])

    def orders(self, seat: Seat, command, msg: Inbound | None) -> str:
        state = self.table.state
        if round_the_table(state):
            return self.round_table.play(seat, command, msg)
        if plays_by_toss(state):
            return self.tosses.play(seat, command, msg)
        turn = state.turn
        replaced = seat.seat not in state.to_move()
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.now, LogEvent.ORDERS, seat.seat, orders=str(command), turn=turn,
                             **self.marks)
        if msg is not None:
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, orders=str(command), turn=turn,
                                 replaced=replaced and ("robot" if self.back_from_robot else True),
                                 waiting=[self.table.seats[s].name for s in state.to_move()])
        self.resolve_if_ready()
        return f"orders for turn {turn}" + (" (replacing earlier orders)" if replaced else "")

    def announce(self, before: set[int] | None = None, actor: int | None = None) -> None:
        """Round the table: tell everyone what the moves since the last announcement changed."""
        self.round_table.announce(before, actor)

    def seat_taken(self, seat: Seat) -> None:
        """A new player has taken `seat` (the GM's REPLACE): round the table, the turn mail the
        welcome promised if it owes a move."""
        if round_the_table(self.table.state):
            self.round_table.seat_taken(seat)

    def resolve_if_ready(self, notes: list[str] | None = None) -> None:
        state = self.table.state
        while state.ready():
            turn = state.turn
            played = state.resolve()
            self.store.add_event(self.table.id, self.now, LogEvent.RESOLVED, turn=turn)
            self.table.sync()
            self.table.next_deadline(self.now)
            self.postman.to_all(MailKind.REPORT, self.table, played=played, resolved_turn=turn, notes=notes or [])
            notes = []
            if state.result() is not None:
                self.finish()

    def finish(self) -> None:
        self.table.sync()
        self.store.add_event(self.table.id, self.now, LogEvent.FINISHED, result=self.table.row.result)
        self.postman.to_all(MailKind.RESULT, self.table)
        layers.tell("game_ended", self.store, self.postman, self.table)

    def resign(self, seat: Seat, msg: Inbound | None = None) -> str:
        """The seat gives up. Whether the game ends is the engine's word: a card game of three
        or more goes on without the player, who still gets the reports and the result."""
        state = self.table.state
        if round_the_table(state):
            self.round_table.resign(seat, msg)
            return "resigned"
        state.apply(seat.seat, Resign())
        self.store.add_event(self.table.id, self.now, LogEvent.RESIGN, seat.seat, orders="RESIGN")
        if state.result() is not None:
            self.finish()
        elif plays_by_toss(state):
            state.drain_events()
            self.tosses.resigned(seat)
        else:
            self.resolve_if_ready()
        return "resigned"

    def press(self, seat: Seat, text: str, msg: Inbound) -> str:
        """Pass a press on to every other player, signed once, and tell the sender who has it. The
        sender's copy is a press mail, not an ack: an ack of the same mail's orders may go too."""
        text = drop_sign_off(text, seat.name)
        readers = self.table.press_readers(seat)
        if not readers:
            # Nobody else reads this game's mail (its other seats are pbem's robots, or there are
            # none): the sender is told so once, in the answer to the message, and the orders
            # beside the press stand. The press is kept nowhere, as nobody will ever read it.
            self.postman.to_seat(MailKind.PRESS, self.table, seat, answer=msg, template="press_unread",
                                 robots=len(self.table.seats) > 1)
            return "press not passed on: nobody else reads this game's mail"
        self.store.add_event(self.table.id, self.now, LogEvent.PRESS, seat.seat, text=text)
        for other in readers:
            self.postman.to_seat(MailKind.PRESS, self.table, other, sender=seat, text=text)
        names = [other.name for other in readers]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        self.postman.to_seat(MailKind.PRESS, self.table, seat, answer=msg, template="press_ack", sender=seat, text=text,
                             readers=listed)
        return "press"

    def missed_deadline(self, forced: bool = False, by_gm: bool = False) -> list[str]:
        """The deadline has passed (or the GM says resolve now, `by_gm`): play the NMR policy for
        everyone who owes orders. Under `wait` only a forced turn is played, by autoplay."""
        state = self.table.state
        self.when = "before the GM closed the turn" if by_gm else "by the deadline"
        policy = self.table.row.options.get("nmr", "autoplay")
        if policy == "wait":
            if not forced:
                return []
            policy = "autoplay"
        if round_the_table(state):
            return self.round_table.missed(policy)
        if plays_by_toss(state):
            return self.tosses.missed(policy, self.when)
        notes = []
        for s in sorted(state.to_move()):
            command, mark = self.nmr_command(s, policy)
            state.apply(s, command)
            self.store.add_event(self.table.id, self.now, LogEvent.NMR, s, orders=str(command), policy=policy,
                                 turn=state.turn, **mark)
            what = {"autoplay": "the GM played for them", "robot": "the robot played for them"}.get(
                policy, "the turn is forfeited; the GM used")
            notes.append(f"{self.table.seats[s].name} sent no orders {self.when} ({policy}): {what}: "
                         + str(command).replace("\n", " / "))
        self.resolve_if_ready(notes)
        return notes

    def nmr_command(self, seat: int, policy: str):
        """The order a missed deadline plays for `seat`, and what its event says of it: the
        engine's rule, or under `nmr=robot` the strong robot's move (`robot_seats`)."""
        if policy == "robot" and not plays_by_toss(self.table.state):  # dice golf's robot plays BEST
            return robot_seats.nmr_command(self.table.state, self.table, seat)
        return self.table.state.nmr_orders(seat, policy), {}

    def _public_events(self) -> list[dict]:
        """What a history may show: no orders (the resolved holes show what was played), and no
        default orders of a turn that is still open."""
        state = self.table.state
        open_turn = None if state.result() else state.turn
        return [marked(ev) for ev in self.store.events(self.table.id, undone=True)
                if ev["kind"] != LogEvent.ORDERS and not (ev["kind"] == LogEvent.NMR and ev.get("turn") == open_turn)]
