"""Closest to the Pin as pbem knows it: all the registry needs."""
from __future__ import annotations

from pathlib import Path

from pbem.games.spec import GameSpec, Pacing
from pingame import robot
from pingame.engine import PinGame
from pingame.grammar import grammar

SPEC = GameSpec(engine=PinGame, grammar=grammar, pacing=Pacing.SIMULTANEOUS, robot=robot,
                templates=Path(__file__).parent / "templates", chance="pins", score_words="holes won")
