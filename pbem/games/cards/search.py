"""States rebuilt from a seat's view, and the strong robot's search, for `golfdeck` and `golf`.

`rebuild(game, view, seat, options, rng)` makes an engine state that shows the seat exactly its
view: what the view shows is put where it shows it, and the cards the view does not show are
dealt with `rng` into the places it hides (face-down cards, the stock, the discard pile below
its top). The state plays the current hole only: it ends when the hole does.

Where the hidden cards lie is not uniform in classic `golf` with the knock ending: a replaced
card goes face down, so after some turns the others' layouts hold the low cards they chose to
keep and the pile the high ones they threw. The rebuild therefore deals the others a random
layout and then plays their turns so far (as many as the view's turn count gives each) as the
missed-deadline player plays them, each turn looking at cards of the unseen pool
(`_improve_others`): a layout, and what its owner knows of it, as a table of such players
would have after so many turns. In `golfdeck` a face-down card is unknown to its owner too and
a kept card lies face up, so a uniform deal of the unseen cards is already the right sample.

`search`, golfdeck: plays every candidate move on the same sampled states and the hole out
from each (`rollout`), and returns the candidate with the lowest mean value: the seat's hole
score less the mean of the others' (`_value`), so that the hole is ended (a grid turned up)
when the seat is ahead, not merely low. golf: nobody but the robot knocks, so the hole is the
robot's to end; it knocks when it wins often enough on sampled tables (`knock_pays`), and its
card moves follow an exact one-turn expectation (`golf_card_move`); rollouts of golf's card
moves proved too noisy to beat that at a decision's budget.
"""
from __future__ import annotations

from collections import Counter

from pbem.games.golf import engine as golf_engine
from pbem.games.golfdeck import engine as deck_engine
from pbem.games.cards.orders import Discard, DiscardFlip, DrawDiscard, DrawStock, Keep, Knock, Reveal
from pbem.games.cards.deck import HIDDEN
from pbem.games.golf.scoring import best_spot, game_tables, layout_score
from pbem.games.rng import Generator

__all__ = ["game_of", "rebuild", "clone", "default_move", "candidates", "search", "rollout"]

# golfdeck's search: every candidate on `SAMPLES` sampled states, then the `FINALISTS` best and
# the missed-deadline move on `FINAL_SAMPLES` more. Fixed counts, never a clock, so that a move
# can be recomputed exactly; the rollouts play the hole out (some 20 moves).
SAMPLES = 24
FINAL_SAMPLES = 96
FINALISTS = 3
MARGIN = 0.25  # points a sample another move must beat the missed-deadline move by
MOVE_CAP = 2_000  # moves in one rollout: far beyond a real hole
# The pace of the others' simulated turns against their real ones in golf's rebuild: without
# the other seats' throws to pick from, the simulation improves a layout a little slower.
OTHERS_PACE = 1.3
# Golf's knock: the sampled tables it is tried on, and the share of them it must win or share:
# `KNOCK_WINS`, falling to `KNOCK_WINS_LATE` from `SETTLED` rounds on (when the easy table has
# settled, near 12 rounds: waiting then wins less and less), over `LATE` rounds.
KNOCK_SAMPLES = 48
KNOCK_WINS = 0.5
KNOCK_WINS_LATE = 0.25
SETTLED, LATE = 10, 6
# Layouts whose knock must also beat waiting (cards-3): on the same sampled tables the hole is
# played out once after a knock and once with the seat never knocking, and the knock needs
# `KNOCK_EDGE` more of its tables won or shared, besides its own thresholds (by layout: (wins,
# late wins)). Tuned on the 2x3 layout, where knocking at 50% won less than never knocking;
# the square keeps cards-2's rule (not re-measured in time).
KNOCK_VS_WAIT = {6: (0.3, 0.2)}
KNOCK_EDGE = 0.1


