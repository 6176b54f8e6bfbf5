"""States rebuilt from a seat's view, and the strong robot's search, for `golfdeck` and `golf`.

`rebuild(game, view, seat, options, rng)` makes an engine state that shows the seat exactly its
view: what the view shows is put where it shows it, and the cards the view does not show are
shuffled with `rng` into the places it hides (face-down cards, the stock, the discard pile below
its top). The state plays the current hole only: it ends when the hole does.

`search` plays every candidate move on the same sampled states and each hole to its end
(`rollout`), and returns the candidate with the lowest mean score for the seat.
"""
from __future__ import annotations

from collections import Counter

from ..games import golf as golf_engine
from ..games import golfdeck as deck_engine
from ..games.card_orders import Discard, DiscardFlip, DrawDiscard, DrawStock, Keep, Knock, Peek, Reveal
from ..games.cards import HIDDEN
from ..games.golf_scoring import game_tables, layout_score
from ..games.rng import Generator

__all__ = ["game_of", "rebuild", "default_move", "candidates", "search", "rollout"]

# How many sampled states the search plays each candidate on (a fixed count, never a clock, so
# that a move can be recomputed exactly), and the rollouts it allows a decision in all.
MIN_SAMPLES = 6
MAX_SAMPLES = 40
ROLLOUTS = 150
HORIZON_ROUNDS = 3  # turns round the table a rollout plays before it values the layouts
MOVE_CAP = 2_000  # moves in one rollout: far beyond a real hole


def game_of(view: dict, options: dict) -> str:
    kind = view.get("type") or view.get("game") or options.get("TYPE") or options.get("type")
    if kind not in ("golf", "golfdeck"):
        raise ValueError(f"not a card game this robot plays: {kind!r}")
    return kind


def _generator(rng) -> Generator:
    return Generator(rng.below(1 << 62).to_bytes(8, "big") * 2)


def _fill(pool: list[str], rng) -> list[str]:
    rng.shuffle(pool)
    return pool


# -- golfdeck --------------------------------------------------------------------------------
def _unseen(deck, view: dict, drawn, known=()) -> list[str]:
    """The cards of `deck` the seat has not seen: all but the face-up ones, the discard's top,
    the drawn card and the `known` ones, in sorted order (the sample's shuffle comes after)."""
    unseen = Counter(deck)
    seen = [c for g in view["grids"] for c in g if c != HIDDEN]
    seen += [c for c in (view["discard"], drawn) if c is not None] + list(known)
    unseen.subtract(seen)
    return sorted(unseen.elements())


def _deck_state(view: dict, seat: int, options: dict, rng) -> deck_engine.GolfDeck:
    names = list(view["names"])
    n = len(names)
    opts = {"nmr": options.get("nmr", "default"), "holes": view["hole"], "game": view["game_number"]}
    s = deck_engine.GolfDeck(names, opts, _generator(rng))
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
    pool = _fill(_unseen(deck_engine.DECK, view, s.drawn), rng)
    grid, up = [], []
    for g in shown:
        grid.append([pool.pop() if c == HIDDEN else c for c in g])
        up.append([not revealing and c != HIDDEN for c in g])
    s.grid, s.up = grid, up
    stock = view["stock"]
    s.stock = [pool.pop() for _ in range(stock)]
    s.discard = pool + ([top] if top is not None else [])
    pairs = deck_engine.REVEAL_PAIRS
    s.default_reveals = [pairs[rng.below(len(pairs))] for _ in range(n)]
    if revealing:
        s.reveals = [None] * n
        for o, done in enumerate(view["revealed"]):
            if done:
                if o == seat:
                    mine = [p for p, c in enumerate(shown[o], start=1) if c != HIDDEN]
                    s.reveals[o] = (mine[0], mine[1]) if len(mine) == 2 else (1, 2)
                else:
                    r = s.default_reveals[o]
                    s.reveals[o] = (r.first, r.second)
    else:
        s.reveals = [(1, 2)] * n
    s.holes, s.events, s.shuffles = [], [], []
    return s


