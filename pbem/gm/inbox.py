"""One inbound message, from raw bytes to its effect: the door the chain's steps share.

A message passes the named steps of `steps.chain()` in order until one ends it (`chain.Step`).
The inbox runs them and is what they share: how a message is read, how mail that proved no seat
is answered (the layers above answer theirs through it too), and what a proven seat's commands
do. A message is all or nothing: every wrong line is reported and the game is left as it was.
"""
from __future__ import annotations

from datetime import timedelta

from pbem.games.base import Resign
from pbem.games.errors import IllegalOrder, InvalidOrder, OrderError, make_suggestions
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.games.registry import spec_for, specs
from pbem.orders.commands import (
    ABSENCE_COMMANDS, Help, History, Order, Press, SetCalendar, SetDigest, SetReminders, SetTimezone, Status,
    UnknownCommand, read_body,
    read_heading,
)
from pbem.orders.text import Reading, read_lines
from pbem.store import Seat
from pbem.gm import games, layers, originals, robot_seats, takeover
from pbem.gm.chain import Found, Outcome, Policy
from pbem.gm.letters import Postman
from pbem.gm.pacing import plays_by_toss
from pbem.gm.steps import chain
from pbem.gm.turns import Turns
from pbem.gm.wording import wording

HOUR = timedelta(hours=1)


