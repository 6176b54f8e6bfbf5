"""The one list of games: each game folder's `SPEC`, found by its type name.

A game's spec imports its grammar, which reads through `pbem.orders`, which the GM imports in
turn; so the games are named here by module and their specs loaded on the first question
(`specs`, `spec_for`), after every module has been imported, and the GM can ask the registry
at its own import without a circle.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import import_module

from pbem.errors import BadValue
from pbem.games.base import GameState, written
from pbem.games.spec import GameSpec

# The games of the package, each the folder `pbem/games/<type>/` whose `spec` module holds its
# `SPEC`. Adding a game is its folder and one line here.
GAMES = (
    "matchplay",
    "golfdeck",
    "golf",
    "dicegolf",
    "onpar",
)

_ADDED: dict[str, GameSpec] = {}  # games registered at run time (a test's own game)


@lru_cache(maxsize=1)
def _listed() -> dict[str, GameSpec]:
    found = (import_module(f"pbem.games.{name}.spec").SPEC for name in GAMES)
    return {spec.type: spec for spec in found}


def specs() -> list[GameSpec]:
    """Every registered game, in the order of `GAMES`, then those added."""
    return [*_listed().values(), *_ADDED.values()]


def spec_for(name: str) -> GameSpec:
    """The spec of game type `name` (a KeyError names the known ones)."""
    key = name.lower() if isinstance(name, str) else name
    found = _ADDED.get(key) or _listed().get(key)
    if found is None:
        known = ", ".join(sorted(spec.type for spec in specs()))
        raise KeyError(f"unknown game type {written(name)}; known: {known}")
    return found


def game_type(name: str) -> type[GameState]:
    """The engine class of game type `name`."""
    return spec_for(name).engine


def types() -> list[str]:
    return sorted(spec.type for spec in specs())


def register(spec: GameSpec) -> None:
    """Add a game at run time: for a game that lives outside the package (a test's)."""
    if spec.type in _listed() or spec.type in _ADDED:
        raise BadValue(f"game type {spec.type} is registered already")
    _ADDED[spec.type] = spec


def unregister(name: str) -> None:
    _ADDED.pop(name, None)


@contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """`spec` registered for the block, and gone after it."""
    register(spec)
    try:
        yield spec
    finally:
        unregister(spec.type)
