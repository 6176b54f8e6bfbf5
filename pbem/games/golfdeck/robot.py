"""Golf Deck's robot (CONTRACT section 12), from its seat's view alone.

To use the engine it rebuilds a state consistent with the view (`rebuild`): every discard is
public, so the discard pile is rebuilt card for card from the view's events (`_Known`); every
card the seat has not seen (the stock, every face-down card, its own too) is dealt at random
from the rest, drawn from the robot's stream. A kept card lies face up and a face-down card is
unknown to its owner too, so a uniform deal of the unseen cards is already the right sample.
The state plays the current hole only.

- `easy` plays what a missed deadline plays: the engine's `default_orders` on such a state (it
  reads only what the seat may see, so it is the same whatever the sample; the tests check
  it). The one exception is the reveal: the GM's default pair is a draw of the game's chance
  made at the deal, which no seat sees, so the robot makes the same kind of draw from its own
  stream (one of the 15 pairs, uniformly).
- `strong` is the shared determinized search (`cards.search.best_move`): every candidate move
  on the same sampled states, the rest of the hole played out on the pure engine by a good
  player's rules (`_greedy`, those of the tuned greedy player, its unseen cards counted), or
  for another seat by the missed-deadline rule in the share of the samples that is that
  seat's chance of playing so (`_styles`: Bayes' rule over its moves in the public events),
  and the move that wins the hole most often (a shared win by half, then a little of the
  margin: `_worth`) is played.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import NamedTuple

from pbem.games.cards import search
from pbem.games.cards.deck import HIDDEN
from pbem.games.cards.orders import DiscardFlip, DrawDiscard, DrawStock, Keep, Reveal
from pbem.games.errors import NoMoveNow
from pbem.games.golfdeck import engine

__all__ = ["VERSION", "candidates", "decide", "rebuild", "sample_scores"]

# The card robots' version, as when one module played both card games; cards-6 (golfdeck
# only): the others' play read from the events (`_styles`), more samples at a two-seat table.
VERSION = "cards-6"


class _Facts(NamedTuple):
    """A sampled state's rollout facts, carried beside the state through its rollouts (never
    written on it): what the rollouts' players go by (`known`, the same in every sample) and
    which seats play this sample's rollouts as robot:easy (`easy`, each by its chance of
    playing so, `_styles`)."""

    known: _Known
    easy: list[bool]


def _deck_state(view: dict, seat: int, options: dict, rng,
                known: _Known | None = None) -> tuple[engine.GolfDeck, _Facts]:
    names = list(view["names"])
    n = len(names)
    opts = {"nmr": options.get("nmr", "default"), "holes": view["hole"], "game": view["game_number"]}
    s = engine.GolfDeck(names, opts, search.generator(rng))
    s.holes_total = s.hole_no = view["hole"]
    s.game_no = view["game_number"]
    s.dealer, s.starter = view["dealer"], view["starter"]
    s.revealing = revealing = view["phase"] == "reveal"
    s.current = view["starter"] if revealing else view["current"]
    s.drawn = view.get("drawn")
    s.ender = view.get("final_turns_from")
    s.totals = [0] * n
    s.resigned = list(view["resigned"])
    s._turn = view["turn"]
    shown, top = view["grids"], view["discard"]
    known = known or _Known(view)
    pool = search.unseen(engine.DECK, view, s.drawn, known.below)
    rng.shuffle(pool)
    s.grid = [[pool.pop() if c == HIDDEN else c for c in g] for g in shown]
    s.up = [[not revealing and c != HIDDEN for c in g] for g in shown]
    s.stock = [pool.pop() for _ in range(view["stock"])]
    s.discard = (pool if known.pile is None else list(known.below)) + ([top] if top is not None else [])
    pairs = engine.REVEAL_PAIRS
    s.default_reveals = [pairs[rng.below(len(pairs))] for _ in range(n)]
    s.reveals = _deck_reveals(view, seat, s.default_reveals) if revealing else [(1, 2)] * n
    s.holes, s.events, s.shuffles = [], [], []
    # The rollouts' own facts (`_policy`), beside the state: what their players go by
    # (`_greedy`), the same in every sample, and which seats play this sample's rollouts as
    # robot:easy (each by its chance of playing so, `_styles`).
    return s, _Facts(known, [rng.below(_ONE) < w * _ONE for w in known.easy])


_ONE = 1 << 30
# `_styles`: the chance that a rule misses a move of a seat that plays by it (a person plays
# by neither; a missed move moves the odds 19 to 1), and that the greedy player's reveal is
# not its 1 and 6 (the missed deadline's pair is any of 15: a reveal of 1 and 6 makes the
# odds 15 to 1 for the greedy, another 1 to 7 against).
_EPS, _EPS_REVEAL = 0.05, 0.01


class _Table:
    """A position as a seat saw it when it moved, rebuilt from the public events: what the
    rollouts' players (`_greedy`, `_deck_default`) read."""

    def __init__(self, n: int):
        self.n = n  # the attributes `_greedy` and `_deck_default` read of a state
        self.grid = [[HIDDEN] * 6 for _ in range(n)]
        self.up = [[False] * 6 for _ in range(n)]
        self.resigned = [False] * n
        self.discard: list[str] = []
        self.drawn: str | None = None
        self.ender: int | None = None
        self.known: _Seen | None = None

    def seen(self, drawn: str | None) -> None:
        """The mover's unseen cards as it saw them (`known`), holding `drawn` (or None)."""
        self.drawn = drawn
        left = Counter(engine.DECK)
        left.subtract(c for g, u in zip(self.grid, self.up) for c, v in zip(g, u) if v)
        left.subtract(self.discard)
        if drawn is not None:
            left[drawn] -= 1
        self.known = _Seen(list(left.elements()))