class Inbox:
    def __init__(self, postman: Postman, policy: Policy):
        self.postman = postman
        self.store = postman.store
        self.policy = policy
        self.gm_addresses = policy.gm_addresses
        # The chain's step at work on the message, or the one that ended it: a message whose
        # handling raises is kept as failed at that step (`pbem inbox`).
        self.step: str | None = None

    def handle(self, msg: Inbound) -> Outcome:
        with self.postman.answering(msg):  # one message, one answer
            return self._handle(msg)

    def _handle(self, msg: Inbound) -> Outcome:
        found = Found()
        for step in chain():
            self.step = step.name
            outcome = step.check(self, msg, found)
            if outcome is not None:
                outcome.step = step.name
                return outcome
        raise AssertionError("the last step of the chain answers every message")

    def read(self, msg: Inbound) -> Reading:
        """The message's lines as commands, read against the GM's mails it answers."""
        # A run of quoted lines takes three: a shorter message is read without looking it up.
        found = originals.originals_of(self.store, msg) if msg.text.count("\n") >= 2 else []
        return read_lines(msg.text, found, (self.postman.gm_address, self.postman.gm_name.casefold()))

    # -- mail that did not prove its seat ---------------------------------------------------
    def _unproven(self, msg: Inbound, *, note: str, problem: str = "", hint: str | None = None,
                  table: games.Table | None = None, seat: Seat | None = None, kind: MailKind = MailKind.ERROR,
                  status: str = "refused") -> Outcome:
        """One short answer to mail that did not prove a seat, never quoting its text, and
        silence once the hour's answers to such mail are used up."""
        silenced = self._unanswerable(msg, note)
        if silenced:
            return silenced
        if kind == MailKind.ERROR:
            self.postman.to_sender(MailKind.ERROR, msg, table=table, seat=seat, errors=[], problem=problem, hint=hint)
        else:
            self.postman.to_sender(kind, msg)
        return Outcome(status, note, table.id if table else None)

    def unproven(self, msg: Inbound, **how) -> Outcome:
        """For the steps and the layers above (`layers.Layer.mail`): answer mail that proved no
        seat, within the strangers' limits, as `_unproven` does."""
        return self._unproven(msg, **how)

    def unanswerable(self, msg: Inbound, note: str) -> Outcome | None:
        """For the steps and the layers above: why mail that proved no seat gets no answer now, or None."""
        return self._unanswerable(msg, note)

    def _unanswerable(self, msg: Inbound, note: str) -> Outcome | None:
        """Why mail that proved no seat gets no answer now (the hour's answers to such mail are
        used up, or its sender's), or None when it may have one."""
        since = self.postman.now - HOUR
        if self.store.inbound.strangers_answered(since) >= self.policy.strangers_per_hour:
            return Outcome("ignored", f"{note}; not answered: {self.policy.strangers_per_hour} answers to "
                                      "unproven mail in the last hour")
        return self._sender_flood(msg, since)

    def _sender_flood(self, msg: Inbound, since) -> Outcome | None:
        """Past the hourly limit of unproven mail from one address: one warning, then silence
        until an hour has fewer. (Mail that proves a seat never counts here.)"""
        (recent, warned), limit = self.store.inbound.flood(msg.sender, since, authenticated=False), \
            self.policy.messages_per_hour
        if recent <= limit:
            if warned:
                self.store.inbound.set_warned(msg.sender, None)
            return None
        if warned:
            return Outcome("ignored", f"rate limit: {recent} messages in the last hour")
        self.store.inbound.set_warned(msg.sender, self.postman.now)
        words = wording("flood", sent=recent, limit=limit, proven=False)
        self.postman.to_sender(MailKind.ERROR, msg, errors=[], problem=words.problem, hint=words.hint)
        return Outcome("refused", f"rate limit: {recent} messages in the last hour; warned")

    def secret_in_address(self, msg: Inbound) -> str | None:
        """The secret in the address the message was sent to (`<gm>+<secret>@...`), if any."""
        for gm in self.gm_addresses:
            local, _, domain = gm.partition("@")
            for rcpt in msg.recipients:
                r_local, _, r_domain = rcpt.partition("@")
                if r_domain == domain and r_local.startswith(local + "+"):
                    return r_local[len(local) + 1:]
        return None

    def has_commands(self, lines: list) -> bool:
        """Whether any line reads as a command of some game (`steps.Echo`)."""
        return _has_commands(lines)

    # -- mail from a player who proved their seat ------------------------------------------
    def player(self, msg: Inbound, table: games.Table, seat: Seat, heading, reading: Reading) -> Outcome:
        """The commands of mail that proved its seat (`steps.Commands`), within the hour's limit."""
        lines = reading.lines
        flood = self._flooding(msg, table, seat)
        if flood:
            self.postman.hush(msg)
        if len(lines) > self.policy.max_command_lines:
            words = wording("too_many_lines", limit=self.policy.max_command_lines)
            self.postman.to_sender(MailKind.ERROR, msg, table=table, seat=seat, errors=[], problem=words.problem,
                                   hint=words.hint)
            outcome = Outcome("refused", "too many command lines", table.id)
        else:
            outcome = self._commands(msg, table, seat, heading, reading)
        outcome.auth = seat.address
        if flood:
            outcome.note += f"; {flood}"
        return outcome

    def _flooding(self, msg: Inbound, table: games.Table, seat: Seat) -> str | None:
        """Past the hourly limit a player's orders still count, but nothing is answered: one
        warning, then silence until an hour has fewer. Only mail that proved the seat counts,
        so mail forged in a player's name can never silence them."""
        now, limit = self.postman.now, self.policy.messages_per_hour
        recent, warned = self.store.inbound.flood(seat.address, now - HOUR, authenticated=True)
        if recent < limit:
            if warned:
                self.store.inbound.set_warned(seat.address, None)
            return None
        if not warned:
            self.store.inbound.set_warned(seat.address, now)
            words = wording("flood", sent=recent + 1, limit=limit, proven=True)
            self.postman.to_sender(MailKind.ERROR, msg, table=table, seat=seat, errors=[], problem=words.problem,
                                   hint=words.hint)
        return f"rate limit: {recent + 1} messages in the last hour"

    # -- commands -------------------------------------------------------------------------
    def _commands(self, msg: Inbound, table: games.Table, seat: Seat, heading, reading: Reading) -> Outcome:
        state = table.state
        # The reading tells what the lines alone do not: where a bare PRESS's paragraphs and its
        # end are, and why a message has no commands.
        orders, errors = read_body(heading.body, spec_for(table.type).grammar, reading.breaks)
        orders = _collapse(orders)
        for order in orders:  # a player named by address, as the engine reads players
            order.command = table.by_name(order.command)
        errors = heading.errors + errors
        stale = heading.turn is not None and heading.turn != state.turn and not state.result()
        if stale:
            errors.append(_stale_turn(heading.turn, state, next(
                (n for n, ln in reading.lines if ln.upper().startswith("TURN")), None)))
        if not orders and not errors:
            errors.append(_no_commands(reading))
        # Orders are tried in turn on a scratch copy: in a turn-by-turn game the second order of a
        # mail (KEEP after DRAW STOCK) is only legal once the first has been played.
        game_orders = [o for o in orders if _is_game_order(o.command)]
        # A RESIGN beside other orders is refused already; tried, it would end the game under
        # them, and they are checked against the game as the message found it. Orders thought out
        # for another turn are not checked against this one, and no order is suggested for it:
        # either would make them this turn's orders, which is what TURN guards against.
        tried = [] if stale else [o for o in game_orders
                                  if not (isinstance(o.command, Resign) and len(orders) > 1)]
        scratch = type(state).from_dict(state.to_dict()) if len(tried) > 1 else state
        for order in tried:
            if table.row.status == "abandoned":
                no, ln = order.lines[0]
                words = wording("abandoned")
                errors.append(IllegalOrder(words.message, rule=words.rule, line=ln, lineno=no))
                continue
            try:
                scratch.check(seat.seat, order.command)
                if scratch is not state:
                    scratch.apply(seat.seat, order.command)
            except OrderError as e:
                for problem in (e, *e.also):
                    errors.append(problem.at(*_swap(order.line_for(problem.part))))
                # The later orders are checked still, against the game without this one (as
                # after a line that cannot be read): the answer names every wrong line at once.
        for layer in layers.above():  # a league player's days away: every line of the message together
            errors += layer.check_orders(self.store, table, seat, orders, self.postman.now)
        if errors:
            errors.sort(key=lambda e: e.lineno or 0)
            for error in errors:  # quoted as the player wrote it, punctuation and all
                error.line = reading.written.get(error.lineno, error.line)
            if not stale:
                make_suggestions(errors, state, seat.seat)
            self.postman.to_sender(MailKind.ERROR, msg, table=table, seat=seat, errors=errors, problem=None, hint=None,
                                   read=_as_read(reading))
            return Outcome("refused", f"{len(errors)} wrong line(s)", table.id)
        turns = Turns(self.postman, table)
        back = takeover.come_back(turns, seat)  # the player of a seat the robot played is back
        # Dice golf: the holes this mail closes, and those the robots close after it, make one report.
        tosses = turns.tosses if plays_by_toss(table.state) else None
        if tosses is not None:
            tosses.batch = True
        effects = ([back] if back else []) + self._obey(msg, table, seat, orders, turns)
        effects += robot_seats.move(turns)  # robots owing a move now make it
        if tosses is not None:
            tosses.batch = False
            tosses.flush()
        games.save(self.store, table)
        return Outcome("handled", "; ".join(effects), table.id, effects)

    def _obey(self, msg: Inbound, table: games.Table, seat: Seat, orders: list[Order], turns: Turns) -> list[str]:
        """Carry out a message's orders: a time zone or an absence first (the answer's deadlines
        are written in that zone, and moved), then the game's orders, then the rest, so that a
        STATUS shows the game as the orders left it; the answers go out as one mail
        (`Postman.answering`)."""
        # A digest after the time zone: its answer tells the time in the zone the mail sets.
        zones = sorted((o for o in orders if isinstance(o.command, (SetTimezone, SetCalendar, SetDigest))),
                       key=lambda o: isinstance(o.command, SetDigest))
        away = [o for o in orders if isinstance(o.command, ABSENCE_COMMANDS)]
        game_orders = [o for o in orders if _is_game_order(o.command)]
        after = sorted((o for o in orders if o not in zones + away and o not in game_orders),
                       key=lambda o: isinstance(o.command, (Status, History, Help)))
        # Several orders of one mail (DRAW STOCK, then KEEP) get one acknowledgement together.
        together = len(game_orders) > 1
        effects = [turns.obey(seat, order, msg) for order in zones]
        if away:  # every absence of the message together (counted so by `check_all`), answered once
            effects.append(turns.absent(seat, [o.command for o in away], msg))
        effects += [turns.obey(seat, order, msg, ack=not together) for order in game_orders]
        if together:
            turns.acknowledge(seat, [o.command for o in game_orders], msg)
        return effects + [turns.obey(seat, order, msg) for order in after]


