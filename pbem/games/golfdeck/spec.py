"""Golf (golf deck) as the rest of pbem knows it: a game of the `cards` family."""
from __future__ import annotations

from pathlib import Path

from pbem.games.cards.show import card_spec
from pbem.games.golfdeck import robot
from pbem.games.golfdeck.engine import GolfDeck, random_orders

SPEC = card_spec(GolfDeck, robot, random_orders, Path(__file__).parent / "templates")
