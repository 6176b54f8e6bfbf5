"""MatchPlay Golf as the rest of pbem knows it."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pbem.games.matchplay import robot, show
from pbem.games.matchplay.engine import HOLES, MatchPlay, random_orders
from pbem.games.matchplay.grammar import grammar
from pbem.games.matchplay.hole_table import hole_lines
from pbem.games.spec import GameSpec, Pacing

SPEC = GameSpec(
    engine=MatchPlay,
    grammar=grammar,
    pacing=Pacing.SIMULTANEOUS,
    robot=robot,
    templates=Path(__file__).parent / "templates",
    chance=None,  # no deal, no dice: nothing of chance comes back after a rollback
    score_words="holes won",
    gm_lines=show.gm_lines,
    filters=MappingProxyType({"hole_lines": hole_lines}),
    match_holes=HOLES,
    random_orders=random_orders,
)
