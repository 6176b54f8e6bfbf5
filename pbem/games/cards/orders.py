"""The orders of the card-grid golf games, as value objects whose `str()` is the canonical order
text (CONTRACT section 7) and reads back with `from_text`."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.base import Resign, by_fields, written
from pbem.games.errors import BadOrderText


@dataclass(frozen=True)
class Reveal:
    """golfdeck: the two cards turned up before the first turn of a hole."""
    first: int
    second: int

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return f"REVEAL {self.first} {self.second}"


@dataclass(frozen=True)
class DrawDiscard:
    """Take the top discard into `pos`; the card there goes to the discard."""
    pos: int

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return f"DRAW DISCARD {self.pos}"


@dataclass(frozen=True)
class DrawStock:
    """Draw the top stock card; the GM shows it privately and waits for KEEP or DISCARD."""
    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return "DRAW STOCK"


@dataclass(frozen=True)
class Keep:
    """Put the drawn stock card in `pos`; the card there goes to the discard."""
    pos: int

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return f"KEEP {self.pos}"


@dataclass(frozen=True)
class DiscardFlip:
    """golfdeck: discard the drawn stock card and turn face-down `pos` up."""
    pos: int

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return f"DISCARD FLIP {self.pos}"


@dataclass(frozen=True)
class Discard:
    """golf: discard the drawn stock card."""
    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return "DISCARD"


@dataclass(frozen=True)
class DrawStockIf:
    """Draw from the stock and decide in the same mail: keep the card in `keep` when it is worth
    at most `limit` points, else flip `flip` (golfdeck) or discard it (golf: `flip` is None)."""
    limit: int
    keep: int
    flip: int | None = None

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        otherwise = f"FLIP {self.flip}" if self.flip is not None else "DISCARD"
        return f"DRAW STOCK IF <= {self.limit} KEEP {self.keep} ELSE {otherwise}"


@dataclass(frozen=True)
class Knock:
    """golf with the knock ending: the others get one more turn each, then the hole ends."""
    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return "KNOCK"


@dataclass(frozen=True)
class Peek:
    """golf with peek=paid: look at one of your face-down cards for a point."""
    pos: int

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return f"PEEK {self.pos}"


def from_text(text: str):
    """Read back the canonical text of any of these orders (events store orders that way)."""
    words = text.split()
    head = " ".join(words[:2])
    if words[0] == "REVEAL":
        return Reveal(int(words[1]), int(words[2]))
    if head == "DRAW DISCARD":
        return DrawDiscard(int(words[2]))
    if text == "DRAW STOCK":
        return DrawStock()
    if head == "DRAW STOCK":  # DRAW STOCK IF <= n KEEP p ELSE FLIP q | ELSE DISCARD
        flip = int(words[9]) if words[8] == "FLIP" else None
        return DrawStockIf(int(words[4]), int(words[6]), flip)
    if words[0] == "KEEP":
        return Keep(int(words[1]))
    if head == "DISCARD FLIP":
        return DiscardFlip(int(words[2]))
    if text == "DISCARD":
        return Discard()
    if text == "KNOCK":
        return Knock()
    if words[0] == "PEEK":
        return Peek(int(words[1]))
    raise BadOrderText(f"not a card-game order: {written(text)}")


def card_command(text: str):
    """A card game's command read back from its canonical text, as events store it."""
    return Resign() if text == "RESIGN" else from_text(text)
