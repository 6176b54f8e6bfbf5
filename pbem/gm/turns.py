"""Orders into a game, turns resolved, and the mail each step owes the players."""
from __future__ import annotations

from ..games.base import Resign, TurnByTurn
from ..mail.inbound import Inbound
from ..orders.commands import Help, History, Order, Press, SetTimezone, Status
from ..store import Seat
from .games import Table
from .letters import Postman


class Turns:
    def __init__(self, postman: Postman, table: Table):
        self.postman = postman
        self.store = postman.store
        self.table = table

    @property
    def now(self):
        return self.postman.now

    def obey(self, seat: Seat, order: Order, msg: Inbound, ack: bool = True) -> str:
        command = order.command
        if isinstance(command, Help):
            self.postman.to_seat("help", self.table, seat, answer=msg)
            return "help"
        if isinstance(command, Status):
            self.postman.to_seat("status", self.table, seat, answer=msg)
            return "status"
        if isinstance(command, History):
            self.postman.to_seat("history", self.table, seat, answer=msg,
                                 events=self._public_events())
            return "history"
        if isinstance(command, Press):
            return self.press(seat, command.text, msg)
        if isinstance(command, SetTimezone):
            seat.timezone = command.zone
            self.store.update_seat(seat)
            self.postman.to_seat("ack", self.table, seat, answer=msg, template="timezone")
            return f"time zone {command.zone}"
        if isinstance(command, Resign):
            return self.resign(seat)
        return self.orders(seat, command, msg if ack else None)

    def acknowledge(self, seat: Seat, commands: list, msg: Inbound) -> None:
        """One acknowledgement for several orders of one mail, once all are played."""
        self.postman.to_seat("ack", self.table, seat, answer=msg, orders="\n".join(map(str, commands)),
                             turn=self.table.state.turn, replaced=False, waiting=[])

    def orders(self, seat: Seat, command, msg: Inbound | None) -> str:
        state = self.table.state
        if isinstance(state, TurnByTurn):
            return self.play(seat, command, msg)
        turn = state.turn
        replaced = seat.seat not in state.to_move()
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.now, "orders", seat.seat, orders=str(command), turn=turn)
        if msg is not None:
            self.postman.to_seat("ack", self.table, seat, answer=msg, orders=str(command), turn=turn,
                                 replaced=replaced, waiting=[self.table.seats[s].name for s in state.to_move()])
        self.resolve_if_ready()
        return f"orders for turn {turn}" + (" (replacing earlier orders)" if replaced else "")

    # -- turn by turn (the card games) -----------------------------------------------------
    def play(self, seat: Seat, command, msg: Inbound | None, notes: list[str] | None = None) -> str:
        """One action of a turn-by-turn game, and the mail it causes."""
        state = self.table.state
        turn, before = state.turn, state.to_move()
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.now, "orders", seat.seat, orders=str(command), turn=turn)
        if msg is not None:
            self.postman.to_seat("ack", self.table, seat, answer=msg, orders=str(command), turn=turn,
                                 replaced=False, waiting=[])
        self.announce(before, actor=seat.seat, notes=notes or [])
        return f"{command} (turn {turn})"

    def announce(self, before: set[int], actor: int | None, notes: list[str]) -> None:
        """Tell everyone what the last action changed: hole reports, the result, whose move it is."""
        state = self.table.state
        fresh_hole = False
        news: list[str] = []
        for event in state.drain_events():
            if event["kind"] == "hole_end":
                self.postman.to_all("report", self.table, hole_end=event, notes=notes)
                notes, news = [], []
            elif event["kind"] == "hole_start":
                fresh_hole = True
            elif event["kind"] == "played":
                news.append(event["text"])
        self.table.sync()
        if state.result() is not None:
            self.finish()
            return
        if (state.to_move() - before) or fresh_hole:
            # A new move is owed: its own time starts. Someone else's reveal changes no deadline.
            self.table.next_deadline(self.now)
        for s in sorted(state.to_move()):
            if fresh_hole or s == actor or s not in before:
                self.postman.to_seat("turn", self.table, self.table.seats[s], notes=notes, news=news)

    def resolve_if_ready(self, notes: list[str] | None = None) -> None:
        state = self.table.state
        while state.ready():
            turn = state.turn
            played = state.resolve()
            self.store.add_event(self.table.id, self.now, "resolved", turn=turn)
            self.table.sync()
            self.table.next_deadline(self.now)
            self.postman.to_all("report", self.table, played=played, resolved_turn=turn, notes=notes or [])
            notes = []
            if state.result() is not None:
                self.finish()

    def finish(self) -> None:
        self.table.sync()
        self.store.add_event(self.table.id, self.now, "finished", result=self.table.row.result)
        self.postman.to_all("result", self.table)

    def resign(self, seat: Seat) -> str:
        self.table.state.apply(seat.seat, Resign())
        self.store.add_event(self.table.id, self.now, "resign", seat.seat, orders="RESIGN")
        self.finish()
        return "resigned"

    def press(self, seat: Seat, text: str, msg: Inbound) -> str:
        self.store.add_event(self.table.id, self.now, "press", seat.seat, text=text)
        for other in self.table.seats:
            if other.seat != seat.seat:
                self.postman.to_seat("press", self.table, other, sender=seat, text=text)
        return "press"

    def missed_deadline(self, forced: bool = False) -> list[str]:
        """The deadline has passed (or the GM says resolve now): play the NMR policy for everyone
        who owes orders. Under `wait` only the GM forces a turn, and then the GM plays it."""
        state = self.table.state
        policy = self.table.row.options.get("nmr", "autoplay")
        if policy == "wait":
            if not forced:
                return []
            policy = "autoplay"
        notes = []
        before = state.to_move()
        for s in sorted(before):
            for _ in range(4):  # a drawn stock card needs a second decision from the same seat
                if s not in state.to_move() or state.result() is not None:
                    break
                command = state.nmr_orders(s, policy)
                state.apply(s, command)
                seat = self.table.seats[s]
                self.store.add_event(self.table.id, self.now, "nmr", s, orders=str(command), policy=policy,
                                     turn=state.turn)
                what = "the GM played for them" if policy == "autoplay" else "the turn is forfeited; the GM used"
                notes.append(f"{seat.name} sent no orders by the deadline ({policy}): {what}: "
                             + str(command).replace("\n", " / "))
                if not isinstance(state, TurnByTurn):
                    break
        if isinstance(state, TurnByTurn):
            self.announce(before, actor=None, notes=notes)
        else:
            self.resolve_if_ready(notes)
        return notes

    def remind(self) -> list[str]:
        """Remind everyone who still owes orders for this turn (once per turn)."""
        owing = [self.table.seats[s] for s in sorted(self.table.state.to_move())]
        for seat in owing:
            self.postman.to_seat("reminder", self.table, seat)
        self.table.row.reminded_turn = self.table.state.turn
        return [seat.address for seat in owing]

    def _public_events(self) -> list[dict]:
        """What a history may show: no orders (the resolved holes show what was played), and no
        default orders of a turn that is still open."""
        state = self.table.state
        open_turn = None if state.result() else state.turn
        return [ev for ev in self.store.events(self.table.id)
                if ev["kind"] != "orders" and not (ev["kind"] == "nmr" and ev.get("turn") == open_turn)]
