"""On Par in the GM's own texts: the course picture and every hand (`pbem show`), and the hole
in play with every ball and hand and every finished hole (`pbem show --json`, CONTRACT
section 9)."""
from __future__ import annotations

from pbem.games.onpar.pictures import course_picture


def gm_lines(state: dict, data: dict) -> list[str]:
    lines = [f"Hole {state['hole']} of {state['holes_total']}, par {state['par']}"]
    lines += course_picture(state).splitlines()
    lines += [f"  {name}: {' '.join(hand)}" for name, hand in zip(state["names"], state["hands"])]
    return lines


def json_extras(state, keys: list[str]) -> dict:
    """Where each ball stopped, the shots played, the strokes scored and the winner, by seat key."""
    view = state.view(None)
    def by_key(values):
        return {keys[i]: v for i, v in enumerate(values)}

    holes = [{"hole": h["hole"], "par": h["par"], "course": h["course"], "finish": by_key(h["finish"]),
              "shots": by_key(h["shots"]), "strokes": by_key(h["strokes"]),
              "winner": keys[h["winner"]] if h["winner"] is not None else None}
             for h in state.holes]
    return {"hole": view["hole"], "par": view["par"], "course": view["course"],
            "balls": by_key([{"space": b["space"], "strokes": b["strokes"]} for b in view["balls"]]),
            "hands": by_key([list(hand) for hand in view["hands"]]), "holes": holes}