def _stale_turn(turn: int, state, lineno: int | None) -> IllegalOrder:
    """A TURN line naming another turn than the one open: the error says which turn is open and
    which holes it plays, and suggests no TURN line (see `_commands`)."""
    words = wording("stale_turn", turn=turn, open=state.turn, holes=state.turn_holes())
    return IllegalOrder(words.message, rule=words.rule, line=f"TURN {turn}", lineno=lineno)


def _has_commands(lines: list) -> bool:
    """Whether any line reads as a command of some game (rightly or wrongly written)."""
    heading = read_heading(lines)
    if heading.game_id or heading.password or heading.turn is not None:
        return True
    for grammar in (None, *(spec.grammar for spec in specs())):
        orders, errors = read_body(heading.body, grammar)
        if orders or any(not isinstance(e, UnknownCommand) for e in errors):
            return True
    return False


# How many of the lines read an error mail lists.
_READ_LINES_SHOWN = 12


def _as_read(reading: Reading) -> dict | None:
    """What a refused message was read as, when part of it was not: the lines taken as commands
    and what was skipped, so that a line read by mistake (or a quote taken for orders) is seen at
    once. None for a message read whole (its lines are all commands, and the errors name theirs)."""
    explained = reading.explain()
    if not explained:
        return None
    shown = reading.lines[:_READ_LINES_SHOWN]
    return {"lines": shown, "more": len(reading.lines) - len(shown),
            "skipped": f"{explained[0].upper()}{explained[1:]}."}


