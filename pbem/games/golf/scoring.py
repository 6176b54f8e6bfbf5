"""The arithmetic of a hole of classic Golf: what each card is worth under the game's options,
which cards pair off to nothing, and how the knocker's score is adjusted.

Kept apart from the turn engine so the scoring can be read, tested and reused (the autoplay
estimates layouts with it) on its own.
"""
from __future__ import annotations

from functools import lru_cache, cache
from typing import NamedTuple

from pbem.games.cards.deck import HIDDEN, JOKER, RANKS, SUITS, standard_pack

ONE_EYED_JACKS = frozenset(("JS", "JH"))
# A joker keeps its minus points rather than pairing away; an unknown card pairs with nothing.
NEVER_PAIRED = frozenset((JOKER, HIDDEN))
JOKER_POINTS = -5


def card_points(options: dict) -> dict[str, int]:
    """Points of every card name under `options` (the queen of spades and the eights follow
    `spade_queen`; every other queen follows `queens`)."""
    face = {r: i for i, r in enumerate(RANKS[:10], start=1)}
    jacks = options["jacks"]
    face["J"] = 20 if jacks == "20skip" else int(jacks)
    face["Q"] = int(options["queens"])
    face["K"] = int(options["kings"])
    points = {r + s: face[r] for r in RANKS for s in SUITS}
    if options["spade_queen"]:
        points["QS"] = 40
        for s in SUITS:
            points["8" + s] = 0
    points[JOKER] = JOKER_POINTS
    return points


class Tables(NamedTuple):
    """What a game's options make of the cards, worked out once per set of options and shared
    by every game on them (so never changed): points, the least and most a card is worth, the
    autoplay's values (`HIDDEN`: the pack's average card), the jacks that skip a turn, and the
    unshuffled deck a hole starts from."""
    points: dict[str, int]
    lo: int
    hi: int
    guess: dict[str, float]
    jacks: frozenset
    deck: tuple[str, ...]


@lru_cache(maxsize=256)
def _tables(jacks, queens, kings, spade_queen: bool, jokers: bool, packs: int) -> Tables:
    points = card_points({"jacks": jacks, "queens": queens, "kings": kings, "spade_queen": spade_queen})
    values = [points[c] for c in standard_pack(1, 2 if jokers else 0)]
    guess: dict[str, float] = dict(points)
    guess[HIDDEN] = sum(values) / len(values)  # an unseen card is worth the pack's average
    skip = frozenset("J" + s for s in SUITS) if jacks == "20skip" else frozenset()
    deck = tuple(standard_pack(packs, 2 * packs if jokers else 0))
    return Tables(points, min(values), max(values), guess, skip, deck)


def game_tables(options: dict, packs: int) -> Tables:
    """The `Tables` of a game with these (coerced) options and this many packs."""
    return _tables(options["jacks"], options["queens"], options["kings"], bool(options["spade_queen"]),
                   bool(options["jokers"]), packs)


@cache
def pair_places(size: int, cols: int, rowcol: bool) -> tuple[tuple[int, int], ...]:
    """Index pairs (0-based) whose cards may pair: anywhere, or sharing a row or a column."""
    out = []
    for i in range(size):
        for j in range(i + 1, size):
            if not rowcol or i // cols == j // cols or i % cols == j % cols:
                out.append((i, j))
    return tuple(out)


def can_pair(a: str, b: str, equal_pairs: bool, wild: bool) -> bool:
    if a in NEVER_PAIRED or b in NEVER_PAIRED:
        return False
    if wild and (a in ONE_EYED_JACKS or b in ONE_EYED_JACKS):
        return True
    return equal_pairs and a[:-1] == b[:-1]


def _best_pairs(edges: list[tuple[int, int]], pts: list[int]) -> tuple[tuple[int, int], ...]:
    """The disjoint pairs that cancel the most points (then the most cards); first found wins ties."""
    best: list = [(-1, -1), ()]

    def grow(start: int, used: int, value: int, count: int, chosen: tuple) -> None:
        if (value, count) > best[0]:
            best[0], best[1] = (value, count), chosen
        for e in range(start, len(edges)):
            i, j = edges[e]
            bits = (1 << i) | (1 << j)
            if not used & bits:
                grow(e + 1, used | bits, value + pts[i] + pts[j], count + 2, chosen + ((i, j),))

    grow(0, 0, 0, 0, ())
    return best[1]


def layout_score(cards: list[str], cols: int, points: dict, pairs: str,
                 wild: bool) -> tuple[list[int], list[int], int]:
    """(each card's points, the cancelled positions 1-based, the layout's score)."""
    pts = list(map(points.__getitem__, cards))
    if pairs == "none" and not wild:
        return pts, [], sum(pts)
    equal_pairs = pairs != "none"
    edges = [(i, j) for i, j in pair_places(len(cards), cols, pairs == "rowcol")
             if can_pair(cards[i], cards[j], equal_pairs, wild)]
    if not edges:
        return pts, [], sum(pts)
    cancelled = sorted(p for pair in _best_pairs(edges, pts) for p in pair)
    gone = set(cancelled)
    total = sum(v for i, v in enumerate(pts) if i not in gone)
    return pts, [i + 1 for i in cancelled], total


def knocker_adjusted(scores: list[int], knocker: int | None, penalty: str, bonus: str) -> list[int]:
    """The hole's scores after the knocker's penalty or bonus. The knocker counts as lowest when
    nobody scored less (a tie is no penalty)."""
    out = list(scores)
    if knocker is None:
        return out
    own = scores[knocker]
    lowest = all(own <= s for i, s in enumerate(scores) if i != knocker)
    if lowest:
        if bonus == "zero":
            out[knocker] = min(own, 0)  # a bonus never makes a score worse (jokers go below zero)
        elif bonus == "minus_players":
            out[knocker] = own - len(scores)
    elif bonus == "minus_players":
        out[knocker] = 2 * own
    elif penalty == "plus10":
        out[knocker] = own + 10
    elif penalty == "double_plus5":
        out[knocker] = 2 * own + 5
    elif penalty == "highest":
        out[knocker] = max(scores)
    return out


def score_hole(grids: list[list[str]], cols: int, options: dict, knocker: int | None,
               peeks: list[int], points: dict[str, int] | None = None) -> dict:
    """Every seat's card points, cancelled positions and hole score (paid looks included)."""
    points = points or card_points(options)
    wild = bool(options["one_eyed_jacks_wild"])
    if options["pairs"] == "none" and not wild:  # nothing pairs: every card counts
        worth = points.__getitem__
        cards = [list(map(worth, g)) for g in grids]
        raw = list(map(sum, cards))
        cancelled: list = [[] for _ in grids]
    else:
        rows = [layout_score(g, cols, points, options["pairs"], wild) for g in grids]
        cards, cancelled, raw = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
    raw = [r + p for r, p in zip(raw, peeks)]
    scores = knocker_adjusted(raw, knocker, options["knock_penalty"], options["knock_bonus"])
    return {"points": cards, "cancelled": cancelled, "raw": raw, "scores": scores}


def best_spot(known: list[str], card: str, positions: list[int], cols: int, guess: dict[str, float],
              pairs: str, wild: bool) -> int | None:
    """Where `card` lowers a layout the most as its owner knows it (`HIDDEN` for an unseen card,
    valued by `guess`); None when it lowers it nowhere."""
    best, spot = layout_score(known, cols, guess, pairs, wild)[2], None
    for pos in positions:
        trial = list(known)
        trial[pos - 1] = card
        value = layout_score(trial, cols, guess, pairs, wild)[2]
        if value < best - 1e-9:
            best, spot = value, pos
    return spot
