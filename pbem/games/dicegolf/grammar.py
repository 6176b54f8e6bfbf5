"""The order language of dice golf (CONTRACT section 8), one order a line:

    ENTER SUM       ENTER DIE1       ENTER DIE2       ENTER 4
    POLICY ASK      POLICY BEST      POLICY HIGH      POLICY LOW

Any case and spacing; `DIE 1`, `D1` and `TOTAL` are read as DIE1 and SUM. `ENTER X` is read
(the engine explains when X may be written). One ENTER and one POLICY a message at most: a
second ENTER would answer a toss nobody has seen yet. An ENTER is played before a POLICY of
the same message, whichever line comes first, so `POLICY BEST` / `ENTER 3` answers the waiting
toss with 3 and plays BEST from the next one.
"""
from __future__ import annotations

import re

from pbem.games.dicegolf.engine import Enter, Policy
from pbem.games.dicegolf.best import POLICIES
from pbem.games.errors import AmbiguousOrder, InvalidOrder, OrderError, Suggest
from pbem.orders.commands import Line, Order, UnknownCommand, first_word
from pbem.orders.numbers import read_number

# ASCII digits only, two at most (no die or sum of two dice has more).
_ENTER = re.compile(r"^ENTER(?:\s+(?:THE\s+)?(SUM|TOTAL|D(?:IE)?\s*([12])|X|[0-9]{1,2}))?$", re.I)
_POLICY = re.compile(r"^POLICY(?:\s+(\w+))?$", re.I)
# The suggestions a parser makes without the game; once the game is known, `suggest` puts in
# their place an order that is legal there and then (the best entry for the waiting toss).
ENTER_EXAMPLE = "ENTER SUM"
POLICY_EXAMPLE = "POLICY BEST"
COMMANDS = "ENTER, POLICY, STATUS, HISTORY, HELP, PRESS, RESIGN and SET TIMEZONE"


def read_enter(line: str) -> Enter | None:
    """The ENTER order of `line`, or None when it is not written as one."""
    m = _ENTER.match(line.strip())
    if not m or m.group(1) is None:
        return None
    word = m.group(1).upper()
    if m.group(2):
        return Enter(f"DIE{m.group(2)}")
    if word in ("SUM", "TOTAL"):
        return Enter("SUM")
    if word == "X":
        return Enter("X")
    value = read_number(word)
    assert value is not None  # the pattern lets one or two ASCII digits through, nothing else
    return Enter(value)


def read_policy(line: str) -> Policy | None:
    m = _POLICY.match(line.strip())
    if not m or m.group(1) is None or m.group(1).upper() not in POLICIES:
        return None
    return Policy(m.group(1).upper())


def grammar(lines: list[Line]) -> tuple[list[Order], list[OrderError]]:
    found: dict[type, Order] = {}
    errors: list[OrderError] = []
    for lineno, line in lines:
        command = read_enter(line) or read_policy(line)
        word = first_word(line)[0]
        if command is None:
            errors.append(_unreadable(word, line, lineno))
        elif type(command) in found:
            first = found[type(command)]
            errors.append(AmbiguousOrder(_twice(word, first.lines[0][0]), line=line, lineno=lineno,
                                         hint=str(first.command), suggest=_suggest_again(first.command)))
        else:
            found[type(command)] = Order(command, [(lineno, line)])
    orders = [found[t] for t in (Enter, Policy) if t in found]
    return orders, errors


def _twice(word: str, first: int) -> str:
    if word == "ENTER":
        return (f"a second ENTER line (line {first} has one already): one ENTER answers the toss that "
                "waits; the next toss is rolled after it")
    return f"a second POLICY line (line {first} has one already): which one is meant?"


def _unreadable(word: str, line: str, lineno: int) -> OrderError:
    if word == "ENTER":
        return InvalidOrder("ENTER takes SUM, DIE1, DIE2 or the value to enter (a number a die or the sum "
                            "shows)", line=line, lineno=lineno, hint=ENTER_EXAMPLE, suggest=_suggest(word))
    if word == "POLICY":
        return InvalidOrder(f"POLICY takes one of {', '.join(POLICIES)}", line=line, lineno=lineno,
                            hint=POLICY_EXAMPLE, suggest=_suggest(word))
    return UnknownCommand(f"not a dice golf order or command (those are {COMMANDS})", line=line, lineno=lineno,
                          hint=ENTER_EXAMPLE, suggest=_suggest(None))


def _suggest(word: str | None):
    return lambda state, seat: state.suggestion(seat, word)


def _suggest_again(first) -> Suggest:
    """The first of two POLICY lines stands as a suggestion while any policy may be set; for
    two ENTER lines, the best entry (the first may be against the rules)."""
    def suggest(state, seat: int) -> str | None:
        if type(first) is Policy:
            return str(first) if state.suggestion(seat, "POLICY") else None
        return state.suggestion(seat, "ENTER")
    return suggest
