"""Orders into a game, turns resolved, and the mail each step owes the players."""
from __future__ import annotations

from pbem.games.base import Resign
from pbem.mail.inbound import Inbound
from pbem.orders.commands import Help, History, Order, Press, SetAbsence, SetCalendar, SetTimezone, Status, drop_sign_off
from pbem.store import Seat
from pbem.gm.games import Table
from pbem.gm import layers, robot_seats
from pbem.gm.letters import Postman
from pbem.gm.pacing import plays_by_toss, round_the_table
from pbem.gm.tosses import Tosses


# The most orders one move can take (two free looks, a draw, the drawn card's decision).
MOVE_STEPS = 6


class Turns:
    def __init__(self, postman: Postman, table: Table):
        self.postman = postman
        self.store = postman.store
        self.table = table
        # Turn by turn: what the orders of one mail (or one deadline) did, not yet announced.
        self._pending: list[dict] = []
        self._before: set[int] | None = None  # who owed a move before them
        self.when = "by the deadline"  # how a missed move came to be played, for the notes
        self._turn_before = 0
        self._tosses: Tosses | None = None
        self._notices: list[tuple[int, str]] = []  # (seat, what every other player is told once)
        # What the event of the order being played says of a robot's order (`robot_seats`).
        self.marks: dict = {}

    @property
    def tosses(self) -> Tosses:
        """Dice golf's side of the turns (one for all the orders of a mail)."""
        if self._tosses is None:
            self._tosses = Tosses(self)
        return self._tosses

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
            extra = self._card_history() if round_the_table(self.table.state) else {}
            self.postman.to_seat("history", self.table, seat, answer=msg, events=self._public_events(), **extra)
            return "history"
        if isinstance(command, Press):
            return self.press(seat, command.text, msg)
        if isinstance(command, SetAbsence):
            return self.absent(seat, [command], msg)
        if isinstance(command, SetCalendar):
            self.store.set_calendar(seat.address, command.on, self.now)
            self.postman.calendar_players = None  # read again: this player's wish has just changed
            owes = command.on and seat.seat in self.table.state.to_move() and self.table.row.deadline is not None
            self.postman.to_seat("ack", self.table, seat, answer=msg, template="calendar", on=command.on,
                                 owes=owes)
            return f"calendar {'on' if command.on else 'off'}"
        if isinstance(command, SetTimezone):
            seat.timezone = command.zone
            self.store.update_seat(seat)
            self.postman.to_seat("ack", self.table, seat, answer=msg, template="timezone")
            return f"time zone {command.zone}"
        if isinstance(command, Resign):
            return self.resign(seat, msg)
        return self.orders(seat, command, msg if ack else None)

    def absent(self, seat: Seat, commands: list, msg: Inbound) -> str:
        """The SET ABSENCE lines of one message, taken together and answered once."""
        for layer in layers.above():  # a league's absence: the league layer moves its games' deadlines
            done = layer.take_orders(self, seat, commands, msg)
            if done is not None:
                return done
        raise ValueError("no layer keeps absences")  # checked before: never reached

    def acknowledge(self, seat: Seat, commands: list, msg: Inbound) -> None:
        """One acknowledgement for several orders of one mail, once all are played."""
        if round_the_table(self.table.state):
            self._acknowledge_moves(seat, commands, msg)
            return
        if plays_by_toss(self.table.state):
            self.tosses.answer(seat, commands, msg)
            return
        self.postman.to_seat("ack", self.table, seat, answer=msg, orders="\n".join(map(str, commands)),
                             turn=self.table.state.turn, replaced=False, waiting=[])

    def orders(self, seat: Seat, command, msg: Inbound | None) -> str:
        state = self.table.state
        if round_the_table(state):
            return self.play(seat, command, msg)
        if plays_by_toss(state):
            return self.tosses.play(seat, command, msg)
        turn = state.turn
        replaced = seat.seat not in state.to_move()
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.now, "orders", seat.seat, orders=str(command), turn=turn,
                             **self.marks)
        if msg is not None:
            self.postman.to_seat("ack", self.table, seat, answer=msg, orders=str(command), turn=turn,
                                 replaced=replaced, waiting=[self.table.seats[s].name for s in state.to_move()])
        self.resolve_if_ready()
        return f"orders for turn {turn}" + (" (replacing earlier orders)" if replaced else "")

    # -- turn by turn (the card games) -----------------------------------------------------
    def play(self, seat: Seat, command, msg: Inbound | None) -> str:
        """One action of a turn-by-turn game. With `msg` it is acknowledged and announced at
        once; without, it waits for `acknowledge`, so that a mail of several orders gets one
        acknowledgement and at most one turn mail per player, written after the last of them."""
        state = self.table.state
        self._begin()
        turn = state.turn
        state.apply(seat.seat, command)
        self.store.add_event(self.table.id, self.now, "orders", seat.seat, orders=str(command), turn=turn,
                             **self.marks)
        self._pending += self._drained()
        if msg is not None:
            self._acknowledge_moves(seat, [command], msg)
        return f"{command} (turn {turn})"

    def _drained(self) -> list[dict]:
        """The engine's events since the last call, their words written (`narrate`): the GM
        reads a move's words only through here."""
        state = self.table.state
        return state.narrate(state.drain_events())

    def _begin(self) -> None:
        """Remember who owed what before the first action of a batch."""
        if self._before is None:
            self._before, self._turn_before = self.table.state.to_move(), self.table.state.turn

    def _acknowledge_moves(self, seat: Seat, commands: list, msg: Inbound) -> None:
        # What the orders did, as their player may be told it (the card they drew included).
        outcome = [ev["own"] for ev in self._pending if ev.get("seat") == seat.seat and ev.get("own")]
        ended = [ev["hole"] for ev in self._pending if ev["kind"] == "hole_end"]
        self.postman.to_seat("ack", self.table, seat, answer=msg, orders="\n".join(map(str, commands)),
                             outcome=outcome, hole_ended=ended[-1] if ended else None)
        self.announce(actor=seat.seat, answer=msg)

    def announce(self, before: set[int] | None = None, actor: int | None = None,
                 nmr: list[dict] | None = None, answer: Inbound | None = None) -> None:
        """Tell everyone what the actions since `_begin` changed: hole reports, the result, whose
        move it is (each player owed a new move gets one turn mail), and what the GM played for
        a silent player (`nmr`), which every player hears once. The actor's own turn mail in the
        middle of their move (a drawn card to decide on) answers their message (`answer`): it
        goes in the one mail that answers it."""
        state = self.table.state
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
            self.finish()
            return
        owing = state.to_move()
        # The reveals just over: the starter, who owed a reveal before, now owes a move.
        revealed = any(ev["kind"] == "revealed" for ev in events)
        self._set_deadline(fresh_hole or revealed or bool(owing - before) or actor in owing, turn_before)
        moves = self._hole_moves()
        for s in sorted(owing):
            if fresh_hole or revealed or s == actor or s not in before:
                seat = self.table.seats[s]
                # A player still in the middle of their own turn has just read the news.
                news = [] if s == actor and not fresh_hole else self._news(s, moves)
                # A resignation in this hole is among the news already.
                notes = self._notes_for(s, nmr, told, notices=not news)
                within = answer if s == actor and not fresh_hole else None
                self.postman.to_seat("turn", self.table, seat, notes=notes, news=news, answer=within)
        for seat in self.table.seats:
            notes = [] if seat.seat in told else self._notes_for(seat.seat, nmr, told)
            if notes:
                self.postman.to_seat("status", self.table, seat, template="news", notes=notes)
        self._notices = []

    def seat_taken(self, seat: Seat) -> None:
        """A new player has taken `seat` (the GM's REPLACE): if it owes a move, the turn mail the
        welcome promised, with everything played since the seat's last move."""
        state = self.table.state
        if round_the_table(state) and seat.seat in state.to_move():
            self.postman.to_seat("turn", self.table, seat, notes=[], news=self._news(seat.seat, self._hole_moves()))

    def _record(self, events: list[dict], nmr: list[dict], told: set[int]) -> bool:
        """Keep each public move as a `move` event (the news and the history are read from
        them) and send the report of every hole that ended. True when a new hole began."""
        state, fresh_hole = self.table.state, False
        hole = state.hole - sum(1 for ev in events if ev["kind"] == "hole_start")
        for ev in events:
            if ev["kind"] == "played":
                self.store.add_event(self.table.id, self.now, "move", ev["seat"], hole=hole, text=ev["text"],
                                     move=ev.get("move", True), by_gm=ev.get("by_gm", False))
            elif ev["kind"] == "hole_end":
                for seat in self.table.seats:
                    self.postman.to_seat("report", self.table, seat, hole_end=ev,
                                         notes=self._notes_for(seat.seat, nmr, told))
            elif ev["kind"] == "hole_start":
                fresh_hole, hole = True, ev["hole"]
            elif ev["kind"] == "trapped":  # On Par: the victim hears of a trap at once
                victim = self.table.seats[ev["seat"]]
                self.postman.to_seat("status", self.table, victim, template="trapped",
                                     trap={**ev, "by_name": self.table.seats[ev["by"]].name})
        return fresh_hole

    def _set_deadline(self, new_move: bool, turn_before: int) -> None:
        """Every new move owed (a turn, the decision on a drawn card, a hole's reveals) gets its
        own deadline and its own reminder. Someone else's reveal changes neither."""
        row = self.table.row
        if new_move:
            self.table.next_deadline(self.now)
            row.reminded_turn = None
        elif row.reminded_turn == turn_before:  # reminded already for the deadline that still runs
            row.reminded_turn = self.table.state.turn

    def _hole_moves(self) -> list[dict]:
        hole = self.table.state.hole
        return [ev for ev in self.store.events(self.table.id) if ev["kind"] == "move" and ev.get("hole") == hole]

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
                notes.append(f"You sent no orders {self.when}, so I played for you by the game's rule "
                             f"({rule}): {done}.")
            else:
                notes.append(f"{missed['name']} sent no orders {self.when}, so I played for them ({rule}): "
                             + ". ".join(missed["text"]) + ".")
        return notes

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
        layers.tell("game_ended", self.store, self.postman, self.table)

    def resign(self, seat: Seat, msg: Inbound | None = None) -> str:
        """The seat gives up. Whether the game ends is the engine's word: a card game of three
        or more goes on without the player, who still gets the reports and the result."""
        state = self.table.state
        if round_the_table(state):
            self._begin()
        state.apply(seat.seat, Resign())
        self.store.add_event(self.table.id, self.now, "resign", seat.seat, orders="RESIGN")
        if round_the_table(state):
            self._pending += self._drained()
            if state.result() is None and msg is not None:
                self.postman.to_seat("ack", self.table, seat, answer=msg, orders="RESIGN", outcome=[],
                                     hole_ended=None)
            # Every other player hears of it once, whether or not it is their move.
            self._notices = [(seat.seat, ev["text"] + ".") for ev in self._pending
                             if ev["kind"] == "played" and ev["seat"] == seat.seat]
            self.announce()
        elif state.result() is not None:
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
            self.postman.to_seat("press", self.table, seat, answer=msg, template="press_unread",
                                 robots=len(self.table.seats) > 1)
            return "press not passed on: nobody else reads this game's mail"
        self.store.add_event(self.table.id, self.now, "press", seat.seat, text=text)
        for other in readers:
            self.postman.to_seat("press", self.table, other, sender=seat, text=text)
        names = [other.name for other in readers]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        self.postman.to_seat("press", self.table, seat, answer=msg, template="press_ack", sender=seat, text=text,
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
            return self._missed_moves(policy)
        if plays_by_toss(state):
            return self.tosses.missed(policy, self.when)
        notes = []
        for s in sorted(state.to_move()):
            command, mark = self.nmr_command(s, policy)
            state.apply(s, command)
            self.store.add_event(self.table.id, self.now, "nmr", s, orders=str(command), policy=policy,
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

    def _missed_moves(self, policy: str) -> list[str]:
        """Each silent seat's move, played by the GM: only the move that was due (a drawn card's
        decision, or a free look's draw, belongs to it), never the next one it will owe."""
        state = self.table.state
        self._begin()
        nmr = []
        for s in sorted(state.to_move()):
            if state.result() is not None:
                break
            turn, orders, events = state.turn, [], []
            while s in state.to_move() and state.turn == turn and len(orders) < MOVE_STEPS:
                command, mark = self.nmr_command(s, policy)
                state.apply(s, command)
                self.store.add_event(self.table.id, self.now, "nmr", s, orders=str(command), policy=policy,
                                     turn=state.turn, **mark)
                orders.append(str(command))
                # Marked before their words are written, which say who chose the move.
                events += state.narrate([dict(ev, by_gm=True) if ev["kind"] == "played" and ev["seat"] == s
                                         and ev.get("move", True) else ev for ev in state.drain_events()])
            self._pending += events
            mine = [ev for ev in events if ev.get("seat") == s]
            nmr.append({"seat": s, "name": self.table.seats[s].name, "policy": policy, "orders": orders,
                        "own": [ev["own"] for ev in mine if ev.get("own")],
                        "text": [ev["text"] for ev in mine if ev["kind"] == "played"]})
        self.announce(actor=None, nmr=nmr)
        return [f"{m['name']} sent no orders {self.when} ({policy}): the GM played " + " / ".join(m["orders"])
                for m in nmr]

    def remind(self) -> list[str]:
        """Remind everyone who still owes orders (once a deadline: `reminded_turn` is cleared
        whenever a new deadline is set)."""
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
        return [_marked(ev) for ev in self.store.events(self.table.id, undone=True)
                if ev["kind"] != "orders" and not (ev["kind"] == "nmr" and ev.get("turn") == open_turn)]

    def _card_history(self) -> dict:
        """A card game's history: the public moves hole by hole with each finished hole's scores,
        then the press and the GM's notices. Orders are never shown (a face-down card's
        position, a conditional draw's limit), only what every player saw happen."""
        state, names = self.table.state, self.table.state.names
        finished = {h["hole"]: h["scores"] for h in state.holes}
        holes: dict[int, dict] = {}
        others = []
        for ev in map(_marked, self.store.events(self.table.id, undone=True)):
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
        for h in range(1, state.hole + 1):
            holes.setdefault(h, {"hole": h, "moves": []})
        for h in holes.values():
            scores = finished.get(h["hole"])
            h["scores"] = ", ".join(f"{n} {p}" for n, p in zip(names, scores)) if scores else None
        return {"holes": [holes[h] for h in sorted(holes)], "others": others}


def _marked(ev: dict) -> dict:
    """An event as a history shows it: `rolled_back` when a rollback undid it."""
    return {**ev, "rolled_back": ev.get("undone") is not None}


def rolled_back_text(ev: dict) -> str:
    """A rollback as the history tells it."""
    result = " (its result withdrawn)" if ev.get("result") else ""
    return f"The GM rolled the game back to the start of turn {ev['to_turn']}{result}"
