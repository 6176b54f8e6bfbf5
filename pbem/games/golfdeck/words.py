"""The words of a golf-deck game's moves (see `pbem.games.cards.words`): a saying for each kind
of move, named in its `played` event."""
from __future__ import annotations

from pbem.games.cards.deck import GOLF_DECK_POINTS
from pbem.games.cards.words import BY_GM, Saying, resigned


def _chose(name: str, first: int, second: int) -> tuple[str, str]:
    return f"{name} has chosen the two cards to reveal", f"You chose {first} and {second} to reveal"


def _picked(name: str, first: int, second: int) -> tuple[str, str]:
    return (f"{name}'s two cards to reveal were picked at random",
            f"I picked {first} and {second} at random as the cards you reveal")


def _turned(name: str, a: int, card_a: str, b: int, card_b: str) -> tuple[str, str]:
    shown = f"{a} ({card_a}) and {b} ({card_b})"
    return f"{name} turned up {shown}", "You turned up " + shown


def _took(name: str, card: str, pos: int, old: str) -> tuple[str, str]:
    what = f"{card} from the discard into {pos} (out went {old})"
    return f"{name} took {what}", "You took " + what


def _why(card: str, limit: int | None, kept: bool) -> str:
    """The start of a conditional draw's own line: what was drawn and why it went where."""
    if limit is None:
        return ""
    points = GOLF_DECK_POINTS[card]
    return f"You drew {card} ({points}): {points} {'<=' if kept else '>'} {limit}, so "


def _kept(name: str, card: str, pos: int, old: str, limit: int | None) -> tuple[str, str]:
    why = _why(card, limit, True)
    own = f"{why}you kept it in {pos} (out went {old})" if why else f"You kept {card} in {pos} (out went {old})"
    return f"{name} drew {card} from the stock and kept it in {pos} (out went {old})", own


def _flipped(name: str, card: str, pos: int, under: str, limit: int | None) -> tuple[str, str]:
    why, shown = _why(card, limit, False), f"{pos} ({under})"
    own = (f"{why}it went to the discard and you turned up {shown}" if why
           else f"You discarded {card} and turned up {shown}")
    return f"{name} drew {card} from the stock, discarded it and turned up {shown}", own


SAYINGS: dict[str, Saying] = {"chose": _chose, "chose" + BY_GM: _picked, "turned": _turned, "took": _took,
                              "kept": _kept, "flipped": _flipped, "resigned": resigned}
