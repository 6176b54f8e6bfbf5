"""Golf's card play against the others' known rules, one ply deep (cards-7).

The greedy player (contrib/bots/golf_greedy.py) knocks at the start of its turn when its own
estimate (its unseen cards at the mean of the cards it has not seen) is at most `KNOCK_MAX` and
`KNOCK_LEAD` below every other layout as the PUBLIC events show it (a card taken from the pile
at its points, a kept drawn card at `KEPT`, any other at that mean). So the robot's own card
play moves the greedy's knock: keeping a drawn card or taking a low card from the pile lowers
the robot's public estimate, and can stop the knock outright. On each of the reading's samples
(`reading.Reading.sample`: the greedy's own knowledge is in the sample) the robot predicts
exactly whether each seat judged greedy knocks after each of its candidate moves, and values
the move by the share of the hole it wins: after a knock, its own last turn and the others'
are played and the layouts compared; without one, each other seat plays one card turn, the
robot one more, and the layouts are compared. Every candidate is weighed on the same samples.
The one-turn expectation's move (`robot.golf_card_move`) is kept unless another wins more by
`MARGIN`, and the search is made only where a seat judged greedy would knock after that move
on at least `WORRY` of the samples' weight: searched everywhere (WORRY 0) the leaf chose card
moves on its noise (v greedy, 80 same-seed deals: +0.3 +- 7.4 points, where WORRY 0.02 gave
+3.1 +- 4.5). The room is small: against cards-5 the greedy knocked first in 32 of 80 holes,
and one move of the robot's could have stopped 14 of those knocks (a kept card shows 3, so
four kept cards show 12, and a greedy at 4 or less knocks over that).
"""
from __future__ import annotations

from collections.abc import Callable

from pbem.games.cards.orders import Discard, DrawDiscard, DrawStock, Keep
from pbem.games.golf import reading
from pbem.games.golf.scoring import game_tables

__all__ = ["card_move"]

KNOCK_MAX = reading.KNOCK_MAX
KNOCK_LEAD = reading.KNOCK_LEAD
KEPT = reading.KEPT
# The least share of the samples' weight on which a greedy seat knocks after the plain move
# for the search to be made, and what another move must win beyond the plain one's share.
WORRY = 0.02
MARGIN = 0.0
# The layouts (by size) it plays in. The square lost by it: against robot:easy 62.4% of 400
# same-seed holes where cards-5 took 65.4% (a seat not yet read as easy is feared as greedy),
# against the greedy 51.2% of 800 where cards-5 took 50.6%. In the 2x3 layout a kept card
# (3) sits further below the mean and the greedy's knock (12 or less) leaves more room.
LAYOUTS = (6,)


class _Public:
    """What the public events show, as the greedy counts them: the pile since the last
    reshuffle (points) and by seat, by position, a placed card's public worth."""

    def __init__(self, view: dict, points: dict) -> None:
        pile, placed = reading.public_layouts(view, points)
        self.pile_sum, self.pile_n = sum(points[c] for c in pile), len(pile)
        self.placed = placed


class _Sim:
    """One candidate played on one sample: the values, the pile's top, the stock's depth."""

    __slots__ = ("values", "top", "depth", "pile_sum", "pile_n", "known")

    def __init__(self, values, top, depth, pile_sum, pile_n, known) -> None:
        self.values, self.top, self.depth = values, top, depth
        self.pile_sum, self.pile_n, self.known = pile_sum, pile_n, known


