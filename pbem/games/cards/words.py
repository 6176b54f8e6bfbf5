"""The words of the card games' moves, written from the facts play records.

The card games do not write sentences as they play: each move's `played` event holds its
facts in `say` (a list, so that it stores as JSON: a saying's name, then its values) and, in
golf, the turn's other consequences in `after`. `narrate` writes them when someone reads them
(the GM, for the mail): `text`, for everyone, and `own`, for the mover, who may be told the card
they drew or looked at. Bots, replays and `pbem verify`, which read no words, never pay for them.

Nothing here may put a card in `text` that the table has not seen: a card kept face down, or
looked at, is named in `own` only.

Each game's own sayings are in its folder (`words.py`); `resigned` is everyone's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.games.events import GameEvent

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
        elif ev.get("kind") == GameEvent.DRAWN and "tell" in ev:
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


def resigned(name: str) -> tuple[str, str]:
    return (f"{name} resigned: they take no more turns and cannot win, and their cards are still "
            "dealt and scored"), "You resigned"
