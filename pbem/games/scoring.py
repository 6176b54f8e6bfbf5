"""What several games share about the end of a game, whatever they are played with (cards, dice,
a course of cards): the lowest total wins, and a tie shares the win."""
from __future__ import annotations

from collections.abc import Sequence


def share_the_win(names: Sequence[str], totals: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """`Alice wins with 12` or `Alice and Bob share the win with 12` (lowest total wins)."""
    best = min(totals)
    if totals.count(best) == 1:
        one = totals.index(best)
        return f"{names[one]} wins with {best}", (one,)
    winners = tuple(i for i, t in enumerate(totals) if t == best)
    who = [names[i] for i in winners]
    if len(who) == 1:
        return f"{who[0]} wins with {best}", winners
    listed = ", ".join(who[:-1]) + " and " + who[-1]
    return f"{listed} share the win with {best}", winners
