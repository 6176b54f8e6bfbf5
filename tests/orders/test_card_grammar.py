"""The card games' conditional draw: `<` means less than, `<=` at most."""
from __future__ import annotations

import pytest

from pbem.games.cards.grammar import grammar


@pytest.mark.parametrize("text,canonical", [
    ("DRAW STOCK IF < 5 KEEP 2 ELSE FLIP 4", "DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 4"),
    ("draw stock if <5 keep 2 else discard", "DRAW STOCK IF <= 4 KEEP 2 ELSE DISCARD"),
    ("DRAW STOCK IF <= 5 KEEP 2 ELSE FLIP 4", "DRAW STOCK IF <= 5 KEEP 2 ELSE FLIP 4"),
    ("DRAW STOCK IF < -1 KEEP 1 ELSE DISCARD", "DRAW STOCK IF <= -2 KEEP 1 ELSE DISCARD"),
    ("DRAW STOCK\nIF < 3 KEEP 1 ELSE DISCARD", "DRAW STOCK IF <= 2 KEEP 1 ELSE DISCARD"),
])
def test_less_than_is_strict(text, canonical):
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1)]
    orders, errors = grammar(lines)
    assert errors == [] and [str(o.command) for o in orders] == [canonical]
