"""Golf's knock as a stopping decision, for the strong robot on the plain rules (cards-6k).

A knock ends the hole after the others' last turns; not knocking plays on. The robot knocks
when its chance of winning the hole by knocking now (`robot.knock_chance`, calibrated) is at
least its chance of winning it by playing on with the same policy: `wait_chance`, a logistic
regression on features of the hole read from the public events (`reading`), fitted offline on
the robot's own play (bench/golf_stopping.py: every decision's hole played out once more with
the robot not knocking there, and the share it then won is the label).

The features (`features`), each on the same sampled tables as the knock's chance:
- `p`: the knock's chance now;
- `stock`: the share of the stock left (the hole's age, counted the same in any layout);
- `threat`: the chance that a seat read as the greedy player knocks at its next turn (its rule
  is known: its layout as it knows it at most `reading.KNOCK_MAX`, `reading.KNOCK_LEAD` below
  every other as the events show them);
- `greedy`: the share of the other seats the samples read as the greedy player;
- `unseen`: the share of the robot's own cards it has not seen;
- `lead`: the others' lowest sampled layout less the robot's, in tens of points;
- `six`: 1 in the 2x3 layout; `more`: the other seats beyond one, over two.
"""
from __future__ import annotations

import math

from pbem.games.golf import reading

__all__ = ["COEF", "FEATURES", "LAYOUTS", "P_MIN", "features", "knocks", "wait_chance"]

# The layouts the rule plays in: the square. In the 2x3 layout it did not pay on the same deals
# (v easy 48.1% against cards-5's 52.5% on 40 deals, v greedy and three easy seats level), and
# the robot knocks there as cards-5 did.
LAYOUTS = (4,)

# Below this chance the knock is never weighed (nor fitted: its decisions are not sampled).
P_MIN = 0.2

FEATURES = ("p", "stock", "threat", "greedy", "unseen", "lead", "six", "more")
# The regression's constant and one coefficient a feature (FEATURES' order), fitted by
# bench/golf_stopping.py on 925 decisions of the cards-5 robot on seeds 2,000,000 on (apart from
# the bench's and the tripwire's): `collect --deals 25` v greedy and v easy, `--layout 6 --deals
# 15` v greedy, and the first 104 lines of the same v easy.
COEF = (-0.6136, 2.5848, -0.1466, -1.0876, 0.1955, 0.1806, 0.2136, -0.5776, 0.0000)


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
    unseen = sum(1 for x in r.mine if x in set(r.hidden)) / size
    return [p, view["stock"] / stock_full, threat / total, greedy / total, unseen, lead / total / 10.0,
            1.0 if size == 6 else 0.0, (n - 2) / 2.0]


def knocks(r: reading.Reading, samples: list, view: dict, p: float, coef: tuple | None = None) -> bool:
    """Knock when the knock's chance `p` reaches `P_MIN` and the chance of winning by playing on."""
    return p >= P_MIN and p >= wait_chance(features(r, samples, view, p), coef or COEF)


def wait_chance(x: list[float], coef: tuple = COEF) -> float:
    """The chance of winning the hole by playing on: the regression at features `x`."""
    z = coef[0] + sum(c * v for c, v in zip(coef[1:], x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
