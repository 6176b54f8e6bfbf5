"""Bench only (issue 35's ceiling): the strong robot told the greedy player's exact rule from the
first turn, at BELIEF, then bench/arena.py as usual:
`python bench/matchplay_ceiling.py 1.0 matchplay --seat robot:strong --seat "exec:python3
contrib/bots/matchplay_greedy.py" --deals 50 --workers 1`."""
import sys
from pbem.games.matchplay import robot
import bench.arena as arena

BELIEF = float(sys.argv.pop(1))

def exact(view, state, opp):
    orders = robot._par_orders(state, opp)
    (i,) = robot._par_choices(orders, 0.5, 0.3, "high")
    return BELIEF, [(1.0, orders[i][0])]

robot._par_beliefs = exact
robot.PAR_THRESHOLD = 0.0
arena.main(sys.argv[1:])
