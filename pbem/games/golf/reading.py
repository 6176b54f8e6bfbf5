"""What golf's public events say of the hidden cards, for the strong robot (cards-5).

A seat's view shows every card that went to the discard pile, and from where: so the card a
seat replaced is always seen, a card it took from the pile is seen where it put it, and only
the cards it never replaced and the drawn cards it kept (face down) stay hidden. `read` walks
the hole's events once and keeps, for every other seat, its layout as references to those
hidden cards (`Seat.refs`), what it knew of each, and every decision it made with what it then
held (`Seat.turns`). `Reading.sample` deals the hidden cards from the cards the seat has never
seen (a kept card below the card it replaced, as both of our opponents' rules keep a card only
where it saves something) and weighs the deal by how likely the others' decisions were on it,
under a mixture of the two players the arena knows (the greedy player that knocks, the
missed-deadline player that never does), each taken as playing its rule with a small error.

Only the plain rule set is read so (`readable`): the knock ending, no pairs and no wild jacks,
the near two seen at the deal, no locked cards, no skipping jacks. Cards are their points.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.games.cards.deck import HIDDEN
from pbem.games.golf.engine import NEAREST
from pbem.games.golf.scoring import game_tables

__all__ = ["Reading", "Sample", "Seat", "public_layouts", "read", "readable"]

# The greedy player's knock (contrib/bots/golf_greedy.py), as the reading expects it of a
# knocker: its layout at most KNOCK_MAX (by the layout's size) and KNOCK_LEAD below every other
# as the events show them (a kept card at KEPT).
KNOCK_MAX = {4: 6.0, 6: 12.0}
KNOCK_LEAD = 8.0
KEPT = 3.0
# A decision that its rule would not have made is taken as made with this chance.
SLIP = 0.05
# The prior share of the greedy player among the others (the rest: the missed-deadline one).
GREEDY_PRIOR = 0.5
# Candidate deals of another seat's hidden cards a sample picks one from.
TRIES = 6


def readable(options: dict, seats: int) -> bool:
    return (options["ending"] == "knock" and options["pairs"] == "none" and not options["one_eyed_jacks_wild"]
            and options["peek"] == "near2" and not options["replace_unseen_once"]
            and options["jacks"] != "20skip" and seats < 8)


@dataclass
class Seat:
    """Another seat's hidden layout: `refs[p-1]` is the index of the card at p in a sample's
    values; `knows[p-1]` whether the seat knows it; `turns`: its decisions, each with the refs
    and knowledge it had then."""
    refs: list[int]
    knows: list[bool]
    # (kind, refs, knows, a, b, c): ("start", refs, knows, top, action, lead) with action -1 a
    # draw, 0 a knock, p a take to p, lead its estimate of the lowest other layout (None: it
    # could not knock); ("drawn", refs, knows, card ref, p or 0 for a throw, None).
    turns: list[tuple] = field(default_factory=list)
    owned: set = field(default_factory=set)  # the references of its cards, now and before


@dataclass
class Sample:
    values: list[int]  # by reference: the fixed cards and this sample's hidden ones
    stock: list[int]  # the stock's points, its top last
    weight: float
    greedy: list[bool]  # by seat: whether the greedy player explains its turns better


@dataclass
class Reading:
    me: int
    size: int
    mean: float  # the pack's average card (the missed-deadline player's guess)
    draw_gain: dict  # worth -> what a stock draw saves on a card of that worth, on average
    fixed: list[int]  # reference -> points, for the fixed references
    hidden: list[int]  # references a sample deals
    bound: dict  # reference -> a kept card's points are below this
    pool: list[int]  # points of the cards the seat has never seen
    pile: list[int]  # points of the discard pile below its top
    stock: int
    top: int | None
    mine: list[int]  # my layout as references
    others: dict  # seat -> Seat
    estimate: list[list[float]]  # by seat, by position: the events' estimate (for the knock)

    def share(self, values: list) -> float:
        """My share of the hole on these layouts (`values` by reference): 1 alone lowest, 1/k
        shared by k, else 0."""
        best, tied = sum(values[x] for x in self.mine), 1
        for seat in self.others.values():
            score = sum(values[x] for x in seat.refs)
            if score < best:
                return 0.0
            tied += score == best
        return 1.0 / tied

    def worths(self, refs, knows, values) -> list[float]:
        mean = self.mean
        return [values[r] if k else mean for r, k in zip(refs, knows)]

    def sample(self, rng) -> Sample:
        """One deal of the hidden cards, weighed by the others' decisions: the seat's own
        hidden cards first, then each other seat's from `TRIES` candidate deals of what is
        left, one picked by how likely its turns were on it (the sample's weight takes the
        candidates' mean likelihood, so that the weights stay fair)."""
        pool = list(self.pool)
        rng.shuffle(pool)
        values = list(self.fixed)
        mine = set(self.mine)
        for r in self.hidden:
            if r in mine:
                values[r] = pool.pop() if pool else round(self.mean)
        weight = 1.0
        greedy = [False] * len(self.estimate)
        bound = self.bound
        for o, seat in self.others.items():
            refs = [r for r in self.hidden if r in seat.owned]
            tries: list[tuple[float, bool, list[int]]] = []
            for _ in range(TRIES if seat.turns else 1):
                picked: list[int] = []
                for r in refs:
                    limit = bound.get(r)
                    i = _pick(pool, picked, limit, rng)
                    picked.append(i)
                    if i >= 0:
                        values[r] = pool[i]
                    else:
                        values[r] = round(self.mean)
                g, e = self._likelihoods(seat, values)
                tries.append((GREEDY_PRIOR * g + (1 - GREEDY_PRIOR) * e, GREEDY_PRIOR * g >= (1 - GREEDY_PRIOR) * e,
                              picked))
            total = sum(t[0] for t in tries)
            if total > 0:
                x = rng.below(1 << 30) / (1 << 30) * total
                k = 0
                while k < len(tries) - 1 and x >= tries[k][0]:
                    x -= tries[k][0]
                    k += 1
            else:
                k = 0
            like, greedy[o], picked = tries[k]
            weight *= total / len(tries)
            for r, i in zip(refs, picked):
                values[r] = pool[i] if i >= 0 else round(self.mean)
            for i in sorted((i for i in picked if i >= 0), reverse=True):
                pool[i] = pool[-1]
                pool.pop()
        stock = pool[-self.stock:] if self.stock else []
        if len(stock) < self.stock:  # a rebuilt stock: the pile's cards again
            extra = list(self.pile)
            rng.shuffle(extra)
            stock = extra[:self.stock - len(stock)] + stock
        return Sample(values, stock, weight, greedy)

    def _likelihoods(self, seat: Seat, values: list[int]) -> tuple[float, float]:
        """How likely the seat's decisions were on `values`: as the greedy player, as the
        missed-deadline player."""
        g = e = 1.0
        for kind, refs, knows, a, b, lead in seat.turns:
            w = self.worths(refs, knows, values)
            top_w = max(w)
            p = w.index(top_w) + 1
            if kind == "drawn":
                d = values[a]
                want = p if d < top_w - 1e-9 else 0
                if want != b:
                    g *= SLIP
                    e *= SLIP
                continue
            if lead is not None and sum(w) <= KNOCK_MAX[self.size] and sum(w) + KNOCK_LEAD <= lead:
                greedy_does = 0
            else:
                saved = top_w - a if a is not None else 0.0
                greedy_does = p if saved > 1e-9 and saved >= self.draw_gain[top_w] else -1
            easy_does = p if a is not None and top_w - a > 1e-9 else -1
            if greedy_does != b:
                g *= SLIP
            if easy_does != b:
                e *= SLIP
        return g, e


def public_layouts(view: dict, points: dict) -> tuple[list[str], list[dict[int, float]]]:
    """The hole as its public events show it, the way the greedy player counts: the discard pile
    since the last reshuffle (cards, its top last), and by seat, by position, a placed card's
    public worth (a card taken from the pile at its points, a kept drawn card at `KEPT`)."""
    n = len(view["names"])
    pile: list[str] = []
    placed: list[dict[int, float]] = [{} for _ in range(n)]
    for e in view.get("events", ()):
        kind = e.get("kind")
        if kind == "hole_start":
            pile, placed = [e["discard"]], [{} for _ in range(n)]
        elif kind == "reshuffled":
            pile = pile[-1:]
        elif kind == "played":
            if e.get("what") == "took" and pile:
                pile.pop()
                placed[e["seat"]][e["pos"]] = points[e["card"]]
            elif e.get("what") == "kept":
                placed[e["seat"]][e["pos"]] = KEPT
            if e.get("discarded"):
                pile.append(e["discarded"])
    return pile, placed


def _pick(pool: list[int], picked: list[int], limit, rng) -> int:
    """A random index of `pool` not in `picked`, its card below `limit` where one is (-1: none)."""
    free = [i for i in range(len(pool)) if i not in picked and (limit is None or pool[i] < limit)]
    if not free and limit is not None:
        free = [i for i in range(len(pool)) if i not in picked]
    return free[rng.below(len(free))] if free else -1


def _gains(points: list[int], worths) -> dict:
    n = len(points)
    return {w: sum(max(0.0, w - v) for v in points) / n for w in worths}


def read(view: dict, seat: int) -> Reading:
    """The hole's events as references to fixed and hidden cards (module docstring)."""
    opts = view["options"]
    n = len(view["names"])
    tables = game_tables(opts, 1)
    points = tables.points
    mean = tables.guess[HIDDEN]
    size = len(view["grids"][seat])
    near = NEAREST[size]
    events = list(view.get("events", ()))
    start = max((i for i, e in enumerate(events) if e.get("kind") == "hole_start"), default=-1)
    events = events[start + 1:] if start >= 0 else events
    fixed: list[int] = []
    hidden: list[int] = []
    bound: dict[int, float] = {}

    def new(value: int | None, limit: float | None = None) -> int:
        fixed.append(0 if value is None else value)
        if value is None:
            hidden.append(len(fixed) - 1)
            if limit is not None:
                bound[len(fixed) - 1] = limit
        return len(fixed) - 1

    seen_cards: list[str] = []  # every card seen on the pile, or in my hand
    first_discard = None
    for e in view.get("events", ())[start:start + 1] if start >= 0 else ():
        first_discard = e.get("discard")
    pile: list[str] = [first_discard] if first_discard is not None else []
    if first_discard is not None:
        seen_cards.append(first_discard)
    # Every seat's layout as references; the others' originals are hidden until replaced.
    grids = [[-1] * size for _ in range(n)]
    knows = [[p in near for p in range(1, size + 1)] for _ in range(n)]
    orig: list[dict[int, int]] = [{} for _ in range(n)]
    seen_mine = {int(p): c for p, c in (view.get("seen") or {}).items()}
    estimate = [[mean] * size for _ in range(n)]
    turns: list[list[tuple]] = [[] for _ in range(n)]
    knocked = False
    pending: dict[int, tuple] = {}  # seat -> its turn's start (refs, knows, top, lead)

    def ref(o: int, i: int) -> int:
        r = grids[o][i]
        if r < 0:  # an original card, first met
            r = grids[o][i] = new(None)
            orig[o][i] = r
        return r

    def lead_of(o: int) -> float | None:
        if knocked:
            return None
        return min(sum(estimate[t]) for t in range(n) if t != o and not view["resigned"][t])

    for e in events:
        kind = e.get("kind")
        if kind == "peeked":
            if e.get("seat") == seat and e.get("cards"):
                for p, c in zip(e["positions"], e["cards"]):
                    seen_mine[int(p)] = seen_mine.get(int(p), c)
            continue
        if kind == "drawn":
            o = e.get("seat")
            if o is not None and o not in pending:
                pending[o] = _start(grids, knows, o, size, ref, pile, points, lead_of(o))
            continue
        if kind == "reshuffled":
            pile = pile[-1:]
            continue
        if kind != "played":
            continue
        o, what = e["seat"], e.get("what")
        if what == "knocked":
            refs, kn, top, lead = pending.pop(o, None) or _start(grids, knows, o, size, ref, pile, points,
                                                                 lead_of(o))
            turns[o].append(("start", refs, kn, top, 0, lead))
            knocked = True
            continue
        if what not in ("took", "kept", "threw"):
            pending.pop(o, None)
            continue
        begun = pending.pop(o, None) or _start(grids, knows, o, size, ref, pile, points, lead_of(o))
        refs, kn, top, lead = begun
        if what == "took":
            pos = e["pos"]
            turns[o].append(("start", refs, kn, top, pos, lead))
            card = e["card"]
            if pile:
                pile.pop()
            i = pos - 1
            old = ref(o, i)
            fixed[old] = points[e["discarded"]]
            _unhide(hidden, bound, old)
            grids[o][i] = new(points[card])
            knows[o][i] = True
            estimate[o][i] = points[card]
            pile.append(e["discarded"])
            seen_cards.append(e["discarded"])
            continue
        turns[o].append(("start", refs, kn, top, -1, lead))
        if what == "threw":
            card = e["discarded"]
            d = new(points[card])
            turns[o].append(("drawn", refs, kn, d, 0, None))
            pile.append(card)
            seen_cards.append(card)
            continue
        pos = e["pos"]  # kept
        i = pos - 1
        old = ref(o, i)
        oldcard = e["discarded"]
        fixed[old] = points[oldcard]
        _unhide(hidden, bound, old)
        worth = points[oldcard] if knows[o][i] else mean
        mine_card = e.get("card") if o == seat else None
        d = new(points[mine_card]) if mine_card is not None else new(None, worth)
        turns[o].append(("drawn", refs, kn, d, pos, None))
        grids[o][i] = d
        knows[o][i] = True
        estimate[o][i] = KEPT
        if mine_card is not None:
            seen_mine[pos] = mine_card
        pile.append(oldcard)
        seen_cards.append(oldcard)
    # My layout: what I have seen of it is fixed, the rest hidden.
    mine = []
    grid = view["grids"][seat]
    my_seen: list[str] = []
    for p in range(1, size + 1):
        c = grid[p - 1] if grid[p - 1] != HIDDEN else seen_mine.get(p)
        if c is None:
            r = grids[seat][p - 1]
            mine.append(r if r >= 0 and r in hidden else new(None))
        else:
            mine.append(new(points[c]))
            my_seen.append(c)
        r = grids[seat][p - 1]
        if r >= 0 and c is not None:
            _unhide(hidden, bound, r)
    # The cards never seen: the deck less the pile's every card, my own and my drawn card.
    left = Counter(tables.deck)
    left.subtract(seen_cards + my_seen + ([view["drawn"]] if view.get("drawn") else []))
    pool = [points[c] for c, k in left.items() for _ in range(max(0, k))]
    pool.sort()
    # Only the others' current hidden cards and mine are dealt (replaced ones are fixed now).
    for o in range(n):
        if o != seat:
            for i in range(size):
                ref(o, i)
    current = set(mine) | {r for o in range(n) if o != seat for r in grids[o]}
    hidden[:] = [r for r in hidden if r in current]
    # Constrained cards first, so that the pool still holds low cards for them.
    hidden.sort(key=lambda r: (r not in bound, bound.get(r, 0.0)))
    others = {o: Seat(grids[o], knows[o], turns[o], set(grids[o])) for o in range(n)
              if o != seat and not view["resigned"][o]}
    deck_points = [points[c] for c in tables.deck]
    gains = _gains(deck_points, set(deck_points) | {mean})
    return Reading(seat, size, mean, gains, fixed, hidden, bound, pool,
                   [points[c] for c in pile[:-1]], view["stock"],
                   points[view["discard"]] if view.get("discard") is not None else None, mine, others, estimate)


def _start(grids, knows, o, size, ref, pile, points, lead):
    refs = tuple(ref(o, i) for i in range(size))
    return refs, tuple(knows[o]), (points[pile[-1]] if pile else None), lead


def _unhide(hidden: list[int], bound: dict, r: int) -> None:
    if r in hidden:
        hidden.remove(r)
    bound.pop(r, None)
