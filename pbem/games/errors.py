"""The games' errors, shared by every game and by the order parsers: the three kinds of order
error, and what an engine refuses of the GM or of its caller.

An order error carries the player's own line (and its number in the mail, when known), so an
error mail can quote exactly what was wrong and say what would be right.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from pbem.errors import BadValue, PbemError

# What a parser leaves when the right suggestion depends on the game: it reads a mail before the
# game's state is at hand, and a suggestion must be an order that is legal in that state.
Suggest = Callable[[Any, int], "str | None"]


class OrderError(PbemError):
    kind = "error"
    # Whether `suggest` makes a set of orders (which the rest of the message's errors may share),
    # or only the fix of its own line (a TURN line's number).
    suggests_orders = True

    def __init__(self, message: str, *, line: str | None = None, lineno: int | None = None,
                 rule: str | None = None, hint: str | None = None, part: str | None = None,
                 suggest: Suggest | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.lineno = lineno
        self.rule = rule
        self.hint = hint
        self.part = part  # which part of a many-line order is at fault (e.g. "special")
        self.also: list[OrderError] = []  # further problems of the same order, each on its own line
        self.suggest = suggest  # (state, seat) -> the hint, made once the game is known

    def at(self, line: str, lineno: int) -> OrderError:
        """The same error, placed on the player's line (the parser knows it, the engine does not)."""
        if self.line is None:
            self.line = line
        if self.lineno is None:
            self.lineno = lineno
        return self

    def __str__(self) -> str:
        return self.message


class InvalidOrder(OrderError):
    """The line cannot be read."""
    kind = "unreadable"


class IllegalOrder(OrderError):
    """The line was read, but it is against a rule (``rule`` names it)."""
    kind = "against a rule"


class AmbiguousOrder(OrderError):
    """The line (or the message) can be read more than one way."""
    kind = "ambiguous"


class GameRefused(BadValue):
    """A new game the rules refuse as it was asked for: its number of players, its course, its
    seats; the message says what, in one line."""


class BadOption(GameRefused):
    """A game's option that cannot be taken: a value it does not allow, a name no game of its
    type knows, or two options that contradict each other."""


class BadOrderText(BadValue):
    """An order's text that does not read as pbem writes orders: a stored or exported order, or a
    robot's answer (a player's own mail is read by the grammar, and answered with an OrderError)."""


class NoMoveNow(BadValue):
    """A move asked of a seat that owes none now (a robot's, a random player's): the caller's
    mistake, never a player's."""


class NotReady(PbemError, RuntimeError):
    """A turn resolved before every order it waits for is in: the caller's mistake, never a
    player's."""


def make_suggestions(errors: list[OrderError], state, seat: int) -> None:
    """Give each error that left a `suggest` the hint the game's state makes for `seat`, in
    place of the parser's own (which only shows the form of an order); None when no order
    would be right (the game is over).

    A game whose mail holds one set of orders (MatchPlay) leaves one `suggest` for the whole
    message; the errors its engine found in that set (those naming a `part` of it) take the
    same suggestion, so that one mail never offers two different corrections."""
    whole = next((e.suggest for e in errors if e.suggest is not None and e.suggests_orders), None)
    for error in errors:
        make = error.suggest or (whole if error.part else None)
        if make is not None:
            error.hint = make(state, seat)
