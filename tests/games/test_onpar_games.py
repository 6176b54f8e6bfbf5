"""On Par played whole: random games of 1, 2 and 4 players end with totals and a result that are
recomputed here from the finished holes by the loser rule; what everyone is told names no card
played face down; the GM's own choices and every suggestion of an error are legal; whatever
order arrives, in whatever position, only an order error comes back."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games import onpar_course as oc
from pbem.games.base import Resign
from pbem.games.course import Course
from pbem.games.errors import OrderError, make_suggestions
from pbem.games.onpar import OnPar, random_orders
from pbem.games.onpar_orders import DiscardCard, Pass, PlaySkill, Shot, Trap
from pbem.orders.commands import read_body
from pbem.orders.onpar import grammar

NAMES = ["Ann", "Bob", "Cy", "Di"]
COURSE = Course.from_pars_string("443 544 354", "test")
CODE = re.compile(r"\b(?:" + "|".join(oc.CODES) + r")\b")
OPTION_SETS = [{}, {"skill_shots": "false"}, {"traps": "false", "hazards": "false"}, {"handicap": "1:2"}]


def loser_rule(course: list[dict], space: int) -> int:
    """Course cards still ahead of a ball on `space`, the one it is on counted, written apart
    from the engine: walk the cards from the tee."""
    end, cards = 0, [c for c in course if c["card"] != "Green"]
    for k, card in enumerate(cards):
        end += card["spaces"]
        if space <= end:
            return len(cards) - k
    return 0


def rescore(state: OnPar) -> tuple[list[int], str]:
    """Every seat's total and the result line, from `holes` alone."""
    totals = [0] * state.n
    for hole in state.holes:
        assert hole["par"] == len(hole["course"]) - 1 and hole["course"][-1] == {"card": "Green", "spaces": 5}
        hole_space = sum(c["spaces"] for c in hole["course"])
        for s in range(state.n):
            if s == hole["winner"]:
                assert hole["finish"][s] == hole_space and hole["strokes"][s] == hole["shots"][s]
                totals[s] += hole["shots"][s]
            else:
                assert hole["finish"][s] < hole_space
                expected = hole["shots"][s] + loser_rule(hole["course"], hole["finish"][s])
                assert hole["strokes"][s] == expected
                totals[s] += expected
    if state.n == 1:
        return totals, f"{state.names[0]} scores {totals[0]} (par {sum(h['par'] for h in state.holes)})"
    best = min(totals)
    who = [state.names[s] for s in range(state.n) if totals[s] == best]
    line = (f"{who[0]} wins with {best}" if len(who) == 1
            else ", ".join(who[:-1]) + f" and {who[-1]} share the win with {best}")
    return totals, line


def cards_of(order) -> set[str]:
    if isinstance(order, Shot):
        return set(order.cards)
    if isinstance(order, (PlaySkill, Trap)):
        return {order.card}
    return set()


def play_out(state: OnPar, rng: random.Random, default_share: float = 0.3, limit: int = 20000) -> int:
    """Play to the end, mixing random and default orders; every public text may name only the
    cards the order itself put face up."""
    moves = 0
    state.drain_events()
    while state.result() is None:
        seat = min(state.to_move())
        order = state.default_orders(seat) if rng.random() < default_share else random_orders(state, seat, rng)
        state.apply(seat, order)
        for event in state.drain_events():
            named = set(CODE.findall(event.get("text", "")))
            assert named <= cards_of(order), (order, event)
            if event["kind"] == "drawn":  # told to the drawer alone
                assert "text" not in event and event["own"] == f"You drew {event['card']}"
        moves += 1
        assert moves < limit
    return moves


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_whole_games_end_with_the_result_the_loser_rule_gives(players):
    for seed in range(12):
        options = dict(OPTION_SETS[seed % len(OPTION_SETS)], holes=3 + seed % 4)
        if players == 1:
            options.pop("handicap", None)
        state = OnPar.new(NAMES[:players], options, seed, COURSE)
        play_out(state, random.Random(seed))
        totals, line = rescore(state)
        assert len(state.holes) == options["holes"]
        assert state.totals == totals and state.result().line == line
        assert list(state.result().scores) == totals


def test_a_game_replays_exactly_from_its_seed_and_orders():
    state = OnPar.new(NAMES[:3], {"holes": 2}, 21, COURSE)
    rng = random.Random(4)
    orders = []
    while state.result() is None:
        seat = min(state.to_move())
        order = random_orders(state, seat, rng)
        orders.append((seat, str(order)))
        state.apply(seat, order)
    again = OnPar.new(NAMES[:3], {"holes": 2}, 21, COURSE)
    for seat, text in orders:
        again.apply(seat, OnPar.command_from_text(text))
    assert again.to_dict() == state.to_dict()


def test_the_default_and_the_forfeit_orders_are_always_legal():
    for seed in range(30):
        state = OnPar.new(NAMES[:1 + seed % 4], {"holes": 2}, seed, COURSE)
        rng = random.Random(seed)
        while state.result() is None:
            seat = state.current
            for policy in ("autoplay", "forfeit"):
                order = state.nmr_orders(seat, policy)
                assert state.accepts(seat, str(order)), (policy, order)
            others = [s for s in range(state.n) if s != seat]
            assert all(state.default_orders(s) is None for s in others)
            state.apply(seat, random_orders(state, seat, rng))


