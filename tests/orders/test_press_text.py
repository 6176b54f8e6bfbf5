"""The text of a press as read from the mail: paragraphs kept, ended by a quote, signed once."""
from __future__ import annotations

import pytest

from pbem.games.errors import InvalidOrder
from pbem.games import spec_for
from pbem.orders.commands import Press, drop_sign_off, read_body, read_heading
from pbem.orders.text import read_lines


def read(text: str, game: str = "matchplay"):
    reading = read_lines(text)
    heading = read_heading(reading.lines)
    return read_body(heading.body, spec_for(game).grammar, reading.breaks)


def test_a_bare_press_keeps_paragraphs_as_one_blank_line():
    orders, errors = read("PRESS\nGood luck!\nHave fun.\n\n\n\nSee you.\n")
    assert not errors and [o.command for o in orders] == [Press("Good luck!\nHave fun.\n\nSee you.")]


def test_a_blank_line_right_below_press_is_no_paragraph():
    orders, _ = read("PRESS\n\nGood luck!\n")
    assert orders[0].command == Press("Good luck!")


def test_a_bare_press_ends_at_a_quote_and_what_follows_is_read_as_orders():
    orders, errors = read("PRESS\nGood luck!\n> PLAY 3 3 3\nPLAY 4 4 5\n")
    assert not errors
    assert [str(o.command) for o in orders] == ["PRESS Good luck!", "PLAY 4 4 5"]
    assert orders[0].lines == [(1, "PRESS"), (2, "Good luck!")]


def test_password_and_game_lines_never_reach_the_press():
    orders, _ = read("PRESS\nGood luck!\nPASSWORD s3cret\nGAME m1\nSee you.\n")
    assert orders[0].command == Press("Good luck!\nSee you.")


def test_without_breaks_a_bare_press_takes_the_rest():
    heading = read_heading(read_lines("PRESS\nGood luck!\n\nSee you.").lines)
    orders, _ = read_body(heading.body, None)
    assert orders[0].command == Press("Good luck!\nSee you.")


@pytest.mark.parametrize("text", ["PRESS\n", "PRESS\n> quoted\n", "PRESS\n-- \nGeorge"])
def test_a_bare_press_with_no_text_is_refused(text):
    orders, errors = read(text)
    assert not orders
    assert [(type(e), e.lineno, e.hint) for e in errors] == [(InvalidOrder, 1, "PRESS Good luck!")]


@pytest.mark.parametrize("text, name, expected", [
    ("Good luck!\n\nGeorge", "George", "Good luck!"),
    ("Good luck!\n\ngeorge.", "George Smith", "Good luck!"),
    ("Good luck!\n- George Smith", "George Smith", "Good luck!"),
    ("Good luck!\n\u2014 George", "George", "Good luck!"),
    ("Good luck!\nCheers, George", "George", "Good luck!\nCheers, George"),
    ("Good luck!\nGeorgia", "George", "Good luck!\nGeorgia"),
    ("George", "George", "George"),           # a press of the name alone stays
    ("Good luck!\n\nBill", "George", "Good luck!\n\nBill"),
])
def test_drop_sign_off(text, name, expected):
    assert drop_sign_off(text, name) == expected
