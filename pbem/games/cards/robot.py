"""The card-grid golf games' robot (`golfdeck` and `golf`), one module for both (CONTRACT section 12).

Both levels see only the seat's view. To use the engines they rebuild a state consistent with it
(`card_search.rebuild`): every card the seat has not seen (the stock, the discard pile below its
top, the others' face-down cards and the seat's own unseen ones) is dealt at random from the
cards the view does not show, drawn from the robot's stream (in `golf`, the others' layouts then
play their turns so far as easy players would, since what they kept lies face down).

- `easy` plays what a missed deadline plays: the engine's `default_orders` on such a state. That
  order reads only what the seat may see (its own known cards, the discard, the drawn card), so
  it is the same whatever the sample; the tests check it. The one exception is golfdeck's reveal:
  the GM's default pair is a draw of the game's chance made at the deal, which no seat sees, so
  the robot makes the same kind of draw from its own stream (one of the 15 pairs, uniformly).
- `strong` (`card_search.search`) in `golfdeck` is a determinized search: it samples states
  consistent with the view, plays every candidate move on each of them and the rest of the hole
  to its end on the pure engine (every seat by `default_orders`), and picks the move with the
  lowest mean margin (its hole score less the others' mean): first on a few samples for all
  candidates, then on many more for the best few and the missed-deadline move. In `golf`, where
  only the robot knocks, it knocks when it wins or shares enough of the sampled tables played
  out after the knock (the others' layouts rebuilt as easy players would have them after so
  many turns; in the 2x3 layout it must also win more of them than by playing the same tables
  out without knocking), and otherwise makes the card move that saves most in expectation
  this turn.
  A fixed number of samples from the robot's own stream: the move is a function of the view,
  the options and the stream.
"""
from __future__ import annotations

from pbem.games.cards import search

__all__ = ["VERSION", "decide"]

VERSION = "cards-3"


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    game = search.game_of(view, options)
    if seat not in view.get("to_move", ()):
        raise ValueError("this seat owes no order now")
    if level == "easy":
        return str(search.default_move(game, view, seat, options, rng))
    return str(search.search(game, view, seat, options, rng))
