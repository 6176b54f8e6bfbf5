"""The kinds of the events the engines report, and the public record a seat's view carries.

An engine reports what happened in two ways, both as small dicts with a `kind`:

- the events the GM drains after each order (`drain_events`) or reads from `resolve`: what the
  mail of that moment needs, private parts included (the card a player drew, the coaching of a
  toss), dropped once the GM has read them;
- the record (`log`): every public event of the game so far, kept in the engine's state for
  as long as the game lasts (one entry or a few a move, so it grows with the game's length and
  no further), shown to each seat by `told` as that seat's own mail has told it. Moves are an
  engine's hot path (robots play thousands of them a decision), so an engine may keep a move's
  entry as a short list of its facts and write it out as a dict only when a view reads it, or
  read the record off what its state keeps anyway (MatchPlay's holes played).

A record entry is about one seat (`seat`) or the whole table. It holds the facts every player
has been told, and may hold besides:

- `own`: facts told to its seat alone (the card a player drew face down from the stock, the
  card they kept face down or looked at, the limit of their conditional draw); every other
  seat sees the entry without them ("drew from the stock");
- `private`: true when the whole entry is its seat's alone (a standing policy).

An engine may keep more out of a seat's sight for a while (`hidden`): dice golf hides the tosses
of a hole from the other players until the hole closes, as its mail does. A MatchPlay turn's
orders are written into the record only once the turn is resolved. Hidden cards never are.

`GameEvent` is a `StrEnum`: a member equals its text, so stored states and events read the same
as before and JSON writes the plain word.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any

__all__ = ["GameEvent", "OWN", "PRIVATE", "plain", "stored", "told"]

OWN = "own"
PRIVATE = "private"


class GameEvent(StrEnum):
    """Every kind of event an engine reports (in `drain_events`, `resolve` or its record)."""
    # A hole (a deal in the card games, a flag in dice golf, a course in On Par) begins.
    HOLE_START = "hole_start"
    # A hole is over and scored; MatchPlay records each hole so as it resolves.
    HOLE_END = "hole_end"
    # The game is over: `line` is its result line.
    GAME_END = "game_end"
    # A seat's move (the card games and On Par: its facts, `what` names it in the record;
    # MatchPlay: a resolved turn's orders).
    PLAYED = "played"
    # A card drawn face down: from the stock (the card games) or the draw pile (On Par).
    DRAWN = "drawn"
    # Golf: a seat looks at its own face-down cards (the near two at the deal).
    PEEKED = "peeked"
    # Golf: a seat knocks (everyone else has one more turn).
    KNOCK = "knock"
    # golfdeck: every seat has chosen its two cards, and they are turned up together.
    REVEALED = "revealed"
    # Golf: a seat misses its turn (a jack sent to the discard under jacks=20skip).
    SKIPPED = "skipped"
    # The stock (golf) or the draw pile (On Par) ran out and was shuffled anew from the discards.
    RESHUFFLED = "reshuffled"
    # On Par: a trap played on a seat's ball (`seat` the victim, `by` who played it).
    TRAPPED = "trapped"
    # Dice golf: a seat's toss of two dice, entered at once or waiting for its answer.
    TOSS = "toss"
    # Dice golf: the answer to a waiting toss (by hand, a policy, or BEST at the deadline).
    ENTRY = "entry"
    # Dice golf: a toss answered by hand, judged against the best entry (its player's only).
    COACH = "coach"
    # Dice golf: a toss waits for its player's answer (what the mail to them shows).
    ASK = "ask"
    # Dice golf: a seat has finished the hole, with its score.
    HOLED = "holed"
    # A seat gave up a hole (dice golf) at the deadline under nmr=forfeit.
    FORFEIT = "forfeit"
    # Dice golf: a seat's standing policy (its own business alone).
    POLICY = "policy"
    # A seat resigned (dice golf and MatchPlay; the card games and On Par report a `played`).
    RESIGNED = "resigned"


def plain(value: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, the rest shared): what a view hands
    out must not let its reader change the state."""
    if type(value) is list:
        return [plain(v) for v in value]
    if type(value) is dict:
        return {k: plain(v) for k, v in value.items()}
    return value


def stored(log: Iterable) -> list:
    """The record as a state stores it (`to_dict`): an engine keeps a move's short entry as a
    tuple while it plays (one allocation, no list to grow), and stores it as a list, so a
    stored game reads the same as one that is played on and then stored again."""
    return [list(entry) if entry.__class__ is tuple else entry for entry in log]


def told(log: Iterable[dict], seat: int, hidden: Callable[[dict], bool] | None = None) -> list[dict]:
    """The record as `seat` has been told it: each entry's public facts, with its `own` facts
    for its own seat; a `private` entry to its seat alone; an entry `hidden` says is not yet
    told to others, to its own seat alone."""
    out = []
    for entry in log:
        mine = entry.get("seat") == seat
        if not mine and (entry.get(PRIVATE) or (hidden is not None and hidden(entry))):
            continue
        shown = dict(entry)
        for key, value in entry.items():
            if type(value) is list or type(value) is dict:
                shown[key] = plain(value)
        own = shown.pop(OWN, None)
        shown.pop(PRIVATE, None)
        if mine and own:
            shown.update(own)
        out.append(shown)
    return out