def game_of(view: dict, options: dict) -> str:
    kind = view.get("type") or view.get("game") or options.get("TYPE") or options.get("type")
    if kind not in ("golf", "golfdeck"):
        raise ValueError(f"not a card game this robot plays: {kind!r}")
    return kind


def _generator(rng) -> Generator:
    return Generator(rng.below(1 << 62).to_bytes(8, "big") * 2)


def _unseen(deck, view: dict, drawn, known=()) -> list[str]:
    """The cards of `deck` the seat has not seen: all but the face-up ones, the discard's top,
    the drawn card and the `known` ones, shuffled by the caller."""
    unseen = Counter(deck)
    seen = [c for g in view["grids"] for c in g if c != HIDDEN]
    seen += [c for c in (view["discard"], drawn) if c is not None] + list(known)
    unseen.subtract(seen)
    return sorted(unseen.elements())


# -- golfdeck --------------------------------------------------------------------------------
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
    pool = _unseen(deck_engine.DECK, view, s.drawn)
    rng.shuffle(pool)
    s.grid = [[pool.pop() if c == HIDDEN else c for c in g] for g in shown]
    s.up = [[not revealing and c != HIDDEN for c in g] for g in shown]
    s.stock = [pool.pop() for _ in range(view["stock"])]
    s.discard = pool + ([top] if top is not None else [])
    pairs = deck_engine.REVEAL_PAIRS
    s.default_reveals = [pairs[rng.below(len(pairs))] for _ in range(n)]
    s.reveals = _deck_reveals(view, seat, s.default_reveals) if revealing else [(1, 2)] * n
    s.holes, s.events, s.shuffles = [], [], []
    return s


def _deck_reveals(view: dict, seat: int, defaults: list) -> list:
    """The reveals made so far: the seat's own as its view shows them, another seat's (unseen
    until all are in) as its default pair."""
    reveals = [None] * len(view["names"])
    for o, done in enumerate(view["revealed"]):
        if not done:
            continue
        if o == seat:
            mine = [p for p, c in enumerate(view["grids"][o], start=1) if c != HIDDEN]
            reveals[o] = (mine[0], mine[1]) if len(mine) == 2 else (1, 2)
        else:
            reveals[o] = (defaults[o].first, defaults[o].second)
    return reveals


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
    s.hole_no, s.dealer, s.current = view["hole"], view["dealer"], view["current"]
    s._turn = view["turn"]
    s.knocker = view["knocker"]
    s.final = list(view["final_turns"]) if view["last_round"] else None
    s.drawn = view.get("drawn")
    s.resigned = list(view["resigned"])
    s.totals = [0] * n
    s.paid = list(view["peeks_paid"])
    s.up = [list(u) for u in view["face_up"]]
    seen = {int(p): c for p, c in (view.get("seen") or {}).items()}
    pool = _unseen(s.deck, view, s.drawn, seen.values())
    rng.shuffle(pool)
    s.grids = [[(seen[p] if o == seat and p in seen else pool.pop()) if c == HIDDEN else c
                for p, c in enumerate(g, start=1)] for o, g in enumerate(view["grids"])]
    _golf_knowledge(s, view, seat, seen)
    if not s.faceup:
        pool = _improve_others(s, seat, pool, _turns_taken(s, view), rng)
        rng.shuffle(pool)
    s.stock = [pool.pop() for _ in range(view["stock"])]
    s.discard = pool + ([view["discard"]] if view["discard"] is not None else [])
    s.rebuilt = False
    s.holes, s.events, s.shuffles = [], [], []
    return s


