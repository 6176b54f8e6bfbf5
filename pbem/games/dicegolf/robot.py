"""Dice golf's robot: it enters what `POLICY BEST` enters, toss by toss (CONTRACT section 12).

Dice golf has no hidden information and no opponent to read: each hole is the seat's own race to
the flag, so the best play is the entry that leaves the lowest expected score, exactly what the
BEST policy (`games.dicegolf_best`) computes from the waiting toss. Both levels play it (a
missed deadline plays BEST too). The stream is not drawn from: there is nothing to randomise.
"""
from __future__ import annotations

from pbem.games.dicegolf import best
from pbem.games.errors import NoMoveNow

__all__ = ["VERSION", "decide"]

VERSION = "dicegolf-best-1"


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    toss = view["waiting"][seat]
    if toss is None:
        raise NoMoveNow("no toss waits for this seat")
    value = best.choose("BEST", toss["flag"], toss["total"], toss["toss"], tuple(toss["dice"]),
                        bool(view["lenient_first"]))
    return "ENTER X" if value is None else f"ENTER {value}"
