"""Round the table (the card games, On Par): one seat moves at a time and each move takes effect
as it is played. The GM learns what happened from the engine's events (`drain_events`, their
words written by `narrate`), keeps each public move as a `move` event, and tells a batch of
moves once: one acknowledgement for a mail's orders, a report for each hole that ended, one
turn mail for each player owed a new move, and what the GM played for a silent player."""
from __future__ import annotations

from pbem.games.base import Resign, TurnByTurn
from pbem.games.events import GameEvent
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.store import Seat
from pbem.store.statuses import LogEvent
from pbem.gm import takeover

__all__ = ["MOVE_STEPS", "RoundTheTable", "marked", "rolled_back_text"]

# The most orders one move can take (two free looks, a draw, the drawn card's decision).
MOVE_STEPS = 6


class RoundTheTable:
    """The round-the-table side of `Turns`: one per mail (or pass), holding what the orders of
    that mail (or deadline) did, not yet announced."""

    def __init__(self, turns):
        self.turns = turns
        self.postman = turns.postman
        self.store = turns.store
        self.table = turns.table
        self._pending: list[dict] = []
        self._before: set[int] | None = None  # who owed a move before them
        self._turn_before = 0
        self._notices: list[tuple[int, str]] = []  # (seat, what every other player is told once)

    @property
    def state(self) -> TurnByTurn:
        """The game, as this flow reads it: `round_the_table` picked it for a `TurnByTurn`."""
        return self.table.state

    def play(self, seat: Seat, command, msg: Inbound | None) -> str:
        """One action of a turn-by-turn game. With `msg` it is acknowledged and announced at
        once; without, it waits for `acknowledge`, so that a mail of several orders gets one
        acknowledgement and at most one turn mail per player, written after the last of them."""
        state = self.state
        self._begin()
        turn = state.turn
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.turns.now, LogEvent.ORDERS, seat.seat, orders=str(command), turn=turn,
                             **self.turns.marks)
        self._pending += self._drained()
        if msg is not None:
            self.acknowledge(seat, [command], msg)
        return f"{command} (turn {turn})"

    def _drained(self) -> list[dict]:
        """The engine's events since the last call, their words written (`narrate`): the GM
        reads a move's words only through here."""
        state = self.state
        return state.narrate(state.drain_events())

    def _begin(self) -> None:
        """Remember who owed what before the first action of a batch."""
        if self._before is None:
            self._before, self._turn_before = set(self.state.to_move()), self.state.turn

    def acknowledge(self, seat: Seat, commands: list, msg: Inbound) -> None:
        # What the orders did, as their player may be told it (the card they drew included).
        outcome = [ev["own"] for ev in self._pending if ev.get("seat") == seat.seat and ev.get("own")]
        ended = [ev["hole"] for ev in self._pending if ev["kind"] == GameEvent.HOLE_END]
        self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, orders="\n".join(map(str, commands)),
                             outcome=outcome, hole_ended=ended[-1] if ended else None)
        self.announce(actor=seat.seat, answer=msg)

    def announce(self, before: set[int] | None = None, actor: int | None = None,
                 nmr: list[dict] | None = None, answer: Inbound | None = None) -> None:
        """Tell everyone what the actions since `_begin` changed: hole reports, the result, whose
        move it is (each player owed a new move gets one turn mail), and what the GM played for
        a silent player (`nmr`), which every player hears once. The actor's own turn mail in the
        middle of their move (a drawn card to decide on) answers their message (`answer`): it
        goes in the one mail that answers it."""
        state = self.state
        if before is None:
            before = self._before or set()
        turn_before = self._turn_before if self._before is not None else state.turn
        events, self._pending, self._before = self._pending + self._drained(), [], None
        nmr = nmr or []
        told: set[int] = set()  # the seats that have had the NMR notes
        fresh_hole = self._record(events, nmr, told)
        self.table.sync()
        if state.result() is not None:
            self._notices = []
            self.turns.finish()
            return
        owing = state.to_move()
        # The reveals just over: the starter, who owed a reveal before, now owes a move.
        revealed = any(ev["kind"] == GameEvent.REVEALED for ev in events)
        self._set_deadline(fresh_hole or revealed or bool(owing - before) or actor in owing, turn_before)
        moves = self._hole_moves()
        robot = takeover.robot_played(self.store, self.table)  # its turn mail would only mislead
        for s in sorted(owing - robot):
            if fresh_hole or revealed or s == actor or s not in before:
                seat = self.table.seats[s]
                # A player still in the middle of their own turn has just read the news.
                news = [] if s == actor and not fresh_hole else self._news(s, moves)
                # A resignation in this hole is among the news already.
                notes = self._notes_for(s, nmr, told, notices=not news)
                within = answer if s == actor and not fresh_hole else None
                self.postman.to_seat(MailKind.TURN, self.table, seat, notes=notes, news=news, answer=within,
                                     moved=self._moved(s, moves))
        for seat in self.table.seats:
            notes = [] if seat.seat in told else self._notes_for(seat.seat, nmr, told)
            if notes:  # after the hole's reveals, with the cards they turned up (their own among them)
                self.postman.to_seat(MailKind.STATUS, self.table, seat, template="news", notes=notes,
                                     revealed=revealed)
        self._notices = []

    def resign(self, seat: Seat, msg: Inbound | None) -> None:
        """A resignation, played at once: acknowledged (unless it ended the game), and every
        other player hears of it once, whether or not it is their move."""
        state = self.state
        self._begin()
        state.apply(seat.seat, Resign())
        self.store.add_event(self.table.id, self.turns.now, LogEvent.RESIGN, seat.seat, orders="RESIGN")
        self._pending += self._drained()
        if state.result() is None and msg is not None:
            self.postman.to_seat(MailKind.ACK, self.table, seat, answer=msg, orders="RESIGN", outcome=[],
                                 hole_ended=None)
        self._notices = [(seat.seat, ev["text"] + ".") for ev in self._pending
                         if ev["kind"] == GameEvent.PLAYED and ev["seat"] == seat.seat]
        self.announce()

    def seat_taken(self, seat: Seat) -> None:
        """A new player has taken `seat` (the GM's REPLACE): if it owes a move, the turn mail the
        welcome promised, with everything played since the seat's last move."""
        if seat.seat in self.state.to_move():
            moves = self._hole_moves()
            self.postman.to_seat(MailKind.TURN, self.table, seat, notes=[], news=self._news(seat.seat, moves),
                                 moved=self._moved(seat.seat, moves))

    def _record(self, events: list[dict], nmr: list[dict], told: set[int]) -> bool:
        """Keep each public move as a `move` event (the news and the history are read from
        them) and send the report of every hole that ended. True when a new hole began."""
        state, fresh_hole = self.state, False
        hole = state.hole - sum(1 for ev in events if ev["kind"] == GameEvent.HOLE_START)
        for ev in events:
            if ev["kind"] == GameEvent.PLAYED:
                self.store.add_event(self.table.id, self.turns.now, LogEvent.MOVE, ev["seat"], hole=hole,
                                     text=ev["text"], move=ev.get("move", True), by_gm=ev.get("by_gm", False))
            elif ev["kind"] == GameEvent.HOLE_END:
                # Each reader's report begins with the moves they have not read of yet: those the
                # others made since their own last one (the last of the hole among them).
                moves = self._hole_moves(hole)
                for seat in self.table.seats:
                    self.postman.to_seat(MailKind.REPORT, self.table, seat, hole_end=ev,
                                         notes=self._notes_for(seat.seat, nmr, told),
                                         news=self._news(seat.seat, moves), moved=self._moved(seat.seat, moves))
            elif ev["kind"] == GameEvent.HOLE_START:
                fresh_hole, hole = True, ev["hole"]
            elif ev["kind"] == GameEvent.TRAPPED:  # On Par: the victim hears of a trap at once
                victim = self.table.seats[ev["seat"]]
                self.postman.to_seat(MailKind.STATUS, self.table, victim, template="trapped",
                                     trap={**ev, "by_name": self.table.seats[ev["by"]].name})
        return fresh_hole

    def _set_deadline(self, new_move: bool, turn_before: int) -> None:
        """Every new move owed (a turn, the decision on a drawn card, a hole's reveals) gets its
        own deadline and its own reminder. Someone else's reveal changes neither."""
        row = self.table.row
        if new_move:
            self.table.next_deadline(self.turns.now)
            row.reminded_turn = None
        elif row.reminded_turn == turn_before:  # reminded already for the deadline that still runs
            row.reminded_turn = self.state.turn

    def _hole_moves(self, hole: int | None = None) -> list[dict]:
        hole = self.state.hole if hole is None else hole
        return [ev for ev in self.store.events(self.table.id) if ev["kind"] == "move" and ev.get("hole") == hole]

    @staticmethod
    def _moved(reader: int, moves: list[dict]) -> bool:
        """Whether `reader` has made a move of this hole (the news then runs from it, else from
        the hole's start)."""
        return any(ev["seat"] == reader and ev.get("move", True) for ev in moves)

    @staticmethod
    def _news(reader: int, moves: list[dict]) -> list[str]:
        """Every move by the others since `reader`'s own last move of this hole."""
        last = max((i for i, ev in enumerate(moves) if ev["seat"] == reader and ev.get("move", True)), default=-1)
        return [ev["text"] + (" (played by the GM)" if ev.get("by_gm") else "")
                for ev in moves[last + 1:] if ev["seat"] != reader]

    def _notes_for(self, reader: int, nmr: list[dict], told: set[int], notices: bool = True) -> list[str]:
        """The NMR notes as `reader` may read them (the silent player learns the card the GM
        drew for them; the others only what was played in public). Each reader gets them once."""
        if reader in told:
            return []
        told.add(reader)
        notes = [text for seat, text in self._notices if seat != reader] if notices else []
        for missed in nmr:
            rule = missed["policy"]
            if missed["seat"] == reader:
                done = ". ".join([" / ".join(missed["orders"])] + missed["own"])
                notes.append(f"You sent no orders {self.turns.when}, so I played for you by the game's rule "
                             f"({rule}): {done}.")
            else:
                notes.append(f"{missed['name']} sent no orders {self.turns.when}, so I played for them ({rule}): "
                             + ". ".join(missed["text"]) + ".")
        return notes

    def missed(self, policy: str) -> list[str]:
        """Each silent seat's move, played by the GM: only the move that was due (a drawn card's
        decision, or a free look's draw, belongs to it), never the next one it will owe."""
        state = self.state
        self._begin()
        nmr = []
        for s in sorted(state.to_move()):
            if state.result() is not None:
                break
            turn = state.turn
            orders: list[str] = []
            events: list[dict] = []
            while s in state.to_move() and state.turn == turn and len(orders) < MOVE_STEPS:
                command, mark = self.turns.nmr_command(s, policy)
                state.apply(s, command)
                self.store.add_event(self.table.id, self.turns.now, LogEvent.NMR, s, orders=str(command), policy=policy,
                                     turn=state.turn, **mark)
                orders.append(str(command))
                # Marked before their words are written, which say who chose the move.
                events += state.narrate([dict(ev, by_gm=True) if ev["kind"] == GameEvent.PLAYED and ev["seat"] == s
                                         and ev.get("move", True) else ev for ev in state.drain_events()])
            self._pending += events
            mine = [ev for ev in events if ev.get("seat") == s]
            nmr.append({"seat": s, "name": self.table.seats[s].name, "policy": policy, "orders": orders,
                        "own": [ev["own"] for ev in mine if ev.get("own")],
                        "text": [ev["text"] for ev in mine if ev["kind"] == GameEvent.PLAYED]})
        self.announce(actor=None, nmr=nmr)
        return [f"{m['name']} sent no orders {self.turns.when} ({policy}): the GM played " + " / ".join(m["orders"])
                for m in nmr]

    def history(self) -> dict:
        """A card game's history: the public moves hole by hole with each finished hole's scores,
        then the press and the GM's notices. Orders are never shown (a face-down card's
        position, a conditional draw's limit), only what every player saw happen."""
        state = self.state
        names, finished = state.names, state.hole_scores()
        holes: dict[int, dict] = {}
        others = []
        for ev in map(marked, self.store.events(self.table.id, undone=True)):
            at = ev["at"][5:16].replace("T", " ")
            if ev["kind"] == "move":
                text = ev["text"] + (" (played by the GM)" if ev.get("by_gm") else "") \
                    + (" (rolled back)" if ev["rolled_back"] else "")
                hole = holes.setdefault(ev["hole"], {"hole": ev["hole"], "moves": []})
                hole["moves"].append({"at": at, "text": text})
            elif ev["kind"] == "press":
                others.append({"at": at, "text": f"Press from {names[ev['seat']]}: " + " ".join(ev["text"].split())})
            elif ev["kind"] == "replace":
                others.append({"at": at, "text": f"{ev['name']} took over seat {ev['seat'] + 1}"})
            elif ev["kind"] == "rollback":
                others.append({"at": at, "text": rolled_back_text(ev)})
            elif ev["kind"] == LogEvent.TAKEOVER:
                others.append({"at": at, "text": f"The robot plays for {names[ev['seat']]} ({ev['misses']} missed "
                                                 "deadlines in a row)"})
            elif ev["kind"] == LogEvent.TAKEN_BACK:
                others.append({"at": at, "text": f"{names[ev['seat']]} took the seat back from the robot"})
        for h in range(1, state.hole + 1):
            holes.setdefault(h, {"hole": h, "moves": []})
        for shown in holes.values():
            scores = finished.get(shown["hole"])
            shown["scores"] = ", ".join(f"{n} {p}" for n, p in zip(names, scores)) if scores else None
        return {"holes": [holes[h] for h in sorted(holes)], "others": others}


def marked(ev: dict) -> dict:
    """An event as a history shows it: `rolled_back` when a rollback undid it."""
    return {**ev, "rolled_back": ev.get("undone") is not None}


def rolled_back_text(ev: dict) -> str:
    """A rollback as the history tells it."""
    result = " (its result withdrawn)" if ev.get("result") else ""
    return f"The GM rolled the game back to the start of turn {ev['to_turn']}{result}"
