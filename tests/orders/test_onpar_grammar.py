"""Reading On Par orders as people type them, and writing them back in the canonical form."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.onpar import course as oc
from pbem.games.errors import AmbiguousOrder, InvalidOrder, OrderError, make_suggestions
from pbem.games.onpar import OnPar
from pbem.games.onpar.orders import DiscardCard, Pass, PlaySkill, Shot, Trap, from_text
from pbem.orders.commands import UnknownCommand, read_body
from pbem.games.onpar.grammar import grammar


def read(text: str):
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    return read_body(lines, grammar)


@pytest.mark.parametrize("text,command", [
    ("SHOT D5 D4", Shot(("D5", "D4"))),
    ("shot d5 d4", Shot(("D5", "D4"))),
    ("Shot D5, D4", Shot(("D5", "D4"))),
    ("SHOT D5+D4+D6", Shot(("D5", "D4", "D6"))),
    ("SHOT D 5 and D 4", Shot(("D5", "D4"))),
    ("  SHOT    W2  ", Shot(("W2",))),
    ("SHOT D5 I3", Shot(("D5", "I3"))),  # read; the engine refuses the mix, naming the rule
    ("PLAY D7", Shot(("D7",))),
    ("PLAY POWER", PlaySkill("POWER")),
    ("play power shot", PlaySkill("POWER")),
    ("PLAY High Fade", PlaySkill("FADE")),
    ("PLAY slice", PlaySkill("SLICE")),
    ("SHOT POWER", PlaySkill("POWER")),
    ("TRAP SANDTRAP ON Bob", Trap("SANDTRAP", "Bob")),
    ("trap sand trap on bob", Trap("SANDTRAP", "bob")),
    ("TRAP Light Wind ON Mary  Ann", Trap("LIGHTWIND", "Mary Ann")),
    ("PLAY SUDDEN RAINSTORM ON Cy", Trap("RAINSTORM", "Cy")),
    ("TRAP water-trap on cy@example.org", Trap("WATERTRAP", "cy@example.org")),
    ("TRAP TREES ON Di", Trap("TREES", "Di")),
    ("TRAP HEAVYWIND ON Di", Trap("HEAVYWIND", "Di")),
    ("TRAP TREES ON #2", Trap("TREES", "#2")),
    ("DISCARD I3", DiscardCard("I3")),
    ("discard trees", DiscardCard("TREES")),
    ("PASS", Pass()),
    ("pass", Pass()),
])
def test_orders_in_many_spellings(text, command):
    orders, errors = read(text)
    assert errors == [] and [o.command for o in orders] == [command]


COMMANDS = [Shot(("D5", "D4")), Shot(("W3",)), Shot(("P1",)), PlaySkill("POWER"), PlaySkill("FADE"),
            PlaySkill("SLICE"), Trap("SANDTRAP", "Bob"), Trap("RAINSTORM", "Mary Ann"), DiscardCard("D7"),
            DiscardCard("WATERTRAP"), Pass()]


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_the_canonical_text_reads_back(command):
    orders, errors = read(str(command))
    assert not errors and orders[0].command == command
    assert OnPar.command_from_text(str(command)) == command == from_text(str(command))


@given(st.lists(st.sampled_from(oc.DISTANCE_CODES), min_size=1, max_size=4), st.sampled_from(list(oc.TRAPS)),
       st.sampled_from(list(oc.CODES)), st.text("ab CD", min_size=1, max_size=12).map(lambda s: " ".join(s.split()))
       .filter(bool))
@settings(max_examples=200, derandomize=True, database=None)
def test_every_order_round_trips_through_its_text(cards, trap, card, name):
    for command in (Shot(tuple(cards)), Trap(trap, name), DiscardCard(card)):
        assert from_text(str(command)) == command
        orders, errors = read(str(command))
        assert not errors and orders[0].command == command


@pytest.mark.parametrize("text,kind,says", [
    ("SHOT D9", InvalidOrder, "no card D9 "),
    ("SHOT D5 X", InvalidOrder, "no card X "),
    ("SHOT", InvalidOrder, "SHOT is written SHOT D5 D4"),
    ("PLAY", InvalidOrder, "PLAY is written PLAY POWER"),
    ("PLAY SANDTRAP", InvalidOrder, "names the player"),
    ("TRAP SANDTRAP", InvalidOrder, "names the player"),
    ("TRAP SANDTRAP ON", InvalidOrder, "names the player"),
    ("TRAP GALE ON Bob", InvalidOrder, "GALE is no trap"),
    ("DISCARD", InvalidOrder, "DISCARD is written DISCARD I3"),
    ("DISCARD D4 D5", InvalidOrder, "DISCARD takes one card"),
    ("DRIVE D5", UnknownCommand, "not an order of On Par"),
])
def test_what_cannot_be_read_says_why(text, kind, says):
    orders, errors = read(text)
    assert orders == [] and type(errors[0]) is kind and says in errors[0].message
    assert errors[0].line == text and errors[0].lineno == 1


def test_one_order_a_message():
    orders, errors = read("SHOT D5\nDISCARD I3")
    assert [o.command for o in orders] == [Shot(("D5",))]
    assert isinstance(errors[0], AmbiguousOrder) and errors[0].lineno == 2 and errors[0].hint == "SHOT D5"


def test_the_suggestions_of_unreadable_lines_are_legal_in_the_game():
    state = OnPar.new(["Ann", "Bob"], {}, 3, None)
    state.hands[0] = ["D4", "D5", "I3", "W1", "P2", "SANDTRAP"]
    for text in ("SHOT D9", "PLAY", "TRAP SANDTRAP", "DISCARD", "DRIVE D5", "SHOT D5\nDISCARD I3"):
        _, errors = read(text)
        make_suggestions(errors, state, 0)
        for error in errors:
            assert error.hint and state.accepts(0, error.hint), (text, error.hint)
    _, errors = read("TRAP SANDTRAP")
    make_suggestions(errors, state, 0)
    assert errors[0].hint == "TRAP SANDTRAP ON Bob"


WORDS = ["SHOT", "PLAY", "TRAP", "DISCARD", "PASS", "ON", "AND", ",", "+", "D5", "d", "5", "W3", "P9", "POWER",
         "HIGH", "FADE", "SAND", "TRAP", "Bob", "ann", "\u0664", "\uff14", "\x00", "\u202e", "9" * 40, "-", ""]


@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join), max_size=5))
@settings(max_examples=300, derandomize=True, database=None)
def test_any_words_give_orders_or_order_errors_and_the_engine_only_order_errors(lines):
    orders, errors = read("\n".join(lines))
    assert all(isinstance(e, (InvalidOrder, AmbiguousOrder)) for e in errors)
    state = OnPar.new(["Ann", "Bob"], {}, 1, None)
    for order in orders:
        for seat in (0, 1):
            try:
                state.check(seat, order.command)
            except OrderError:
                pass


def test_a_long_line_is_read_in_linear_time():
    for line in ("SHOT " + "D5 " * 3000, "TRAP " + "SAND " * 3000 + "ON", "PLAY " + " ," * 3000):
        start = time.perf_counter()
        read(line)
        assert time.perf_counter() - start < 0.5
