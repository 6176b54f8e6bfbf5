"""PRESS by mail: one line or a bare PRESS with paragraphs below it, passed on signed once, and
the sender told who has it."""
from __future__ import annotations

from conftest import BILL, GEORGE, body, kinds

PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test"]


def presses(table, addr: str) -> list:
    return [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "press"]


def assert_fits(text: str) -> None:
    assert all(len(line) <= 78 for line in text.splitlines()), [ln for ln in text.splitlines() if len(ln) > 78]


def test_a_bare_press_keeps_its_paragraphs_and_is_signed_once(table):
    table.new_match()
    got = table.order(GEORGE, "Hi Bill,\n\nPRESS\nGood luck, Bill!\nMay the wind be kind.\n\n\n"
                              "See you on the 18th.\n\nGeorge\n")
    press, = presses(table, BILL)
    text = body(press)
    assert ("    Good luck, Bill!\n    May the wind be kind.\n\n    See you on the 18th.\n\n    -- George\n"
            in text), text
    assert text.count("George") == 1 and press["Subject"] == "[m1] Press from George"
    assert "Hi Bill" not in text  # the greeting to the GM is no part of the press
    # The sender's copy says who has it, and shows what they read.
    assert kinds(got) == ["press"]
    copy = body(got[0])
    assert "I passed your press on to Bill. This is what they read:" in copy
    assert "    See you on the 18th.\n\n    -- George\n" in copy and BILL not in copy
    assert got[0]["In-Reply-To"] and got[0]["Subject"] == "[m1] Press passed on to Bill"


def test_a_one_line_press_and_several_press_lines(table):
    table.new_match()
    table.order(GEORGE, "PRESS Good luck, Bill!")
    table.order(GEORGE, "PRESS Nice drive.\nPRESS Shame about the bunker.")
    first, second = presses(table, BILL)
    assert "    Good luck, Bill!\n\n    -- George\n" in body(first)
    assert "    Nice drive.\n    Shame about the bunker.\n\n    -- George\n" in body(second)


def test_a_bare_press_ends_at_a_quote_and_orders_below_it_are_read(table):
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    quote = "\n".join("> " + line for line in body(welcome).splitlines())
    got = table.order(GEORGE, f"PRESS\nNice to meet you.\n\nGolf GM wrote:\n{quote}\n\nPLAY 4 4 5\n")
    assert kinds(got) == ["ack"], [body(m) for m in got]  # one answer: the ack, the press copy below it
    press, = presses(table, BILL)
    assert "    Nice to meet you.\n\n    -- George\n" in body(press)
    assert "PLAY" not in body(press) and "Golf GM wrote" not in body(press)
    assert "PLAY 4 4 5" in body(got[0]) and "== Press passed on to Bill ==" in body(got[0])


def test_press_and_orders_in_one_mail_get_one_answer_with_both(table):
    table.new_match()
    got = table.order(GEORGE, "PLAY 4 4 5\nPRESS Your move, Bill.")
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[m1] Orders received for turn 1 (with press)"
    assert "PLAY 4 4 5" in body(got[0]) and "    Your move, Bill." in body(got[0])


def test_a_bare_press_with_nothing_below_it_is_refused(table):
    table.new_match()
    got = table.order(GEORGE, "PLAY 4 4 5\nPRESS\n")
    assert kinds(got) == ["error"] and not presses(table, BILL)
    flat = " ".join(body(got[0]).split())
    assert "Line 2: PRESS" in flat and "PRESS needs a message" in flat and "What would be right: PRESS Good luck!" in flat


def test_a_long_press_line_is_wrapped_to_fit(table):
    table.new_match()
    words = "the quick brown fox jumps over the lazy dog and " * 8
    table.order(GEORGE, f"PRESS {words}")
    press, = presses(table, BILL)
    assert_fits(body(press))
    assert " ".join(body(press).split()).count("lazy dog") == 8


def test_the_press_of_a_card_game_reaches_every_other_player_and_names_them(table):
    args = ["new-game", "golfdeck", "--id", "c1", "--seed", "3"]
    for name, addr in zip(["Ann", "Bob", "Cy"], PLAYERS):
        args += ["--player", f"{name} <{addr}>"]
    table.pbem(*args)
    got = table.order(PLAYERS[0], "PRESS\nWelcome, both of you.\n\nAnn", game="c1")
    assert kinds(got) == ["press"]
    copy = body(got[0])
    assert "I passed your press on to Bob and Cy. This is what they read:" in copy
    assert not any(addr in copy for addr in PLAYERS)
    for addr in PLAYERS[1:]:
        press, = presses(table, addr)
        assert "    Welcome, both of you.\n\n    -- Ann\n" in body(press)
    assert not presses(table, PLAYERS[0])[:-1]  # nothing but the copy went to the sender
