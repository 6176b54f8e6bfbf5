"""Robot players: a seat that pbem plays itself (CONTRACT section 12).

A layer between the engines and the GM. A robot is handed exactly what its seat may see (the
engine's `view(seat)`, what `STATUS` shows that seat), the game's public options, and a random
stream of its own; it returns one order in the game's grammar, as text, as a player would write
it. It is never handed the state, so it cannot read the stock, another seat's hidden cards or
another seat's orders for the turn. A search robot may build states consistent with the view
(sampling what it cannot see from its own stream) and play them out on the pure engines.

Each game's robot lives in the game's folder and its spec names it (`GameSpec.robot`): a module
with `decide(view, seat, level, options, rng) -> str` and a `VERSION` that the record names.
This package is only the door: the robot's stream, the call, and the reading of its answer.
The levels: `easy` plays what a missed deadline plays; `strong` plays as the README's figures say.
"""
from __future__ import annotations

import hashlib
from types import ModuleType

from pbem.errors import BadValue
from pbem.games.registry import spec_for, specs
from pbem.games.rng import Generator
from pbem.games.spec import ROBOT_LEVELS

__all__ = ["LEVELS", "decide", "robot_generator", "robot_module", "robot_types", "version"]

LEVELS = ROBOT_LEVELS
_DOMAIN = b"pbem robot stream\x00"


def robot_generator(seed: bytes, seat: int, move: int) -> Generator:
    """The random stream of a robot seat's `move`-th move (counted from 0): its own seed, the
    SHA-256 of a fixed label, the game's seed, the seat (2 bytes) and the move (4 bytes), so that
    a robot's choices never draw on the game's chance, and each move can be checked alone once
    the game's seed is revealed."""
    material = _DOMAIN + bytes(seed) + seat.to_bytes(2, "big") + move.to_bytes(4, "big")
    return Generator(hashlib.sha256(material).digest())


def robot_types() -> list[str]:
    """The game types a robot plays, in alphabetical order."""
    return sorted(spec.type for spec in specs() if spec.robot is not None)


def robot_module(game_type: str) -> ModuleType:
    try:
        robot = spec_for(game_type).robot
    except KeyError:
        robot = None
    if robot is None:
        raise KeyError(f"no robot plays {game_type}")
    return robot


def version(game_type: str) -> str:
    return robot_module(game_type).VERSION


def decide(game_type: str, view: dict, seat: int, level: str, options: dict, rng: Generator) -> str:
    """The robot's order for `seat`, from its view alone, as a line (or lines) of the grammar."""
    if level not in LEVELS:
        raise BadValue(f"a robot's level is one of {', '.join(LEVELS)}")
    return robot_module(game_type).decide(view, seat, level, dict(options), rng)
