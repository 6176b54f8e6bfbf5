"""One inbound message, from raw bytes to its effect: screen, identify, authenticate, read, apply.

A message is all or nothing: every wrong line is reported and the game is left exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from ..games.errors import IllegalOrder, InvalidOrder, OrderError
from ..mail.inbound import Inbound
from ..mail.screen import screen
from ..orders import grammar_for
from ..orders.commands import Help, History, Press, SetTimezone, Status, read_body, read_heading
from ..orders.text import command_lines, subject_game_id
from ..store import Seat
from . import admin, games
from .admin import is_gm_command
from .letters import Postman
from .turns import Turns


@dataclass
class Outcome:
    status: str            # handled | refused | ignored
    note: str = ""
    game_id: str | None = None
    effects: list[str] = field(default_factory=list)


@dataclass
class Policy:
    """What the GM's configuration says about who may do what."""
    gm_addresses: set[str]
    admins: set[str] = field(default_factory=set)
    gm_secret: str | None = None
    messages_per_hour: int = 30


class Inbox:
    def __init__(self, postman: Postman, policy: Policy):
        self.postman = postman
        self.store = postman.store
        self.policy = policy
        self.gm_addresses = policy.gm_addresses

    def handle(self, msg: Inbound) -> Outcome:
        reason = screen(msg, self.gm_addresses)
        if reason:
            return Outcome("ignored", reason)
        flood = self._flood(msg)
        if flood:
            return flood
        lines = command_lines(msg.text)
        heading = read_heading(lines)
        if msg.sender in self.policy.admins and any(is_gm_command(ln) for _, ln in heading.body):
            return self._gm_commands(msg, heading)
        secret = heading.password or self._secret_in_address(msg)
        game_id = heading.game_id or subject_game_id(msg.subject)
        if game_id is None and secret:
            seat = self.store.seat_by_secret(secret)
            game_id = seat.game_id if seat else None
        if game_id is None:
            return self._without_game(msg, heading)
        table = games.load(self.store, game_id)
        if table is None:
            self.postman.to_sender("error", msg, errors=[], problem=f"There is no game {game_id!r} here.",
                                   hint="Check the game id in the subject ([id]) or the GAME line.")
            return Outcome("refused", f"no game {game_id}")
        seat = self._authenticate(msg, table, secret)
        if seat is None:
            return Outcome("refused", "authentication failed", game_id)
        return self._commands(msg, table, seat, heading)

    def _flood(self, msg: Inbound) -> Outcome | None:
        """Past the hourly limit a sender gets one warning, then silence until the flood stops."""
        now = self.postman.now
        recent = self.store.recent_from(msg.sender, now - timedelta(hours=1))
        if recent <= self.policy.messages_per_hour:
            if self.store.warned(msg.sender):
                self.store.set_warned(msg.sender, None)
            return None
        if self.store.warned(msg.sender):
            return Outcome("ignored", f"rate limit: {recent} messages in the last hour")
        self.store.set_warned(msg.sender, now)
        self.postman.to_sender("error", msg, errors=[], problem=(
            f"You have sent {recent} messages in the last hour, more than the {self.policy.messages_per_hour} "
            "I answer. I keep them all but answer none until an hour has passed with fewer."), hint=None)
        return Outcome("ignored", f"rate limit: {recent} messages in the last hour; warned")

    def _gm_commands(self, msg: Inbound, heading) -> Outcome:
        secret = self.policy.gm_secret
        if not secret or heading.password != secret:
            self.postman.to_sender("error", msg, errors=[], hint="Add the line PASSWORD <gm.secret from the config>.",
                                   problem="GM commands need the GM's password"
                                           + ("" if secret else " (none is set: gm.secret in the configuration)") + ".")
            return Outcome("refused", "GM command without the GM password")
        errors, done = [], []
        commands = []
        for lineno, line in heading.body:
            try:
                commands.append(admin.parse(line, lineno))
            except OrderError as e:
                errors.append(e)
        if not errors:
            try:
                with self.store.transaction():  # a savepoint: all of the commands or none
                    done = [admin.Admin(self.postman).run(c) for c in commands]
            except OrderError as e:
                errors.append(e)
                done = []  # the savepoint took back the state and the mail of the commands
        if errors:
            self.postman.to_sender("error", msg, errors=errors, problem=None, hint=None)
            return Outcome("refused", "GM command refused")
        self.postman.to_sender("ack", msg, template="gm_done", done=done)
        return Outcome("handled", "; ".join(done))

    # -- identification and authentication ------------------------------------------------
    def _secret_in_address(self, msg: Inbound) -> str | None:
        for gm in self.gm_addresses:
            local, _, domain = gm.partition("@")
            for rcpt in msg.recipients:
                r_local, _, r_domain = rcpt.partition("@")
                if r_domain == domain and r_local.startswith(local + "+"):
                    return r_local[len(local) + 1:]
        return None

    def _authenticate(self, msg: Inbound, table: games.Table, secret: str | None) -> Seat | None:
        seat = table.seat_of(msg.sender)
        owner = table.seat_with_secret(secret)
        if seat is None:
            self.postman.to_sender("error", msg, table=None, errors=[],
                                   problem=f"{msg.sender} is not a player in game {table.id}.",
                                   hint="Write from the address you were invited with.")
            if owner is not None:
                self.postman.to_seat("error", table, owner, template="warning", intruder=msg.sender)
            return None
        if owner is None or owner.seat != seat.seat:
            problem = ("This message carries no password." if not secret else "The password is wrong.")
            self.postman.to_sender("error", msg, table=table, seat=None, errors=[], problem=problem,
                                   hint="Reply to a mail from the GM (its reply address carries your secret), "
                                        "or add a line PASSWORD <your secret>.")
            if owner is not None and owner.seat != seat.seat:
                self.postman.to_seat("error", table, owner, template="warning", intruder=msg.sender)
            return None
        return seat

    def _without_game(self, msg: Inbound, heading) -> Outcome:
        orders, _ = read_body(heading.body, None)
        if heading.body and all(isinstance(o.command, Help) for o in orders) and len(orders) == len(heading.body):
            self.postman.to_sender("help", msg)
            return Outcome("handled", "help")
        self.postman.to_sender("error", msg, errors=[], problem="This message does not say which game it is for.",
                               hint="Keep [<game id>] in the subject (just reply to the GM's mail) "
                                    "or add a line GAME <game id>. Send HELP for the commands.")
        return Outcome("refused", "no game named")

    # -- commands -------------------------------------------------------------------------
    def _commands(self, msg: Inbound, table: games.Table, seat: Seat, heading) -> Outcome:
        state = table.state
        orders, errors = read_body(heading.body, grammar_for(table.type))
        errors = heading.errors + errors
        if heading.turn is not None and heading.turn != state.turn and not state.result():
            errors.append(IllegalOrder(
                f"this message is for turn {heading.turn}, but the game is at turn {state.turn}",
                rule="a TURN line must match the current turn (stale orders are refused)",
                hint=f"TURN {state.turn}", line=f"TURN {heading.turn}",
                lineno=next((n for n, ln in command_lines(msg.text) if ln.upper().startswith("TURN")), None)))
        if not orders and not errors:
            errors.append(InvalidOrder("this message has no commands", hint="send HELP for the commands",
                                       line="", lineno=None))
        # Orders are tried in turn on a scratch copy: in a turn-by-turn game the second order of a
        # mail (KEEP after DRAW STOCK) is only legal once the first has been played.
        game_orders = [o for o in orders if _is_game_order(o.command)]
        scratch = type(state).from_dict(state.to_dict()) if len(game_orders) > 1 else state
        for order in game_orders:
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
        if errors:
            errors.sort(key=lambda e: e.lineno or 0)
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=errors, problem=None, hint=None)
            return Outcome("refused", f"{len(errors)} wrong line(s)", table.id)
        turns = Turns(self.postman, table)
        effects = [turns.obey(seat, order, msg) for order in orders]
        games.save(self.store, table)
        return Outcome("handled", "; ".join(effects), table.id, effects)


def _is_game_order(command) -> bool:
    return not isinstance(command, (Help, Status, History, Press, SetTimezone))


def _swap(line: tuple[int, str]) -> tuple[str, int]:
    lineno, text = line
    return text, lineno


__all__ = ["Inbox", "Outcome", "Policy"]
