"""Reading MatchPlay orders as people type them."""
from __future__ import annotations

import pytest

from pbem.games.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, make_suggestions
from pbem.games.matchplay import Play, Special, rule
from pbem.orders.commands import Help, Press, Status, read_body, read_heading
from pbem.games.matchplay.grammar import grammar, guess_special
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
    for text in ("PLAY 3 5 4\nthanks for the game!", "Hi GM\nPLAY 3 5 4", "PLAY 3 5 4\n\nGeorge\nSPECIAL BLUE+1 HOLE 2"):
        heading = read_heading(command_lines(text))
        _, errors = read_body(heading.body, grammar)
        assert errors, text


@pytest.mark.parametrize("text,guess", [
    ("RED -1 HOL 5", Special("RED-", 5)),
    ("blue+1", Special("BLUE+", 0)),
    ("+1 hole 13", Special("+", 13)),
    ("GREEN+1 HOLE 2", Special("+", 2)),
    ("red minus one hole #4", Special("RED", 4)),
    ("", Special("", 0)),
])
def test_what_an_unreadable_special_line_shows(text, guess):
    assert guess_special(text) == guess


def test_every_error_of_a_message_leaves_one_suggestion_for_the_game_to_make():
    """Without the game a hint shows only the form of an order; the game makes the real one
    from all that the message shows (the cards of its PLAY, the special it was after)."""
    _, _, errors = read("PLAY 3 4 5\nSPECIAL BLUE -1 HOL 2\nthanks for the last round, good game")
    assert len(errors) == 2 and errors[0].hint == "SPECIAL BLUE-1 HOLE 2"
    assert errors[0].suggest is errors[1].suggest
    seen = []

    class Game:
        def result(self):
            return None

        def nearest_orders(self, seat, cards, specials):
            seen.append((seat, cards, specials))
            return Play((4, 4, 5), (Special("BLUE-1", 2),))

    make_suggestions(errors, Game(), 1)
    assert seen[0] == (1, [3, 4, 5], [Special("BLUE-", 2)])
    assert [e.hint for e in errors] == ["PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2"] * 2


def test_error_texts_cite_the_welcome_rule_of_one_mail():
    _, _, errors = read("SPECIAL BLUE+1 HOLE 2")
    assert errors[0].rule == rule("i") == "(i) a turn's orders come in one mail: its PLAY line with any SPECIAL"
