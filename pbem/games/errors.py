"""The three kinds of order error, shared by every game and by the order parsers.

Each carries the player's own line (and its number in the mail, when known), so an error mail
can quote exactly what was wrong and say what would be right.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

# What a parser leaves when the right suggestion depends on the game: it reads a mail before the
# game's state is at hand, and a suggestion must be an order that is legal in that state.
Suggest = Callable[[Any, int], "str | None"]


class OrderError(Exception):
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
