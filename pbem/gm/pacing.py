"""How a game's turns go, as its spec says (`Pacing`): the GM picks its flow by this, never by
the engine's class. One flow each: simultaneous turns are `turns.Turns`' own (orders, then the
turn resolved); round the table is `round_table.RoundTheTable`; tosses `tosses.Tosses`."""
from __future__ import annotations

from typing import TypeGuard

from pbem.games import GameState
from pbem.games.base import TossGame, TurnByTurn
from pbem.games.registry import spec_for
from pbem.games.spec import Pacing

__all__ = ["Pacing", "TossGame", "pacing", "plays_by_toss", "round_the_table", "simultaneous"]


def pacing(state: GameState) -> Pacing:
    return spec_for(state.TYPE).pacing


def round_the_table(state: GameState) -> TypeGuard[TurnByTurn]:
    """One seat moves at a time and each move takes effect as it is played."""
    return pacing(state) is Pacing.ROUND_THE_TABLE


def plays_by_toss(state: GameState) -> TypeGuard[TossGame]:
    """Each seat answers the toss the GM made for it."""
    return pacing(state) is Pacing.TOSSES


def simultaneous(state: GameState) -> bool:
    """Every seat owing orders sends them, and the turn resolves once all are in."""
    return pacing(state) is Pacing.SIMULTANEOUS
