"""Mail text to typed commands: the generic commands here, each game's grammar beside them."""
from __future__ import annotations

from pbem.orders import cards, dicegolf, matchplay, onpar
from pbem.orders.commands import Grammar

GRAMMARS: dict[str, Grammar] = {"matchplay": matchplay.grammar, "golfdeck": cards.grammar, "golf": cards.grammar,
                               "dicegolf": dicegolf.grammar, "onpar": onpar.grammar}


def grammar_for(game_type: str) -> Grammar:
    return GRAMMARS[game_type]