def _golf_knowledge(s: golf_engine.Golf, view: dict, seat: int, seen: dict) -> None:
    """What every seat knows of its own layout: the seat as its view says; the others as the
    deal shows them (their turns so far, `_improve_others`, add what they kept)."""
    n, size = s.n, s.size
    deal_seen = list(s.seen_at_deal)
    s.known = [deal_seen[:] for _ in range(n)]
    s.start_seen = [deal_seen[:] for _ in range(n)]
    s.replaced = [[False] * size for _ in range(n)]
    s.peeks_left, s.started = [0] * n, [True] * n
    s.known[seat] = [p in seen or s.up[seat][p - 1] for p in s.positions]
    free = set(view.get("replaceable") or s.positions)
    for p in s.positions:
        if p not in free:  # replaced once already (replace_unseen_once): locked
            s.replaced[seat][p - 1], s.start_seen[seat][p - 1] = True, False
    looks = view.get("peekable") or []
    if looks and s.options["peek"] in golf_engine.FREE_PEEKS:
        s.peeks_left[seat] = max(1, golf_engine.FREE_PEEKS[s.options["peek"]] - len(seen))
        s.started[seat] = False


def _turns_taken(s: golf_engine.Golf, view: dict) -> list[int]:
    """How many turns each seat has had this hole: exact on the first hole (the view's turn
    counts the game's turns), else as many as the stock draws the discard pile shows."""
    n = s.n
    if view["hole"] == 1:
        done = view["turn"] - 1
    else:
        done = max(0, len(s.deck) - n * s.size - view["stock"] - 1 - (view.get("drawn") is not None))
    first = (view["dealer"] + 1) % n
    return [round(OTHERS_PACE * sum(1 for i in range(done) if (first + i) % n == o)) for o in range(n)]


def _improve_others(s: golf_engine.Golf, seat: int, pool: list, turns: list[int], rng) -> list:
    """Play the others' turns so far, round by round, as the missed-deadline player plays them
    on a table of its own kind: take the discard's top where it lowers the layout as its owner
    knows it, else draw a card of the unseen `pool` and keep it where it lowers it, else throw
    it. A kept card is known to its owner; the card it replaced becomes the discard's top.
    Returns the cards left unseen (the pool and the pile so made)."""
    others = [o for o in range(s.n) if o != seat and not s.resigned[o]]
    thrown = []
    for r in range(max((turns[o] for o in others), default=0)):
        for o in others:
            if r >= turns[o]:
                continue
            if not pool:  # the stock is rebuilt from the pile but its top
                pool, thrown = thrown[:-1], thrown[-1:]
                if not pool:
                    continue
            if r == 0 and s.options["peek"] in golf_engine.FREE_PEEKS:
                _first_looks(s, o)
            top = thrown.pop() if thrown else None
            spot = None if top is None else _spot(s, o, top)
            if spot is None:
                if top is not None:
                    thrown.append(top)
                i = rng.below(len(pool))
                top, pool[i] = pool[i], pool[-1]
                pool.pop()
                spot = _spot(s, o, top)
            if spot is None:
                thrown.append(top)
                continue
            thrown.append(s.grids[o][spot - 1])
            s.grids[o][spot - 1] = top
            s.known[o][spot - 1] = s.replaced[o][spot - 1] = True
    return pool + thrown


def _first_looks(s: golf_engine.Golf, o: int) -> None:
    """The free looks the missed-deadline player takes on its first turn: nearest first."""
    for p in golf_engine.LOOK_ORDER[s.size][:golf_engine.FREE_PEEKS[s.options["peek"]]]:
        s.known[o][p - 1] = s.start_seen[o][p - 1] = True


def _spot(s: golf_engine.Golf, o: int, card: str) -> int | None:
    """Where the missed-deadline player of seat `o` would put `card` (None: nowhere)."""
    g, known, guess = s.grids[o], s.known[o], s.guess
    options = s.options
    if options["pairs"] == "none" and not options["one_eyed_jacks_wild"] and not s.once:
        worst, spot = guess[card] + 1e-9, None
        for i, c in enumerate(g):
            value = guess[c] if known[i] else guess[HIDDEN]
            if value > worst:
                worst, spot = value, i + 1
        return spot
    mine = [c if known[i] else HIDDEN for i, c in enumerate(g)]
    return best_spot(mine, card, s.replaceable(o), s.cols, guess, options["pairs"],
                     bool(options["one_eyed_jacks_wild"]))


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
def _policy(state, seat: int, me: int):
    """The rollouts' player: the missed-deadline play (which never knocks); golfdeck's by
    `_deck_default`, the same rule worked column by column."""
    if state.TYPE == "golfdeck" and not state.revealing:
        return _deck_default(state, seat)
    return state.default_orders(seat)


