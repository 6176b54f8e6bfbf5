"""Reading MatchPlay orders as people type them."""
from __future__ import annotations

import pytest

from pbem.games.errors import AmbiguousOrder, IllegalOrder, InvalidOrder
from pbem.games.matchplay import Play, Special
from pbem.orders.commands import Help, Press, Status, read_body, read_heading
from pbem.orders.matchplay import grammar
from pbem.orders.text import command_lines


def read(text):
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, grammar)
    return heading, orders, errors


@pytest.mark.parametrize("text,cards,special", [
    ("PLAY 3 5 4", (3, 5, 4), None),
    ("play 3 5 4\nspecial blue +1 hole 3", (3, 5, 4), Special("BLUE+1", 3)),
    ("Play 3,5,4\nSpecial Red -1 Hole 2", (3, 5, 4), Special("RED-1", 2)),
    ("PLAY 354\nSPECIAL red-1 on hole 1", (3, 5, 4), Special("RED-1", 1)),
    ("  PLAY   4  4  5  \n\n  SPECIAL  BLUE-1  HOLE 12", (4, 4, 5), Special("BLUE-1", 12)),
])
def test_orders_in_many_spellings(text, cards, special):
    _, orders, errors = read(text)
    assert errors == []
    assert orders[0].command == Play(cards, (special,) if special else ())


def test_canonical_text_reads_back():
    play = Play((3, 5, 4), (Special("BLUE+1", 3),))
    _, orders, errors = read(str(play))
    assert not errors and orders[0].command == play


def test_heading_lines_and_generic_commands():
    heading, orders, errors = read("GAME m1\nPASSWORD abc\nTURN 2\nSTATUS\nhelp\nPRESS hello there\nPLAY 3 4 5")
    assert (heading.game_id, heading.password, heading.turn) == ("m1", "abc", 2)
    assert [type(o.command) for o in orders] == [Status, Help, Press, Play]
    assert orders[2].command.text == "hello there" and not errors


def test_unreadable_ambiguous_and_orphan_special():
    _, _, errors = read("PLAY three four five")
    assert isinstance(errors[0], InvalidOrder) and errors[0].lineno == 1
    _, _, errors = read("PLAY 3 4 5\nPLAY 4 4 5")
    assert isinstance(errors[0], AmbiguousOrder) and errors[0].lineno == 2
    _, orders, errors = read("SPECIAL BLUE+1 HOLE 2")
    assert not orders and isinstance(errors[0], IllegalOrder)
    _, _, errors = read("SPECIAL GREEN+1 HOLE 2\nPLAY 3 4 5")
    assert isinstance(errors[0], InvalidOrder) and errors[0].hint == "SPECIAL BLUE-1 HOLE 2"


def test_resign_stands_alone():
    _, _, errors = read("RESIGN\nPLAY 3 4 5")
    assert isinstance(errors[0], AmbiguousOrder)


def test_a_bare_signature_after_a_blank_line_is_not_an_order():
    text = "PLAY 3 5 4\nSPECIAL BLUE+1 HOLE 2\n\nGeorge\n+44 20 7946 0000"
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, grammar)
    assert errors == [] and len(orders) == 1


def test_chatter_between_orders_is_still_refused():
    for text in ("PLAY 3 5 4\nthanks!", "Hi GM\n\nPLAY 3 5 4", "PLAY 3 5 4\n\nGeorge\nSPECIAL BLUE+1 HOLE 2"):
        heading = read_heading(command_lines(text))
        _, errors = read_body(heading.body, grammar)
        assert errors, text
