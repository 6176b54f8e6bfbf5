"""Golf as the rest of pbem knows it: a game of the `cards` family."""
from __future__ import annotations

from pathlib import Path

from pbem.games.cards.show import card_spec
from pbem.games.golf import robot
from pbem.games.golf.engine import Golf, random_orders

SPEC = card_spec(Golf, robot, random_orders, Path(__file__).parent / "templates")