_POINTS = deck_engine.POINTS
_UNSEEN = deck_engine.UNSEEN
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


_KNOCK = Knock()


def _scores(state) -> list:
    """Every seat's score of its layout as it lies in the sample (face-down cards too)."""
    if state.TYPE == "golfdeck":
        return [deck_engine.score_grid(g)[0] for g in state.grid]
    pairs, wild = state.options["pairs"], bool(state.options["one_eyed_jacks_wild"])
    return [layout_score(g, state.cols, state.points, pairs, wild)[2] + paid
            for g, paid in zip(state.grids, state.paid)]


def _value(scores: list, me: int) -> float:
    """What the search lowers: the seat's score less the others' mean, the hole's margin that
    the seat can steer (when to end it, what it leaves them on the discard)."""
    others = [s for i, s in enumerate(scores) if i != me]
    return scores[me] - sum(others) / len(others)


def rollout(state, me: int, horizon: int = MOVE_CAP) -> float:
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
    points = deck_engine.POINTS
    if partner == HIDDEN:
        return points[card] >= points[here]
    return _column(card, partner) >= _column(here, partner)


def _column(a: str, b: str) -> int:
    return 0 if a == b else deck_engine.POINTS[a] + deck_engine.POINTS[b]


def search(game: str, view: dict, seat: int, options: dict, rng):
    """The strong move. `golf`: a knock when it wins often enough (`knock_pays`), else the card
    move that saves most this turn (`golf_card_move`; the missed-deadline play under house
    rules it does not cover). `golfdeck`: the candidate with the lowest mean rollout value
    over the same sampled states, in two rounds (`SAMPLES`, then `FINAL_SAMPLES` for the
    `FINALISTS` best and the missed-deadline move, which wins unless beaten by `MARGIN`)."""
    if game == "golf":
        if _may_knock(view) and knock_pays(view, seat, options, rng):
            return _KNOCK
        return golf_card_move(view, seat) or default_move(game, view, seat, options, rng)
    moves = candidates(view, seat)
    usual = default_move(game, view, seat, options, rng)
    if usual not in moves:
        moves.append(usual)
    if len(moves) == 1:
        return moves[0]
    first = _tried(moves, SAMPLES, game, view, seat, options, rng)
    ranked = sorted(range(len(moves)), key=lambda i: (first[i], i))
    finalists = [moves[i] for i in ranked[:FINALISTS]]
    if usual not in finalists:
        finalists.append(usual)
    second = _tried(finalists, FINAL_SAMPLES, game, view, seat, options, rng)
    score = {m: (second[i] + first[moves.index(m)]) / (FINAL_SAMPLES + SAMPLES)
             for i, m in enumerate(finalists)}
    score[usual] -= MARGIN
    return min(finalists, key=lambda m: (score[m], finalists.index(m)))


def _tried(moves: list, samples: int, game: str, view: dict, seat: int, options: dict, rng) -> list[float]:
    """Each move's total rollout value over the same `samples` sampled states (an illegal
    move, should a sample refuse it, counts as infinitely bad)."""
    totals = [0.0] * len(moves)
    for _ in range(samples):
        base = rebuild(game, view, seat, options, rng)
        for i, move in enumerate(moves):
            trial = clone(base)
            try:
                trial.apply(seat, move)
            except Exception:
                totals[i] = float("inf")
                continue
            totals[i] += rollout(trial, seat)
    return totals


def _may_knock(view: dict) -> bool:
    return (view["options"]["ending"] == "knock" and view["knocker"] is None
            and view.get("drawn") is None and not view["last_round"])


