"""One inbound message, from raw bytes to its effect: screen, identify, authenticate, read, apply.

A message is all or nothing: every wrong line is reported and the game is left exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..games.base import Resign
from ..games.errors import IllegalOrder, InvalidOrder, OrderError
from ..mail.inbound import Inbound
from ..mail.screen import screen
from ..orders import grammar_for
from ..orders.commands import Help, History, Order, Press, Status, read_body, read_heading
from ..orders.text import command_lines, subject_game_id
from ..store import Seat
from . import games
from .letters import Postman
from .turns import Turns


@dataclass
class Outcome:
    status: str            # handled | refused | ignored
    note: str = ""
    game_id: str | None = None
    effects: list[str] = field(default_factory=list)


class Inbox:
    def __init__(self, postman: Postman, gm_addresses: set[str]):
        self.postman = postman
        self.store = postman.store
        self.gm_addresses = gm_addresses

    def handle(self, msg: Inbound) -> Outcome:
        reason = screen(msg, self.gm_addresses)
        if reason:
            return Outcome("ignored", reason)
        lines = command_lines(msg.text)
        heading = read_heading(lines)
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
        for order in orders:
            if _is_game_order(order.command):
                try:
                    state.check(seat.seat, order.command)
                except OrderError as e:
                    for problem in (e, *e.also):
                        errors.append(problem.at(*_swap(order.line_for(problem.part))))
        if errors:
            errors.sort(key=lambda e: e.lineno or 0)
            self.postman.to_sender("error", msg, table=table, seat=seat, errors=errors, problem=None, hint=None)
            return Outcome("refused", f"{len(errors)} wrong line(s)", table.id)
        turns = Turns(self.postman, table)
        effects = [turns.obey(seat, order, msg) for order in orders]
        games.save(self.store, table)
        return Outcome("handled", "; ".join(effects), table.id, effects)


def _is_game_order(command) -> bool:
    return not isinstance(command, (Help, Status, History, Press))


def _swap(line: tuple[int, str]) -> tuple[str, int]:
    lineno, text = line
    return text, lineno


__all__ = ["Inbox", "Outcome", "Order", "Resign"]
