"""Dice golf as the rest of pbem knows it."""
from __future__ import annotations

from pathlib import Path

from pbem.games.dicegolf import robot, show
from pbem.games.dicegolf.engine import DiceGolf, random_orders
from pbem.games.dicegolf.grammar import grammar
from pbem.games.spec import GameSpec, Pacing

SPEC = GameSpec(
    engine=DiceGolf,
    grammar=grammar,
    pacing=Pacing.TOSSES,
    robot=robot,
    templates=Path(__file__).parent / "templates",
    chance="dice",
    gm_lines=show.gm_lines,
    json_extras=show.json_extras,
    random_orders=random_orders,
)
