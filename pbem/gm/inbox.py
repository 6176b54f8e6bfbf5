"""One inbound message, from raw bytes to its effect: screen, identify, authenticate, read, apply.

A message is all or nothing: every wrong line is reported and the game is left exactly as it was.
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from datetime import timedelta

from pbem.clock import format_utc
from pbem.games.base import Resign
from pbem.games.errors import IllegalOrder, InvalidOrder, OrderError, make_suggestions
from pbem.mail.inbound import Inbound
from pbem.mail.screen import SEAT_RULES, screen
from pbem.games.registry import spec_for, specs
from pbem.orders.commands import Help, History, Order, Press, SetAbsence, SetCalendar, SetTimezone, Status, UnknownCommand, read_body, read_heading
from pbem.orders.text import Reading, read_lines, subject_game_id
from pbem.render import names
from pbem.store import Seat
from pbem.gm import admin, games, gm_password, layers, observers, originals, robot_seats
from pbem.gm.admin import is_gm_command
from pbem.gm.letters import Postman
from pbem.gm.turns import Turns
from pbem.gm import spectators

HOUR = timedelta(hours=1)


@dataclass
class Outcome:
    status: str            # handled | refused | ignored | screened (failed and duplicate come from the GM)
    note: str = ""
    game_id: str | None = None
    effects: list[str] = field(default_factory=list)
    auth: str | None = None  # the address that proved its seat (or an admin's), else None


@dataclass
class Policy:
    """What the GM's configuration says about who may do what, and how much."""
    gm_addresses: set[str]
    admins: set[str] = field(default_factory=set)
    gm_secret: str | None = None
    messages_per_hour: int = 30
    strangers_per_hour: int = 60
    max_command_lines: int = 100
    max_message_bytes: int = 1 << 20