def card_move(view: dict, seat: int, plain, sampler: Callable[[reading.Reading], list]):
    """The card move with the best share of the hole over the samples (`sampler` of a
    reading) after the others' replies, or None where the `plain` move is kept (no seat judged
    greedy would knock after it, or nothing wins more by `MARGIN`)."""
    opts = view["options"]
    if not reading.readable(opts, len(view["names"])) or view["knocker"] is not None or view["last_round"]:
        return None
    if view.get("replaceable") is not None and len(view["replaceable"]) < len(view["grids"][seat]):
        return None
    if plain is None or len(view["grids"][seat]) not in LAYOUTS:
        return None
    r = reading.read(view, seat)
    if not r.others:
        return None
    samples = sampler(r)
    samples = [s for s in samples if s.weight > 0 and any(s.greedy[o] for o in r.others)]
    if not samples:
        return None
    tables = game_tables(opts, 1)
    points = tables.points
    deck = [points[c] for c in tables.deck]
    ctx = _Ctx(view, seat, r, _Public(view, points), sum(deck), len(deck))
    drawn = view.get("drawn")
    size = r.size
    total = sum(s.weight for s in samples)
    if drawn is not None:
        card = points[drawn]
        got = [0.0] * (size + 1)
        worry = 0.0
        plain_opt = plain.pos if isinstance(plain, Keep) else 0
        for s in samples:
            for opt in range(size + 1):
                share, knocked = ctx.play(s, card, opt, s.stock, False)
                got[opt] += s.weight * share
                if opt == plain_opt:
                    worry += s.weight * knocked
        if worry < WORRY * total:
            return None
        best = max(range(size + 1), key=lambda o: (got[o], o == plain_opt, -o))
        if got[best] < got[plain_opt] + MARGIN * total:
            return None
        return Keep(best) if best else Discard()
    top = r.top
    # Taking the discard to p (1..size), or drawing: each sample's stock top is the draw, valued
    # at where the plain rule would keep it (the best choice by card, taken over the few
    # samples that deal that card, chose on its noise: it drew where the plain rule took).
    take = [0.0] * (size + 1)
    worry = 0.0
    plain_opt = plain.pos if isinstance(plain, DrawDiscard) else 0
    if top is not None:
        for s in samples:
            for p in range(1, size + 1):
                share, knocked = ctx.play(s, top, p, s.stock, True)
                take[p] += s.weight * share
                if p == plain_opt:
                    worry += s.weight * knocked
    by_card: dict[int, list] = {}
    for s in samples:
        if s.stock:
            by_card.setdefault(s.stock[-1], []).append(s)
    plain_draw = 0.0
    for card, group in by_card.items():
        want = ctx.plain_keep(card)
        gain = knocks = 0.0
        for s in group:
            share, knocked = ctx.play(s, card, want, s.stock[:-1], False)
            gain += s.weight * share
            knocks += s.weight * knocked
        plain_draw += gain
        if plain_opt == 0:
            worry += knocks
    if worry < WORRY * total:
        return None
    plain_value = take[plain_opt] if plain_opt else plain_draw
    p = max(range(1, size + 1), key=lambda o: (take[o], -o)) if top is not None else 0
    choice: DrawDiscard | DrawStock = DrawStock()
    value = plain_draw
    if p and take[p] > value:
        value, choice = take[p], DrawDiscard(p)
    if value < plain_value + MARGIN * total or (isinstance(choice, DrawStock) and isinstance(plain, DrawStock)):
        return None
    return choice