class _Seen:
    """The mean points and kinds of cards not seen (`_greedy` reads them as `known`)."""

    def __init__(self, left: list):
        self.mean = sum(_POINTS[c] for c in left) / len(left) if left else _UNSEEN
        kinds = Counter(left)
        self.kinds = [(c, k / len(left)) for c, k in sorted(kinds.items())]


def _styles(view: dict, me: int) -> list[float]:
    """Each seat's chance of playing as robot:easy (the missed-deadline rule, `_deck_default`)
    rather than by the greedy player's rules (`_greedy`), by Bayes' rule from even odds over
    every move it made in view: each of its decisions (its reveal, the discard or the stock,
    then the drawn card kept or thrown) is replayed from the public events and set against
    what either rule would have played there (a rule missing a move by the chance `_EPS`; a
    move both rules play, or neither, says nothing). The seat `me` gets 0."""
    n = len(view["names"])
    odds = [0.0] * n  # log(P(easy) / P(greedy))
    miss = math.log(_EPS)
    hit = math.log(1 - _EPS)
    t: _Table | None = None

    def weigh(o: int, done) -> None:
        assert t is not None  # (called only once a hole has started)
        g = _greedy(t, o, o, t.known) == done
        e = _deck_default(t, o) == done
        if g != e:
            odds[o] += (hit - miss) if e else (miss - hit)

    for e in view.get("events", ()):
        kind = e.get("kind")
        if kind == "hole_start":
            t = _Table(n)
            t.discard = [e["discard"]] if e.get("discard") else []
            continue
        if t is None or kind != "played":
            continue
        o, what = e.get("seat"), e.get("what")
        if o is None or not 0 <= o < n:
            continue
        if what == "turned":
            for p, c in zip(e.get("positions", ()), e.get("cards", ())):
                t.grid[o][p - 1], t.up[o][p - 1] = c, True
            if o != me:  # the greedy player turns up 1 and 6; the missed deadline's pair is any
                greedy = 1 - _EPS_REVEAL if list(e.get("positions", ())) == [1, 6] else _EPS_REVEAL
                odds[o] += math.log(1 / 15) - math.log(greedy)
            continue
        if what == "resigned":
            t.resigned[o] = True
            if e.get("discarded"):
                t.discard.append(e["discarded"])
            continue
        if what not in ("took", "kept", "flipped") or not t.discard:
            continue
        pos = e.get("pos")
        if not isinstance(pos, int) or not 1 <= pos <= 6:
            continue
        if o != me:
            t.seen(None)
            weigh(o, _DD[pos - 1] if what == "took" else _DS)
            if what != "took":
                t.seen(e.get("card") if what == "kept" else e.get("discarded"))
                weigh(o, _KP[pos - 1] if what == "kept" else _FL[pos - 1])
            t.drawn = None
        if what == "took":
            t.discard.pop()
        t.grid[o][pos - 1], t.up[o][pos - 1] = e.get("card"), True
        if e.get("discarded"):
            t.discard.append(e["discarded"])
        if t.ender is None and False not in t.up[o]:
            t.ender = o
    return [0.0 if s == me else 1 / (1 + math.exp(-max(-50.0, min(50.0, odds[s])))) for s in range(n)]


