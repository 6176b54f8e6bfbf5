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
- An opponent that has played, in every turn so far, what a player scoring itself against par
  would (each legal order weighed as holes beaten against par, holes equalled, strokes spent
  below par, with weights from a small grid, ties broken by the orders' text either way or
  alike: `_par_beliefs`) is expected, with the chance Bayes' rule gives it against uniformly
  random orders (a small prior, so a random opponent's chance match is not enough), to play
  such orders again. The robot then plays concrete orders against that prediction (mixed with
  the equilibrium), but weighs the best few also by the worst the opponent could do to them if
  it knew them, and draws among those within SLACK of the best: a player that only seemed to
  play against par gains less by turning on the robot once it is taken for one (it costs the
  hypothesis at once: a turn off the prediction drops it). The default orders are met so too.
- Otherwise the robot weighs, by Bayes' rule over the opponent's public plays so far, three
  hypotheses: it plays uniformly random legal orders (cards drawn at random from its hand); it
  plays deliberately (half the turn's equilibrium, half any of the different legal orders alike);
  or it follows habits learnt from its own past turns: the random orders tilted by
  exp(theta . features), the features being the stroke total of its cards, whether it plays a
  helpful or a harmful special and on how high a card, theta fitted (a posteriori, a normal prior
  on each weight) to the turns before each turn it is scored on. So the learnt model earns weight
  only by predicting turns it had not seen (prequential scoring): an opponent of fixed habits
  (lowest cards first, highest first, par-matching, helpful specials at once, or a mix) is soon
  told from a random one, and a random opponent's chance patterns are not taken for habits.
- It then solves a restricted Nash response: with the chance of the random and the learnt models
  together (at most RANDOM_CAP) the opponent plays their mix (the random mix and the tilted one,
  weighed by their chances), the rest of the match valued as played on well against random
  orders (a normal estimate fitted to exact dynamic-programming values on several courses; the
  last turn exactly), and otherwise a free opponent minimises the equilibrium payoffs. A
  deliberate opponent thus meets (nearly) the equilibrium, and the robot stays a mixed strategy.

The order drawn from the mixed strategy is checked on the rebuilt state before it is returned.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations
from operator import mul

from pbem.games.errors import NoMoveNow
from pbem.games.matchplay.engine import HOLES, MatchPlay, Play, Special, turn_holes

__all__ = ["VERSION", "decide", "rebuild"]

VERSION = "matchplay-rm-4"

HELPFUL = ("BLUE-1", "RED+1")
HARMFUL = ("BLUE+1", "RED-1")
# The static evaluation of what is left after the turn, in holes of lead.
CARD_STROKE = 1.0      # weight of the hands left (the lead they make in random order)
HELPFUL_LEFT = 0.8     # a helpful special still to play
HARMFUL_LEFT = 0.4     # a harmful special still owed
HOLE_VARIANCE = 0.55   # spread of the lead per hole left
ITERATIONS = 300       # regret matching rounds
PURIFY = 0.02          # probabilities below this are dropped before drawing
# The opponent model (see _beliefs): the chances, before any play, of its three hypotheses
# (uniformly random legal orders, learnt habits, deliberate play); the spread of the prior on
# each weight of the learnt model and the Newton steps of its fit; the share of a deliberate
# player's choices that are arbitrary (any of the different legal orders alike) rather than the
# equilibrium's; the most the robot stakes on the random and learnt models together.
RANDOM_PRIOR = 0.4
PRIORS = (RANDOM_PRIOR, 0.15, 0.45)  # random, learnt habits, deliberate
FIT_PRIOR = 1.0
FIT_STEPS = 6
ARBITRARY = 0.5
RANDOM_CAP = 0.95
LIKELIHOOD_ITERATIONS = 100
# The value of the rest of the match against uniformly random orders, by holes left after the turn:
# weights of (1, stroke total of their hand less mine, my 3s and 5s, theirs, my 3s less 5s plus
# theirs, my helpful and harmful specials left, theirs) in the mean lead, and in the log of the
# spread per root hole (fitted to exact values on seven courses; see _random_worth).
RANDOM_LEAF = {
    15: ((1.0149, 0.6147, 0.0759, -0.1169, 0.0153, 0.7262, -0.3141, -0.6580, 0.4871),
         (-1.3466, -0.0076, 0.0066, 0.0284, 0.0015, 0.0028, 0.0785, 0.0396, 0.0123)),
    12: ((0.2323, 0.6295, 0.0616, -0.0908, 0.0092, 0.9117, -0.1936, -0.6342, 0.5497),
         (-1.1023, -0.0041, 0.0094, 0.0157, -0.0011, -0.0220, 0.0260, 0.0787, 0.0619)),
    9: ((0.5337, 0.6345, 0.0513, -0.0647, 0.0069, 0.0337, 0.0337, 0.0337, 0.0337),
        (-0.7012, -0.0031, 0.0192, 0.0309, -0.0046, -0.0901, 0.0013, -0.1646, 0.0059)),
    6: ((0.2639, 0.6138, 0.0419, -0.0465, 0.0018, 0.7208, -0.3447, -0.6562, 0.4478),
        (-0.4823, -0.0072, 0.0152, 0.0101, 0.0006, -0.0249, 0.0052, -0.0940, -0.1040)),
}
# An opponent that plays against par (see _par_beliefs): the weights of a hole halved and of a
# stroke spent below par, and the ties' rules, of its hypotheses; their chance before any play;
# the most the robot stakes on them, and the least belief it acts on.
PAR_HALF = (0.0, 0.5)
PAR_SPEND = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
PAR_TIES = ("high", "low", "any")
PAR_PRIOR = 0.05
PAR_CAP = 0.9
PAR_THRESHOLD = 0.5
ROBUST = 0.9             # the weight of the worst case in the orders played against such a player
SLACK = 0.01             # orders this close to the best are drawn alike (harder to foresee)
ROBUST_CANDIDATES = 40   # how many of the best orders against the prediction are so weighed
DEFAULT_BELIEF = 0.85  # how much an opponent that always played the default orders is expected to
_FLOAT = 1 << 53


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    if view.get("result"):
        raise NoMoveNow("the match is over")
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
    specials left, the hand left as counts of 3s, 4s, 5s, the helpful and harmful specials left):
    the seat's actions with the holes and the colours left out."""
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
        specials: list[tuple[str, int] | None] = [] if required else [None]
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
            helps = help_left - (sp is not None and sp[0] == "help")
            harms = harm_left - (sp is not None and sp[0] == "harm")
            out.append((tuple(sorted(eff)), cards, sp, worth, rest, (helps, harms)))
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
    for eff, _, _, wm, hm, _ in mine:
        row = []
        for teff, _, _, wt, ht, _ in theirs:
            extra = wm - wt + _hands(hm, ht)
            row.append(sum(p * worth(lead + s, extra) for s, p in _meetings(eff, teff)))
        rows.append(row)
    return rows


def _solve(a: list[list[float]], iterations: int = ITERATIONS, fixed: list[float] | None = None,
           share: float = 0.0, model: list[list[float]] | None = None,
           against: list[float] | None = None) -> tuple[list[float], list[float]]:
    """Regret matching+ with alternating updates and linear averaging: (row mix, column mix).
    With `fixed`, the row player meets, at `share`, a column player bound to the mix `fixed`
    (payoffs `model`, else `a`) and otherwise a free one (payoffs `a`): a restricted Nash
    response, the free column player minimising `a`. `against`, if given, is what each row
    earns against the bound column player (in place of `fixed` and `model`)."""
    n, m = len(a), len(a[0])
    at = [list(col) for col in zip(*a)]
    x, y = [1.0 / n] * n, [1.0 / m] * m
    rx, ry = [0.0] * n, [0.0] * m
    sx, sy = [0.0] * n, [0.0] * m
    against_fixed: list[float] = []  # what each row earns against the bound column player (with `share`)
    if share and against is not None:
        against_fixed = [share * v for v in against]
    elif share:
        assert fixed is not None  # the bound column player is `against` or plays `fixed`
        against_fixed = [share * sum(map(mul, row, fixed)) for row in (model or a)]
    for it in range(1, iterations + 1):
        if share:
            ux = [f + (1 - share) * sum(map(mul, row, y)) for f, row in zip(against_fixed, a)]
        else:
            ux = [sum(map(mul, row, y)) for row in a]
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
    if _always_default(view, opp):
        _, y = _solve(a)
        return _exploit(state, seat, mine, a, y, lead, worth, DEFAULT_BELIEF, rng)
    belief, predicted = _par_beliefs(view, state, opp)
    if belief >= PAR_THRESHOLD:
        _, y = _solve(a)
        return _exploit(state, seat, mine, a, y, lead, worth, belief, rng, predicted)
    p_random, p_fitted, theta = _beliefs(view, opp)
    share = min(RANDOM_CAP, p_random + p_fitted)
    if share > 0.005:
        uniform = _uniform_mix(state, opp, theirs)
        fitted = _tilted(uniform, _features(theirs), theta) if p_fitted else uniform
        w = p_fitted / (p_random + p_fitted)
        mix = [(1 - w) * u + w * f for u, f in zip(uniform, fitted)]
        against = [sum(map(mul, row, mix)) for row in _matrix_random(mine, theirs, lead, state.turn)]
        x, _ = _solve(a, share=share, against=against)
    else:
        x, _ = _solve(a)
    x = [p if p >= PURIFY else 0.0 for p in x]
    _, cards, sp, _, _, _ = mine[_draw(rng, x)]
    return _concrete(state, seat, cards, sp, rng)


# -- against uniformly random orders ------------------------------------------------------------
def _random_belief(view: dict, opp: int) -> float:
    """The chance the opponent model gives uniformly random orders (see `_beliefs`)."""
    return _beliefs(view, opp)[0]


def _features(actions: list) -> list[tuple]:
    """What the fitted model reads of an abstract action: its stroke total (against the mean of
    the actions), whether it carries a helpful special, a harmful one, and how far above the
    mean of its cards the card under a helpful special is (below, for a harmful one)."""
    totals = [sum(c) for _, c, _, _, _, _ in actions]
    mean = sum(totals) / len(totals)
    out = []
    for (_, cards, sp, _, _, _), total in zip(actions, totals):
        helps = sp is not None and sp[0] == "help"
        harms = sp is not None and sp[0] == "harm"
        place = 0.0
        if sp is not None:
            place = (sp[1] - sum(cards) / 3) * (1 if helps else -1)
        out.append((total - mean, float(helps), float(harms), place))
    return out


def _tilted(base: list[float], feats: list[tuple], theta: Sequence[float]) -> list[float]:
    """The uniformly random mix tilted by exp(theta . features)."""
    scores = [sum(map(mul, theta, f)) for f in feats]
    top = max(scores)
    return _normal([b * math.exp(v - top) for b, v in zip(base, scores)])


def _fit(data: list, theta: Sequence[float]) -> tuple:
    """The most likely tilt, a posteriori (a normal prior of spread FIT_PRIOR on each weight),
    for the (base mix, features, index played) of the turns seen: Newton's method from `theta`."""
    k = len(theta)
    theta = list(theta)
    for _ in range(FIT_STEPS):
        g = [-t / FIT_PRIOR ** 2 for t in theta]
        h = [[(-1.0 / FIT_PRIOR ** 2 if i == j else 0.0) for j in range(k)] for i in range(k)]
        for base, feats, played in data:
            q = _tilted(base, feats, theta)
            mean = [sum(p * f[i] for p, f in zip(q, feats)) for i in range(k)]
            for i in range(k):
                g[i] += feats[played][i] - mean[i]
                for j in range(i, k):
                    c = sum(p * f[i] * f[j] for p, f in zip(q, feats)) - mean[i] * mean[j]
                    h[i][j] -= c
                    if i != j:
                        h[j][i] -= c
        step = _linsolve(h, g)
        theta = [t - d for t, d in zip(theta, step)]
        if max(abs(d) for d in step) < 1e-3:
            break
    return tuple(theta)


def _linsolve(h: list[list[float]], g: list[float]) -> list[float]:
    """x with h x = g (Gaussian elimination; h is negative definite)."""
    n = len(g)
    m = [row[:] + [v] for row, v in zip(h, g)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _beliefs(view: dict, opp: int) -> tuple[float, float, tuple]:
    """(chance of uniformly random orders, chance of the fitted model, the fitted model's tilt).

    Three hypotheses, weighed by Bayes' rule over the opponent's turns so far from
    PRIORS: it plays uniformly random legal orders (cards drawn at random from its hand); it plays
    deliberately (the equilibrium of each turn's game, or any of the different legal orders
    alike); or it follows habits the robot learns from its past turns: uniformly random orders
    tilted by exp(theta . features) (`_features`: stroke total, specials, where they go), theta
    fitted to the turns before each one, so the fitted model is scored only on what it predicted
    (prequentially) and a random opponent's noise does not pass for a habit."""
    rows = view["holes"]
    logs = [math.log(p) for p in PRIORS]
    theta = (0.0,) * 4
    data = []
    turns = (len(rows) + 2) // 3
    for t in range(1, turns + 1):
        played = rows[3 * (t - 1):3 * t]
        if len(played) < 3:  # the match ended inside the turn
            break
        before = rebuild(view, rows[:3 * (t - 1)], t)
        cards = tuple(r["cards"][opp] for r in played)
        specials = [(c, r["hole"]) for r in played for c in r["specials"][opp]]
        p_random = _random_likelihood(before, opp, cards, specials)
        if p_random <= 0:
            return 0.0, 0.0, theta
        p_strategic = _strategic_likelihood(before, opp, cards, specials)
        p_strategic = (1 - ARBITRARY) * p_strategic + ARBITRARY * _arbitrary_likelihood(before, opp, specials)
        actions = _actions(before, opp)
        index = _abstract_index(before, actions, cards, specials)
        base = _uniform_mix(before, opp, actions)
        feats = _features(actions)
        fitted = _tilted(base, feats, theta)
        p_fitted = p_random * fitted[index] / base[index] if index is not None and base[index] > 0 else 0.0
        logs[0] += math.log(p_random)
        logs[1] += math.log(max(p_fitted, 1e-300))
        logs[2] += math.log(max(p_strategic, 1e-300))
        if index is not None:
            data.append((base, feats, index))
            theta = _fit(data, theta)
    top = max(logs)
    w = [math.exp(v - top) for v in logs]
    total = sum(w)
    return w[0] / total, w[1] / total, theta


def _abstract_index(state: MatchPlay, actions: list, cards: tuple, specials: list) -> int | None:
    """Which of the seat's abstract actions the played orders are."""
    sp = None
    if specials:
        card, hole = specials[0]
        sp = ("help" if card in HELPFUL else "harm", cards[turn_holes(state.turn).index(hole)])
    multiset = tuple(sorted(cards))
    for i, (_, c, s, _, _, _) in enumerate(actions):
        if c == multiset and s == sp:
            return i
    return None


def _random_likelihood(state: MatchPlay, seat: int, cards: tuple, specials: list) -> float:
    """How likely uniformly random legal orders (`random_orders`) are to be these."""
    hand = dict(state.hands[seat])
    p = 1.0
    for c in cards:
        n = hand[3] + hand[4] + hand[5]
        if hand.get(c, 0) <= 0:
            return 0.0
        p *= hand[c] / n
        hand[c] -= 1
    required, allowed = state._special_options(seat)
    options = 3 * len(allowed) + (0 if required else 1)
    if not specials:
        return 0.0 if required else p / options
    if len(specials) > 1 or specials[0][0] not in allowed:
        return 0.0
    return p / options


def _arbitrary_likelihood(state: MatchPlay, seat: int, specials: list) -> float:
    """How likely a player choosing among the different legal orders alike is to play one: unlike
    random cards, such a player is as likely to play three 3s as three 4s when it holds more 4s."""
    hand = state.hands[seat]
    orders = sum(len(set(permutations(m))) for m in _multisets(hand))
    required, allowed = state._special_options(seat)
    return 1.0 / orders / (3 * len(allowed) + (0 if required else 1))


def _strategic_likelihood(state: MatchPlay, seat: int, cards: tuple, specials: list) -> float:
    """How likely a player of the turn's equilibrium (as this robot solves it, with its cards in
    a random order and a special's colour drawn) is to play these."""
    other = 1 - seat
    lead = state.lead if seat == 0 else -state.lead
    mine, theirs = _actions(state, seat), _actions(state, other)
    x, _ = _solve(_matrix(mine, theirs, lead, _Worth(HOLES - 3 * state.turn)), LIKELIHOOD_ITERATIONS)
    sp = None
    colours = 1
    if specials:
        card, hole = specials[0]
        value = cards[turn_holes(state.turn).index(hole)]
        kind = HELPFUL if card in HELPFUL else HARMFUL
        sp = ("help" if card in HELPFUL else "harm", value)
        legal = {s.card for s in state._legal_specials(seat)}
        colours = max(1, sum(c in legal for c in kind)) * cards.count(value)
    multiset = tuple(sorted(cards))
    orders = len(set(permutations(cards)))
    for p, (_, c, s, _, _, _) in zip(x, mine):
        if c == multiset and s == sp:
            return p / orders / colours
    return 0.0


def _random_worth(left: int, lead: int, mine: tuple, theirs: tuple, specials: tuple) -> float:
    """The chance of winning, playing on well against uniformly random orders, from `lead` with
    `left` holes to play, the hands (counts of 3s, 4s, 5s) and the specials left (mine helpful,
    harmful, theirs helpful, harmful): a normal estimate fitted to the exact values (by dynamic
    programming over the whole game) on several courses."""
    if lead > left:
        return 1.0
    if lead < -left:
        return 0.0
    wm, ws = RANDOM_LEAF[left]
    a, b, c, d = specials
    f = (1.0, 3 * theirs[0] + 4 * theirs[1] + 5 * theirs[2] - 3 * mine[0] - 4 * mine[1] - 5 * mine[2],
         mine[0] + mine[2], theirs[0] + theirs[2], mine[0] - mine[2] + theirs[0] - theirs[2], a, b, c, d)
    m = lead + sum(map(mul, wm, f))
    sc = math.exp(sum(map(mul, ws, f))) * math.sqrt(left)
    return 0.5 - 0.25 * (math.erf((0.5 - m) / sc) + math.erf((-0.5 - m) / sc))


_LAST: dict = {}


def _last_turn(lead: int, mine: tuple, theirs: tuple, specials: tuple) -> float:
    """The exact chance of winning in the last turn against uniformly random orders, choosing
    where any special still owed goes (the cards are what is left)."""
    key = (lead, mine, theirs, specials)
    got = _LAST.get(key)
    if got is not None:
        return got
    if lead > 3:
        return 1.0
    if lead < -3:
        return 0.0
    a, b, c, d = specials
    my_cards = (3,) * mine[0] + (4,) * mine[1] + (5,) * mine[2]
    their_cards = (3,) * theirs[0] + (4,) * theirs[1] + (5,) * theirs[2]
    my_delta = -1 if a else 1 if b else 0
    their_delta = -1 if c else 1 if d else 0
    theirs_eff = []
    for v in sorted(set(their_cards)) if their_delta else (None,):
        eff = list(their_cards)
        if v is not None:
            eff[eff.index(v)] += their_delta
        theirs_eff.append((tuple(sorted(eff)), their_cards.count(v) / 3 if v is not None else 1.0))
    best = 0.0
    for v in sorted(set(my_cards)) if my_delta else (None,):
        eff = list(my_cards)
        if v is not None:
            eff[eff.index(v)] += my_delta
        mine_eff = tuple(sorted(eff))
        value = 0.0
        for teff, q in theirs_eff:
            for s, p in _meetings(mine_eff, teff):
                total = lead + s
                value += q * p * (1.0 if total > 0 else 0.5 if total == 0 else 0.0)
        best = max(best, value)
    _LAST[key] = best
    return best


def _matrix_random(mine: list, theirs: list, lead: int, turn: int) -> list[list[float]]:
    """The payoffs of the turn's game when the opponent plays uniformly random orders, the rest of
    the match valued as played on well against such orders."""
    left = HOLES - 3 * turn
    rows = []
    for eff, _, _, _, hm, (a, b) in mine:
        row = []
        for teff, _, _, _, ht, (c, d) in theirs:
            meet = _meetings(eff, teff)
            if not left:
                value = sum(p * (1.0 if lead + s > 0 else 0.5 if lead + s == 0 else 0.0) for s, p in meet)
            elif left == 3:
                value = sum(p * _last_turn(lead + s, hm, ht, (a, b, c, d)) for s, p in meet)
            else:
                value = sum(p * _random_worth(left, lead + s, hm, ht, (a, b, c, d)) for s, p in meet)
            row.append(value)
        rows.append(row)
    return rows


def _uniform_mix(state: MatchPlay, seat: int, actions: list) -> list[float]:
    """How often uniformly random legal orders play each abstract action."""
    hand = state.hands[seat]
    size = hand[3] + hand[4] + hand[5]
    required, _ = state._special_options(seat)
    legal = [s.card for s in state._legal_specials(seat)]
    cards = sorted(set(legal))
    options = len(legal) + (0 if required else 1)
    out = []
    for _, multiset, sp, _, _, _ in actions:
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


def _exploit(state, seat, mine, a, y, lead, worth, belief, rng, predicted=None) -> Play:
    """The best concrete orders against the opponent's predicted orders (`predicted`: (chance,
    orders) pairs; by default its default orders), believed at `belief`, or else its equilibrium
    mix; a draw among the equally good."""
    opp = 1 - seat
    against_mix = [sum(map(mul, row, y)) for row in a]
    index = {(cards, sp): i for i, (_, cards, sp, _, _, _) in enumerate(mine)}
    theirs = _actions(state, opp)
    holes = turn_holes(state.turn)
    targets = []  # (chance, effective scores hole by hole, worth of its specials left, hand left)
    for chance, play in predicted or [(1.0, state.default_orders(opp))]:
        d_eff = list(play.cards)
        d_sp = None
        for s in play.specials:
            i = holes.index(s.hole)
            d_eff[i] += -1 if s.card in HELPFUL else 1
            d_sp = ("help" if s.card in HELPFUL else "harm", play.cards[i])
        d_worth, d_hand = next((w, h) for _, c, sp, w, h, _ in theirs
                               if c == tuple(sorted(play.cards)) and sp == d_sp)
        targets.append((chance, d_eff, d_worth, d_hand))
    required, _ = state._special_options(seat)
    legal = state._legal_specials(seat)
    specials = ([None] if not required else []) + legal
    scored = []
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
            value = (1 - belief) * against_mix[k]
            for chance, d_eff, d_worth, d_hand in targets:
                change = sum((m < t) - (m > t) for m, t in zip(eff, d_eff))
                value += belief * chance * worth(lead + change, mine[k][3] - d_worth + _hands(mine[k][4], d_hand))
            scored.append((value, order, s, eff, k))
    if ROBUST:
        # The best few against the prediction, weighed also by the worst any orders of the
        # opponent (told ours) could do to them: a player that only seemed to play against par
        # gains less by turning on the robot once it is taken for one.
        scored.sort(key=lambda v: -v[0])
        rescored = []
        for value, order, s, eff, k in scored[:ROBUST_CANDIDATES]:
            worst = 1.0
            for teff, _, _, wt, ht, _ in theirs:
                extra = mine[k][3] - wt + _hands(mine[k][4], ht)
                for placed in set(permutations(teff)):
                    change = sum((m < t) - (m > t) for m, t in zip(eff, placed))
                    v = worth(lead + change, extra)
                    if v < worst:
                        worst = v
            rescored.append(((1 - ROBUST) * value + ROBUST * worst, order, s, eff, k))
        scored = rescored
    best = max(v[0] for v in scored)
    chosen = [(order, s) for value, order, s, _, _ in scored if value > best - SLACK - 1e-9]
    order, s = rng.choice(chosen)
    return Play(tuple(order), (s,) if s else ())


# -- an opponent that plays against par ------------------------------------------------------
def _par_orders(state: MatchPlay, seat: int) -> list[tuple[Play, str, int, int, int]]:
    """Every legal concrete order of `seat` with what a player measuring itself against par
    reads of it: (orders, their line, holes it beats par on, holes it equals par on, strokes
    its cards are below par), par moved by a special on the opponent (RED), its score by one on
    itself (BLUE)."""
    holes = turn_holes(state.turn)
    pars = [state.pars[h - 1] for h in holes]
    required, _ = state._special_options(seat)
    specials: list = ([None] if not required else []) + state._legal_specials(seat)
    out = []
    for cards in sorted(set(permutations(state.hand_cards(seat), 3))):
        spend = sum(pars) - sum(cards)
        for s in specials:
            mine, theirs = list(cards), list(pars)
            if s is not None:
                i = holes.index(s.hole)
                if s.colour == "BLUE":
                    mine[i] += s.delta
                else:
                    theirs[i] += s.delta
            won = sum(m < t for m, t in zip(mine, theirs))
            halved = sum(m == t for m, t in zip(mine, theirs))
            play = Play(cards, (s,) if s is not None else ())
            out.append((play, play.line(), won, halved, spend))
    return out


def _par_choices(orders: list, half: float, spend: float, tie: str) -> list[int]:
    """Which of `orders` a par player of weights (a hole won 1, halved `half`, a stroke below par
    -`spend`) plays: the best, ties broken by the line's text (`high`, `low`) or all kept."""
    scores = [w + half * h - spend * s for _, _, w, h, s in orders]
    top = max(scores)
    best = [i for i, v in enumerate(scores) if v > top - 1e-9]
    if tie == "any" or len(best) == 1:
        return best
    pick = max if tie == "high" else min
    return [pick(best, key=lambda i: orders[i][1])]


PAR_HYPOTHESES = [(h, c, t) for h in PAR_HALF for c in PAR_SPEND for t in PAR_TIES]


def _par_beliefs(view: dict, state: MatchPlay, opp: int) -> tuple[float, list]:
    """(the chance the opponent plays against par, what it then plays this turn as (chance,
    orders) pairs). The hypotheses `PAR_HYPOTHESES` each name the orders a player scoring itself
    against par would play, weighed by Bayes' rule over the opponent's turns so far (a
    hypothesis that missed a turn is dropped) against uniformly random distinct orders."""
    rows = view["holes"]
    turns = len(rows) // 3
    if not turns:
        return 0.0, []
    alive = [math.log(1.0 / len(PAR_HYPOTHESES))] * len(PAR_HYPOTHESES)
    other = math.log(1 - PAR_PRIOR)
    for t in range(1, turns + 1):
        played = rows[3 * (t - 1):3 * t]
        before = rebuild(view, rows[:3 * (t - 1)], t)
        line = Play(tuple(r["cards"][opp] for r in played),
                    tuple(Special(c, r["hole"]) for r in played for c in r["specials"][opp])).line()
        orders = _par_orders(before, opp)
        lines = [o[1] for o in orders]
        if line not in lines:
            return 0.0, []
        other -= math.log(len(orders))
        cache: dict = {}
        for k, hyp in enumerate(PAR_HYPOTHESES):
            if alive[k] == -math.inf:
                continue
            got = cache.get(hyp)
            if got is None:
                got = cache[hyp] = [lines[i] for i in _par_choices(orders, *hyp)]
            alive[k] = alive[k] + math.log(1.0 / len(got)) if line in got else -math.inf
    if all(v == -math.inf for v in alive):
        return 0.0, []
    top = max(alive)
    weights = [math.exp(v - top) if v > -math.inf else 0.0 for v in alive]
    family = top + math.log(sum(weights)) + math.log(PAR_PRIOR)
    belief = 1.0 / (1.0 + math.exp(other - family))
    orders = _par_orders(state, opp)
    mix: dict = {}
    total = sum(weights)
    for w, hyp in zip(weights, PAR_HYPOTHESES):
        if w:
            got = _par_choices(orders, *hyp)
            for i in got:
                mix[i] = mix.get(i, 0.0) + w / total / len(got)
    return min(PAR_CAP, belief), [(p, orders[i][0]) for i, p in sorted(mix.items())]
