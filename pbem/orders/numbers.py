"""Numbers in orders: turns, stroke cards, holes, grid positions.

Only the ASCII digits 0-9 count. `str.isdigit` also says yes to other scripts' digits and to
superscripts, which `int` then refuses or reads as something the player never saw; and `int`
of a few thousand digits is refused outright (and is nonsense in a golf game anyway). NFKC has
already turned fullwidth digits into ASCII by the time a line gets here.
"""
from __future__ import annotations

# No turn, card, hole or position of any game comes near a million.
MAX_DIGITS = 6


def is_digits(text: str) -> bool:
    """Whether `text` is a non-empty run of ASCII digits (of any length)."""
    return text.isascii() and text.isdigit()


def read_number(text: str) -> int | None:
    """The whole number `text` spells in at most MAX_DIGITS ASCII digits, else None."""
    if len(text) <= MAX_DIGITS and is_digits(text):
        return int(text)
    return None
