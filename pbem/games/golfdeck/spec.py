"""Golf (golf deck) as the rest of pbem knows it: a game of the `cards` family."""
from __future__ import annotations

from pathlib import Path

from pbem.games import cards
from pbem.games.cards import show
from pbem.games.cards.grammar import grammar
from pbem.games.golfdeck import robot
from pbem.games.golfdeck.engine import GolfDeck, random_orders
from pbem.games.spec import GameSpec, Pacing

SPEC = GameSpec(
    engine=GolfDeck,
    grammar=grammar,
    pacing=Pacing.ROUND_THE_TABLE,
    robot=robot,
    family=cards.TEMPLATES,
    templates=Path(__file__).parent / "templates",
    chance="deals",
    score_words="points",
    gm_lines=show.gm_lines,
    json_extras=show.json_extras,
    random_orders=random_orders,
)
