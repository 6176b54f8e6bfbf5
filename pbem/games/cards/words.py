"""The words of the card games' moves, written from the facts play records.

`golfdeck` and `golf` do not write sentences as they play: each move's `played` event holds its
facts in `say` (a list, so that it stores as JSON: a saying's name, then its values) and, in
golf, the turn's other consequences in `after`. `narrate` writes them when someone reads them
(the GM, for the mail): `text`, for everyone, and `own`, for the mover, who may be told the card
they drew or looked at. Bots, replays and `pbem verify`, which read no words, never pay for them.

Nothing here may put a card in `text` that the table has not seen: a card kept face down, or
looked at, is named in `own` only.
"""
from __future__ import annotations

from typing import Callable, Sequence

from pbem.games.cards.deck import GOLF_DECK_POINTS

Saying = Callable[..., "tuple[str, str]"]
BY_GM = ":by_gm"  # the name of a saying's variant for a move the GM played


def narrate(sayings: dict[str, Saying], names: Sequence[str], events: list[dict]) -> list[dict]:
    """Write the words of `events` (in place, and returned): each `played` event's `say` (and
    `after`) becomes its `text` and `own`; a `drawn` event's `tell` becomes its player's `own`
    line (None for a conditional draw, which is told in its `played` event). The facts go, so a
    narrated event reads as the GM has always stored it, and narrating it again changes nothing."""
    for ev in events:
        say = ev.pop("say", None)
        if say is not None:
            # A move the GM played for a silent seat may need its own words (nobody chose it).
            saying = ev.get("by_gm") and sayings.get(say[0] + BY_GM) or sayings[say[0]]
            text, own = saying(names[ev["seat"]], *say[1:])
            after = "".join(_after(names, fact) for fact in ev.pop("after", ()))
            ev["text"], ev["own"] = text + after, own + after
        elif ev.get("kind") == "drawn" and "tell" in ev:
            ev["own"] = f"You drew {ev['card']} from the stock" if ev.pop("tell") else None
    return events


def _after(names: Sequence[str], fact: list) -> str:
    """What else a golf turn did, for everyone and the mover alike."""
    what = fact[0]
    if what == "used_up":
        return "; the stock is used up, so the hole ends"
    if what == "rebuilt":
        return "; the stock ran out and the discards under the top card were shuffled into a new one"
    return f"; {names[fact[1]]} misses a turn"  # "skipped"


def _resigned(name: str) -> tuple[str, str]:
    return (f"{name} resigned: they take no more turns and cannot win, and their cards are still "
            "dealt and scored"), "You resigned"


# -- golfdeck ------------------------------------------------------------------------------------
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
    own = f"{why}it went to the discard and you turned up {shown}" if why else f"You discarded {card} and turned up {shown}"
    return f"{name} drew {card} from the stock, discarded it and turned up {shown}", own


GOLFDECK_SAYINGS: dict[str, Saying] = {"chose": _chose, "chose" + BY_GM: _picked, "turned": _turned, "took": _took, "kept": _kept,
                                       "flipped": _flipped, "resigned": _resigned}


# -- golf ----------------------------------------------------------------------------------------
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


GOLF_SAYINGS: dict[str, Saying] = {"take": _take, "keep": _keep, "threw": _threw, "knocked": _knocked,
                                   "peeked": _peeked, "resigned": _resigned}
