"""Bench only: an exec seat for bench/arena.py that tries to exploit the strong robot's opponent
models. Turn 1: the greedy player's orders (MIMIC_OPEN=default: the default orders), to be
taken for a par player (a default player); turn 2: the best response to what the strong robot
then plays (sampled six times from other streams); later: the strong robot's own orders.
MIMIC_THRESHOLD overrides the robot's PAR_THRESHOLD in its forecast (2 = the par model off).
`python bench/arena.py matchplay --seat robot:strong --seat "exec:python bench/matchplay_mimic.py"
--deals 40 --workers 1` (with PYTHONPATH at the worktree)."""
import json
import random
import sys
from pbem.games.matchplay import robot
from pbem.games.matchplay.engine import HOLES
from pbem.robots import robot_generator

import os
robot.PAR_THRESHOLD = float(os.environ.get("MIMIC_THRESHOLD", robot.PAR_THRESHOLD))
rnd = random.Random(1)
for line in sys.stdin:
    q = json.loads(line)
    view, me = q["view"], q["seat"]
    opp = 1 - me
    state = robot.rebuild(view)
    if state.turn == 1 and os.environ.get("MIMIC_OPEN") == "default":
        print(state.default_orders(me).line(), flush=True)
        continue
    if state.turn == 1:
        orders = robot._par_orders(state, me)
        (i,) = robot._par_choices(orders, 0.5, 0.3, "high")
        print(orders[i][1], flush=True)
        continue
    g = robot_generator(rnd.getrandbits(64).to_bytes(16, "big"), me, state.turn)
    if state.turn == 2:
        preds = []
        for _ in range(6):
            r = robot_generator(rnd.getrandbits(64).to_bytes(16, "big"), opp, 1)
            preds.append((1 / 6, robot._strong(robot.rebuild(view), view, opp, r)))
        lead = state.lead if me == 0 else -state.lead
        worth = robot._Worth(HOLES - 3 * state.turn)
        mine, theirs = robot._actions(state, me), robot._actions(state, opp)
        a = robot._matrix(mine, theirs, lead, worth)
        _, y = robot._solve(a, 50)
        print(robot._exploit(state, me, mine, a, y, lead, worth, 1.0, g, preds).line(), flush=True)
        continue
    print(robot.decide(view, me, "strong", {}, g).replace("\n", "; "), flush=True)