class _Known:
    """What a seat knows of the hole from its view: the discard pile below its top (every
    discard is public, `pile`; None should the events not account for the top), and the mean
    points and kinds of the cards it has not seen (the stock and every face-down card)."""

    def __init__(self, view: dict, seat: int | None = None):
        pile: list[str] | None = []
        for e in view.get("events", ()):  # this hole's pile, from its first discard on
            kind = e.get("kind")
            if kind == "hole_start":
                pile = [e["discard"]] if e.get("discard") else []
            elif kind == "played" and pile is not None:
                if e.get("what") == "took":
                    if not pile:
                        pile = None
                        continue
                    pile.pop()
                if e.get("discarded"):
                    pile.append(e["discarded"])
        if pile is not None and (not pile or pile[-1] != view["discard"]):
            pile = None
        self.pile = pile
        self.below = tuple(pile[:-1]) if pile else ()
        unseen = _Seen(search.unseen(engine.DECK, view, view.get("drawn"), self.below))
        self.mean, self.kinds = unseen.mean, unseen.kinds
        # each seat's chance of playing as robot:easy (`_styles`; even, where no seat is given)
        self.easy = _styles(view, seat) if seat is not None else [0.5] * len(view["names"])


def _deck_reveals(view: dict, seat: int, defaults: list) -> list:
    """The reveals made so far: the seat's own as its view shows them, another seat's (unseen
    until all are in) as its default pair."""
    reveals: list[tuple[int, int] | None] = [None] * len(view["names"])
    for o, done in enumerate(view["revealed"]):
        if not done:
            continue
        if o == seat:
            mine = [p for p, c in enumerate(view["grids"][o], start=1) if c != HIDDEN]
            reveals[o] = (mine[0], mine[1]) if len(mine) == 2 else (1, 2)
        else:
            reveals[o] = (defaults[o].first, defaults[o].second)
    return reveals


def rebuild(view: dict, seat: int, options: dict, rng) -> engine.GolfDeck:
    return _deck_state(view, seat, options, rng)[0]


def default_move(view: dict, seat: int, options: dict, rng):
    if view["phase"] == "reveal":
        pairs = engine.REVEAL_PAIRS
        return pairs[rng.below(len(pairs))]
    order = rebuild(view, seat, options, rng).default_orders(seat)
    if order is None:
        raise NoMoveNow("this seat owes no order now")
    return order