def _no_commands(reading: Reading) -> InvalidOrder:
    """The error for a message with nothing to do in it, saying why nothing was read."""
    words = wording("no_commands", heading_only=bool(reading.lines), explained=reading.explain(),
                    quoted=any(skipped.kind == "quote" for skipped in reading.skipped))
    return InvalidOrder(words.message, hint=words.hint, line="", lineno=None)


def _collapse(orders: list[Order]) -> list[Order]:
    """One message, one answer of each kind: a repeated HELP, STATUS or HISTORY counts once,
    every PRESS line goes out as one press, the last time zone stands."""
    kept: list[Order] = []
    seen: set[type] = set()
    press: Order | None = None
    for order in orders:
        command = order.command
        if isinstance(command, (Help, Status, History)):
            if type(command) in seen:
                continue
            seen.add(type(command))
        elif isinstance(command, Press):
            if press is not None:
                first = press.command
                assert isinstance(first, Press)  # `press` is the order made below, of the first PRESS
                press.command = Press(f"{first.text}\n{command.text}")
                press.lines += order.lines
                continue
            press = order = Order(command, list(order.lines), dict(order.parts))
        elif isinstance(command, (SetTimezone, SetCalendar, SetReminders, SetDigest)):  # the last of each stands
            kept = [o for o in kept if not isinstance(o.command, type(command))]
        kept.append(order)
    return kept


def _is_game_order(command) -> bool:
    return not isinstance(command, (Help, Status, History, Press, SetTimezone, SetCalendar, SetReminders,
                                    SetDigest, *ABSENCE_COMMANDS))


def _swap(line: tuple[int, str]) -> tuple[str, int]:
    lineno, text = line
    return text, lineno


__all__ = ["Inbox", "Outcome", "Policy"]
