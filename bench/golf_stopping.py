"""Golf's knock as an optimal-stopping decision (issue 35, item 3): is there a learned value of
waiting that the strong robot's knock should be weighed against? A measurement, not landed.

The strong robot (cards-5) knocks when its chance of winning the hole by knocking now, over the
samples of the hidden cards read from the public events (`robot.knock_chance`), reaches 0.8.
The stopping rule tried here knocks iff that chance `p` is at least `V_wait`, the chance of
winning the hole by NOT knocking now and playing on with the robot's policy, a logistic
regression on the decision's features (`features`, one a name of `FEATURES`):
- `p`: the knock's chance now;
- `stock`: the share of the stock left (the hole's age, the same in either layout);
- `threat`: the chance that a seat read as the greedy player knocks at its next turn (its rule
  is known: its layout as it knows it at most `reading.KNOCK_MAX`, `reading.KNOCK_LEAD` below
  every other layout as the events show them);
- `greedy`: the share of the other seats the samples read as the greedy player;
- `unseen`: the share of the robot's own cards it has not seen;
- `lead`: the others' lowest sampled layout less the robot's, in tens of points;
- `six`: 1 in the 2x3 layout; `more`: the other seats beyond one, over two.

Run by hand, one process:
  `python bench/golf_stopping.py collect OUT.jsonl [--deals N] [--layout 4|6] [--opponent greedy|easy]
   [--easy-seats K] [--first-seed S]`
plays one-hole games (every deal in every seating, seeds S on: 2,000,000 by default, apart from
the bench's 1000 on and the tripwire's 500,000 on) in this process (the engine, the greedy
player of contrib/bots/golf_greedy.py, the easy player, the strong robot as it is). At every
turn where the robot may knock and `p` >= `P_MIN` it writes one line: the features, the share
the robot won when the hole is played on from a copy of the true state with the robot NOT
knocking this turn and its own policy after (`wait`), and the share it won had it knocked
there (`knock`, the others' last turns played on another copy). A line's two labels are what
that table really held, so rules compare paired, decision by decision.
  `python bench/golf_stopping.py fit IN.jsonl ... [--drop]` fits the regression of `wait` on
the features (Newton's method, a small ridge), prints the coefficients, then each rule's
one-step value against the bar's on the same decisions (the `knock` label where a rule knocks,
else `wait`; the mean difference with its 95% interval): the fitted rule cross-validated (fitted
on the odd deals, judged on the even, and back), never knocking this turn, a lower bar, and the
oracle that takes the better of the two true labels (the ceiling of any stopping rule at these
decisions). `--drop` refits without each feature in turn.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from pathlib import Path

from pbem.games.cards.orders import Knock, card_command
from pbem.games.golf import reading, robot
from pbem.games.golf.engine import Golf
from pbem.games.rng import Generator, seed_from_int

GREEDY = Path(__file__).resolve().parents[1] / "contrib" / "bots" / "golf_greedy.py"
BAR = robot.KNOCK_AT  # cards-5's knock: 0.8
RIDGE = 1e-3
P_MIN = 0.2  # decisions below this chance are not sampled (a knock there wins about p: 0.27 at 0.3)
FEATURES = ("p", "stock", "threat", "greedy", "unseen", "lead", "six", "more")


def features(r: reading.Reading, samples: list, view: dict, p: float) -> list[float]:
    """The decision's features (module docstring), from the reading and its samples."""
    size, mean = r.size, r.mean
    n = len(view["names"])
    deck = 54 if view["options"].get("jokers") else 52
    stock_full = max(1, deck - n * size - 1)
    limit = reading.KNOCK_MAX.get(size, reading.KNOCK_MAX[4])
    public = {o: sum(r.estimate[o]) for o in range(n) if o == r.me or o in r.others}
    total = threat = greedy = lead = 0.0
    others = list(r.others.items())
    for s in samples:
        w = s.weight
        total += w
        values = s.values
        mine = sum(values[x] for x in r.mine)
        best = min((sum(values[x] for x in seat.refs) for _, seat in others), default=mine)
        lead += w * (best - mine)
        knocks = False
        for o, seat in others:
            if not s.greedy[o]:
                continue
            own = sum(values[x] if k else mean for x, k in zip(seat.refs, seat.knows))
            rival = min((v for t, v in public.items() if t != o), default=math.inf)
            if own <= limit and own + reading.KNOCK_LEAD <= rival:
                knocks = True
                break
        threat += w * knocks
        greedy += w * (sum(s.greedy[o] for o, _ in others) / len(others) if others else 0.0)
    if total <= 0:
        total = 1.0
    hidden = set(r.hidden)
    unseen = sum(1 for x in r.mine if x in hidden) / size
    return [p, view["stock"] / stock_full, threat / total, greedy / total, unseen, lead / total / 10.0,
            1.0 if size == 6 else 0.0, (n - 2) / 2.0]


