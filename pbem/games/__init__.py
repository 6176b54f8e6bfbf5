"""The rules engines, one module per game, found by their TYPE name.

Engines are pure: no I/O, no clock, no global randomness, no email words. Every engine offers
the protocol of `base.GameState`, so the GM, the scheduler, the tests and the bots treat all
games alike.
"""
from __future__ import annotations

from pbem.games.base import GameState, Result, register, registry, written

# Importing a game module registers it.
from pbem.games import matchplay  # noqa: F401,E402
from pbem.games import golf  # noqa: F401,E402
from pbem.games import golfdeck  # noqa: F401,E402
from pbem.games import dicegolf  # noqa: F401,E402
from pbem.games import onpar  # noqa: F401,E402


def game_type(name: str):
    """The engine class registered for TYPE `name` (KeyError names the known ones)."""
    try:
        return registry()[name.lower()]
    except KeyError:
        known = ", ".join(sorted(registry()))
        raise KeyError(f"unknown game type {written(name)}; known: {known}") from None


__all__ = ["GameState", "Result", "game_type", "register", "registry"]
