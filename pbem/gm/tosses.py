"""Dice golf by mail: the tosses that need a choice go to their player, the holes close together.

Every player plays the same hole at once. The engine rolls; a toss that leaves the player a real
choice waits for an `ENTER` (or a standing `POLICY`), and the answer to that mail is the next
toss that waits, or, when the player's hole is done, an acknowledgement. When every player has
finished the hole, one report goes to everyone (one for all the holes closed in one pass, so a
table of standing policies gets one mail, not seven) with the score sheets, the coaching for the
tosses the reader answered by hand, and the reader's first toss of the next hole.
"""
from __future__ import annotations

from pbem.games.events import GameEvent
from pbem.gm.pacing import TossGame
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.store import Seat
from pbem.store.statuses import LogEvent

__all__ = ["Tosses"]

# What a hole that opens puts on a player's card at once: the news of the report that opens it.
_ON_A_CARD = (GameEvent.TOSS, GameEvent.ENTRY, GameEvent.HOLED, GameEvent.ASK)


def dice_text(dice) -> str:
    return f"{dice[0]} and {dice[1]}"


def signed(score: int) -> str:
    return f"{score:+d}" if score else "0"


def describe(ev: dict, names: list[str], reader: int) -> str | None:
    """One line of what happened on a player's card, as that player reads it (None: not news)."""
    who = "you" if ev.get("seat") == reader else names[ev["seat"]]
    kind = ev["kind"]
    if kind == GameEvent.TOSS and ev["entry"] is not None:
        head = f"Hole {ev['hole']}, toss {ev['toss']}: {dice_text(ev['dice'])}"
        if ev["entry"] == "X":
            return f"{head}: nothing fits under the flag {ev['flag']}, X entered"
        total = ev["total"] + ev["entry"]
        if total == ev["flag"]:
            ace = ", a hole-in-one" if ev["toss"] == 1 else ""
            return f"{head}: {ev['entry']} reaches the flag {ev['flag']}{ace}"
        return f"{head}: {ev['entry']} entered, the only entry that fits (total {total})"
    if kind == GameEvent.ENTRY:
        rolled = f"{dice_text(ev['dice'])}: " if ev.get("dice") else ""  # what was rolled, then entered
        head = f"Hole {ev['hole']}, toss {ev['toss']}: {rolled}"
        by = {"hand": f"{who} entered", "deadline": "BEST entered (the deadline)"}.get(
            ev["by"], f"{'your' if who == 'you' else names[ev['seat']] + chr(39) + 's'} policy {ev['by']} entered")
        return f"{head}{by} {ev['entry']} (total {ev['total']})"
    if kind == GameEvent.HOLED:
        tosses = f"{ev['tosses']} toss{'es' if ev['tosses'] != 1 else ''}"
        return f"Hole {ev['hole']} done in {tosses}: {signed(ev['score'])} (total {signed(ev['total'])})"
    if kind == GameEvent.FORFEIT:
        return f"Hole {ev['hole']} given up at the deadline: +4"
    if kind == GameEvent.POLICY:
        return f"Standing policy now {ev['policy']}"
    return None


