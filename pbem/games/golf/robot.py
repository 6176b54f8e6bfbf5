"""Golf's robot (CONTRACT section 12), from its seat's view alone.

To use the engine it rebuilds a state consistent with the view (`rebuild`): what the view shows
is put where it shows it, and the cards it does not show are dealt from the robot's stream into
the places it hides. Where the hidden cards lie is not uniform with the knock ending: a replaced
card goes face down, so after some turns the others' layouts hold the low cards they chose to
keep and the pile the high ones they threw. The rebuild therefore deals the others a random
layout and then plays their turns so far (as many as the view's turn count gives each) as the
missed-deadline player plays them, each turn looking at cards of the unseen pool
(`_improve_others`). The state plays the current hole only.

- `easy` plays what a missed deadline plays: the engine's `default_orders` on such a state.
- `strong` (cards-5, cards-7), on the plain rules (`reading.readable`: the knock ending, no pairs, the near
  two seen at the deal): the public events are read into weighted samples of the hidden cards
  (`reading`: every card a seat replaced is seen on the pile, so only its never-replaced cards
  and its kept draws are hidden, and its decisions weigh the samples). It knocks when it wins
  (a share counted as its part) `KNOCK_AT` of the sampled tables after every other seat's last
  turn (`knock_chance`); on its own last turn after another's knock it plays the move with the
  best chance of beating the knocker (`last_turn_move`), not the best points; otherwise the
  card move that saves most this turn (`golf_card_move`). cards-7: in the 2x3 layout, where a
  seat read as greedy could knock after that move, the card move is chosen on the samples
  against the greedy's known knock rule (`reply`); the square plays as cards-5.
- `strong` on other rules (cards-4): nobody but the robot knocks, so the hole is the robot's to end; it knocks when its
  layout leads every other as the public events show them (`events_lead`: what each seat took
  from the pile and where it kept a drawn card) and it
  wins or shares enough of the sampled tables played out after the knock (`knock_pays`; in the
  2x3 layout it must also win more of them than by playing the same tables out without
  knocking), and otherwise makes the card move that saves most in expectation this turn
  (`golf_card_move`): rollouts of golf's card moves proved too noisy to beat that exact
  one-turn expectation at a decision's budget.
"""
from __future__ import annotations

from pbem.games.cards import search
from pbem.games.cards.deck import HIDDEN
from pbem.games.cards.orders import Discard, DrawDiscard, DrawStock, Keep, Knock
from pbem.games.errors import NoMoveNow
from pbem.games.golf import engine, reading, reply
from pbem.games.golf.scoring import best_spot, game_tables, layout_score

__all__ = ["VERSION", "decide", "knock_chance", "knock_pays", "last_turn_move", "rebuild", "sample_scores"]

# The card robots' version, as when one module played both card games; golf's own from cards-4
# (the knock also needs the public events' estimate to lead, `events_lead`); cards-5: on the
# plain rules (`reading.readable`) the hole is read from the public events and played for the win.
# cards-7: in the 2x3 layout the card move is chosen against the greedy's known knock (`reply`; the
# name cards-6 went to a branch that was measured and not landed).
VERSION = "cards-7"
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
# cards-4: the knock is weighed only when the seat's layout is at most `LEAD_MOST` points (by the
# layout's size) and `LEAD_BY` below every other layout as the public events show it (a card
# taken from the pile at its points, a drawn card kept there at `reading.KEPT`, any other at the
# mean unseen card). Tuned with contrib/bots/golf_greedy.py, which knocks by the same rule.
LEAD_MOST = {4: 6.0, 6: 12.0}
LEAD_BY = 8.0


def _golf_state(view: dict, seat: int, options: dict, rng) -> engine.Golf:
    names = list(view["names"])
    n = len(names)
    opts = dict(view["options"])
    opts["holes"], opts["target"] = view["hole"], 0  # the state plays this hole only
    s = engine.Golf(names, opts, search.generator(rng))
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
    pool = search.unseen(s.deck, view, s.drawn, seen.values())
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


