"""Fit golf's value of waiting (pbem/games/golf/stopping.py) on the strong robot's own play.

Run by hand, one process:
  `python bench/golf_stopping.py collect OUT.jsonl [--deals N] [--layout 4|6] [--opponent greedy|easy]
   [--easy-seats K] [--first-seed S] [--policy current|bar]`
plays one-hole games (every deal in every seating, seeds S on: 2,000,000 by default, apart from
the bench's 1000 on and the tripwire's 500,000 on) in this process (the engine, the greedy
player of contrib/bots/golf_greedy.py, the easy player), the robot knocking by `--policy`
(`current`: stopping.COEF; `bar`: cards-5's knock at 0.8). At every turn where the robot may
knock it writes one line: the decision's features (stopping.FEATURES), the share it won when
the hole is played on from there with the robot NOT knocking this turn and its policy after
(`wait`), and the share it won had it knocked there (`knock`): each a copy of the true state
played out, so a line's labels are what the table really held.
  `python bench/golf_stopping.py fit IN.jsonl ...` fits the logistic regression of `wait` on
the features (Newton's method, a small ridge), prints the coefficients, the one-step value of
the fitted rule against the bar's on the same lines (knock's label where the rule knocks, else
wait's), and what each feature adds (the fit without it).
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from pathlib import Path

from pbem.games.cards.orders import Knock, card_command
from pbem.games.golf import reading, robot, stopping
from pbem.games.golf.engine import Golf
from pbem.games.rng import Generator, seed_from_int

GREEDY = Path(__file__).resolve().parents[1] / "contrib" / "bots" / "golf_greedy.py"
BAR = 0.8  # cards-5's knock
RIDGE = 1e-3


def greedy_player():
    source = GREEDY.read_text().split("for word in sys.argv")[0]  # the module, not its loop
    space: dict = {}
    exec(compile(source, str(GREEDY), "exec"), space)
    return space["move"]


def bar_knocks(view, seat, rng) -> bool:
    return robot.knock_chance(view, seat, rng) >= BAR


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
    if a.policy == "bar":
        robot.knocks = bar_knocks
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
                        p = robot.knock_chance(view, seat, None, r, samples)
                        if p < stopping.P_MIN:
                            game.apply(seat, table.move(game, seat))
                            continue
                        x = stopping.features(r, samples, view, p)
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
        p = stopping.wait_chance(x, tuple(w))
        p = min(1 - 1e-9, max(1e-9, p))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(xs)


def value(rows: list[dict], rule) -> float:
    return sum(r["knock"] if rule(r["x"]) else r["wait"] for r in rows) / len(rows)


def fit_main(a) -> None:
    rows = [json.loads(line) for path in a.inputs for line in open(path)]
    xs = [r["x"] for r in rows]
    ys = [float(r["wait"]) for r in rows]
    w = fit(xs, ys)
    print(f"{len(rows)} decisions; mean wait {sum(ys) / len(ys):.3f}, mean knock "
          f"{sum(r['knock'] for r in rows) / len(rows):.3f}; log loss {loss(w, xs, ys):.4f}")
    print("COEF = (" + ", ".join(f"{c:.4f}" for c in w) + ")")
    print("  " + ", ".join(f"{name} {c:+.3f}" for name, c in zip(("const",) + stopping.FEATURES, w)))
    for name, rule in (("bar 0.8", lambda x: x[0] >= BAR), ("fitted", lambda x: x[0] >= stopping.wait_chance(x, tuple(w))),
                       ("never", lambda x: False), ("best", None)):
        if rule is None:
            v = sum(max(r["knock"], r["wait"]) for r in rows) / len(rows)
        else:
            v = value(rows, rule)
        print(f"  one-step value, {name}: {v:.4f}")
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["size"], r["n"], r.get("opp", "")), []).append(r)
    for key, g in sorted(groups.items()):
        print(f"  {key}: {len(g)} decisions, bar {value(g, lambda x: x[0] >= BAR):.4f}, fitted "
              f"{value(g, lambda x: x[0] >= stopping.wait_chance(x, tuple(w))):.4f}, best "
              f"{sum(max(r['knock'], r['wait']) for r in g) / len(g):.4f}")
    if a.drop:
        for i, name in enumerate(stopping.FEATURES):
            if i == 0:
                continue
            xi = [x[:i] + [0.0] + x[i + 1:] for x in xs]
            wi = fit(xi, ys)
            print(f"  without {name}: log loss {loss(wi, xi, ys):.4f}, one-step value "
                  f"{value(rows, lambda x: x[0] >= stopping.wait_chance(x[:i] + [0.0] + x[i + 1:], tuple(wi))):.4f}")


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
    c.add_argument("--policy", choices=["current", "bar"], default="current")
    f = sub.add_parser("fit")
    f.add_argument("inputs", nargs="+")
    f.add_argument("--drop", action="store_true")
    a = p.parse_args(argv)
    collect(a) if a.cmd == "collect" else fit_main(a)


if __name__ == "__main__":
    main(sys.argv[1:])