def _deck_clone(s: deck_engine.GolfDeck) -> deck_engine.GolfDeck:
    c = object.__new__(deck_engine.GolfDeck)
    d = dict(s.__dict__)
    d["grid"] = [g[:] for g in s.grid]
    d["up"] = [u[:] for u in s.up]
    d["stock"], d["discard"], d["reveals"] = s.stock[:], s.discard[:], s.reveals[:]
    d["totals"], d["resigned"], d["holes"], d["events"] = s.totals[:], s.resigned[:], [], []
    c.__dict__ = d
    return c


# -- golf ------------------------------------------------------------------------------------
def _golf_state(view: dict, seat: int, options: dict, rng) -> golf_engine.Golf:
    names = list(view["names"])
    n = len(names)
    opts = dict(view["options"])
    opts["holes"], opts["target"] = view["hole"], 0  # the state plays this hole only
    s = golf_engine.Golf(names, opts, _generator(rng))
    size = s.size
    s.hole_no, s.dealer, s.current = view["hole"], view["dealer"], view["current"]
    s._turn = view["turn"]
    s.knocker = view["knocker"]
    s.final = list(view["final_turns"]) if view["last_round"] else None
    s.drawn = view.get("drawn")
    s.resigned = list(view["resigned"])
    s.totals = [0] * n
    s.paid = list(view["peeks_paid"])
    seen = {int(p): c for p, c in (view.get("seen") or {}).items()}
    shown, top = view["grids"], view["discard"]
    pool = _fill(_unseen(s.deck, view, s.drawn, seen.values()), rng)
    grids = []
    for o, g in enumerate(shown):
        row = []
        for p, c in enumerate(g, start=1):
            if c == HIDDEN:
                c = seen[p] if o == seat and p in seen else pool.pop()
            row.append(c)
        grids.append(row)
    s.grids = grids
    s.up = [list(u) for u in view["face_up"]]
    deal_seen = list(s.seen_at_deal)
    s.known = [deal_seen[:] for _ in range(n)]
    s.start_seen = [deal_seen[:] for _ in range(n)]
    s.replaced = [[False] * size for _ in range(n)]
    s.peeks_left, s.started = [0] * n, [True] * n
    own_known = [p in seen or s.up[seat][p - 1] for p in s.positions]
    s.known[seat] = own_known
    free = set(view.get("replaceable") or s.positions)
    for p in s.positions:
        if p not in free:  # replaced once already (replace_unseen_once): locked
            s.replaced[seat][p - 1], s.start_seen[seat][p - 1] = True, False
    looks = view.get("peekable") or []
    if looks and s.options["peek"] in golf_engine.FREE_PEEKS:
        s.peeks_left[seat] = max(1, golf_engine.FREE_PEEKS[s.options["peek"]] - len(seen))
        s.started[seat] = False
    s.stock = [pool.pop() for _ in range(view["stock"])]
    s.discard = pool + ([top] if top is not None else [])
    s.rebuilt = False
    s.holes, s.events, s.shuffles = [], [], []
    return s


def _golf_clone(s: golf_engine.Golf) -> golf_engine.Golf:
    c = object.__new__(golf_engine.Golf)
    d = dict(s.__dict__)
    for k in ("grids", "up", "known", "start_seen", "replaced"):
        d[k] = [row[:] for row in d[k]]
    for k in ("stock", "discard", "peeks_left", "paid", "started", "totals", "resigned"):
        d[k] = d[k][:]
    d["final"] = None if s.final is None else s.final[:]
    d["holes"], d["events"], d["shuffles"] = [], [], []
    d["rng"] = Generator.restore(s.rng.state())
    c.__dict__ = d
    return c


def rebuild(game: str, view: dict, seat: int, options: dict, rng):
    return (_deck_state if game == "golfdeck" else _golf_state)(view, seat, options, rng)


def clone(state):
    return _deck_clone(state) if state.TYPE == "golfdeck" else _golf_clone(state)


# -- easy ------------------------------------------------------------------------------------
def default_move(game: str, view: dict, seat: int, options: dict, rng):
    if game == "golfdeck" and view["phase"] == "reveal":
        pairs = deck_engine.REVEAL_PAIRS
        return pairs[rng.below(len(pairs))]
    state = rebuild(game, view, seat, options, rng)
    order = state.default_orders(seat)
    if order is None:
        raise ValueError("this seat owes no order now")
    return order