def _golf_knowledge(s: engine.Golf, view: dict, seat: int, seen: dict) -> None:
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
    if looks and s.options["peek"] in engine.FREE_PEEKS:
        s.peeks_left[seat] = max(1, engine.FREE_PEEKS[s.options["peek"]] - len(seen))
        s.started[seat] = False


def _turns_taken(s: engine.Golf, view: dict) -> list[int]:
    """How many turns each seat has had this hole: exact on the first hole (the view's turn
    counts the game's turns), else as many as the stock draws the discard pile shows."""
    n = s.n
    if view["hole"] == 1:
        done = view["turn"] - 1
    else:
        done = max(0, len(s.deck) - n * s.size - view["stock"] - 1 - (view.get("drawn") is not None))
    first = (view["dealer"] + 1) % n
    return [round(OTHERS_PACE * sum(1 for i in range(done) if (first + i) % n == o)) for o in range(n)]


def _improve_others(s: engine.Golf, seat: int, pool: list, turns: list[int], rng) -> list:
    """Play the others' turns so far, round by round, as the missed-deadline player plays them
    on a table of its own kind: take the discard's top where it lowers the layout as its owner
    knows it, else draw a card of the unseen `pool` and keep it where it lowers it, else throw
    it. A kept card is known to its owner; the card it replaced becomes the discard's top.
    Returns the cards left unseen (the pool and the pile so made)."""
    others = [o for o in range(s.n) if o != seat and not s.resigned[o]]
    thrown: list[str] = []
    for r in range(max((turns[o] for o in others), default=0)):
        for o in others:
            if r >= turns[o]:
                continue
            if not pool:  # the stock is rebuilt from the pile but its top
                pool, thrown = thrown[:-1], thrown[-1:]
                if not pool:
                    continue
            if r == 0 and s.options["peek"] in engine.FREE_PEEKS:
                _first_looks(s, o)
            top = thrown.pop() if thrown else None
            spot = None if top is None else _spot(s, o, top)
            if top is None or spot is None:  # (no spot without a card)
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


def _first_looks(s: engine.Golf, o: int) -> None:
    """The free looks the missed-deadline player takes on its first turn: nearest first."""
    for p in engine.LOOK_ORDER[s.size][:engine.FREE_PEEKS[s.options["peek"]]]:
        s.known[o][p - 1] = s.start_seen[o][p - 1] = True


def _spot(s: engine.Golf, o: int, card: str) -> int | None:
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


def rebuild(view: dict, seat: int, options: dict, rng) -> engine.Golf:
    return _golf_state(view, seat, options, rng)


def default_move(view: dict, seat: int, options: dict, rng):
    order = rebuild(view, seat, options, rng).default_orders(seat)
    if order is None:
        raise NoMoveNow("this seat owes no order now")
    return order


def strong_move(view: dict, seat: int, options: dict, rng):
    """A knock when it wins often enough (`knock_pays`), else the card move that saves most this
    turn (`golf_card_move`; the missed-deadline play under house rules it does not cover)."""
    if reading.readable(view["options"], len(view["names"])):
        if view["last_round"] and view["knocker"] is not None and view["knocker"] != seat:
            return last_turn_move(view, seat, rng)
        if _may_knock(view) and knock_chance(view, seat, rng) >= KNOCK_AT:
            return _KNOCK
        plain = golf_card_move(view, seat)
        move = reply.card_move(view, seat, plain, lambda r: _samples(r, rng))
        return move or plain or default_move(view, seat, options, rng)
    if _may_knock(view) and events_lead(view, seat) and knock_pays(view, seat, options, rng):
        return _KNOCK
    return golf_card_move(view, seat) or default_move(view, seat, options, rng)


def _policy(state, seat: int, me: int, facts=None):
    """The rollouts' player: the missed-deadline play (which never knocks; no facts beside the
    state)."""
    return state.default_orders(seat)


