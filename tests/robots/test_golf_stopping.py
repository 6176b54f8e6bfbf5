"""Golf's knock as a stopping decision (cards-6k, pbem/games/golf/stopping.py)."""
from __future__ import annotations

from pbem.games import golf
from pbem.games.golf import reading, stopping
from pbem.games.golf import robot as golf_robot
from pbem.games.rng import Generator, seed_from_int


def stream(n: int) -> Generator:
    return Generator(seed_from_int(n))


def _played(seats: int, turns: int, layout: int = 4, seed: int = 41) -> golf.Golf:
    game = golf.Golf.new([f"p{i}" for i in range(seats)], {"holes": 1, "layout": layout}, seed)
    for _ in range(turns):
        seat = min(game.to_move())
        game.apply(seat, game.default_orders(seat))
    return game


def test_features_are_one_a_name_and_within_their_ranges():
    for seats, layout in ((2, 4), (2, 6), (4, 4)):
        for turns in (0, 5, 13):
            game = _played(seats, turns, layout)
            seat = min(game.to_move())
            view = game.view(seat)
            r = reading.read(view, seat)
            samples = golf_robot._samples(r, stream(turns))
            p = golf_robot.knock_chance(view, seat, None, r, samples)
            x = stopping.features(r, samples, view, p)
            assert len(x) == len(stopping.FEATURES) == len(stopping.COEF) - 1
            assert x[0] == p and 0.0 <= p <= 1.0
            assert 0.0 <= x[1] <= 1.0  # the stock left
            assert all(0.0 <= v <= 1.0 for v in x[2:5])  # threat, greedy, unseen
            assert x[6] == (1.0 if layout == 6 else 0.0) and x[7] == (seats - 2) / 2
            assert -4.0 <= x[5] <= 4.0  # the lead, in tens of points
    fresh = _played(2, 0)
    seat = min(fresh.to_move())
    view = fresh.view(seat)
    r = reading.read(view, seat)
    x = stopping.features(r, golf_robot._samples(r, stream(1)), view, 0.5)
    assert x[1] == 1.0 and x[4] == 0.5  # a full stock; the far two of four cards unseen


def test_the_knock_needs_the_floor_and_the_value_of_waiting():
    game = _played(2, 6)
    seat = min(game.to_move())
    view = game.view(seat)
    r = reading.read(view, seat)
    samples = golf_robot._samples(r, stream(2))
    low = (-30.0,) + (0.0,) * len(stopping.FEATURES)  # waiting is worth nothing
    high = (30.0,) + (0.0,) * len(stopping.FEATURES)  # waiting surely wins
    assert not stopping.knocks(r, samples, view, stopping.P_MIN - 0.01, low)
    assert stopping.knocks(r, samples, view, stopping.P_MIN, low)
    assert not stopping.knocks(r, samples, view, 0.99, high)
    x = stopping.features(r, samples, view, 0.6)
    assert stopping.wait_chance(x, low) < 1e-9 and stopping.wait_chance(x, high) > 1 - 1e-9
    # The chance grows with a coefficient on a positive feature (the stock left).
    up = list(low)
    up[0] = 0.0
    more = list(up)
    more[2] = 1.0
    assert stopping.wait_chance(x, tuple(more)) > stopping.wait_chance(x, tuple(up))


def test_the_knock_decision_is_the_same_from_the_same_stream():
    game = _played(2, 9)
    seat = min(game.to_move())
    view = game.view(seat)
    got = {golf_robot.knocks(view, seat, stream(4)) for _ in range(3)}
    assert len(got) == 1


def test_the_2x3_layout_keeps_the_bar():
    """The rule plays in the square only: in the 2x3 layout the knock is cards-5's, the chance
    on the same draws at `KNOCK_AT`."""
    assert 6 not in stopping.LAYOUTS
    seen = set()
    for turns in range(4, 40, 3):
        game = _played(2, turns, 6, seed=7)
        if game.result() is not None:
            break
        seat = min(game.to_move())
        view = game.view(seat)
        if not golf_robot._may_knock(view):
            continue
        chance = golf_robot.knock_chance(view, seat, stream(turns))
        assert golf_robot.knocks(view, seat, stream(turns)) == (chance >= golf_robot.KNOCK_AT)
        seen.add(chance >= golf_robot.KNOCK_AT)
    assert seen
