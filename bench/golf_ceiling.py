"""Ceilings for golf's strong robot (issue 35): the same robot told more than its view shows.
A bench-only cheat: it reads the engine state, which pbem's robot never does. What each
cheat wins over the fair robot is what that hidden information is worth to it.

`--sees` picks what it is told:
- `all` (the default): every sampled table it weighs is the true one (every hidden card and
  the stock as they lie). Its card play is the strong robot's own (`golf_card_move`); it
  knocks only when the true table is won after the others' last turns, and plays its own last
  turn for the true win.
- `layouts`: every card in every layout as it lies, but not the stock's order (each sampled
  table shuffles the true stock): the knock and the last turn as the fair robot weighs them,
  on the true layouts. Card play the fair robot's.
- `own`: its own face-down cards as they lie in every sampled table, the other seats' cards as
  the fair reading deals them (from cards unseen that still hold its own, so a table may hold
  one of them twice). Card play the fair robot's.
- `mine`: its view is told its own face-down cards (as if it had looked at them), so its card
  play, its reading and its knock all know them; the others' cards stay hidden.

Run by hand, one process: `python bench/golf_ceiling.py OPPONENT [--deals N] [--layout 4|6]
[--easy-seats K] [--fair] [--sees all|layouts|own|mine] [--first SEED] [--set NAME=VALUE]`,
OPPONENT `greedy` (contrib/bots/golf_greedy.py, in process) or `easy`; `--easy-seats 3` seats
three easy players (OPPONENT then ignored); `--fair` plays the fair robot instead, on the same
deals; `--set` changes one of the robot module's constants for the run (a tuning trial). One
hole a game, seeds `--first` (1000) on, every deal in every seating (the arena's duplicate
deals, in this process, not through the arena's door). Prints the robot's share: a win 1, a
shared win 1/2 with two seats, whole with more.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from pbem.games.cards.orders import card_command
from pbem.games.golf import reading, robot
from pbem.games.golf.engine import Golf
from pbem.games.rng import Generator, seed_from_int

fair = robot._samples
GREEDY = Path(__file__).resolve().parents[1] / "contrib" / "bots" / "golf_greedy.py"


def greedy_player():
    source = GREEDY.read_text().split("for word in sys.argv")[0]  # the module, not its loop
    space: dict = {}
    exec(compile(source, str(GREEDY), "exec"), space)
    return space["move"]


def _as_they_lie(values: list, r: reading.Reading, game: Golf, others: bool) -> None:
    """Write into a table's `values` the robot's own cards as they lie, and with `others`
    every other seat's too."""
    points = game.points
    for p, x in enumerate(r.mine):
        values[x] = points[game.grids[r.me][p]]
    if others:
        for o, seat in r.others.items():
            for p, x in enumerate(seat.refs):
                values[x] = points[game.grids[o][p]]


def true_samples(game: Golf, sees: str = "all"):
    """The robot's sampler replaced by the table as it lies (every other seat as greedy);
    `sees` "layouts": every layout card as it lies, the stock's order sampled (the fair
    samples' weights and readings of each seat, their values replaced); "own": the robot's own
    hidden cards as they lie, the rest as the fair reading samples them. (`--sees mine`, in
    `main`: the robot's view is told its own face-down cards, so its card play knows them too.)"""
    def stock() -> list:  # the stock as it lies now, its top last
        return [game.points[c] for c in game.stock]

    def partial(r: reading.Reading, rng) -> list:
        out = fair(r, rng)
        for s in out:
            _as_they_lie(s.values, r, game, sees == "layouts")
            if sees == "layouts":
                s.stock, s.weight = stock(), 1.0
                rng.shuffle(s.stock)
        return out

    def samples(r: reading.Reading, rng) -> list:
        values = list(r.fixed)
        _as_they_lie(values, r, game, True)
        return [reading.Sample(values, stock(), 1.0, [True] * game.n)]
    return samples if sees == "all" else partial


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("opponent", choices=["greedy", "easy"])
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--layout", type=int, default=4)
    p.add_argument("--easy-seats", type=int, default=0)
    p.add_argument("--fair", action="store_true")
    p.add_argument("--first", type=int, default=1000, help="the first deal's seed")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a robot constant changed for this run (a tuning trial)")
    p.add_argument("--sees", choices=["all", "layouts", "own", "mine"], default="all")
    a = p.parse_args(argv)
    for word in a.set:
        name, _, value = word.partition("=")
        setattr(robot, name, type(getattr(robot, name))(value))
    move = greedy_player()
    specs = ["me"] + (["easy"] * a.easy_seats if a.easy_seats else [a.opponent])
    n = len(specs)
    shares, k = [], 0
    for d in range(a.deals):
        got = []
        for rot in range(n):
            game = Golf.new([f"p{i}" for i in range(n)], {"holes": 1, "layout": a.layout}, a.first + d)
            robot._samples = fair if a.fair or a.sees == "mine" else true_samples(game, a.sees)
            for _ in range(5_000):
                if game.result() is not None:
                    break
                seat = game.current
                spec = specs[(seat - rot) % n]
                k += 1
                if spec == "easy":
                    order = game.default_orders(seat)
                elif spec == "greedy":
                    view = json.loads(json.dumps(game.view(seat), default=str))
                    order = card_command(move({"view": view, "seat": seat, "legal": game.legal_orders(seat)}))
                else:
                    view = game.view(seat)
                    if a.sees == "mine":  # told its own face-down cards, as if it had seen them
                        view["seen"] = {p: c for p, c in enumerate(game.grids[seat], start=1)}
                    order = card_command(robot.decide(view, seat, "strong", {}, Generator(seed_from_int(k))))
                game.apply(seat, order)
            scores = game.holes[-1]["scores"]
            winners = [i for i in range(n) if scores[i] == min(scores)]
            got.append(0.0 if rot not in winners else 1.0 if len(winners) == 1 or n > 2 else 0.5)
        shares.append(sum(got) / n)
    robot._samples = fair
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else float("nan")
    who = "fair robot" if a.fair else {"all": "card-seeing robot", "layouts": "layout-seeing robot",
                                       "own": "own-card-seeing robot",
                                       "mine": "robot told its own cards"}[a.sees]
    print(f"golf layout={a.layout} {who} v {' '.join(specs[1:])}: {n * a.deals} games ({a.deals} deals x {n} "
          f"seatings): {100 * mean:.1f}% (95% CI {100 * (mean - half):.1f} to {100 * (mean + half):.1f})")


if __name__ == "__main__":
    main(sys.argv[1:])
