"""The strength tripwire (issue 35): the strong robot against the tuned greedy player of
`contrib/bots/` in each game, on a fixed, seeded sample of deals, each played twice with the
seats swapped (the arena's games, `pbem.robots.arena.Arena`), ties counted half.

Every run plays the same games (the robots' streams, the deals and the greedy players are all
fixed), so this test does not flicker: it fails only when a change to a robot, an engine or a
greedy player changes the games and the strong robot's share on this sample falls below its
bar. The bars are sized on the binomial (games of a deal pair counted as independent, ties as
half a win, which only narrows the spread): with n games and a bar b, a robot whose true share
is p passes with probability P(X >= b n), X ~ Binomial(n, p). Each row's comment gives that
probability for a robot at the bar's reference strength and for one 10 points below it.

Where today's robot reaches the issue's target (On Par 70% of holes, MatchPlay 85% of match
points, 60% of the card games' holes) the reference is the target; where it does not (see
BENCHMARKS.md, "Robots in the arena (issue 35)"), the reference is what it reaches today on the
bench's larger sample, and the bar sits a margin below it: a tripwire against getting weaker,
not a claim that the target is met.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.robots.arena import Arena, read_seat

pytestmark = pytest.mark.slow

BOTS = Path(__file__).resolve().parents[2] / "contrib" / "bots"
FIRST_SEED = 500_000  # apart from the bench's seeds (1000 on), so the bars were not tuned on it

# (game, options, greedy player, deals (games = 2 x deals), bar: the least share that passes)
CASES = [
    # golfdeck: today (cards-6) 62.4% of holes v greedy (bench, 500 holes; cards-5 had 58.2%),
    # target 60% (met). n = 200, bar 0.55: P(pass | 0.60) = 0.94, P(pass | 0.50) = 0.09.
    ("golfdeck", {"holes": 1}, "golfdeck_greedy.py", 100, 0.55),
    # golf: today (cards-7, which plays the square as cards-5) 50.6% v greedy (bench, 800 holes; cards-4 had 49.9%), target 60%
    # (not met). n = 400, bar 0.46: P(pass | 0.506) = 0.97, P(pass | 0.406) = 0.02.
    ("golf", {"holes": 1}, "golf_greedy.py", 200, 0.46),
    # golf layout=6: today (cards-7) 51.0% v greedy (bench, 300 holes; cards-5 had 46.3%),
    # target 60% (not met). n = 240, bar 0.46: P(pass | 0.51) = 0.94, P(pass | 0.41) = 0.06
    # (this sample: 46.7%, cards-5 45.2%).
    ("golf", {"holes": 1, "layout": 6}, "golf_greedy.py", 120, 0.46),
    # On Par: today (onpar-search-2) 70.2% of holes v greedy (bench, 400 holes), target 70%
    # (met). n = 200, bar 0.65: P(pass | 0.70) = 0.95, P(pass | 0.60) = 0.08.
    ("onpar", {"holes": 1}, "onpar_greedy.py", 100, 0.65),
    # MatchPlay: today (matchplay-rm-4) 100% of match points v greedy (bench, 200 matches),
    # target 85% (met). n = 100 matches, bar 0.80: P(pass | 0.85) = 0.93, P(pass | 0.75) = 0.15.
    ("matchplay", {}, "matchplay_greedy.py", 50, 0.80),
]


def share(game: str, options: dict, bot: str, deals: int) -> float:
    """The strong robot's share of the games: a win 1, a shared win 1/2."""
    greedy = f"exec:{sys.executable} {BOTS / bot}"
    arena = Arena(game, [read_seat("robot:strong"), read_seat(greedy)], options, load_course(DEFAULT_COURSE))
    points = 0.0
    try:
        for d in range(FIRST_SEED, FIRST_SEED + deals):
            for k in (0, 1):
                outcome = arena.deal(d, k)  # seed d, the seats swapped when k is 1
                assert outcome.forfeit is None, outcome.why
                strong = arena.sitting(k).index(0)
                if strong in outcome.winners:
                    points += 1.0 if len(outcome.winners) == 1 else 0.5
    finally:
        arena.close()
    return points / (2 * deals)


@pytest.mark.parametrize("game,options,bot,deals,bar", CASES, ids=[
    " ".join([c[0]] + [f"{k}={v}" for k, v in c[1].items() if k != "holes"]) for c in CASES])
def test_the_strong_robot_holds_its_bar_against_the_greedy_player(game, options, bot, deals, bar):
    got = share(game, options, bot, deals)
    assert got >= bar, f"{game}: the strong robot took {got:.1%} of {2 * deals} games, the bar is {bar:.0%}"
