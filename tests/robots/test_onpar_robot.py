"""On Par's robot: its orders are always legal, `easy` is exactly what a missed deadline plays,
a state rebuilt from a view shows that view again, and a decision depends on the view and the
stream alone, never on the cards the seat cannot see."""
from __future__ import annotations

import copy
import random

import pytest

from pbem.games.course import Course
from pbem.games.onpar import OnPar, random_orders
from pbem.games.onpar.orders import DiscardCard, Trap
from pbem.games.rng import seed_from_int
from pbem.games.onpar import robot
from pbem.robots import robot_generator

NAMES = ["Ann", "Bob", "Cy", "Di"]
COURSE = Course.from_pars_string("345 453 534", "test")
OPTION_SETS = [{}, {"skill_shots": "false"}, {"traps": "false", "hazards": "false"}, {"handicap": "1:2,2:1"}]


def decide(state: OnPar, seat: int, level: str, move: int = 0, seed: int = 7) -> str:
    return robot.decide(state.view(seat), seat, level, dict(state.options),
                        robot_generator(seed_from_int(seed), seat, move))


@pytest.mark.slow
def test_robot_orders_are_legal_over_many_random_games_with_robots_beside_random_seats():
    rng = random.Random(3)
    decided = {"easy": 0, "strong": 0}
    kinds = set()
    for game in range(12):
        players = 2 + game % 3
        options = dict(OPTION_SETS[game % len(OPTION_SETS)], holes=2)
        state = OnPar.new(NAMES[:players], options, 100 + game, COURSE)
        # seat 0 strong; the others easy, strong or random by game
        seats = ["strong"] + [("easy", "random", "strong")[(game + s) % 3] for s in range(1, players)]
        moves = 0
        while state.result() is None:
            seat = state.current
            if seats[seat] == "random":
                order = random_orders(state, seat, rng)
            else:
                text = decide(state, seat, seats[seat], moves, game)
                order = OnPar.command_from_text(text)
                assert str(order) == text
                state.check(seat, order)  # raises on an illegal order
                if seats[seat] == "easy":
                    assert order == state.default_orders(seat)
                decided[seats[seat]] += 1
                kinds.add(type(order).__name__)
            state.apply(seat, order)
            moves += 1
            assert moves < 5000
        assert len(state.holes) == 2
    assert decided["strong"] > 50 and decided["easy"] > 20
    assert {"Shot", "Trap"} <= kinds  # the strong robot does use traps


@pytest.mark.slow
def test_a_seat_that_resigned_beside_the_robot_is_never_its_victim():
    for seed in range(6):
        state = OnPar.new(NAMES[:3], {"holes": 1}, seed, COURSE)
        while state.current != 1:
            state.apply(state.current, state.default_orders(state.current))
        state.apply(1, OnPar.command_from_text("RESIGN"))
        moves = 0
        # Robots alone may wait for each other for ever (a card that would hole out can lie in
        # the resigned seat's hand): enough moves are played to see traps chosen.
        while state.result() is None and moves < 60:
            seat = state.current
            order = OnPar.command_from_text(decide(state, seat, "strong", moves))
            assert not (isinstance(order, Trap) and order.player == "Bob")
            state.apply(seat, order)
            moves += 1


def hidden_shuffled(state: OnPar, seat: int, rng: random.Random) -> OnPar:
    """The same game as `seat` sees it, with everything it cannot see dealt otherwise: the other
    hands, the discards and the draw pile hold the same number of cards, others than before."""
    other = copy.deepcopy(state)
    pool = [c for s in range(other.n) if s != seat for c in other.hands[s]] + other.discards + other.draw
    rng.shuffle(pool)
    for s in range(other.n):
        if s != seat:
            k = len(other.hands[s])
            other.hands[s], pool = pool[:k], pool[k:]
    k = len(other.discards)
    other.discards, other.draw = pool[:k], pool[k:]
    return other


def positions(count: int):
    """Positions met in play (4 players), with the seat to move: the hole's opening, after a
    reshuffle and after traps, from games of default and random orders."""
    rng = random.Random(11)
    found = 0
    for game in range(200):
        state = OnPar.new(NAMES, dict(OPTION_SETS[game % len(OPTION_SETS)], holes=1), 300 + game, COURSE)
        step = 0
        while state.result() is None and found < count:
            seat = state.current
            if step % 5 == 2 or state.shuffles[-1]["what"] == "draw pile" and step % 2:
                yield state, seat
                found += 1
            order = random_orders(state, seat, rng) if rng.random() < 0.6 else state.default_orders(seat)
            state.apply(seat, order)
            step += 1
        if found >= count:
            return


def test_a_rebuilt_state_shows_the_seat_the_view_it_was_built_from():
    checked = 0
    for state, seat in positions(60):
        view = state.view(seat)
        rebuilt = robot.rebuild(view, seat, robot_generator(seed_from_int(1), seat, checked))
        again = rebuilt.view(seat)
        for key in ("pars", "holes_total"):  # the rebuilt game ends with the hole in play
            view.pop(key), again.pop(key)
        view.pop("events"), again.pop("events")  # the position, not its past: a rebuilt game's record starts afresh
        assert again == view
        assert sorted(sum(rebuilt.hands, []) + rebuilt.draw + rebuilt.discards + rebuilt.played) == \
            sorted(sum(state.hands, []) + state.draw + state.discards + state.played)
        checked += 1
    assert checked == 60


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_decision_depends_only_on_what_the_seat_can_see(level):
    rng = random.Random(5)
    differed = 0
    for n, (state, seat) in enumerate(positions(25)):
        other = hidden_shuffled(state, seat, rng)
        assert other.view(seat) == state.view(seat)
        differed += other.to_dict() != state.to_dict()
        assert decide(state, seat, level, n) == decide(other, seat, level, n)
    assert differed >= 20


def test_easy_plays_the_missed_deadline_whatever_the_hidden_cards_are_dealt_as():
    for _n, (state, seat) in enumerate(positions(40)):
        answers = {decide(state, seat, "easy", move, seed) for move in range(3) for seed in (1, 2)}
        assert answers == {str(state.default_orders(seat))}


@pytest.mark.slow
def test_strong_searches_beyond_the_missed_deadline():
    """Over positions met in play the strong robot does not simply play the default."""
    same = differ = 0
    for n, (state, seat) in enumerate(positions(40)):
        if decide(state, seat, "strong", n) == str(state.default_orders(seat)):
            same += 1
        else:
            differ += 1
    assert differ >= 4


def test_a_seat_not_to_move_is_told():
    state = OnPar.new(NAMES[:2], {"holes": 1}, 1, COURSE)
    idle = 1 - state.current
    with pytest.raises(ValueError, match="owes no order"):
        decide(state, idle, "strong")


@pytest.mark.slow
def test_a_hand_of_five_may_be_discarded_from_by_the_robot_when_that_is_best():
    # Sanity of the search's reading: a DISCARD it returns is a card in the hand.
    for state, seat in positions(40):
        order = OnPar.command_from_text(decide(state, seat, "strong"))
        if isinstance(order, DiscardCard):
            assert order.card in state.hands[seat] and len(state.hands[seat]) >= 5
