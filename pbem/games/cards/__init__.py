"""What the card-grid golf games share, knowing none of them: the cards and the deal (`deck`),
the card orders (`orders`) and their grammar (`grammar`), the words of a move (`words`), the
robot and its search (`robot`, `search`) and the `cards` family of templates."""
from __future__ import annotations

from pathlib import Path

from pbem.games.cards.deck import *
from pbem.games.spec import TemplateFamily

TEMPLATES = TemplateFamily("cards", Path(__file__).parent / "templates")