def sample_scores(state) -> list:
    """Every seat's score of its layout as it lies in the sample (face-down cards too)."""
    pairs, wild = state.options["pairs"], bool(state.options["one_eyed_jacks_wild"])
    return [layout_score(g, state.cols, state.points, pairs, wild)[2] + paid
            for g, paid in zip(state.grids, state.paid)]


_KNOCK = Knock()


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
    unseen = [points[c] for c in search.unseen(tables.deck, view, view.get("drawn"), seen.values())]
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


def events_lead(view: dict, seat: int) -> bool:
    """The seat's layout, its unseen cards at the mean of the cards it has not seen (the pile
    counted from the public events), is at most `LEAD_MOST` and `LEAD_BY` below every other
    layout in play as the events show it: what each seat took from the pile where it put it,
    `reading.KEPT` where it kept a drawn card, the mean elsewhere."""
    opts = view["options"]
    points = game_tables(opts, 2 if len(view["names"]) >= 8 else 1).points
    n = len(view["names"])
    pile, placed = reading.public_layouts(view, points)
    seen = {int(p): c for p, c in (view.get("seen") or {}).items()}
    left = search.unseen(game_tables(opts, 2 if n >= 8 else 1).deck, view, view.get("drawn"),
                         list(seen.values()) + pile[:-1])
    mean = sum(points[c] for c in left) / len(left) if left else 0.0
    grid = view["grids"][seat]
    mine = sum(points[c] if c != HIDDEN else points[seen[p]] if p in seen else mean
               for p, c in enumerate(grid, start=1))
    theirs = [sum(placed[o].get(p, mean) for p in range(1, len(grid) + 1))
              for o in range(n) if o != seat and not view["resigned"][o]]
    return mine <= LEAD_MOST.get(len(grid), LEAD_MOST[4]) and all(mine + LEAD_BY <= t for t in theirs)


def knock_pays(view: dict, seat: int, options: dict, rng) -> bool:
    """Knock when, over `KNOCK_SAMPLES` sampled tables each played to the hole's end after the
    knock (the others' last turns), the seat wins or shares enough of them (`_knock_wins`); in
    a layout of `KNOCK_VS_WAIT`, also `KNOCK_EDGE` more of them than when it plays the same
    tables out without knocking (the missed-deadline play to the stock's end)."""
    wins = waits = 0
    versus = view["options"]["layout"] in KNOCK_VS_WAIT
    for _ in range(KNOCK_SAMPLES):
        state = rebuild(view, seat, options, rng)
        if versus:
            wait = state.playout_copy()
            search.rollout(wait, seat, _policy, sample_scores)
            scores = wait.holes[-1]["scores"]
            waits += scores[seat] <= min(scores)
        state.apply(seat, _KNOCK)
        search.rollout(state, seat, _policy, sample_scores)
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


# The robot's one door (`pbem.robots`): the easy level plays what a missed deadline plays.
decide = search.decide_with(default_move, strong_move)


# -- cards-5: the hole read from the public events (`reading`), won or lost rather than points --
# Sampled tables a decision weighs (`reading.Reading.sample`), and the chance of winning or
# sharing the hole a knock must reach. The chances are calibrated (knocks at 0.6 to 0.9 won
# their chance, within the noise, against both opponents). Measured in the arena on the same
# deals, the bar hardly matters against the greedy player (0.5 to 0.8 alike), and a higher one
# pays against the missed-deadline player, where waiting is safe (the square, 100 deals: 0.6
# 57.2%, 0.7 59.8%, 0.8 63.5%); a schedule by the hole's age did no better.
READ_SAMPLES = 80
KNOCK_AT = 0.8