def wait_chance(x: list[float], coef) -> float:
    """The chance of winning the hole by playing on: the regression `coef` at features `x`."""
    z = coef[0] + sum(c * v for c, v in zip(coef[1:], x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def greedy_player():
    source = GREEDY.read_text().split("for word in sys.argv")[0]  # the module, not its loop
    space: dict = {}
    exec(compile(source, str(GREEDY), "exec"), space)
    return space["move"]


def chance(view: dict, seat: int, r: reading.Reading, samples: list) -> float:
    """`robot.knock_chance` on these samples (its own code, given the samples the features read)."""
    n = len(view["names"])
    order = [o for o in ((seat + k) % n for k in range(1, n)) if o in r.others]
    total = won = 0.0
    for s in samples:
        values = list(s.values)
        robot._last_turns(r, s, values, s.stock, r.top, order)
        won += s.weight * robot._share(r, values, sum(values[x] for x in r.mine))
        total += s.weight
    return won / total if total else 0.0


def share(game: Golf, me: int) -> float:
    scores = game.holes[-1]["scores"]
    winners = [i for i in range(game.n) if scores[i] == min(scores)]
    return 0.0 if me not in winners else 1.0 if len(winners) == 1 or game.n > 2 else 0.5


class Table:
    def __init__(self, specs: list[str], rot: int, greedy, key: int):
        self.specs, self.rot, self.greedy, self.key, self.k = specs, rot, greedy, key, 0

    def rng(self) -> Generator:
        self.k += 1
        return Generator(seed_from_int(self.key * 10_000 + self.k))

    def move(self, game: Golf, seat: int, wait: bool = False):
        spec = self.specs[(seat - self.rot) % game.n]
        if spec == "easy":
            return game.default_orders(seat)
        if spec == "greedy":
            view = json.loads(json.dumps(game.view(seat), default=str))
            return card_command(self.greedy({"view": view, "seat": seat, "legal": game.legal_orders(seat)}))
        view = game.view(seat)
        if wait:
            return robot.golf_card_move(view, seat) or robot.default_move(view, seat, {}, self.rng())
        return card_command(robot.decide(view, seat, "strong", {}, self.rng()))

    def finish(self, game: Golf, wait_once: bool = False) -> float:
        for _ in range(5_000):
            if game.result() is not None:
                break
            seat = game.current
            order = self.move(game, seat, wait_once and seat == self.rot)
            if seat == self.rot:
                wait_once = False
            game.apply(seat, order)
        return share(game, self.rot)


def collect(a) -> None:
    greedy = greedy_player()
    specs = ["me"] + (["easy"] * a.easy_seats if a.easy_seats else [a.opponent])
    n = len(specs)
    with open(a.out, "a") as out:
        for d in range(a.deals):
            seed = a.first_seed + d
            for rot in range(n):
                game = Golf.new([f"p{i}" for i in range(n)], {"holes": 1, "layout": a.layout}, seed)
                table = Table(specs, rot, greedy, seed * 10 + rot)
                for _ in range(5_000):
                    if game.result() is not None:
                        break
                    seat = game.current
                    view = game.view(seat)
                    if seat == rot and robot._may_knock(view):
                        r = reading.read(view, seat)
                        samples = robot._samples(r, table.rng())
                        p = chance(view, seat, r, samples)
                        if p < P_MIN:
                            game.apply(seat, table.move(game, seat))
                            continue
                        x = features(r, samples, view, p)
                        fork = Table(specs, rot, greedy, seed * 10 + rot + 7_777_777)
                        fork.k = 1_000 + table.k
                        wait = fork.finish(copy.deepcopy(game), wait_once=True)
                        knocked = copy.deepcopy(game)
                        knocked.apply(seat, Knock())
                        hit = fork.finish(knocked)
                        row = {"x": [round(v, 5) for v in x], "wait": wait, "knock": hit, "seed": seed, "rot": rot,
                               "n": n, "size": game.size, "opp": specs[1]}
                        out.write(json.dumps(row) + "\n")
                    game.apply(seat, table.move(game, seat))
            out.flush()


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    k = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(k):
        piv = max(range(c, k), key=lambda i: abs(a[i][c]))
        a[c], a[piv] = a[piv], a[c]
        for i in range(k):
            if i != c and a[c][c]:
                f = a[i][c] / a[c][c]
                a[i] = [x - f * y for x, y in zip(a[i], a[c])]
    return [a[i][k] / a[i][i] for i in range(k)]


def fit(xs: list[list[float]], ys: list[float], iters: int = 25) -> list[float]:
    """Logistic regression of ys (shares in [0, 1]) on xs, with a constant: Newton's method."""
    k = len(xs[0]) + 1
    w = [0.0] * k
    rows = [[1.0] + x for x in xs]
    for _ in range(iters):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for row, y in zip(rows, ys):
            z = sum(a * b for a, b in zip(w, row))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g, h = y - p, p * (1 - p)
            for i in range(k):
                grad[i] += g * row[i]
                ri = h * row[i]
                hrow = hess[i]
                for j in range(k):
                    hrow[j] += ri * row[j]
        for i in range(k):
            grad[i] -= RIDGE * len(rows) * w[i] * (i > 0)
            hess[i][i] += RIDGE * len(rows) * (i > 0)
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def loss(w: list[float], xs, ys) -> float:
    total = 0.0
    for x, y in zip(xs, ys):
        p = wait_chance(x, tuple(w))
        p = min(1 - 1e-9, max(1e-9, p))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(xs)


def paired(rows: list[dict], rule, base) -> tuple[float, float, int]:
    """`rule`'s one-step value less `base`'s on the same decisions, points a decision: (mean,
    95% half-width, decisions where they differ)."""
    d = [(r["knock"] if rule(r) else r["wait"]) - (r["knock"] if base(r) else r["wait"]) for r in rows]
    m = sum(d) / len(d)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
    return 100 * m, 196 * sd / math.sqrt(len(d)), sum(1 for r in rows if rule(r) != base(r))


def cross_validated(rows: list[dict], fx):
    """The fitted rule, each deal judged by the fit on the other deals' parity."""
    coef = {}
    for part in (0, 1):
        train = [r for r in rows if r["seed"] % 2 != part]
        coef[part] = fit([fx(r["x"]) for r in train], [float(r["wait"]) for r in train])
    return lambda r: r["x"][0] >= wait_chance(fx(r["x"]), coef[r["seed"] % 2])


def fit_main(a) -> None:
    rows = [json.loads(line) for path in a.inputs for line in open(path)]
    xs = [r["x"] for r in rows]
    ys = [float(r["wait"]) for r in rows]
    w = fit(xs, ys)
    print(f"{len(rows)} decisions; mean p {sum(x[0] for x in xs) / len(xs):.3f}, mean wait "
          f"{sum(ys) / len(ys):.3f}, mean knock {sum(r['knock'] for r in rows) / len(rows):.3f}; "
          f"log loss {loss(w, xs, ys):.4f}")
    print("  coefficients: " + ", ".join(f"{name} {c:+.3f}" for name, c in zip(("const",) + FEATURES, w)))
    print("  by p: decisions, mean p, knock won, wait won")
    for lo, hi in ((0.2, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.01)):
        g = [r for r in rows if lo <= r["x"][0] < hi]
        if g:
            print(f"    {lo:.1f}-{min(hi, 1.0):.1f}: {len(g):5d} {sum(r['x'][0] for r in g) / len(g):.3f} "
                  f"{sum(r['knock'] for r in g) / len(g):.3f} {sum(r['wait'] for r in g) / len(g):.3f}")
    bar = lambda r: r["x"][0] >= BAR  # noqa: E731
    groups: dict = {"all": rows}
    for r in rows:
        groups.setdefault(f"layout {r['size']}, {r['n']} seats, v {r['opp']}", []).append(r)
    rules = [("fitted (cross-validated)", cross_validated(rows, lambda x: x)),
             ("fitted on p alone (cross-validated)", cross_validated(rows, lambda x: x[:1])),
             ("never knock this turn", lambda r: False),
             ("bar 0.5", lambda r: r["x"][0] >= 0.5),
             ("oracle: the better true label", lambda r: r["knock"] >= r["wait"])]
    for key, g in groups.items():
        print(f"  {key}: {len(g)} decisions; against the bar {BAR}, points a decision (95%), decisions changed")
        for name, rule in rules:
            m, h, k = paired(g, rule, bar)
            print(f"    {name}: {m:+.2f} +- {h:.2f}, {k}")
    if a.drop:
        for i, name in enumerate(FEATURES):
            if i == 0:
                continue
            m, h, _ = paired(rows, cross_validated(rows, lambda x, i=i: x[:i] + x[i + 1:]), bar)
            print(f"  without {name}: {m:+.2f} +- {h:.2f} against the bar (cross-validated)")


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("out")
    c.add_argument("--deals", type=int, default=20)
    c.add_argument("--layout", type=int, default=4)
    c.add_argument("--opponent", choices=["greedy", "easy"], default="greedy")
    c.add_argument("--easy-seats", type=int, default=0)
    c.add_argument("--first-seed", type=int, default=2_000_000)
    f = sub.add_parser("fit")
    f.add_argument("inputs", nargs="+")
    f.add_argument("--drop", action="store_true")
    a = p.parse_args(argv)
    collect(a) if a.cmd == "collect" else fit_main(a)


if __name__ == "__main__":
    main(sys.argv[1:])