# -- strong ----------------------------------------------------------------------------------
def _golf_estimate(state: golf_engine.Golf, seat: int) -> float:
    g, up, known = state.grids[seat], state.up[seat], state.known[seat]
    mine = [c if up[i] or known[i] else HIDDEN for i, c in enumerate(g)]
    return layout_score(mine, state.cols, state.guess, state.options["pairs"],
                        bool(state.options["one_eyed_jacks_wild"]))[2]


def _knock_limit(state: golf_engine.Golf) -> float:
    return 2.0 * state.size


def _policy(state, seat: int, me: int):
    """The rollouts' player: the missed-deadline play, and for the searching seat in `golf`
    with the knock ending, a knock once its layout as it knows it is low enough."""
    if (seat == me and state.TYPE == "golf" and not state.faceup and state.knocker is None
            and state.drawn is None and state.final is None):
        if _golf_estimate(state, seat) <= _knock_limit(state):
            return _KNOCK
    return state.default_orders(seat)


_KNOCK = Knock()


def _scores(state) -> list:
    """Every seat's score of its layout as it lies in the sample (face-down cards too)."""
    if state.TYPE == "golfdeck":
        return [deck_engine.score_grid(g)[0] for g in state.grid]
    pairs, wild = state.options["pairs"], bool(state.options["one_eyed_jacks_wild"])
    return [layout_score(g, state.cols, state.points, pairs, wild)[2] for g in state.grids]


def _value(scores: list, me: int) -> float:
    """What the search lowers: the seat's own score (the others' are noise it cannot steer)."""
    return scores[me]


def rollout(state, me: int, horizon: int) -> float:
    """Play on from `state` (changed in place) to the hole's end or `horizon` more turns, and
    value the layouts as they then lie for the seat `me` (`_value`)."""
    stop = state._turn + horizon
    moves = 0
    while state._result is None and state._turn < stop and moves < MOVE_CAP:
        seat = min(state.to_move())
        state.apply(seat, _policy(state, seat, me))
        moves += 1
        if len(state.events) > 64:
            state.events.clear()
    if state.holes:
        return _value(state.holes[-1]["scores"], me)
    return _value(_scores(state), me)


def candidates(game: str, view: dict, seat: int) -> list:
    """The moves the search weighs (every atomic legal move but RESIGN, less some plainly
    bad or equivalent ones)."""
    if game == "golfdeck":
        if view["phase"] == "reveal":
            return [Reveal(1, 4), Reveal(1, 2), Reveal(1, 5)]  # a column, a row pair, apart
        mine = view["grids"][seat]
        down = [p for p, c in enumerate(mine, start=1) if c == HIDDEN]
        if view.get("drawn") is None:
            return [DrawStock()] + [DrawDiscard(p) for p in range(1, 7)]
        return [Keep(p) for p in range(1, 7)] + [DiscardFlip(p) for p in down]
    opts = view["options"]
    free = view.get("replaceable") or list(range(1, opts["layout"] + 1))
    if view.get("drawn") is not None:
        return [Keep(p) for p in free] + [Discard()]
    out = [DrawStock()] + [DrawDiscard(p) for p in free]
    looks = view.get("peekable") or []
    if looks and opts["peek"] != "paid":
        out = [Peek(looks[0])]  # a free look costs nothing: take it (nearest unseen first)
        return out
    if opts["ending"] == "knock" and view["knocker"] is None:
        out.append(Knock())
    return out


def search(game: str, view: dict, seat: int, options: dict, rng):
    moves = candidates(game, view, seat)
    if len(moves) == 1:
        return moves[0]
    samples = max(MIN_SAMPLES, min(MAX_SAMPLES, ROLLOUTS // len(moves)))
    totals = [0.0] * len(moves)
    horizon = HORIZON_ROUNDS * len(view["names"])
    legal = [True] * len(moves)
    for _ in range(samples):
        base = rebuild(game, view, seat, options, rng)
        for i, move in enumerate(moves):
            if not legal[i]:
                continue
            trial = clone(base)
            try:
                trial.apply(seat, move)
            except Exception:  # not legal here after all: never chosen
                legal[i] = False
                continue
            totals[i] += rollout(trial, seat, horizon)
    best = min((t, i) for i, t in enumerate(totals) if legal[i])[1]
    return moves[best]