class Inbox:
    def __init__(self, postman: Postman, policy: Policy):
        self.postman = postman
        self.store = postman.store
        self.policy = policy
        self.gm_addresses = policy.gm_addresses

    def handle(self, msg: Inbound) -> Outcome:
        with self.postman.answering(msg):  # one message, one answer
            return self._handle(msg)

    def _handle(self, msg: Inbound) -> Outcome:
        reason = screen(msg, self.gm_addresses)
        reading = None
        if reason:
            stands = screen(msg, self.gm_addresses, SEAT_RULES)  # named first: no secret passes it
            reading = None if stands or msg.oversized or not msg.sender else self._read(msg)
            if reading is None or not self._from_its_seat(msg, reading):
                # Never answered (`pbem inbox` lists it); a delivery report among them is read.
                return Outcome("screened", (stands or reason) + self._bounces(msg))
        if msg.oversized:
            return self._too_large(msg)
        if reading is None:
            reading = self._read(msg)
        lines = reading.lines
        token = self._secret_in_address(msg)
        pending = spectators.observe_request(self.store, token)
        if pending is not None:  # an answer to the question an OBSERVE got, whatever it says
            return self._confirm(msg, pending, lines[: self.policy.max_command_lines + 1])
        for layer in layers.above():  # mail a layer above answers itself (JOIN, a table's confirmation)
            answered = layer.mail(self, msg, lines[: self.policy.max_command_lines + 1], token)
            if answered is not None:
                return answered
        if self._echo_of_own_mail(msg, lines):
            return Outcome("ignored", "a reply to the GM's own mail that carries no command")
        heading = read_heading(lines[: self.policy.max_command_lines + 1])
        if msg.sender in self.policy.admins and any(is_gm_command(ln) for _, ln in heading.body):
            return self._gm_door(msg, heading)
        if any(is_gm_command(ln) for _, ln in heading.body) and not heading.password \
                and not self._secret_in_address(msg):
            return self._unproven(msg, note="GM command from a non-admin", problem=(
                "GM commands are taken only from the GM's admin addresses."), hint=(
                "Players send orders to their own game; the GM lists admin addresses in gm.admins."))
        request = observers.read_request(self.store, heading, msg.subject)
        if request is not None:
            return self._spectator(msg, request)
        secret = heading.password or self._secret_in_address(msg)
        game_id = heading.game_id or subject_game_id(msg.subject)
        if game_id is None and secret:
            owner = self.store.seat_by_secret(secret)
            game_id = owner.game_id if owner else None
        table = games.load(self.store, game_id) if game_id else None
        seat = table.seat_of(msg.sender) if table else None
        if seat is None or not _same(secret, seat.secret):
            return self._refuse(msg, lines, table, seat, secret, named=bool(game_id or secret))
        return self._player(msg, table, seat, heading, reading)

    def _read(self, msg: Inbound) -> Reading:
        """The message's lines as commands, read against the GM's mails it answers."""
        # A run of quoted lines takes three: a shorter message is read without looking it up.
        found = originals.originals_of(self.store, msg) if msg.text.count("\n") >= 2 else []
        return read_lines(msg.text, found, (self.postman.gm_address, self.postman.gm_name.casefold()))

    def _bounces(self, msg: Inbound) -> str:
        """A delivery report: the mail it speaks of is marked bounced, and the admins are told
        once per address. Never answered."""
        from pbem.mail.dsn import read_bounce
        noted = []
        for bounce in read_bounce(msg):
            if not bounce.permanent:
                continue
            mail, new = self.store.outbox.mark_bounced(bounce.message_id, bounce.recipient, bounce.diagnostic,
                                                       self.postman.now)
            if mail is None:
                continue
            noted.append(mail["recipient"])
            if new:
                for admin_address in sorted(self.policy.admins - {mail["recipient"]}):
                    self.postman.to_address("error", admin_address, template="bounced", game_id=mail["game_id"],
                                            mail=mail, bounced=mail["recipient"], diagnostic=bounce.diagnostic)
        return f"; bounced: {', '.join(noted)}" if noted else ""

    # -- mail that did not prove its seat ---------------------------------------------------
    def _refuse(self, msg: Inbound, lines: list, table: games.Table | None, seat: Seat | None, secret: str | None,
                named: bool) -> Outcome:
        """Refused for want of a seat. The answer goes to the From address, so it may tell a
        seat's owner that the password was missing or wrong; to anyone else it says the same
        whether or not the game exists and the secret is someone's: it is no oracle."""
        owner = table.seat_with_secret(secret) if table else None
        if owner is not None and owner.address != msg.sender:
            # Someone else holds this seat's secret: its owner hears of it, never the sender.
            self.postman.to_seat("error", table, owner, template="warning", intruder=msg.sender)
        if seat is not None:
            problem = "This message carries no password." if not secret else "The password is wrong."
            return self._unproven(msg, table=table, seat=seat, problem=problem, note=f"{problem} ({table.id})",
                                  hint="Reply to a mail from the GM (its reply address carries your secret), "
                                       "or add a line PASSWORD <your secret>.")
        if not named:
            return self._without_game(msg, lines)
        return self._unproven(msg, note="no seat matches sender, game and password",
                              problem="No seat in a game here matches this message.", hint=(
            "The game, the address you write from and the password must all belong to one player. "
            "Reply to a mail from the GM (its reply address carries your secret) from the address "
            "you were invited with. Send HELP for the commands."))

    def _without_game(self, msg: Inbound, lines: list) -> Outcome:
        lines = lines[: self.policy.max_command_lines + 1]
        orders, _ = read_body(lines, None)
        if orders and len(orders) == len(lines) and all(isinstance(o.command, Help) for o in orders):
            return self._unproven(msg, note="help", kind="help", status="handled")
        return self._unproven(msg, note="no game named", problem="This message does not say which game it is for.",
                              hint="Keep [<game id>] in the subject (just reply to the GM's mail) "
                                   "or add a line GAME <game id>. Send HELP for the commands.")

    def _unproven(self, msg: Inbound, *, note: str, problem: str = "", hint: str | None = None,
                  table: games.Table | None = None, seat: Seat | None = None, kind: str = "error",
                  status: str = "refused") -> Outcome:
        """One short answer to mail that did not prove a seat, never quoting its text, and
        silence once the hour's answers to such mail are used up."""
        silenced = self._unanswerable(msg, note)
        if silenced:
            return silenced
        if kind == "error":
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=[], problem=problem, hint=hint)
        else:
            self.postman.to_sender(kind, msg)
        return Outcome(status, note, table.id if table else None)

    def unproven(self, msg: Inbound, **how) -> Outcome:
        """For the layers above (`layers.Layer.mail`): answer mail that proved no seat, within
        the strangers' limits, as `_unproven` does."""
        return self._unproven(msg, **how)

    def unanswerable(self, msg: Inbound, note: str) -> Outcome | None:
        """For the layers above: why mail that proved no seat gets no answer now, or None."""
        return self._unanswerable(msg, note)

    def _unanswerable(self, msg: Inbound, note: str) -> Outcome | None:
        """Why mail that proved no seat gets no answer now (the hour's answers to such mail are
        used up, or its sender's), or None when it may have one."""
        since = self.postman.now - HOUR
        if self.store.inbound.strangers_answered(since) >= self.policy.strangers_per_hour:
            return Outcome("ignored", f"{note}; not answered: {self.policy.strangers_per_hour} answers to "
                                      "unproven mail in the last hour")
        return self._sender_flood(msg, since)

    # -- spectators -----------------------------------------------------------------------
    def _spectator(self, msg: Inbound, request: observers.Request) -> Outcome:
        """OBSERVE / UNOBSERVE from anyone, players too. No secret is asked, so the request is
        answered as unproven mail is, and one that gets no answer changes nothing. An OBSERVE
        only asks the address to confirm; UNOBSERVE is done at once, for the sender, or for
        the spectator whose token the address it was sent to carries (from any address)."""
        owner = spectators.spectator_by_token(self.store, self._secret_in_address(msg))
        spectator = observers.Spectator(self.store, owner or msg.sender, self.postman.now)
        steps, errors = spectator.check(request)
        asked = ", ".join(str(o.command) for o in request.orders)
        if errors:
            # The problems in the GM's own words: an answer to a From that may be forged quotes
            # none of the message's text.
            problems = "\n".join((f"Line {e.lineno}: " if e.lineno else "") + e.message + "." for e in errors)
            hints = [e.hint for e in errors if e.hint]
            hint = problems + "\n\n" + ("What would be right: " + "; ".join(hints) + ". " if hints else "") + (
                "OBSERVE <id> gets the reports and results of a game or of every game of a league; "
                "UNOBSERVE <id> stops them. The id is the one in brackets in the subject of the game's mail.")
            return self._unproven(msg, note=f"spectator request refused: {asked}",
                                  problem="Nothing in this spectator request was applied.", hint=hint)
        silenced = self._unanswerable(msg, f"spectator request: {asked}")
        if silenced:
            return silenced
        applied = spectator.apply(steps)
        now = self.postman.now
        if applied.wanted and spectators.observe_asked(self.store, spectator.address, [t.id for t in applied.wanted],
                                                       now - observers.ASKED_AGAIN, now):
            applied.wanted = []  # asked already within the hour: the question is in that mailbox
            if not applied.done:
                return Outcome("ignored", f"spectator request: {asked}; its confirmation was asked already")
        if applied.wanted:
            observers.ask_to_confirm(self.postman, msg, spectator.address, applied)
        else:
            observers.tell(self.postman, msg, spectator.address, applied.done)
        named = {d["id"] for d in applied.done if d["kind"] == "game"} | {
            t.id for t in applied.wanted if t.kind == "game"}
        waiting = "; asked to confirm" if applied.wanted else ""
        return Outcome("handled", f"spectator: {asked}{waiting}", next(iter(named)) if len(named) == 1 else None)

    def _confirm(self, msg: Inbound, pending: dict, lines: list) -> Outcome:
        """A reply to the question an OBSERVE got, carrying its one-time token: from the address
        that was asked, before it expires, it makes the subscription (an UNOBSERVE line in it
        says no instead). The token is used once either way."""
        ids = " ".join(pending["targets"])
        if msg.sender != pending["address"]:
            return self._unproven(msg, note=f"spectator confirmation from another address ({ids})",
                                  problem="This confirmation must come from the address that was asked.",
                                  hint="Reply from the address the question was sent to; the reply needs no text.")
        spectators.drop_observe_request(self.store, pending["token"])
        if pending["expires"] <= self.postman.now:
            again = "; ".join(f"OBSERVE {i}" for i in pending["targets"])
            return self._unproven(msg, note=f"spectator confirmation expired ({ids})",
                                  problem="This confirmation came too late: the question has expired.", hint=(
                f"A question may be answered for {observers.CONFIRM_FOR.days} days. Nothing was changed; "
                f"to watch, send a mail with the line{'s' if len(pending['targets']) > 1 else ''} {again}."))
        spectator = observers.Spectator(self.store, msg.sender, self.postman.now)
        if observers.declines(lines):
            observers.tell(self.postman, msg, msg.sender,
                           [observers.unchanged(self.store, "declined", i) for i in pending["targets"]])
            return Outcome("handled", f"spectator declined: {ids}", auth=msg.sender)
        observers.tell(self.postman, msg, msg.sender, spectator.confirm(pending["targets"]))
        return Outcome("handled", f"spectator confirmed: {ids}", auth=msg.sender)

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
        self.postman.to_sender("error", msg, errors=[], problem="Too many messages this hour.", hint=(
            f"You have sent {recent} messages in the last hour, more than the {limit} I answer. I keep "
            "them all but answer none until an hour has passed with fewer."))
        return Outcome("refused", f"rate limit: {recent} messages in the last hour; warned")

    def _too_large(self, msg: Inbound) -> Outcome:
        return self._unproven(msg, note=f"too large to read: {msg.size} bytes",
                              problem="Your message is too large.", hint=(
            f"It is {msg.size:,} bytes long and I read at most {self.policy.max_message_bytes:,}: I did "
            "not read it, and nothing in it was applied. Send your orders as plain text, without "
            "attachments."))

    def _echo_of_own_mail(self, msg: Inbound, lines: list) -> bool:
        """A reply to the GM's own mail with not one command in it: an auto-responder that sets
        no header saying so. Answering it could start a loop, so it gets no answer."""
        ids = tuple(i for i in (msg.in_reply_to, *msg.references) if i)
        if not ids or not self.store.outbox.is_own_mail(ids):
            return False
        return not _has_commands(lines[: self.policy.max_command_lines + 1])

    def _from_its_seat(self, msg: Inbound, reading: Reading) -> bool:
        """Whether a screened message comes from a seat's own address with that seat's secret
        (in its reading or the address it went to), so that what a group adds to it gives way.
        Its answer goes to the From address, that is the seat's, as every answer does: never
        to a Reply-To or to the list."""
        heading = read_heading(reading.lines[: self.policy.max_command_lines + 1])
        secret = heading.password or self._secret_in_address(msg)
        owner = self.store.seat_by_secret(secret) if secret else None
        return owner is not None and not owner.robot and owner.address == msg.sender.lower() \
            and _same(secret, owner.secret)

    def _secret_in_address(self, msg: Inbound) -> str | None:
        for gm in self.gm_addresses:
            local, _, domain = gm.partition("@")
            for rcpt in msg.recipients:
                r_local, _, r_domain = rcpt.partition("@")
                if r_domain == domain and r_local.startswith(local + "+"):
                    return r_local[len(local) + 1:]
        return None

    # -- the GM's own commands ------------------------------------------------------------
    def _gm_door(self, msg: Inbound, heading) -> Outcome:
        """GM commands from an admin's address run only with the GM's password, exactly. Each
        wrong one counts; past the hour's limit none is taken, the right one neither, and wrong
        ones get no answer (see `gm_password`)."""
        secret, hint = self.policy.gm_secret, "Add the line PASSWORD <gm.secret from the configuration>."
        if not secret or not heading.password:
            problem = "GM commands need the GM's password" + (
                "." if secret else ", and none is set (gm.secret in the configuration).")
            return self._unproven(msg, note=problem, problem=problem, hint=hint)
        lock = gm_password.Lock(self.store, self.postman.now)
        was_locked = lock.locked_until()
        if gm_password.same_password(heading.password, secret):
            if was_locked is None:
                return self._gm_commands(msg, heading)
            # Only the password's holder gets here: the answer is no stranger's to use up.
            self.postman.to_sender("error", msg, errors=[], problem="GM commands by mail are locked for now.",
                                   hint=_locked(was_locked))
            return Outcome("refused", f"GM password right, but locked until {format_utc(was_locked)}")
        until, alarm = lock.miss(msg.sender)
        if was_locked is not None:
            outcome = Outcome("ignored", f"wrong GM password while locked until {format_utc(until)}: not answered")
        else:
            note = "wrong GM password" + (f"; GM commands by mail locked until {format_utc(until)}" if until else "")
            outcome = self._unproven(msg, note=note, problem="The GM password is wrong.",
                                     hint=_locked(until) if until else hint)
        for address in sorted(self.policy.admins) if alarm else ():
            self.postman.to_address("error", address, template="gm_locked", sender=msg.sender, tries=lock.tries,
                                    until=format_utc(until))
        return outcome

    def _gm_commands(self, msg: Inbound, heading) -> Outcome:
        errors, done = [], []
        commands = []
        for lineno, line in heading.body:
            try:
                commands.append(admin.parse(line, lineno))
            except OrderError as e:
                errors.append(e)
        if not errors:
            try:
                with self.postman.savepoint():  # all of the commands or none, and their mail
                    done = [admin.Admin(self.postman).run(c) for c in commands]
            except OrderError as e:
                errors.append(e)
                done = []  # the savepoint took back the state and the mail of the commands
        if errors:
            self.postman.to_sender("error", msg, errors=errors, problem=None, hint=None)
            return Outcome("refused", "GM command refused", auth=msg.sender)
        self.postman.to_sender("ack", msg, template="gm_done", done=done)
        return Outcome("handled", "; ".join(done), auth=msg.sender)

    # -- mail from a player who proved their seat ------------------------------------------
    def _player(self, msg: Inbound, table: games.Table, seat: Seat, heading, reading: Reading) -> Outcome:
        lines = reading.lines
        flood = self._flooding(msg, table, seat)
        if flood:
            self.postman.hush(msg)
        if len(lines) > self.policy.max_command_lines:
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=[],
                                   problem="Too many command lines.", hint=(
                f"This message has more than {self.policy.max_command_lines} command lines, more than I "
                "read in one message, so nothing in it was applied. Send the orders alone."))
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
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=[],
                                   problem="Too many messages this hour.", hint=(
                f"You have sent {recent + 1} messages in the last hour, more than the {limit} I answer. "
                "Your orders still count, but I answer nothing else until an hour has passed with fewer."))
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
                errors.append(IllegalOrder("the GM has abandoned this game", rule="no orders in an abandoned game",
                                           line=ln, lineno=no))
                continue
            try:
                scratch.check(seat.seat, order.command)
                if scratch is not state:
                    scratch.apply(seat.seat, order.command)
            except OrderError as e:
                for problem in (e, *e.also):
                    errors.append(problem.at(*_swap(order.line_for(problem.part))))
                break  # later orders depend on this one
        for layer in layers.above():  # a league player's days away: every line of the message together
            errors += layer.check_orders(self.store, table, seat, orders, self.postman.now)
        if errors:
            errors.sort(key=lambda e: e.lineno or 0)
            for error in errors:  # quoted as the player wrote it, punctuation and all
                error.line = reading.written.get(error.lineno, error.line)
            if not stale:
                make_suggestions(errors, state, seat.seat)
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=errors, problem=None, hint=None,
                                   read=_as_read(reading))
            return Outcome("refused", f"{len(errors)} wrong line(s)", table.id)
        effects = self._obey(msg, table, seat, orders)
        effects += robot_seats.move(Turns(self.postman, table))  # robots owing a move now make it
        games.save(self.store, table)
        return Outcome("handled", "; ".join(effects), table.id, effects)

    def _obey(self, msg: Inbound, table: games.Table, seat: Seat, orders: list[Order]) -> list[str]:
        """Carry out a message's orders: a time zone or an absence first (the answer's deadlines
        are written in that zone, and moved), then the game's orders, then the rest, so that a
        STATUS shows the game as the orders left it; the answers go out as one mail
        (`Postman.answering`)."""
        turns = Turns(self.postman, table)
        zones = [o for o in orders if isinstance(o.command, (SetTimezone, SetCalendar))]
        away = [o for o in orders if isinstance(o.command, SetAbsence)]
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


