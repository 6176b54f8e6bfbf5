"""A card-grid game in the GM's own texts: every grid with its face-down cards in brackets
(`pbem show`), and every finished hole's grids and scores by seat (`pbem show --json`)."""
from __future__ import annotations

from pathlib import Path

from pbem.games.cards import TEMPLATES
from pbem.games.cards.grammar import grammar
from pbem.games.spec import GameSpec, Pacing


def gm_lines(state: dict, data: dict) -> list[str]:
    lines = [(f"Hole {state['hole']} of {state['holes']}, {state['phase']}; stock {state['stock']}, "
              f"discard {state.get('discard') or '-'}")]
    for seat, name in enumerate(state["names"]):
        grid = state["grids"][seat]
        face_up = state["face_up"][seat]
        cards = " ".join(card if up else f"[{card}]" for card, up in zip(grid, face_up))
        lines.append(f"  {name}: {cards}  total {state['totals'][seat]}")
    for hole in data.get("holes", []):
        scores = ", ".join(f"{address} {points}" for address, points in hole["scores"].items())
        lines.append(f"  hole {hole['hole']}: {scores}")
    return lines


def json_extras(state, keys: list[str]) -> dict:
    """Every finished hole's grids and scores, by seat key."""
    return {"holes": [{"hole": h["hole"],
                       "grids": {keys[i]: list(g) for i, g in enumerate(h["grids"])},
                       "scores": {keys[i]: p for i, p in enumerate(h["scores"])}} for h in state.holes]}


def card_spec(engine, robot, random_orders, folder: Path) -> GameSpec:
    """The spec of a card-grid game: played round the table in the card grammar, its own
    templates (`folder`) before the `cards` family's, the deals its chance, points its scores."""
    return GameSpec(engine=engine, grammar=grammar, pacing=Pacing.ROUND_THE_TABLE, robot=robot,
                    family=TEMPLATES, templates=folder, chance="deals", score_words="points",
                    gm_lines=gm_lines, json_extras=json_extras, random_orders=random_orders,
                    uses_course=False)
