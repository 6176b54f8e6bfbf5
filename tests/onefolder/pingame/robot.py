"""The robot: the club whose carry is nearest the pin its seat sees (both levels)."""
from __future__ import annotations

from pingame.engine import CLUBS, Club, carry

VERSION = "pin-1"


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    return str(min((Club(n) for n in CLUBS), key=lambda club: abs(carry(club.n) - view["pin"])))
