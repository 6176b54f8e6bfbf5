"""MatchPlay Golf's robot (CONTRACT section 12).

`easy` plays what a missed deadline plays: the engine's default orders, which the seat's view
carries as its "example".

`strong` plays a mixed strategy for the turn. It rebuilds the state from the view (everything but
the opponent's pending orders is public: both hands and both players' specials follow from the
holes played) and solves the turn as a two-player zero-sum game with regret matching:

- Colours do not matter to a hole: BLUE-1 on oneself and RED+1 on the opponent both move the
  hole's difference one stroke the player's way (a "helpful" special), BLUE+1 and RED-1 one stroke
  the other way (a "harmful" one), and each colour holds one of each. The three holes of a turn
  are alike too (the winner of a hole is the lower score; a par is only where the cards came
  from, and whether the match ends inside the turn does not depend on the holes' order). So an
  action is which three cards to play and which of them, if any, carries a helpful or a harmful
  special; both players place their cards on the holes in a uniformly random order.
- The payoff of a pair of actions is the chance of winning the match (a halved match half),
  averaged over the six ways the cards meet: holes settled this turn, then, for the holes left,
  a normal estimate whose mean adds to the lead what the remaining hands and specials are worth
  (a stroke of card total, a helpful special kept, a harmful one still owed) and whose spread
  grows with the holes left.
- An opponent that has played exactly the default orders in every turn so far is expected to do
  so again, mostly: the robot then plays its best concrete orders against that expectation
  (mixed with the equilibrium), drawing among equally good ones.

The order drawn from the mixed strategy is checked on the rebuilt state before it is returned.
"""
from __future__ import annotations

import math
from itertools import permutations
from operator import mul

from ..games.matchplay import HOLES, MatchPlay, Play, Special, turn_holes

__all__ = ["VERSION", "decide", "rebuild"]

VERSION = "matchplay-rm-1"

HELPFUL = ("BLUE-1", "RED+1")
HARMFUL = ("BLUE+1", "RED-1")
# The static evaluation of what is left after the turn, in holes of lead.
CARD_STROKE = 1.0      # weight of the hands left (the lead they make in random order)
HELPFUL_LEFT = 0.8     # a helpful special still to play
HARMFUL_LEFT = 0.4     # a harmful special still owed
HOLE_VARIANCE = 0.55   # spread of the lead per hole left
ITERATIONS = 300       # regret matching rounds
PURIFY = 0.02          # probabilities below this are dropped before drawing
# The share of uniformly random orders the opponent is expected to play (a restricted Nash
# response); measured no stronger against random orders, so off.
RANDOM_SHARE = 0.0
DEFAULT_BELIEF = 0.85  # how much an opponent that always played the default orders is expected to
_FLOAT = 1 << 53


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    if view.get("result"):
        raise ValueError("the match is over")
    own = _seat_view(view, seat)
    if level == "easy":
        example = own.get("example") if own else None
        return example if example else str(rebuild(view).default_orders(seat))
    state = rebuild(view)
    play = _strong(state, view, seat, rng)
    try:
        state.check(seat, play)
    except Exception:  # never expected; a robot's order must be legal whatever happens
        play = state.default_orders(seat)
    return str(play)


def _seat_view(view: dict, seat: int) -> dict | None:
    seats = view.get("seats") or {}
    return seats.get(seat) or seats.get(str(seat))


