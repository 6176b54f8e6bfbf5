"""Reading dice golf orders as people type them."""
from __future__ import annotations

import itertools

import pytest

from pbem.games.dicegolf import Autoplay, DiceGolf, Enter, ForfeitHole, Policy
from pbem.games.errors import AmbiguousOrder, InvalidOrder, make_suggestions
from pbem.orders.commands import Help, Status, UnknownCommand, read_body, read_heading
from pbem.games.dicegolf.grammar import grammar
from pbem.orders.text import command_lines


def read(text):
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, grammar)
    return heading, orders, errors


@pytest.mark.parametrize("text,command", [
    ("ENTER SUM", Enter("SUM")),
    ("enter sum", Enter("SUM")),
    ("Enter the sum", Enter("SUM")),
    ("ENTER TOTAL", Enter("SUM")),
    ("ENTER DIE1", Enter("DIE1")),
    ("enter die 2", Enter("DIE2")),
    ("ENTER D1", Enter("DIE1")),
    ("  ENTER    4  ", Enter(4)),
    ("ENTER 11", Enter(11)),
    ("ENTER 07", Enter(7)),
    ("ENTER x", Enter("X")),
    ("POLICY BEST", Policy("BEST")),
    ("policy ask", Policy("ASK")),
    ("Policy High", Policy("HIGH")),
    ("POLICY   low", Policy("LOW")),
])
def test_orders_in_many_spellings(text, command):
    _, orders, errors = read(text)
    assert errors == [] and [o.command for o in orders] == [command]


@pytest.mark.parametrize("command", [Enter("SUM"), Enter("DIE1"), Enter("DIE2"), Enter("X"), Enter(3),
                                     Enter(12), Policy("ASK"), Policy("BEST"), Policy("HIGH"), Policy("LOW")])
def test_canonical_text_reads_back(command):
    _, orders, errors = read(str(command))
    assert not errors and orders[0].command == command
    assert DiceGolf.command_from_text(str(command)) == command


def test_engine_only_orders_are_not_player_orders():
    for command in (Autoplay(), ForfeitHole()):
        _, orders, errors = read(str(command))
        assert orders == [] and isinstance(errors[0], UnknownCommand)


def test_enter_is_played_before_policy_whatever_the_order_of_the_lines():
    _, orders, errors = read("POLICY BEST\nENTER DIE2")
    assert errors == [] and [o.command for o in orders] == [Enter("DIE2"), Policy("BEST")]
    assert orders[0].lines == [(2, "ENTER DIE2")]


def test_heading_and_generic_commands_go_with_the_orders():
    heading, orders, errors = read("GAME d1\nPASSWORD abc\nTURN 3\nSTATUS\nENTER 4\nhelp")
    assert (heading.game_id, heading.password, heading.turn) == ("d1", "abc", 3) and errors == []
    assert [o.command for o in orders] == [Status(), Help(), Enter(4)]


@pytest.mark.parametrize("text,hint", [
    ("ENTER", "ENTER SUM"),
    ("ENTER DIE3", "ENTER SUM"),
    ("ENTER 123", "ENTER SUM"),
    ("ENTER -2", "ENTER SUM"),
    ("ENTER three", "ENTER SUM"),
    ("ENTER ٣", "ENTER SUM"),  # another script's digit is not read as 3
    ("POLICY", "POLICY BEST"),
    ("POLICY SMART", "POLICY BEST"),
])
def test_unreadable_orders_say_how_they_are_written(text, hint):
    _, orders, errors = read(text)
    assert orders == [] and len(errors) == 1
    assert type(errors[0]) is InvalidOrder and errors[0].hint == hint
    assert errors[0].line == text and errors[0].lineno == 1
    _, fixed, again = read(hint)  # the hint itself reads
    assert again == [] and len(fixed) == 1


def test_a_line_that_is_no_order():
    _, orders, errors = read("ENTER 4\n\nroll them for me please")
    # After a blank line, unknown text is taken for a signature and ignored.
    assert errors == [] and [o.command for o in orders] == [Enter(4)]
    _, orders, errors = read("roll them for me please\nENTER 4")
    assert isinstance(errors[0], UnknownCommand) and errors[0].lineno == 1
    assert "ENTER, POLICY, STATUS" in errors[0].message


def test_two_enters_or_two_policies_are_ambiguous():
    _, orders, errors = read("ENTER 4\nENTER SUM")
    assert [o.command for o in orders] == [Enter(4)]
    assert isinstance(errors[0], AmbiguousOrder) and errors[0].lineno == 2
    assert "line 1 has one already" in errors[0].message and "next toss" in errors[0].message
    _, orders, errors = read("POLICY BEST\npolicy low")
    assert isinstance(errors[0], AmbiguousOrder) and errors[0].line == "policy low"
    assert errors[0].hint == "POLICY BEST"


# Flag 8; Alice's first toss 3 and 6 (6 and 3 fit, 3 is the better), Bob's 4 and 4.
def waiting() -> DiceGolf:
    tosses = itertools.chain([(3, 6), (4, 4)], itertools.repeat((1, 1)))  # then ones, should more be made

    class Loaded(DiceGolf):
        def _toss_dice(self, seat: int, toss_no: int) -> tuple[int, int]:
            return next(tosses)

    return Loaded.new(["Alice", "Bob"], {"flags": "8,6,6,6,6,6,6"}, 0, None)


@pytest.mark.parametrize("text,seat,suggested", [
    ("ENTER DIE3", 0, "ENTER 3"),
    ("roll for me", 0, "ENTER 3"),
    ("ENTER 4\nENTER SUM", 0, "ENTER 3"),
    ("POLICY SMART", 0, "POLICY BEST"),
    ("POLICY HIGH\nPOLICY LOW", 0, "POLICY HIGH"),
    ("ENTER DIE3", 1, None),  # Bob holed out in one (4 and 4): nothing waits for him
])
def test_once_the_game_is_known_every_suggestion_is_legal_there(text, seat, suggested):
    g = waiting()
    _, _, errors = read(text)
    make_suggestions(errors, g, seat)
    assert errors[-1].hint == suggested
    if suggested:
        g.apply(seat, DiceGolf.command_from_text(suggested))