def test_a_missed_turn_plays_the_longest_shot_toward_the_hole():
    state = OnPar.new(NAMES[:2], {}, 3, COURSE)
    state.course = [(oc.PLAIN, 6)] * 4 + [(oc.GREEN, 5)]
    state.layout = oc.Layout(state.course)
    state.hands[0] = ["D4", "D5", "I2", "W3", "P1", "POWER"]
    assert str(state.default_orders(0)) == "SHOT D5 D4"  # both Drivers go furthest
    state.hands[0] = ["P1", "P2", "P3", "P4", "FADE", "POWER"]
    assert str(state.default_orders(0)) == "PLAY POWER"  # no club moves it: the skill shot that goes furthest
    state.hands[0] = ["P1", "P2", "P3", "P4", "TREES", "D7"]
    state.balls[0] = 20
    assert str(state.default_orders(0)) == "SHOT D7"
    state.hands[0] = ["P1", "P2", "P3", "P4", "TREES"]
    state.balls[0] = 0
    assert str(state.default_orders(0)) == "DISCARD P4"  # nothing moves: discard the highest
    state.hands[0] = ["P1", "TREES"]
    assert str(state.default_orders(0)) == "PASS"
    state.course = [(oc.PLAIN, 4), ("Pond", 3), (oc.PLAIN, 4), (oc.GREEN, 5)]
    state.layout = oc.Layout(state.course)
    state.hands[0], state.balls[0] = ["W2", "P1"], 4
    assert str(state.default_orders(0)) == "SHOT W2"  # the Pond shot the rules force


# -- suggestions and fuzzing ------------------------------------------------------------------
GARBLED = ["SHOT", "SHOT D9", "PLAY", "TRAP SANDTRAP", "TRAP SANDTRAP ON", "DISCARD", "DISCARD D4 D5",
           "PASS now", "hello there", "PLAY LIGHTWIND", "TRAP GALE ON Bob", "SHOT D5 XX"]


def random_mail(state: OnPar, seat: int, rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(GARBLED)
    hand = state.hands[seat] or ["D4"]
    card = lambda: rng.choice(hand if rng.random() < 0.7 else list(oc.CODES))  # noqa: E731
    name = rng.choice(state.names + ["Zed", state.names[seat].upper()])
    orders = [Shot(tuple(card() for _ in range(rng.randint(1, 4)))), PlaySkill(card()), Trap(card(), name),
              DiscardCard(card()), Pass()]
    text = str(rng.choice(orders))
    if pick > 0.9:
        text += "\n" + str(rng.choice(orders))
    return text


def read(state: OnPar, seat: int, text: str):
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    orders, errors = read_body(lines, grammar)
    if not errors:
        for order in orders:
            try:
                state.check(seat, order.command)
            except OrderError as e:
                errors.append(e.at(*reversed(order.lines[0])))
                break
    make_suggestions(errors, state, seat)
    return orders, errors


def test_every_suggestion_is_an_order_the_game_accepts():
    probed = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = OnPar.new(NAMES[:1 + seed % 4], dict(OPTION_SETS[seed % 3], holes=1), seed, COURSE)
        for _ in range(80):
            if state.result() is not None:
                break
            seat = rng.randrange(state.n)
            orders, errors = read(state, seat, random_mail(state, seat, rng))
            for error in errors:
                if error.hint:
                    assert state.accepts(seat, error.hint), (error.message, error.hint)
                    probed += 1
            mover = min(state.to_move())
            if not errors and orders and seat == mover:
                state.apply(seat, orders[0].command)
            else:
                state.apply(mover, random_orders(state, mover, rng))
    assert probed > 500


FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=300,
                suppress_health_check=[HealthCheck.too_slow])
CARD = st.sampled_from(list(oc.CODES) + ["D9", "X", "", "W0"])
COMMANDS = st.one_of(
    st.builds(Shot, st.lists(CARD, max_size=5).map(tuple)), st.builds(PlaySkill, CARD),
    st.builds(Trap, CARD, st.sampled_from(NAMES + ["", "zed", "ANN", " Bob "])), st.builds(DiscardCard, CARD),
    st.just(Pass()), st.just(Resign()))


@FUZZ
@given(st.integers(1, 4), st.integers(0, 2 ** 16), st.integers(0, 80), st.lists(COMMANDS, max_size=8))
def test_any_order_in_any_position_raises_only_order_errors(players, seed, moves, commands):
    state = OnPar.new(NAMES[:players], {"holes": 2}, seed, COURSE)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.result() is not None:
            break
        seat = min(state.to_move())
        state.apply(seat, random_orders(state, seat, rng))
    for command in commands:
        for seat in range(players):
            try:
                state.check(seat, command)
            except OrderError:
                continue
            trial = OnPar.from_dict(state.to_dict())
            trial.apply(seat, command)
