"""On Par's robot (CONTRACT section 12): `easy` plays what a missed deadline plays, `strong`
searches over determinized deals.

A seat sees the course, every ball and stroke count, its own hand, the size of every other hand,
of the draw pile and of the discards, and the cards played face up since the pile was last made.
Every other distance card is somewhere it cannot see: in another hand, face down in the
discards or in the draw pile. A robot rebuilds the hole as a pure engine state consistent with
its view, dealing those unseen cards out at random from its own stream (`rebuild`):

- `easy` asks that state for the engine's `default_orders` (which reads only the seat's own
  hand, the balls and the course, so the cards dealt at random never change it).
- `strong` deals several such states and plays every legal order (`onpar_play.legal_orders`)
  on each, then the rest of the hole with everyone (itself included) playing what a missed
  deadline plays, but a trap held at once on the ball furthest on (as a player who holds one
  mostly does: the missed deadline's orders never trap, so a search on them alone neither fears
  the others' traps nor values its own); all orders are tried on the same deals (common random numbers), the orders
  doing worst after the first deals are dropped, and the order with the best mean wins. A
  playout is scored by the seat's hole score against the best other seat's (the loser rule: its
  strokes plus the course cards still ahead of a ball not holed), with a bonus for winning or
  sharing the hole.

The budget is a fixed count of deals and playouts, never a clock, so a decision is a function of
the view and the stream alone (`pbem verify` recomputes it).
"""
from __future__ import annotations

from pbem.errors import BadValue
from pbem.games.errors import NoMoveNow
from pbem.games.onpar import course as oc
from pbem.games.onpar import play
from pbem.games.onpar.engine import OnPar
from pbem.games.onpar.orders import Trap
from pbem.games.rng import Generator

__all__ = ["VERSION", "decide", "rebuild"]

VERSION = "onpar-search-2"

# The search's budget: deals for every order, then the orders kept and the deals added for them.
FIRST_DEALS = 12
KEPT = 4
MORE_DEALS = 20
MOVES_MOST = 600  # a playout longer than this is scored where it stands
WIN_BONUS = 2.0
PLAYOUT_TRAPS = "all"  # who plays a trap held at once in a playout: "all", "others" or "none"


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    if seat not in view.get("to_move", ()):
        raise NoMoveNow("this seat owes no order now")
    state = rebuild(view, seat, rng)
    if level == "easy":
        return str(state.default_orders(seat))
    return str(_search(view, seat, state, rng))


# -- a state consistent with the view ---------------------------------------------------------
def unseen_cards(view: dict) -> list[str]:
    """The distance cards the seat cannot place: the whole deck less its hand and the cards on
    the table (played since the draw pile was last made)."""
    opts = view["options"]
    cards = oc.distance_deck(bool(opts["skill_shots"]), bool(opts["traps"]))
    for card in list(view["hand"]) + list(view["played"]):
        cards.remove(card)
    return cards


def rebuild(view: dict, seat: int, rng) -> OnPar:
    """The hole in play as an engine state: what the view shows as it is, the unseen cards dealt
    at random into the other hands, the discards and the draw pile (sizes as the view gives);
    the hole is made the game's last, so that a playout ends with it. Its own shuffles draw on a
    generator seeded from `rng`."""
    names = list(view["names"])
    n = len(names)
    opts = view["options"]
    handicap = ",".join(f"{s + 1}:{h}" for s, h in enumerate(view["handicaps"]) if h)
    options = {"nmr": "autoplay", "holes": view["hole"], "hazards": bool(opts["hazards"]),
               "skill_shots": bool(opts["skill_shots"]), "traps": bool(opts["traps"]), "handicap": handicap}
    state = OnPar(names, options, list(view["pars"][:view["hole"]]), _generator(rng))
    state.hole_no = view["hole"]
    state.course = [(c["card"], c["spaces"]) for c in view["course"]]
    state.layout = oc.Layout(state.course)
    state.balls = [b["space"] for b in view["balls"]]
    state.strokes = [b["strokes"] for b in view["balls"]]
    state.starter, state.current = view["starter"], view["current"]
    state.skips = list(view["skips"])
    state.totals = list(view["totals"])
    state.holes = [dict(h) for h in view["holes"]]
    state.resigned = list(view["resigned"])
    state._turn = view["turn"]
    state.fresh = [None] * n
    state.fresh[seat] = view["drawn"]
    state.played = list(view["played"])
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    sizes = view["hand_sizes"]
    if sum(sizes) - sizes[seat] + view["discards"] + view["draw_pile"] != len(unseen):
        raise BadValue("the view's card counts do not add up to the deck")
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(unseen[:sizes[s]])
            del unseen[:sizes[s]]
    state.hands = hands
    state.discards = unseen[:view["discards"]]
    state.draw = unseen[view["discards"]:]
    return state


def _generator(rng) -> Generator:
    return Generator(b"".join(rng.below(1 << 64).to_bytes(8, "big") for _ in range(4)))


# -- the search ----------------------------------------------------------------------------------
def _search(view: dict, seat: int, first: OnPar, rng):
    orders = play.legal_orders(first, seat)
    if len(orders) == 1:
        return orders[0]
    deals = [first] + [rebuild(view, seat, rng) for _ in range(FIRST_DEALS - 1)]
    totals = [0.0] * len(orders)
    for deal in deals:
        for i, order in enumerate(orders):
            totals[i] += _playout(deal, seat, order)
    ranked = sorted(range(len(orders)), key=lambda i: -totals[i])[:KEPT]
    if len(ranked) > 1:
        for _ in range(MORE_DEALS):
            deal = rebuild(view, seat, rng)
            for i in ranked:
                totals[i] += _playout(deal, seat, orders[i])
    best = max(ranked, key=lambda i: totals[i])  # ties: the earlier in legal_orders' order
    return orders[best]


def _playout(deal: OnPar, seat: int, order) -> float:
    """The value for `seat` of playing `order` on `deal`, then the hole out by default orders."""
    s = deal.playout_copy()
    s.apply(seat, order)
    moves = 0
    while s._result is None and moves < MOVES_MOST:
        mover = s.current
        s.apply(mover, _playout_orders(s, mover, seat))
        s.events.clear()
        moves += 1
    if s.holes and len(s.holes) > len(deal.holes):
        scores = s.holes[-1]["strokes"]
    else:
        scores = [s.strokes[k] + s.layout.cards_ahead(s.balls[k]) for k in range(s.n)]
    others = [scores[k] for k in range(s.n) if k != seat and not s.resigned[k]]
    if not others:
        return -scores[seat]
    best_other = min(others)
    return (best_other - scores[seat]) + (WIN_BONUS if scores[seat] <= best_other else 0.0)


def _playout_orders(state: OnPar, mover: int, seat: int):
    """A playout's orders: what a missed deadline plays, but a trap held is played at once on
    the ball furthest on (by the other seats, or by every seat, as PLAYOUT_TRAPS says)."""
    if PLAYOUT_TRAPS == "all" or (PLAYOUT_TRAPS == "others" and mover != seat):
        hand = state.hands[mover]
        cards = [c for c in oc.TRAPS if c in hand]
        if cards:
            victims = play.trap_victims(state, mover)
            if victims:
                return Trap(cards[0], play.called(state.names, victims[0]))
    return play.default_orders(state, mover)
