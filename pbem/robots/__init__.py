"""Robot players: a seat that pbem plays itself (CONTRACT section 12).

A layer between the engines and the GM. A robot is handed exactly what its seat may see (the
engine's `view(seat)`, what `STATUS` shows that seat), the game's public options, and a random
stream of its own; it returns one order in the game's grammar, as text, as a player would write
it. It is never handed the state, so it cannot read the stock, another seat's hidden cards or
another seat's orders for the turn. A search robot may build states consistent with the view
(sampling what it cannot see from its own stream) and play them out on the pure engines.

Each game's robot is a module of this package registered in `ROBOTS` by the game's TYPE, with
`decide(view, seat, level, options, rng) -> str` and a `VERSION` that the record names.
The levels: `easy` plays what a missed deadline plays; `strong` plays as the README's figures say.
"""
from __future__ import annotations

import hashlib
from importlib import import_module
from types import ModuleType

from pbem.games.rng import Generator

__all__ = ["LEVELS", "ROBOTS", "decide", "robot_generator", "robot_module", "version"]

LEVELS = ("easy", "strong")
# Game TYPE -> the module (in this package) that plays it.
ROBOTS = {"dicegolf": "dicegolf", "golf": "cards", "golfdeck": "cards", "matchplay": "matchplay", "onpar": "onpar"}
_DOMAIN = b"pbem robot stream\x00"


def robot_generator(seed: bytes, seat: int, move: int) -> Generator:
    """The random stream of a robot seat's `move`-th move (counted from 0): its own seed, the
    SHA-256 of a fixed label, the game's seed, the seat (2 bytes) and the move (4 bytes), so that
    a robot's choices never draw on the game's chance, and each move can be checked alone once
    the game's seed is revealed."""
    material = _DOMAIN + bytes(seed) + seat.to_bytes(2, "big") + move.to_bytes(4, "big")
    return Generator(hashlib.sha256(material).digest())


def robot_module(game_type: str) -> ModuleType:
    name = ROBOTS.get(game_type)
    if name is None:
        raise KeyError(f"no robot plays {game_type}")
    return import_module(f"{__name__}.{name}")


def version(game_type: str) -> str:
    return robot_module(game_type).VERSION


def decide(game_type: str, view: dict, seat: int, level: str, options: dict, rng: Generator) -> str:
    """The robot's order for `seat`, from its view alone, as a line (or lines) of the grammar."""
    if level not in LEVELS:
        raise ValueError(f"a robot's level is one of {', '.join(LEVELS)}")
    return robot_module(game_type).decide(view, seat, level, dict(options), rng)
