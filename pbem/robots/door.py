"""The one door between a game and a robot: the GM and `pbem verify` both come through here.

`order_for` hands the robot of the game's type exactly `state.view(seat)` (never the state),
the public options and the seat's own stream for that move (`robot_generator`), reads the text
it returns with the game's own grammar, as a player's mail is read, and checks the order against
the rules. The same call, with the same view and stream, gives the same order: that is how
`pbem verify` checks a robot's every move once the seed is revealed.
"""
from __future__ import annotations

from pbem.games.errors import BadOrderText
from pbem.games.registry import spec_for
from pbem.robots import decide, robot_generator

__all__ = ["order_for"]

MOST_LINES = 20  # of a robot's answer: an order is a few lines


def order_for(state, game_type: str, seat: int, level: str, options: dict, seed: bytes, index: int):
    """The robot's command for `seat`'s `index`-th robot move (counted from 0)."""
    text = decide(game_type, state.view(seat), seat, level, options, robot_generator(seed, seat, index))
    lines = [(n, line) for n, line in enumerate(text.splitlines()[:MOST_LINES], start=1) if line.strip()]
    orders, errors = spec_for(game_type).grammar(lines)
    if errors or len(orders) != 1:
        raise BadOrderText(f"the robot's order does not read: {text[:80]!r}")
    command = orders[0].command
    state.check(seat, command)
    return command
