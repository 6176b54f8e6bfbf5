"""Dice golf's robot: from its seat's view alone, it enters exactly what POLICY BEST enters; and
the robots' own random streams."""
from __future__ import annotations

import copy
import random

import pytest

from pbem import robots
from pbem.games.dicegolf import DiceGolf, Policy, random_orders
from pbem.games.rng import game_generator, seed_from_int

NAMES = ["Ann", "Bob", "Cy"]


def robot_order(g: DiceGolf, seat: int, level: str = "strong", move: int = 0):
    text = robots.decide("dicegolf", g.view(seat), seat, level, dict(g.options),
                         robots.robot_generator(seed_from_int(7), seat, move))
    return DiceGolf.command_from_text(text)


@pytest.mark.parametrize("lenient", [False, True])
@pytest.mark.parametrize("level", robots.LEVELS)
def test_the_robot_enters_what_policy_best_enters_over_whole_games(level, lenient):
    rng = random.Random(5)
    for seed in range(12):
        g = DiceGolf.new(NAMES, {"lenient_first": lenient}, seed)
        answered = 0
        while g.result() is None:
            if g.ready():
                g.resolve()
                continue
            for seat in sorted(g.to_move()):
                if seat == 0:  # the robot's seat, beside the BEST policy on a copy of the game
                    order = robot_order(g, 0, level, answered)
                    hole, toss = g.hole_no - 1, g.position(0)[2] - 1
                    twin = copy.deepcopy(g)
                    twin.apply(0, Policy("BEST"))  # a standing policy: it answers this toss first
                    g.check(0, order)
                    g.apply(0, order)
                    entered = g.scorecards[0][hole]["tosses"][toss]
                    assert entered["entry"] == twin.scorecards[0][hole]["tosses"][toss]["entry"], (seed, order)
                    answered += 1
                else:
                    g.apply(seat, random_orders(g, seat, rng))
        assert answered > 0


def test_the_robot_decides_from_its_view_alone():
    """Two games that differ only in what the robot's seat cannot see (another seat's hole in
    play) bring the same order, and the robot never asks for more than the view."""
    checked = 0
    for seed in range(40):
        g = DiceGolf.new(NAMES[:2], {}, seed)
        if g.to_move() != {0, 1}:
            continue
        other = copy.deepcopy(g)
        other.apply(1, random_orders(other, 1, random.Random(seed)))  # Bob's toss answered in one only
        assert other.view(0) == g.view(0) or other.view(0)["to_move"] != g.view(0)["to_move"]
        view = dict(other.view(0), to_move=g.view(0)["to_move"])
        assert view == g.view(0)
        assert robot_order(g, 0) == robot_order(other, 0)
        checked += 1
    assert checked >= 5


def test_no_toss_waiting_is_said():
    g = next(g for g in (DiceGolf.new(NAMES[:2], {}, s) for s in range(50)) if 0 in g.to_move())
    g.apply(0, Policy("BEST"))
    with pytest.raises(ValueError, match="no toss"):
        robots.decide("dicegolf", g.view(0), 0, "strong", {}, robots.robot_generator(seed_from_int(1), 0, 0))


def test_a_robots_stream_is_its_own_and_fixed_by_the_seed_the_seat_and_the_move():
    seed = seed_from_int(42)
    first = [robots.robot_generator(seed, 1, 3).below(1 << 60) for _ in range(2)]
    assert first[0] == first[1]
    others = {robots.robot_generator(seed, seat, move).below(1 << 60)
              for seat, move in ((0, 3), (1, 4), (2, 3))} | {robots.robot_generator(seed_from_int(43), 1, 3).below(1 << 60)}
    assert first[0] not in others and len(others) == 4
    # The game's chance is another stream: drawing from a robot's leaves the game's as it was.
    game = game_generator(seed)
    robots.robot_generator(seed, 0, 0).below(6)
    assert game.words == 0 and game.below(1 << 60) == game_generator(seed).below(1 << 60)


def test_levels_and_games_without_a_robot_are_refused():
    with pytest.raises(ValueError, match="level"):
        robots.decide("dicegolf", {}, 0, "grandmaster", {}, robots.robot_generator(seed_from_int(1), 0, 0))
    with pytest.raises(KeyError):
        robots.robot_module("chess")
    assert robots.version("dicegolf") == robots.robot_module("dicegolf").VERSION