def strong_move(view: dict, seat: int, options: dict, rng):
    moves = candidates(view, seat)
    known = _Known(view, seat)
    if view["phase"] == "reveal":
        usual = default_move(view, seat, options, rng)
    else:
        state, facts = rebuild_known(view, seat, options, rng, known)
        usual = _greedy(state, seat, seat, facts.known)
    return search.best_move(moves, usual, seat, lambda: rebuild_known(view, seat, options, rng, known),
                            engine.GolfDeck.playout_copy, _policy, sample_scores, _worth, SAMPLES // len(view["names"]),
                            FINAL_SAMPLES // len(view["names"]), MARGIN)


def rebuild_known(view: dict, seat: int, options: dict, rng, known) -> tuple[engine.GolfDeck, _Facts]:
    """A sampled state and its rollout facts (`_Facts`), `known` given (`search.best_move`'s
    `sample`)."""
    return _deck_state(view, seat, options, rng, known)


# Every candidate on SAMPLES / seats sampled states, the best few and the greedy's own move on
# FINAL_SAMPLES / seats more (`search.best_move`: 48 and 192 at two seats, 24 and 96 at four,
# where every rollout is twice as long); the greedy's move is played unless another beats it
# by MARGIN (in holes won a sample).
SAMPLES, FINAL_SAMPLES, MARGIN = 96, 384, 0.02
WIN, SPREAD = 1.0, 0.05  # `_worth`: a hole won, against a point of margin


def _worth(scores: list, me: int) -> float:
    """What the search lowers: minus the hole won (1; shared, 1/2), plus a little of the margin
    (`search.value`): the arena counts holes won, and the margin alone ended holes to save points
    rather than to win."""
    mine = scores[me]
    best = min(s for i, s in enumerate(scores) if i != me)
    won = 1.0 if mine < best else 0.5 if mine == best else 0.0
    return SPREAD * search.value(scores, me) - WIN * won


def _policy(state, seat: int, me: int, facts: _Facts):
    """The rollouts' player once the reveals are over: `_greedy` for the robot's own seat; for
    another, the missed-deadline rule (`_deck_default`) where the sample drew it to play as
    robot:easy (`facts.easy`: `_deck_state`, by its chance `_styles`), else `_greedy`."""
    if not state.revealing:
        if seat == me or not facts.easy[seat]:
            return _greedy(state, seat, me, facts.known)
        return _deck_default(state, seat)
    return state.default_orders(seat)


END_LEAD, KEEP_EDGE, TAKE_EDGE = 3.0, 1.5, 0.0  # the greedy player's tuned constants


def _greedy(state, seat: int, me: int, known):
    """A good player's move from what the seat sees (the tuned greedy player's rules): a
    face-down card counts at the mean of the unseen cards; the discard is taken where it
    beats a stock draw's expected worth; a drawn card is kept where it saves more than
    KEEP_EDGE, else thrown with a card turned up (one whose partner lies face down first); no
    move turns the last card up (ending the hole) unless the layout leads the others'
    estimates by END_LEAD. `known`: the mean points and kinds of the cards the seat has not
    seen (`_Known` or `_Seen`)."""
    m = known.mean
    points = _POINTS
    grids, ups, resigned = state.grid, state.up, state.resigned
    others = float("inf")
    for s in range(state.n):
        if s == seat or resigned[s]:
            continue
        g, u = grids[s], ups[s]
        w = 0.0
        for i in (0, 1, 2):
            if u[i] and u[i + 3]:
                a, b = g[i], g[i + 3]
                w += 0 if a == b else points[a] + points[b]
            else:
                w += (points[g[i]] if u[i] else m) + (points[g[i + 3]] if u[i + 3] else m)
        if w < others:
            others = w
    cards, up = grids[seat], ups[seat]
    pts = [points[c] if u else m for c, u in zip(cards, up)]
    cols = [0.0 if up[i] and up[i + 3] and cards[i] == cards[i + 3] else pts[i] + pts[i + 3] for i in (0, 1, 2)]
    now = cols[0] + cols[1] + cols[2]
    last = state.ender is not None
    down = [i for i in range(6) if not up[i]]
    end_at = down[0] if len(down) == 1 and not last else -1
    # a card's worth at place i: `base[i]` + its points, or `base0[i]` where it pairs its partner
    best_plain, plain_at = float("inf"), 0
    pairs: dict = {}
    for i in range(6):
        j = _PARTNER[i]
        rest = now - cols[i if i < 3 else i - 3]
        if i == end_at:
            continue  # the hole ends: only where the seat leads (`lead` below)
        w = rest + pts[j]
        if w < best_plain:
            best_plain, plain_at = w, i
        if up[j]:
            pj = cards[j]
            if pj not in pairs or rest < pairs[pj][0]:
                pairs[pj] = (rest, i)
    ending = None
    if end_at >= 0:
        j = _PARTNER[end_at]
        rest = now - cols[end_at if end_at < 3 else end_at - 3]
        ending = (rest, pts[j], cards[j] if up[j] else None, others)

    def placed(card):
        w, at = best_plain + points[card], plain_at
        pair = pairs.get(card)
        if pair is not None and pair[0] < w:
            w, at = pair
        if ending is not None:
            rest, pj, partner, lead = ending
            e = rest if partner == card else rest + pj + points[card]
            if e + END_LEAD <= lead and e < w:
                w, at = e, end_at
        return w, at

    drawn = state.drawn
    if drawn is None:
        value, pos = placed(state.discard[-1])
        if value >= now:
            return _DS
        draw = 0.0
        for c, weight in known.kinds:
            w = placed(c)[0]
            draw += (w if w < now else now) * weight
        if value + TAKE_EDGE < draw:
            return _DD[pos]
        return _DS
    value, pos = placed(drawn)
    if not (len(down) > 1 or last or now + END_LEAD <= others) or value + KEEP_EDGE < now:
        return _KP[pos]
    for i in down:
        if up[_PARTNER[i]] is False:
            return _FL[i]
    return _FL[down[0]]


_POINTS = engine.POINTS
_UNSEEN = engine.UNSEEN
_PARTNER = (3, 4, 5, 0, 1, 2)


def _deck_default(state, seat: int):
    """golfdeck's `default_orders` for the seat to move: the card in view (the discard's top,
    or the drawn card) where it lowers the layout's estimate most (face-down cards at the
    deck's average), column by column; else draw, or keep when all is face up, or turn up the
    first face-down card."""
    cards, up, drawn = state.grid[seat], state.up[seat], state.drawn
    card = state.discard[-1] if drawn is None else drawn
    value = _POINTS[card]
    gain, where = float("-inf"), 0
    for i in range(6):
        j = _PARTNER[i]
        other = _POINTS[cards[j]] if up[j] else _UNSEEN
        if up[i] and up[j]:
            before = 0 if cards[i] == cards[j] else _POINTS[cards[i]] + other
        else:
            before = (_POINTS[cards[i]] if up[i] else _UNSEEN) + other
        after = 0 if up[j] and cards[j] == card else value + other
        g = before - after
        if g > gain + 1e-9:
            gain, where = g, i
    if drawn is None:
        return _DD[where] if gain > 1e-9 else _DS
    if gain > 1e-9 or False not in up:
        return _KP[where]
    return _FL[up.index(False)]


_DD = tuple(DrawDiscard(p) for p in range(1, 7))
_KP = tuple(Keep(p) for p in range(1, 7))
_FL = tuple(DiscardFlip(p) for p in range(1, 7))
_DS = DrawStock()


def sample_scores(state) -> list:
    """Every seat's score of its layout as it lies in the sample (face-down cards too)."""
    return [engine.score_grid(g)[0] for g in state.grid]


def candidates(view: dict, seat: int) -> list:
    """The golfdeck moves the search weighs: every atomic legal move but RESIGN, less those
    that put a card where it can only make its column worse (`_deck_no_better`)."""
    if view["phase"] == "reveal":
        return [Reveal(1, 4), Reveal(1, 2), Reveal(1, 5)]  # a column, a row pair, apart
    mine = view["grids"][seat]
    down = [p for p, c in enumerate(mine, start=1) if c == HIDDEN]
    card = view.get("drawn")
    if card is None:
        card = view["discard"]
        return [DrawStock()] + [DrawDiscard(p) for p in range(1, 7) if not _deck_no_better(mine, card, p)]
    return [Keep(p) for p in range(1, 7) if not _deck_no_better(mine, card, p)] + [DiscardFlip(p) for p in down]


def _deck_no_better(mine: list, card: str, pos: int) -> bool:
    """golfdeck: `card` at face-up `pos` would leave its column scoring no less than now (by
    the face-up partner, or by points alone when the partner lies face down): it can only lose."""
    here = mine[pos - 1]
    if here == HIDDEN:
        return False
    partner = mine[pos + 2] if pos <= 3 else mine[pos - 4]
    points = engine.POINTS
    if partner == HIDDEN:
        return points[card] >= points[here]
    return _column(card, partner) >= _column(here, partner)


def _column(a: str, b: str) -> int:
    return 0 if a == b else engine.POINTS[a] + engine.POINTS[b]


# The robot's one door (`pbem.robots`): the easy level plays what a missed deadline plays.
decide = search.decide_with(default_move, strong_move)