def rebuild(view: dict, rows: list | None = None, turn: int | None = None) -> MatchPlay:
    """The state the view shows, with no pending orders (`rows`/`turn`: as it was before an
    earlier turn, from the first of the view's holes)."""
    rows = view["holes"] if rows is None else rows
    pars = list(view["pars"])
    hands = [{3: pars.count(3), 4: pars.count(4), 5: pars.count(5)} for _ in range(2)]
    left = [["BLUE+1", "BLUE-1", "RED+1", "RED-1"] for _ in range(2)]
    played: list[list[dict]] = [[], []]
    for row in rows:
        for s in (0, 1):
            hands[s][row["cards"][s]] -= 1
            for card in row["specials"][s]:
                left[s].remove(card)
                played[s].append({"turn": (row["hole"] - 1) // 3 + 1, "card": card, "hole": row["hole"]})
    return MatchPlay.from_dict({
        "names": list(view["names"]), "pars": pars, "options": {},
        "hands": [{str(k): v for k, v in h.items()} for h in hands],
        "specials_left": left, "specials_played": played, "pending": [None, None],
        "forfeits": [False, False], "holes": [dict(r) for r in rows],
        "lead": rows[-1]["lead"] if rows else 0,
        "turn": view["turn"] if turn is None else turn, "result": None,
    })


# -- the abstract game ------------------------------------------------------------------------
def _actions(state: MatchPlay, seat: int) -> list[tuple]:
    """(effective values sorted, cards sorted, special kind and card value or None, worth of the
    specials left, the hand left as counts of 3s, 4s, 5s): the seat's actions with the holes and
    the colours left out."""
    hand = state.hands[seat]
    required, _ = state._special_options(seat)
    legal = {s.card for s in state._legal_specials(seat)}
    kinds = [k for k, cards in (("help", HELPFUL), ("harm", HARMFUL)) if legal & set(cards)]
    left = state.specials_left[seat]
    help_left = sum(c in left for c in HELPFUL)
    harm_left = sum(c in left for c in HARMFUL)
    out = []
    for cards in _multisets(hand):
        rest = tuple(hand[v] - cards.count(v) for v in (3, 4, 5))
        specials = [] if required else [None]
        specials += [(k, v) for k in kinds for v in sorted(set(cards))]
        for sp in specials:
            eff = list(cards)
            worth = HELPFUL_LEFT * help_left - HARMFUL_LEFT * harm_left
            if sp:
                i = eff.index(sp[1])
                if sp[0] == "help":
                    eff[i] -= 1
                    worth -= HELPFUL_LEFT
                else:
                    eff[i] += 1
                    worth += HARMFUL_LEFT
            out.append((tuple(sorted(eff)), cards, sp, worth, rest))
    return out


def _multisets(hand: dict) -> list[tuple[int, int, int]]:
    out = []
    for a in (3, 4, 5):
        for b in (3, 4, 5):
            for c in (3, 4, 5):
                if a <= b <= c:
                    cards = (a, b, c)
                    if all(cards.count(v) <= hand[v] for v in (3, 4, 5)):
                        out.append(cards)
    return out


_MEETINGS: dict = {}


def _meetings(mine: tuple, theirs: tuple) -> tuple:
    """How often (of six) each change of lead, -3..3, comes of the two sets of effective scores."""
    key = (mine, theirs)
    got = _MEETINGS.get(key)
    if got is None:
        counts = [0] * 7
        for order in permutations(theirs):
            s = 0
            for m, t in zip(mine, order):
                s += (m < t) - (m > t)
            counts[s + 3] += 1
        got = _MEETINGS[key] = tuple((s - 3, n / 6) for s, n in enumerate(counts) if n)
    return got


class _Worth:
    """The chance of winning from a lead after the turn plus what the rest is worth."""

    def __init__(self, left: int):
        self.left = left
        self.scale = math.sqrt(2 * HOLE_VARIANCE * left) if left else 0.0

    def __call__(self, lead: int, extra: float) -> float:
        left = self.left
        if lead > left:
            return 1.0
        if lead < -left:
            return 0.0
        if not left:
            return 0.5
        m = lead + extra
        sc = self.scale
        # 1 - (Phi((0.5 - m)/s) + Phi((-0.5 - m)/s)) / 2, with Phi(z) = (1 + erf(z/sqrt 2)) / 2
        return 0.5 - 0.25 * (math.erf((0.5 - m) / sc) + math.erf((-0.5 - m) / sc))


_HANDS: dict = {}


def _hands(mine: tuple, theirs: tuple) -> float:
    """What two hands left are worth to the first, in holes: the lead its cards would make on
    average against the other's played in a random order (captures more than their totals)."""
    key = (mine, theirs)
    got = _HANDS.get(key)
    if got is None:
        n = sum(mine)
        total = 0
        for c, nc in zip((3, 4, 5), mine):
            for r, nr in zip((3, 4, 5), theirs):
                total += nc * nr * ((r > c) - (r < c))
        got = _HANDS[key] = CARD_STROKE * total / n if n else 0.0
    return got


def _matrix(mine: list, theirs: list, lead: int, worth: _Worth) -> list[list[float]]:
    rows = []
    for eff, _, _, wm, hm in mine:
        row = []
        for teff, _, _, wt, ht in theirs:
            extra = wm - wt + _hands(hm, ht)
            row.append(sum(p * worth(lead + s, extra) for s, p in _meetings(eff, teff)))
        rows.append(row)
    return rows


def _solve(a: list[list[float]], iterations: int = ITERATIONS, fixed: list[float] | None = None,
           share: float = 0.0) -> tuple[list[float], list[float]]:
    """Regret matching+ with alternating updates and linear averaging: (row mix, column mix).
    With `fixed`, the row player meets the column mix played at `share` with `fixed` (the
    column player a restricted one: a restricted Nash response)."""
    n, m = len(a), len(a[0])
    at = [list(col) for col in zip(*a)]
    x, y = [1.0 / n] * n, [1.0 / m] * m
    rx, ry = [0.0] * n, [0.0] * m
    sx, sy = [0.0] * n, [0.0] * m
    for it in range(1, iterations + 1):
        z = y if not share else [share * f + (1 - share) * q for f, q in zip(fixed, y)]
        ux = [sum(map(mul, row, z)) for row in a]
        ev = sum(map(mul, ux, x))
        rx = [r + u - ev if r + u - ev > 0 else 0.0 for r, u in zip(rx, ux)]
        x = _normal(rx)
        uy = [sum(map(mul, col, x)) for col in at]
        ev = sum(map(mul, uy, y))
        ry = [r + ev - u if r + ev - u > 0 else 0.0 for r, u in zip(ry, uy)]
        y = _normal(ry)
        sx = [s + it * p for s, p in zip(sx, x)]
        sy = [s + it * p for s, p in zip(sy, y)]
    return _normal(sx), _normal(sy)


def _normal(v: list[float]) -> list[float]:
    total = sum(v)
    if total <= 0:
        return [1.0 / len(v)] * len(v)
    return [p / total for p in v]


def _draw(rng, weights: list[float]) -> int:
    r = rng.below(_FLOAT) / _FLOAT * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    return max(range(len(weights)), key=weights.__getitem__)


# -- the robot ------------------------------------------------------------------------------
def _strong(state: MatchPlay, view: dict, seat: int, rng) -> Play:
    opp = 1 - seat
    lead = state.lead if seat == 0 else -state.lead
    worth = _Worth(HOLES - 3 * state.turn)
    mine, theirs = _actions(state, seat), _actions(state, opp)
    a = _matrix(mine, theirs, lead, worth)
    fixed = _uniform_mix(state, opp, theirs) if RANDOM_SHARE else None
    x, y = _solve(a, fixed=fixed, share=RANDOM_SHARE)
    belief = DEFAULT_BELIEF if _always_default(view, opp) else 0.0
    if belief:
        return _exploit(state, seat, mine, a, y, lead, worth, belief, rng)
    x = [p if p >= PURIFY else 0.0 for p in x]
    _, cards, sp, _, _ = mine[_draw(rng, x)]
    return _concrete(state, seat, cards, sp, rng)


def _uniform_mix(state: MatchPlay, seat: int, actions: list) -> list[float]:
    """How often uniformly random legal orders play each abstract action."""
    hand = state.hands[seat]
    size = hand[3] + hand[4] + hand[5]
    required, _ = state._special_options(seat)
    legal = [s.card for s in state._legal_specials(seat)]
    cards = sorted(set(legal))
    options = len(legal) + (0 if required else 1)
    out = []
    for _, multiset, sp, _, _ in actions:
        ways = 1
        for v in (3, 4, 5):
            ways *= math.comb(hand[v], multiset.count(v))
        p = ways / math.comb(size, 3)
        if sp is None:
            p /= options
        else:
            kind = HELPFUL if sp[0] == "help" else HARMFUL
            p *= sum(c in kind for c in cards) * multiset.count(sp[1]) / options
        out.append(p)
    return _normal(out)


def _concrete(state: MatchPlay, seat: int, cards: tuple, sp, rng) -> Play:
    """Cards on the holes in a random order; the special on a hole of its card, of a colour the
    rules allow drawn at random."""
    order = list(cards)
    rng.shuffle(order)
    if sp is None:
        return Play(tuple(order))
    holes = turn_holes(state.turn)
    hole = holes[order.index(sp[1])]
    wanted = HELPFUL if sp[0] == "help" else HARMFUL
    legal = sorted({s.card for s in state._legal_specials(seat) if s.card in wanted})
    return Play(tuple(order), (Special(rng.choice(legal), hole),))


def _always_default(view: dict, opp: int) -> bool:
    """The opponent played the default orders in every turn so far (and there was one)."""
    rows = view["holes"]
    if not rows:
        return False
    turns = (len(rows) + 2) // 3
    for t in range(1, turns + 1):
        before = rows[:3 * (t - 1)]
        played = rows[3 * (t - 1):3 * t]
        expected = rebuild(view, before, t).default_orders(opp)
        if tuple(r["cards"][opp] for r in played) != expected.cards[:len(played)]:
            return False
        specials = [(c, r["hole"]) for r in played for c in r["specials"][opp]]
        if specials != [(s.card, s.hole) for s in expected.specials if s.hole <= played[-1]["hole"]]:
            return False
    return True


def _exploit(state, seat, mine, a, y, lead, worth, belief, rng) -> Play:
    """The best concrete orders against the opponent's default orders (believed at `belief`)
    or else its equilibrium mix; a draw among the equally good."""
    opp = 1 - seat
    against_mix = [sum(map(mul, row, y)) for row in a]
    index = {(cards, sp): i for i, (_, cards, sp, _, _) in enumerate(mine)}
    theirs = _actions(state, opp)
    default = state.default_orders(opp)
    holes = turn_holes(state.turn)
    d_eff = list(default.cards)
    d_sp = None
    for s in default.specials:
        i = holes.index(s.hole)
        d_eff[i] += -1 if s.card in HELPFUL else 1
        d_sp = ("help" if s.card in HELPFUL else "harm", default.cards[i])
    d_worth, d_hand = next((w, h) for _, c, sp, w, h in theirs
                           if c == tuple(sorted(default.cards)) and sp == d_sp)
    required, _ = state._special_options(seat)
    legal = state._legal_specials(seat)
    specials = ([None] if not required else []) + legal
    best, chosen = -1.0, []
    for order in sorted(set(permutations(state.hand_cards(seat), 3))):
        for s in specials:
            eff = list(order)
            sp = None
            if s is not None:
                i = holes.index(s.hole)
                helpful = s.card in HELPFUL
                eff[i] += -1 if helpful else 1
                sp = ("help" if helpful else "harm", order[i])
            k = index[(tuple(sorted(order)), sp)]
            change = sum((m < t) - (m > t) for m, t in zip(eff, d_eff))
            value = belief * worth(lead + change, mine[k][3] - d_worth + _hands(mine[k][4], d_hand)) + (1 - belief) * against_mix[k]
            if value > best + 1e-9:
                best, chosen = value, [(order, s)]
            elif value > best - 1e-9:
                chosen.append((order, s))
    order, s = rng.choice(chosen)
    return Play(tuple(order), (s,) if s else ())
