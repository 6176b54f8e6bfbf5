"""The words of a game of Golf's moves (see `pbem.games.cards.words`): a saying for each kind of
move, named in its `played` event."""
from __future__ import annotations

from pbem.games.cards.words import Saying, resigned


def _put(name: str, card: str, pos: int, old: str, faceup: bool, how: str) -> str:
    """Everyone's line of a card put into a layout: a face-down card is never named."""
    if faceup:
        return f"{name} {how} and put {card} face up at {pos}, discarding {old}"
    return f"{name} {how} and put it face down at {pos}, discarding {old}"


def _take(name: str, card: str, pos: int, old: str, faceup: bool, _drawn_if: None) -> tuple[str, str]:
    side = "face up" if faceup else "face down"
    return (_put(name, card, pos, old, faceup, "took the top discard"),
            f"You took {card} from the discard and put it {side} at {pos}, discarding {old}")


def _keep(name: str, card: str, pos: int, old: str, faceup: bool, drawn_if: list | None) -> tuple[str, str]:
    side = "face up" if faceup else "face down"
    if drawn_if:
        points, limit = drawn_if
        own = f"You drew {card} ({points}): {points} <= {limit}, so you kept it {side} at {pos}, discarding {old}"
    else:
        own = f"You kept {card} {side} at {pos}, discarding {old}"
    return _put(name, card, pos, old, faceup, "drew from the stock"), own


def _threw(name: str, card: str, drawn_if: list | None) -> tuple[str, str]:
    if drawn_if:
        points, limit = drawn_if
        own = f"You drew {card} ({points}): {points} > {limit}, so you discarded it"
    else:
        own = f"You discarded {card}, the card you drew"
    return f"{name} drew {card} from the stock and discarded it", own


def _knocked(name: str) -> tuple[str, str]:
    return f"{name} knocks", "You knocked: everyone else has one more turn"


def _peeked(name: str, pos: int, card: str, paid: bool) -> tuple[str, str]:
    cost = " (1 point)" if paid else ""
    return f"{name} looked at the card at {pos}{cost}", f"You looked at the card at {pos}: {card}{cost}"


SAYINGS: dict[str, Saying] = {"take": _take, "keep": _keep, "threw": _threw, "knocked": _knocked,
                              "peeked": _peeked, "resigned": resigned}
