"""On Par's orders as value objects: `str()` is the canonical order text (CONTRACT section 9)
and reads back with `from_text`, as events store orders."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.base import Resign, written
from pbem.games.errors import BadOrderText


@dataclass(frozen=True)
class Shot:
    """A shot with one club: its cards, in the order the player named them."""
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(("SHOT",) + self.cards)


@dataclass(frozen=True)
class PlaySkill:
    """A skill shot: POWER, FADE or SLICE."""
    card: str

    def __str__(self) -> str:
        return f"PLAY {self.card}"


@dataclass(frozen=True)
class Trap:
    """A trap against another player's ball; `player` is their name as the order gives it (the
    GM puts a name in place of an address before the engine sees it)."""
    card: str
    player: str

    def __str__(self) -> str:
        return f"TRAP {self.card} ON {self.player}"


@dataclass(frozen=True)
class DiscardCard:
    card: str

    def __str__(self) -> str:
        return f"DISCARD {self.card}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "PASS"


ORDERS = (Shot, PlaySkill, Trap, DiscardCard, Pass)


def from_text(text: str):
    """The order whose `str()` is `text`; ValueError for anything else."""
    words = text.split()
    head = words[0] if words else ""
    if text == "RESIGN":
        return Resign()
    if text == "PASS":
        return Pass()
    if head == "SHOT" and len(words) > 1:
        return Shot(tuple(words[1:]))
    if head == "PLAY" and len(words) == 2:
        return PlaySkill(words[1])
    if head == "DISCARD" and len(words) == 2:
        return DiscardCard(words[1])
    if head == "TRAP" and len(words) > 3 and words[2] == "ON":
        return Trap(words[1], text.split(None, 3)[3])
    raise BadOrderText(f"not an On Par order: {written(text)}")
