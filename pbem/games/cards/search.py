"""The card robots' shared search, knowing no game: states sampled from a seat's view, moves
tried on them, and the hole played out (OpenSpiel's determinized search).

A game's robot (`golfdeck/robot.py`, `golf/robot.py`) gives the pieces only it knows: `sample()`,
a fresh engine state consistent with the seat's view, its hidden cards dealt from the robot's
stream, with the facts its rollouts' players go by (`(state, facts)`: the facts are carried
beside the state, never written on it); `clone(state)`, a copy to play out (the engine's
`playout_copy`); `play(state, seat, me, facts)`, the order the rollouts play for `seat`; and
`score(state)`, every seat's score of its layout as it lies. `rollout` plays a hole out from a
state and values it for the seat (`value`: the seat's score less the others' mean, so that the
hole is ended when the seat is ahead, not merely low); `best_move` tries every candidate on the
same sampled states, in two rounds. Fixed counts, never a clock, so that a move can be
recomputed exactly.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pbem.games.cards.deck import HIDDEN
from pbem.games.errors import NoMoveNow
from pbem.games.rng import Generator

__all__ = ["MOVE_CAP", "best_move", "decide_with", "generator", "rollout", "tried", "unseen", "value"]

# Every candidate on `SAMPLES` sampled states, then the `FINALISTS` best and the missed-deadline
# move on `FINAL_SAMPLES` more; the rollouts play the hole out (some 20 moves).
SAMPLES = 24
FINAL_SAMPLES = 96
FINALISTS = 3
MARGIN = 0.25  # points a sample another move must beat the missed-deadline move by
MOVE_CAP = 2_000  # moves in one rollout: far beyond a real hole


def generator(rng) -> Generator:
    """A sampled state's own generator, drawn from the robot's stream."""
    return Generator(rng.below(1 << 62).to_bytes(8, "big") * 2)


def unseen(deck, view: dict, drawn, known=()) -> list[str]:
    """The cards of `deck` the seat has not seen: all but the face-up ones, the discard's top,
    the drawn card and the `known` ones, shuffled by the caller."""
    left = Counter(deck)
    seen = [c for g in view["grids"] for c in g if c != HIDDEN]
    seen += [c for c in (view["discard"], drawn) if c is not None] + list(known)
    left.subtract(seen)
    return sorted(left.elements())


def value(scores: list, me: int) -> float:
    """What the search lowers: the seat's score less the others' mean, the hole's margin that
    the seat can steer (when to end it, what it leaves them on the discard)."""
    others = [s for i, s in enumerate(scores) if i != me]
    return scores[me] - sum(others) / len(others)


def rollout(state, me: int, play: Callable, score: Callable, horizon: int = MOVE_CAP,
            worth: Callable = value, facts=None) -> float:
    """Play on from `state` (changed in place) to the hole's end or `horizon` more turns, every
    seat by `play` (given the sample's `facts`), and value the layouts as they then lie for the
    seat `me` (`worth`, by default `value`)."""
    stop = state._turn + horizon
    moves = 0
    while state._result is None and state._turn < stop and moves < MOVE_CAP:
        seat = min(state.to_move())
        state.apply(seat, play(state, seat, me, facts))
        moves += 1
        if len(state.events) > 64:
            state.events.clear()
    if state.holes:
        return worth(state.holes[-1]["scores"], me)
    return worth(score(state), me)


def tried(moves: list, samples: int, seat: int, sample: Callable, clone: Callable, play: Callable,
          score: Callable, worth: Callable = value) -> list[float]:
    """Each move's total rollout value over the same `samples` sampled states (an illegal
    move, should a sample refuse it, counts as infinitely bad)."""
    totals = [0.0] * len(moves)
    for _ in range(samples):
        base, facts = sample()
        for i, move in enumerate(moves):
            trial = clone(base)
            try:
                trial.apply(seat, move)
            except Exception:
                totals[i] = float("inf")
                continue
            totals[i] += rollout(trial, seat, play, score, worth=worth, facts=facts)
    return totals


def best_move(moves: list, usual, seat: int, sample: Callable, clone: Callable, play: Callable,
              score: Callable, worth: Callable = value, samples: int = SAMPLES,
              final_samples: int = FINAL_SAMPLES, margin: float = MARGIN):
    """The candidate with the lowest mean rollout value over the same sampled states, in two
    rounds (`samples`, then `final_samples` for the `FINALISTS` best and the game's usual move
    `usual` (golf's: the missed-deadline move), which wins unless beaten by `margin`). A game
    may give its own `worth` of the hole's scores (by default `value`) and counts; golf keeps
    the defaults, golfdeck gives its own."""
    if usual not in moves:
        moves.append(usual)
    if len(moves) == 1:
        return moves[0]
    first = tried(moves, samples, seat, sample, clone, play, score, worth)
    ranked = sorted(range(len(moves)), key=lambda i: (first[i], i))
    finalists = [moves[i] for i in ranked[:FINALISTS]]
    if usual not in finalists:
        finalists.append(usual)
    second = tried(finalists, final_samples, seat, sample, clone, play, score, worth)
    points = {m: (second[i] + first[moves.index(m)]) / (final_samples + samples)
              for i, m in enumerate(finalists)}
    points[usual] -= margin
    return min(finalists, key=lambda m: (points[m], finalists.index(m)))


def decide_with(default_move: Callable, strong_move: Callable) -> Callable[..., str]:
    """A card robot's `decide(view, seat, level, options, rng)`, from its easy and strong moves."""
    def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
        if seat not in view.get("to_move", ()):
            raise NoMoveNow("this seat owes no order now")
        move = default_move if level == "easy" else strong_move
        return str(move(view, seat, options, rng))
    return decide
