"""The commands every game understands, and the reading of a whole message into commands.

A message is read in two steps: first the lines that say which game and who is writing
(`GAME`, `PASSWORD`, `TURN`), then, once the game is known, the rest with the game's grammar.
Parsing only parses; whether an order is allowed is the engine's business.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..games.base import Resign
from ..schedule import canonical_zone
from ..games.errors import AmbiguousOrder, InvalidOrder, OrderError

Line = tuple[int, str]


class UnknownCommand(InvalidOrder):
    """A line whose first word is no command at all (a greeting, a signature, chatter)."""


@dataclass(frozen=True)
class Help:
    def __str__(self) -> str:
        return "HELP"


@dataclass(frozen=True)
class Status:
    def __str__(self) -> str:
        return "STATUS"


@dataclass(frozen=True)
class History:
    def __str__(self) -> str:
        return "HISTORY"


@dataclass(frozen=True)
class Press:
    text: str

    def __str__(self) -> str:
        return f"PRESS {self.text}"


@dataclass(frozen=True)
class SetTimezone:
    zone: str

    def __str__(self) -> str:
        return f"SET TIMEZONE {self.zone}"


@dataclass
class Order:
    """One command read from the mail, with the lines it came from (`parts` maps a part of the
    command, such as "cards" or "special", to its line, so an engine error lands on the right one)."""
    command: object
    lines: list[Line]
    parts: dict[str, Line] = field(default_factory=dict)

    def line_for(self, part: str | None) -> Line:
        if part and part in self.parts:
            return self.parts[part]
        return self.lines[0]


@dataclass
class Heading:
    """What the message says about itself: the game, the secret, the turn."""
    game_id: str | None = None
    password: str | None = None
    turn: int | None = None
    body: list[Line] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)


_WORD = re.compile(r"^(\S+)\s*(.*)$")
_TIMEZONE = re.compile(r"^(?:SET\s+)?(?:TIMEZONE|TIME\s+ZONE|TZ)\s*:?\s+(\S+)$", re.I)


def read_heading(lines: list[Line]) -> Heading:
    """Take out GAME, PASSWORD and TURN; everything else stays in `body` for the grammar."""
    h = Heading()
    for lineno, line in lines:
        m = _WORD.match(line)
        word, rest = m.group(1).upper(), m.group(2).strip()
        if word == "GAME":
            _set_once(h, "game_id", rest, lineno, line, "GAME <id>, e.g. GAME smoke")
        elif word in ("PASSWORD", "PASS", "SECRET"):
            _set_once(h, "password", rest, lineno, line, "PASSWORD <your secret>")
        elif word == "TURN":
            if not rest.isdigit():
                h.errors.append(InvalidOrder("TURN takes the number of the turn", line=line, lineno=lineno,
                                             hint="TURN 2"))
            else:
                _set_once(h, "turn", int(rest), lineno, line, "TURN <n>")
        else:
            h.body.append((lineno, line))
    return h


def _set_once(h: Heading, attr: str, value, lineno: int, line: str, hint: str) -> None:
    if value in ("", None):
        h.errors.append(InvalidOrder(f"{line.split()[0].upper()} needs a value", line=line, lineno=lineno, hint=hint))
        return
    if getattr(h, attr) not in (None, value):
        h.errors.append(AmbiguousOrder(f"a second, different {line.split()[0].upper()} line", line=line,
                                       lineno=lineno, hint="one per message"))
        return
    setattr(h, attr, value)


def read_generic(body: list[Line]) -> tuple[list[Order], list[Line], list[OrderError]]:
    """Take out the commands every game has; return them, the lines left for the game, and the
    generic lines that were wrong."""
    orders: list[Order] = []
    rest: list[Line] = []
    errors: list[OrderError] = []
    i = 0
    while i < len(body):
        lineno, line = body[i]
        m = _WORD.match(line)
        word, arg = m.group(1).upper(), m.group(2).strip()
        if word == "PRESS":
            if arg:
                orders.append(Order(Press(arg), [(lineno, line)]))
            else:  # a bare PRESS line: the rest of the message is the press text
                text = "\n".join(ln for _, ln in body[i + 1:])
                orders.append(Order(Press(text), body[i:]))
                break
        elif m_zone := _TIMEZONE.match(line):
            try:
                orders.append(Order(SetTimezone(canonical_zone(m_zone.group(1))), [(lineno, line)]))
            except ValueError as e:
                errors.append(InvalidOrder(str(e), line=line, lineno=lineno, hint="SET TIMEZONE Europe/Paris"))
        elif word in ("HELP", "STATUS", "HISTORY", "RESIGN") and not arg:
            command = {"HELP": Help, "STATUS": Status, "HISTORY": History, "RESIGN": Resign}[word]()
            orders.append(Order(command, [(lineno, line)]))
        else:
            rest.append((lineno, line))
        i += 1
    return orders, rest, errors


def _without_signature(orders: list[Order], errors: list[OrderError]) -> list[OrderError]:
    """Unknown lines after the last command, set apart by a blank line, are a signature
    (a name, a phone number, a sign-off that lacks the `-- ` line): they are not orders."""
    if not orders:
        return errors
    last = max(no for o in orders for no, _ in o.lines)
    unknown = sorted(e.lineno for e in errors if isinstance(e, UnknownCommand) and e.lineno > last)
    tail_ok = all(isinstance(e, UnknownCommand) for e in errors if (e.lineno or 0) > last)
    if unknown and tail_ok and unknown[0] > last + 1:
        return [e for e in errors if (e.lineno or 0) <= last]
    return errors


Grammar = Callable[[list[Line]], tuple[list[Order], list[OrderError]]]


def read_body(body: list[Line], grammar: Grammar | None) -> tuple[list[Order], list[OrderError]]:
    """All the commands of the message, and every line that could not be read."""
    orders, rest, errors = read_generic(body)
    if grammar is not None:
        game_orders, game_errors = grammar(rest)
        orders += game_orders
        errors += game_errors
    else:
        errors += [UnknownCommand("not a command", line=ln, lineno=no,
                                  hint="name your game first: GAME <id> (or keep [<id>] in the subject)")
                   for no, ln in rest]
    errors = _without_signature(orders, errors)
    if any(isinstance(o.command, Resign) for o in orders) and len(orders) > 1:
        no, ln = next(o.lines[0] for o in orders if isinstance(o.command, Resign))
        errors.append(AmbiguousOrder("RESIGN cannot share a message with other commands", line=ln, lineno=no,
                                     hint="send RESIGN alone, once you are sure"))
    errors.sort(key=lambda e: e.lineno or 0)
    return orders, errors
