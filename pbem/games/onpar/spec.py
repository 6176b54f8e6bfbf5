"""On Par as the rest of pbem knows it."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pbem.games.onpar import robot, show
from pbem.games.onpar.engine import OnPar, random_orders
from pbem.games.onpar.grammar import grammar
from pbem.games.onpar.pictures import course_picture
from pbem.games.spec import GameSpec, Pacing

SPEC = GameSpec(
    engine=OnPar,
    grammar=grammar,
    pacing=Pacing.ROUND_THE_TABLE,
    robot=robot,
    templates=Path(__file__).parent / "templates",
    chance="deals",
    score_words="strokes",
    gm_lines=show.gm_lines,
    json_extras=show.json_extras,
    filters=MappingProxyType({"course_picture": course_picture}),
    random_orders=random_orders,
)
