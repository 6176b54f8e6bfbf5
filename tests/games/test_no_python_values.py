"""No Python value in what a GM or a player reads (issue 18, item 12): every option of every
game given a wrong value, and every order line of every game sent to every game, is answered
as the GM and the players write (`true`, `false`, `1 2 3`), never as Python prints
(`False, True`, `['1', '2', '3']`, `'maybe'`, `None`). And the values an option error lists as
right are right."""
from __future__ import annotations

import copy
import importlib
import random
import re

import pytest

from pbem.games import game_type, spec_for
from pbem.games.registry import types
from pbem.games.base import TurnByTurn
from pbem.games.course import Course
from pbem.games.errors import OrderError, make_suggestions
from pbem.orders.commands import read_body

COURSE = Course.from_pars_string("443 544 354 445 345 434")
NAMES = ["Ann", "Bob", "Cy"]
PLAYERS = {"matchplay": 2, "golfdeck": 3, "golf": 3, "dicegolf": 3, "onpar": 3}

# What Python prints and a person does not write.
PYTHON = re.compile(r"\b(True|False|None)\b|[\[\]{}]|(?<![\w])'[^'\s]*'|\w\(\w+=|object at 0x|Fraction\(|"
                    r"frozenset\(|<class ")

WRONG = ["maybe", "", "-1", "0", "1000", "3.5", "x" * 90, [1, 2, 3], ["1", "2", "3"], (4, 5), True, False,
         None, 0, -3, 2.5, {"a": 1}, "true", "false", "1,2,3", "7,4,10", "1:9", "nobody:2"]

LINES = [
    # MatchPlay
    "PLAY 3 4 5", "PLAY 3,3,3", "PLAY 9 9 9", "PLAY", "PLAY 3 4", "SPECIAL BLUE -1 HOLE 2",
    "SPECIAL RED +1 ON HOLE 20", "SPECIAL GREEN", "SPECIAL", "TURN 9",
    # dice golf
    "ENTER SUM", "ENTER 13", "ENTER DIE3", "ENTER X", "ENTER", "ENTER 1", "POLICY FOO", "POLICY",
    "POLICY BEST", "POLICY ASK",
    # the card games
    "REVEAL 1 2", "REVEAL 1 1", "REVEAL 7 8", "REVEAL", "DRAW STOCK", "DRAW DISCARD 9", "DRAW DISCARD 1",
    "KEEP 0", "KEEP 1", "DISCARD FLIP 7", "DISCARD FLIP 1", "DRAW STOCK IF <= 99 KEEP 1 ELSE FLIP 2",
    "DRAW STOCK IF <= 3 KEEP 1 ELSE FLIP 1", "KNOCK", "PEEK 9", "PEEK 1", "DISCARD",
    # On Par
    "SHOT D9", "SHOT D4 I3", "SHOT D4", "SHOT W1", "SHOT", "PLAY POWER", "PLAY FOO", "TRAP TREES ON Nobody",
    "TRAP TREES ON Bob", "TRAP TREES ON Ann", "DISCARD D4", "PASS",
]


def python_in(text: str | None) -> list[str]:
    return [m.group(0) for m in PYTHON.finditer(text or "")]


def option_errors(type_name: str, key: str, value) -> list[str]:
    """Every ValueError the option's value raises, when it is checked and when a game is made."""
    cls = game_type(type_name)
    said = []
    for attempt in (lambda: cls.check_options({key: value}),
                    lambda: cls.new(NAMES[:PLAYERS[type_name]], {key: value}, 1, COURSE)):
        try:
            attempt()
        except ValueError as e:
            said.append(str(e))
    return said


@pytest.mark.parametrize("type_name", types())
def test_every_option_given_a_wrong_value_is_answered_in_the_gms_words(type_name):
    cls = game_type(type_name)
    refused = 0
    for key, option in cls.OPTIONS.items():
        for value in WRONG:
            for message in option_errors(type_name, key, value):
                refused += 1
                assert not python_in(message), (key, value, message)
                assert "\n" not in message and len(message) < 300, message
                listed = re.search(r"expected (?:one of )?(.+?), got ", message)
                if option.allowed and listed and message.startswith(f"option {key}:"):
                    # Each value the message offers is one the option takes.
                    for word in re.split(r", | or ", listed.group(1)):
                        assert option_errors(type_name, key, word) == [], (key, word, message)
    assert refused > len(cls.OPTIONS), "the sweep refused something of every option"


def test_the_repros_of_the_issue():
    golf = game_type("golf")
    with pytest.raises(ValueError) as e:
        golf.check_options({"spade_queen": "0"})
    assert str(e.value) == 'option spade_queen: expected one of false, true, 40, got "0"'
    with pytest.raises(ValueError) as e:
        golf.check_options({"jokers": "maybe"})
    assert str(e.value) == 'option jokers: expected true or false, got "maybe"'
    with pytest.raises(ValueError) as e:
        game_type("dicegolf").new(["Ann"], {"flags": ["1", "2", "3"]}, 1, COURSE)
    assert str(e.value).endswith("or random, got 1 2 3")
    with pytest.raises(ValueError) as e:
        game_type("golfdeck").check_options({"nonsense": True})
    assert str(e.value).startswith('unknown option "nonsense" for golfdeck; known: ')


def states(type_name: str, seed: int, every: int = 4, most: int = 8):
    """Some states along a random game of `type_name`."""
    cls = game_type(type_name)
    module = importlib.import_module(cls.__module__)
    random_orders = getattr(module, "random_orders", None) or importlib.import_module(
        "pbem.games.onpar.play").random_orders
    options = cls.options_with_defaults({"holes": 2} if "holes" in cls.OPTIONS else {})
    state = cls.new(NAMES[:PLAYERS[type_name]], options, seed, COURSE)
    rng, taken = random.Random(seed), 0
    for step in range(3000):
        if state.result() is not None:
            yield state
            return
        if step % every == 0:
            yield state
            taken += 1
            if taken >= most:
                return
        if not isinstance(state, TurnByTurn) and state.ready():
            state.resolve()
            continue
        seat = min(state.to_move())
        state.apply(seat, random_orders(state, seat, rng))
        getattr(state, "drain_events", lambda: None)()


@pytest.mark.parametrize("type_name", types())
def test_every_order_error_of_every_game_is_written_as_a_player_writes(type_name):
    grammar, seen = spec_for(type_name).grammar, 0
    for state in states(type_name, seed=3):
        for seat in range(len(state.names)):
            for line in LINES:
                orders, errors = read_body([(1, line)], grammar)
                for order in orders:
                    trial = copy.deepcopy(state)
                    try:
                        trial.check(seat, order.command)
                    except OrderError as e:
                        errors.append(e.at(line, 1))
                make_suggestions(errors, state, seat)
                for error in errors:
                    seen += 1
                    for text in (error.message, error.rule, error.hint):
                        assert not python_in(text), (type_name, line, text)
    assert seen > 50


@pytest.mark.parametrize("type_name", types())
def test_a_stored_order_that_does_not_read_back_is_named_as_written(type_name):
    """`pbem verify` reads orders from a record anyone may have made."""
    cls = game_type(type_name)
    for text in ("NONSENSE 'quoted' [1, 2]", "x" * 200, "ENTER", "None"):
        try:
            cls.command_from_text(text)
        except (ValueError, IndexError, KeyError) as e:
            message = str(e)
            assert len(message) < 200, message
            assert not python_in(message.replace(text[:57], "")), message