def _locked(until) -> str:
    return (f"{gm_password.TRIES} wrong GM passwords came by mail within an hour, so until {format_utc(until)} at "
            "the earliest I take no GM command by mail, even with the right password (more wrong ones keep "
            "it locked longer). The admins have been told. GM commands on the GM's own machine (pbem gm ...) "
            "still work.")


def _same(given: str | None, secret: str | None) -> bool:
    """Whether a password from the mail is a seat's secret (in constant time, any case: the
    secret rides in a Reply-To's local part, which some mail systems fold to lower case)."""
    if not given or not secret:
        return False
    return hmac.compare_digest(given.strip().lower().encode("utf-8", "replace"), secret.lower().encode("utf-8"))


def _stale_turn(turn: int, state, lineno: int | None) -> IllegalOrder:
    """A TURN line naming another turn than the one open: the error says which turn is open and
    which holes it plays, and suggests no TURN line (see `_commands`)."""
    when = "is over" if turn < state.turn else "has not begun"
    holes = state.turn_holes()
    played = ("hole " if len(holes) == 1 else "holes ") + names(holes)
    return IllegalOrder(f"this message is for turn {turn}, which {when}: turn {state.turn} is open now, and it "
                        f"plays {played}", rule="a TURN line must match the current turn (stale orders are refused)",
                        line=f"TURN {turn}", lineno=lineno)


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
    explained = reading.explain()
    why = [explained] if explained else []
    if reading.lines:
        why.insert(0, "its only lines say which game it is for and who writes (GAME, PASSWORD, TURN)")
    if any(skipped.kind == "quote" for skipped in reading.skipped):
        why.append("write your commands above or below the quoted text, never inside it")
    return InvalidOrder("this message has no commands: " + "; ".join(why), hint="HELP", line="", lineno=None)


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
                press.command = Press(f"{press.command.text}\n{command.text}")
                press.lines += order.lines
                continue
            press = order = Order(command, list(order.lines), dict(order.parts))
        elif isinstance(command, (SetTimezone, SetCalendar)):  # the last of each stands
            kept = [o for o in kept if not isinstance(o.command, type(command))]
        kept.append(order)
    return kept


def _is_game_order(command) -> bool:
    return not isinstance(command, (Help, Status, History, Press, SetTimezone, SetCalendar, SetAbsence))


def _swap(line: tuple[int, str]) -> tuple[str, int]:
    lineno, text = line
    return text, lineno


__all__ = ["Inbox", "Outcome", "Policy"]
