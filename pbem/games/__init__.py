"""The games: one folder per game (`<type>/`: engine, grammar, robot, templates, presentation and
its `GameSpec`), the pieces several games share beside them (`cards/`, `course`, `rng`, `base`),
and the one list of games (`registry`).

Engines are pure: no I/O, no clock, no global randomness, no email words. Every engine offers
the protocol of `base.GameState`, so the GM, the scheduler, the tests and the bots treat all
games alike; what else the rest of pbem needs of a game it asks the game's spec.
"""
from __future__ import annotations

from pbem.games.base import GameState, Result
from pbem.games.registry import game_type, spec_for, specs

__all__ = ["GameState", "Result", "game_type", "spec_for", "specs"]