class Tosses:
    """The dice golf side of `Turns`: one per mail (or pass), holding what the orders did."""

    def __init__(self, turns):
        self.turns = turns
        self.postman = turns.postman
        self.store = turns.store
        self.table = turns.table
        self.pending: list[dict] = []
        # While `batch` holds (a mail and the robots' moves after it, a deadline's pass), the holes
        # that close wait to be reported together: one report per pass (`flush`).
        self.batch = False
        self._ended: list[dict] = []
        self._notes: list[str] = []
        self._about: int | None = None
        self._opened: list[dict] = []

    @property
    def state(self) -> TossGame:
        return self.table.state

    def play(self, seat: Seat, command, msg: Inbound | None) -> str:
        """One order; with `msg` answered at once, else by `answer` after the mail's last order."""
        hole = self.state.turn
        self.state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.turns.now, LogEvent.ORDERS, seat.seat, orders=str(command), turn=hole,
                             **self.turns.marks)
        self.pending += self.state.drain_events()
        if msg is not None:
            self.answer(seat, [command], msg)
        return f"{command} (hole {hole})"

    def answer(self, seat: Seat, commands: list, msg: Inbound) -> None:
        """The answer to a player's mail: the next toss that waits for them, or an ack."""
        state = self.state
        done = [line for ev in self.pending if ev.get("seat") == seat.seat
                if (line := describe(ev, state.names, seat.seat))]
        self.pending = []
        orders = "\n".join(map(str, commands))
        if seat.seat in state.to_move():
            self.postman.to_seat(MailKind.TURN, self.table, seat, answer=msg, orders=orders, done=done, notes=[])
        else:
            waiting = [self.table.seats[s].name for s in sorted(state.to_move())]
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, orders=orders, done=done, waiting=waiting)
        self.settle()

    def resigned(self, seat: Seat) -> None:
        """A player has resigned and the game goes on: everyone hears of it in a report (which
        also closes the hole, when the others had finished it)."""
        self.settle([f"{seat.name} has resigned: they toss no more and cannot win; their sheet stays "
                     "as it is."], about=seat.seat)

    def settle(self, notes: list[str] | None = None, about: int | None = None) -> None:
        """Close every hole that every player has finished, report them in one mail to each
        player (at the end of the batch, when one runs), and end the game after the seventh.
        `about`: the seat that resigned, who reads of it in their own words."""
        state, ended = self.state, []
        while state.ready():
            hole = state.turn
            ended += state.resolve()
            # The history keeps every roll of the hole, by player.
            rolls = {seat.address: state.sheet(seat.seat, hole) for seat in self.table.seats}
            self.store.add_event(self.table.id, self.turns.now, LogEvent.RESOLVED, turn=hole, sheets=rolls)
        self._opened += [ev for ev in state.drain_events() if ev.get("kind") in _ON_A_CARD]
        self.table.sync()
        if ended and state.result() is None:
            self.table.next_deadline(self.turns.now)
            self.table.row.reminded_turn = None
        self._ended += ended
        self._notes += notes or []
        if about is not None:
            self._about = about
        if not self.batch:
            self.flush()

    def flush(self) -> None:
        """The one report of the holes closed (and the notes gathered) since the last one; the
        result after the seventh hole."""
        state, ended, notes, about, opened = self.state, self._ended, self._notes, self._about, self._opened
        self._ended, self._notes, self._about, self._opened = [], [], None, []
        if ended or notes:
            for seat in self.table.seats:
                news = [line for ev in opened if ev.get("seat") == seat.seat and ev["kind"] != GameEvent.ASK
                        if (line := describe(ev, state.names, seat.seat))]
                told = notes
                if seat.seat == about:
                    told = ["You have resigned: you toss no more. I will still send you the reports and the result."]
                self.postman.to_seat(MailKind.REPORT, self.table, seat, holes=ended, notes=told, done=news)
        if ended and state.result() is not None:
            self.turns.finish()

    def missed(self, policy: str, when: str) -> list[str]:
        """The deadline: every toss still waiting is played, and the rest of its hole, by BEST
        (or the hole is given up, under `forfeit`)."""
        state, notes = self.state, []
        for s in sorted(state.to_move()):
            hole, toss = state.turn, state.position(s)[2]
            command, mark = self.turns.nmr_command(s, policy)
            state.apply(s, command)
            self.store.add_event(self.table.id, self.turns.now, LogEvent.NMR, s, orders=str(command), policy=policy,
                                 turn=hole, **mark)
            name = self.table.seats[s].name
            if policy == "forfeit":
                notes.append(f"{name} sent no answer {when}: hole {hole} is given up at +4 (nmr=forfeit).")
            else:
                notes.append(f"{name} sent no answer {when}: I played toss {toss} and the rest of hole {hole} "
                             f"by BEST ({policy}).")
        self.pending += state.drain_events()
        self.settle(notes)
        return notes