def _last_turns(r: reading.Reading, s: reading.Sample, values: list, stock: list, top, order) -> None:
    """The seats of `order` play their last turn on the sample (`values` changed in place), each
    by the rule that explains its turns better: the greedy player takes the discard where it
    saves at least what a draw would, the missed-deadline player wherever it saves anything;
    either keeps a drawn card where it saves anything."""
    mean, gains = r.mean, r.draw_gain
    depth = len(stock)
    for o in order:
        seat = r.others[o]
        refs = seat.refs
        w = [values[x] if k else mean for x, k in zip(refs, seat.knows)]
        top_w = max(w)
        i = w.index(top_w)
        if top is not None and top_w - top > 1e-9 and (not s.greedy[o] or top_w - top >= gains[top_w]):
            values[refs[i]], top = top, values[refs[i]]
            continue
        if not depth:
            continue
        depth -= 1
        d = stock[depth]
        if d < top_w - 1e-9:
            values[refs[i]], top = d, values[refs[i]]
        else:
            top = d


def _samples(r: reading.Reading, rng) -> list:
    return [r.sample(rng) for _ in range(READ_SAMPLES)]


def knock_chance(view: dict, seat: int, rng, r: reading.Reading | None = None) -> float:
    """The chance of winning (a share counted as its part) if the seat knocks now: over the
    sampled tables, every other seat's last turn played, then the layouts compared."""
    r = r or reading.read(view, seat)
    order = [o for o in ((seat + k) % len(view["names"]) for k in range(1, len(view["names"]))) if o in r.others]
    total = won = 0.0
    for s in _samples(r, rng):
        values = list(s.values)
        _last_turns(r, s, values, s.stock, r.top, order)
        won += s.weight * r.share(values)
        total += s.weight
    return won / total if total else 0.0


def last_turn_move(view: dict, seat: int, rng, r: reading.Reading | None = None):
    """The seat's own last turn after another's knock: the move with the best chance of winning
    over the sampled tables (the seats still owed a turn play theirs), not the best points."""
    r = r or reading.read(view, seat)
    order = [o for o in view["final_turns"] if o in r.others]
    size = r.size
    samples = _samples(r, rng)
    drawn = view.get("drawn")
    points = game_tables(view["options"], 1).points

    def chances(card: int) -> list[float]:
        """By option (0: throw the card, p: keep it at p), the weighted share won."""
        out = [0.0] * (size + 1)
        for s in samples:
            for opt, share in enumerate(_by_option(r, s, card, s.stock, order)):
                out[opt] += share
        return out

    if drawn is not None:
        got = chances(points[drawn])
        best = max(range(size + 1), key=lambda o: (got[o], -o if o else -size - 1))
        return Keep(best) if best else Discard()
    # Take the discard to its best place, or draw: a draw is worth, over the cards it may
    # bring, the best choice for each (the samples' stock tops, each sample's own).
    top = r.top
    take = chances(top) if top is not None else [0.0] * (size + 1)
    p = max(range(1, size + 1), key=lambda o: (take[o], -o))
    draw = 0.0
    by_card: dict[int, list] = {}
    for s in samples:
        if s.stock:
            by_card.setdefault(s.stock[-1], []).append(s)
    total = sum(s.weight for s in samples) or 1.0
    for card, group in by_card.items():
        got = [0.0] * (size + 1)
        for s in group:
            for opt, share in enumerate(_by_option(r, s, card, s.stock[:-1], order)):
                got[opt] += share
        draw += max(got)
    draw /= total
    if top is not None and take[p] / total > draw:
        return DrawDiscard(p)
    return DrawStock()


def _by_option(r: reading.Reading, s: reading.Sample, card: int, stock: list, order: list) -> list[float]:
    """One sampled table's weighted share won by option (0: throw `card`, p: keep it at the
    seat's place p and throw what lay there), the seats of `order` then playing their last
    turns from `stock`."""
    out = []
    for opt in range(r.size + 1):
        values = list(s.values)
        top = card
        if opt:
            x = r.mine[opt - 1]
            values[x], top = card, values[x]
        _last_turns(r, s, values, stock, top, order)
        out.append(s.weight * r.share(values))
    return out