def golf_card_move(view: dict, seat: int):
    """`golf` without pairs (a layout's score is the sum of its cards): the card move that lowers
    the layout most in expectation over this turn. An unseen own card counts as the mean of the
    cards the seat has not seen; a stock card is worth drawing for the mean, over those cards,
    of what the best place for it would save (nothing where it saves nothing), so the discard
    is taken only where it saves more than a draw would. None: another rule's table."""
    opts = view["options"]
    if opts["pairs"] != "none" or opts["one_eyed_jacks_wild"] or (view.get("peekable") and opts["peek"] != "paid"):
        return None
    tables = game_tables(opts, 2 if len(view["names"]) >= 8 else 1)
    points = tables.points
    seen = {int(p): c for p, c in (view.get("seen") or {}).items()}
    unseen = [points[c] for c in _unseen(tables.deck, view, view.get("drawn"), seen.values())]
    guess = sum(unseen) / len(unseen) if unseen else 0.0
    mine = view["grids"][seat]
    worth = {p: float(points[c]) if c != HIDDEN else points[seen[p]] if p in seen else guess
             for p, c in enumerate(mine, start=1)}
    free = view.get("replaceable", list(worth))
    if not free:  # replace_unseen_once: nothing may be replaced
        return DrawStock() if view.get("drawn") is None else Discard()
    if view.get("drawn") is not None:
        saved, pos = _saving(worth, free, points[view["drawn"]])
        return Keep(pos) if saved > 0 else Discard()
    saved, pos = _saving(worth, free, points[view["discard"]])
    draw = sum(_saving(worth, free, v)[0] for v in unseen) / len(unseen) if unseen else 0.0
    return DrawDiscard(pos) if saved > 0 and saved >= draw else DrawStock()


def _saving(worth: dict, free: list, value: float) -> tuple[float, int]:
    """(what a card of `value` saves at its best free place, that place), 0 where it saves nothing."""
    pos = max(free, key=lambda p: (worth[p], -p))
    return max(0.0, worth[pos] - value), pos


def knock_pays(view: dict, seat: int, options: dict, rng) -> bool:
    """Knock when, over `KNOCK_SAMPLES` sampled tables each played to the hole's end after the
    knock (the others' last turns), the seat wins or shares enough of them (`_knock_wins`); in
    a layout of `KNOCK_VS_WAIT`, also `KNOCK_EDGE` more of them than when it plays the same
    tables out without knocking (the missed-deadline play to the stock's end)."""
    wins = waits = 0
    versus = view["options"]["layout"] in KNOCK_VS_WAIT
    for _ in range(KNOCK_SAMPLES):
        state = rebuild("golf", view, seat, options, rng)
        if versus:
            wait = _golf_clone(state)
            rollout(wait, seat)
            scores = wait.holes[-1]["scores"]
            waits += scores[seat] <= min(scores)
        state.apply(seat, _KNOCK)
        rollout(state, seat)
        scores = state.holes[-1]["scores"]
        wins += scores[seat] <= min(scores)
    if versus and wins < waits + KNOCK_EDGE * KNOCK_SAMPLES:
        return False
    return wins >= _knock_wins(view) * KNOCK_SAMPLES


def _knock_wins(view: dict) -> float:
    """The share of wins a knock needs: `KNOCK_WINS`, falling to `KNOCK_WINS_LATE` once the
    table has settled (`SETTLED` rounds, after which the layouts hardly improve and waiting
    wins less and less), reached `LATE` rounds later."""
    rounds = (view["turn"] - 1) / len(view["names"]) if view["hole"] == 1 else 0
    late = min(1.0, max(0.0, (rounds - SETTLED) / LATE))
    early, end = KNOCK_VS_WAIT.get(view["options"]["layout"], (KNOCK_WINS, KNOCK_WINS_LATE))
    return early + (end - early) * late
