"""On Par played whole: random games of 1, 2 and 4 players end with totals and a result that are
recomputed here from the finished holes by the loser rule; what everyone is told names no card
played face down; the GM's own choices and every suggestion of an error are legal; whatever
order arrives, in whatever position, only an order error comes back."""
from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.onpar import course as oc
from pbem.games.base import Resign
from pbem.games.course import Course
from pbem.games.errors import OrderError, make_suggestions
from pbem.games.onpar import OnPar, random_orders
from pbem.games.onpar.orders import DiscardCard, Pass, PlaySkill, Shot, Trap
from pbem.games.rng import Generator, seed_from_int
from pbem.orders.commands import read_body
from pbem.games.onpar.grammar import grammar

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
    assert again.to_dict() == state.to_dict() and again.chance_record() == state.chance_record()


# -- chance: the fair generator, in the documented order --------------------------------------
def reshuffling_game(seed: int = 5) -> OnPar:
    """A finished game of three holes whose draw pile ran out on the first: everyone discards
    until it does, and then plays by the GM's own choice."""
    state = OnPar.new(NAMES[:3], {"holes": 3}, seed, COURSE)
    while not state.shuffles[-1]["what"] == "draw pile":
        state.apply(state.current, DiscardCard(state.hands[state.current][0]))
    while state.result() is None:
        state.apply(state.current, state.default_orders(state.current))
    return state


def test_every_shuffle_is_the_generators_in_the_documented_order():
    # A checker with the seed alone: one generator, per hole the course deck then the
    # distance deck in their listed orders, and a reshuffle of the pile as it was gathered.
    state = reshuffling_game()
    fresh = Generator(seed_from_int(5))
    record = state.chance_record()
    assert [r["what"] for r in record if r["what"] != "draw pile"] == ["course", "distance deck"] * 3
    for entry in record:
        start = {"course": [list(c) for c in oc.course_deck(True)],
                 "distance deck": oc.distance_deck(True, True)}.get(entry["what"], entry.get("from"))
        assert sorted(start) == sorted(entry["cards"])
        assert fresh.shuffled(start) == entry["cards"], entry["what"]
    assert fresh.words == state.rng.words
    for hole in state.holes:  # each hole's course is the first par cards of its shuffled deck
        deck = next(r["cards"] for r in record if r["hole"] == hole["hole"] and r["what"] == "course")
        assert [[c["card"], c["spaces"]] for c in hole["course"][:-1]] == deck[:hole["par"]]


def test_the_deal_takes_one_card_at_a_time_from_the_top_from_the_first_player_on():
    state = OnPar.new(NAMES[:3], {}, 8, COURSE)
    deck = state.chance_record()[1]["cards"]
    top_down = deck[::-1]
    for k, seat in enumerate((0, 1, 2)):  # hole 1: Ann plays first and draws for her turn
        assert state.hands[seat][:5] == top_down[k:15:3]
    assert state.fresh[0] == top_down[15] and state.hands[0][5] == top_down[15]
    assert state.draw == deck[:-16]


def test_the_chance_record_changes_with_the_seed_and_a_number_seed_is_its_bytes():
    records = {str(OnPar.new(NAMES[:2], {}, seed, COURSE).chance_record()) for seed in range(10)}
    assert len(records) == 10
    assert OnPar.new(NAMES[:2], {}, seed_from_int(6), COURSE).to_dict() == OnPar.new(NAMES[:2], {}, 6, COURSE).to_dict()


def test_a_game_stored_mid_game_continues_identically():
    state = OnPar.new(NAMES[:4], {"holes": 3}, 12, COURSE)
    rng = random.Random(12)
    while len(state.holes) < 1 or state.hole_no == 1:
        state.apply(state.current, random_orders(state, state.current, rng))
    for _ in range(7):  # into the second hole, with its decks shuffled and the draw pile in use
        state.apply(state.current, random_orders(state, state.current, rng))
    copy_ = OnPar.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy_.to_dict() == state.to_dict() and copy_.rng.words == state.rng.words
    twin = random.Random()
    twin.setstate(rng.getstate())
    play_out(state, rng)
    play_out(copy_, twin)
    assert copy_.to_dict() == state.to_dict() and copy_.chance_record() == state.chance_record()
    assert len(state.chance_record()) >= 6 and state.result() == copy_.result()


def test_a_game_stored_before_the_fair_generator_is_refused_plainly():
    stored = OnPar.new(NAMES[:2], {}, 1, COURSE).to_dict()
    stored["rng"] = [3, [0] * 625, None]  # how Python's random stored its state
    with pytest.raises(ValueError, match="before pbem's fair generator"):
        OnPar.from_dict(stored)


@pytest.mark.slow
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


@pytest.mark.slow
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