class _Ctx:
    """The decision's fixed facts, and the play of one candidate on one sample."""

    def __init__(self, view: dict, seat: int, r: reading.Reading, pub: _Public, deck_sum: int, deck_n: int):
        self.r, self.me, self.pub = r, seat, pub
        self.deck_sum, self.deck_n = deck_sum, deck_n
        n = len(view["names"])
        self.n = n
        self.order = [o for o in ((seat + k) % n for k in range(1, n)) if o in r.others]
        self.live = [t for t in range(n) if not view["resigned"][t]]
        hidden = set(r.hidden)
        self.my_known = [x not in hidden for x in r.mine]
        # The plain keep rule's worths of my places (unseen at the mean of my unseen cards).
        pool = r.pool
        guess = sum(pool) / len(pool) if pool else r.mean
        self.my_guess = guess

    def plain_keep(self, card: int) -> int:
        """Where the one-turn expectation keeps a drawn `card` (0: throws it)."""
        r = self.r
        w = [self.r.fixed[x] if k else self.my_guess for x, k in zip(r.mine, self.my_known)]
        top_w = max(w)
        i = w.index(top_w)
        return i + 1 if top_w - card > 0 else 0

    def play(self, s: reading.Sample, card: int, opt: int, stock: list, took: bool) -> tuple[float, float]:
        """(my share, whether a greedy seat knocked next) after I put `card` at `opt` (0:
        throw it), having taken it from the pile (`took`) or drawn it."""
        r, me = self.r, self.me
        values = list(s.values)
        pile_sum, pile_n = self.pub.pile_sum, self.pub.pile_n
        placed = dict(self.pub.placed[me])
        known = list(self.my_known)
        if took:
            pile_sum -= card
            pile_n -= 1
        if opt:
            x = r.mine[opt - 1]
            top = values[x]
            values[x] = card
            known[opt - 1] = True
            placed[opt] = card if took else KEPT
        else:
            top = card
        pile_sum += top
        pile_n += 1
        sim = _Sim(values, top, len(stock), pile_sum, pile_n, known)
        for i, o in enumerate(self.order):
            if s.greedy[o] and self._knocks(s, sim, o, placed):
                # My last turn, and those of the seats between me and the knocker.
                self._my_turn(sim, stock)
                for t in self.order[:i]:
                    self._their_turn(s, sim, t, stock)
                return self.r.share(sim.values), 1.0
            self._their_turn(s, sim, o, stock)
        self._my_turn(sim, stock)
        return self.r.share(sim.values), 0.0

    def _knocks(self, s: reading.Sample, sim: _Sim, o: int, mine_placed: dict) -> bool:
        r = self.r
        seat = r.others[o]
        known = [sim.values[x] for x, k in zip(seat.refs, seat.knows) if k]
        left = self.deck_n - sim.pile_n - len(known)
        mean = (self.deck_sum - sim.pile_sum - sum(known)) / left if left > 0 else 5.0
        total = sum(known) + mean * (len(seat.refs) - len(known))
        if total > KNOCK_MAX.get(r.size, KNOCK_MAX[4]):
            return False
        size = r.size
        for t in self.live:
            if t == o:
                continue
            placed = mine_placed if t == self.me else self.pub.placed[t]
            if total + KNOCK_LEAD > sum(placed.get(p, mean) for p in range(1, size + 1)):
                return False
        return True

    def _their_turn(self, s: reading.Sample, sim: _Sim, o: int, stock: list) -> None:
        """Seat `o`'s card turn by its rule (`robot._last_turns`' rules)."""
        r = self.r
        seat = r.others[o]
        values, mean = sim.values, r.mean
        refs = seat.refs
        w = [values[x] if k else mean for x, k in zip(refs, seat.knows)]
        top_w = max(w)
        i = w.index(top_w)
        top = sim.top
        if top is not None and top_w - top > 1e-9 and (not s.greedy[o] or top_w - top >= r.draw_gain[top_w]):
            values[refs[i]], sim.top = top, values[refs[i]]
            sim.pile_sum += sim.top - top
            return
        if not sim.depth:
            return
        sim.depth -= 1
        d = stock[sim.depth]
        if d < top_w - 1e-9:
            values[refs[i]], sim.top = d, values[refs[i]]
        else:
            sim.top = d
        sim.pile_sum += sim.top
        sim.pile_n += 1

    def _my_turn(self, sim: _Sim, stock: list) -> None:
        """My next card turn by the one-turn expectation's rule, on what I know."""
        r = self.r
        values, known = sim.values, sim.known
        w = [values[x] if k else self.my_guess for x, k in zip(r.mine, known)]
        top_w = max(w)
        i = w.index(top_w)
        top = sim.top
        gain = _draw_gain(r, top_w)
        if top is not None and top_w - top > 1e-9 and top_w - top >= gain:
            values[r.mine[i]], sim.top = top, values[r.mine[i]]
            known[i] = True
            return
        if not sim.depth:
            return
        sim.depth -= 1
        d = stock[sim.depth]
        if d < top_w - 1e-9:
            values[r.mine[i]], sim.top = d, values[r.mine[i]]
            known[i] = True
        else:
            sim.top = d



def _draw_gain(r: reading.Reading, worth: float) -> float:
    gains = r.draw_gain
    if worth in gains:
        return gains[worth]
    return 0.0 if not gains else gains[min(gains, key=lambda w: abs(w - worth))]
