"""The deadline a game is given, settled before any mail states it.

A layer above the GM may have its own reasons to move a deadline (a league player's absence):
its `deadline` hook (`layers`), registered from above. Every deadline the GM sets (a new turn, a round's first
turn, the GM's DEADLINE, EXTEND and RESUME) passes through the rules before it is stored, so
the mail written next states the deadline the store holds, never one that a later pass moves.
"""
from __future__ import annotations

from datetime import datetime

from pbem.gm import layers


def settle(store, game_id: str, addresses, moment: datetime | None) -> datetime | None:
    """`moment` after every rule, until none moves it further."""
    return _settled(store, game_id, addresses, moment)[0]


def reason(store, game_id: str, addresses, moment: datetime) -> str | None:
    """Why the rules move `moment` (for the GM's answer), or None when they leave it."""
    return _settled(store, game_id, addresses, moment)[1]


def _settled(store, game_id, addresses, moment):
    if moment is None or store is None:
        return moment, None
    seated, why = frozenset(a for a in addresses if a), None
    rules = layers.above()
    # A rule only ever moves a deadline later, so a few rounds settle it; the bound keeps a
    # faulty rule from looping.
    for _ in range(len(rules) + 1):
        before = moment
        for layer in rules:
            moved = layer.deadline(store, game_id, seated, moment)
            if moved > moment:
                moment, why = moved, why or layer.deadline_why
        if moment == before:
            break
    return moment, why
