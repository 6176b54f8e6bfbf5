"""The three kinds of order error, shared by every game and by the order parsers.

Each carries the player's own line (and its number in the mail, when known), so an error mail
can quote exactly what was wrong and say what would be right.
"""
from __future__ import annotations


class OrderError(Exception):
    kind = "error"

    def __init__(self, message: str, *, line: str | None = None, lineno: int | None = None,
                 rule: str | None = None, hint: str | None = None, part: str | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.lineno = lineno
        self.rule = rule
        self.hint = hint
        self.part = part  # which part of a many-line order is at fault (e.g. "special")
        self.also: list[OrderError] = []  # further problems of the same order, each on its own line

    def at(self, line: str, lineno: int) -> "OrderError":
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
