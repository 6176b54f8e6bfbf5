"""format=flowed (RFC 3676 section 4) is undone before a message is read."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from pbem.mail.flowed import flow, unflow
from pbem.mail.inbound import parse

LONG = "PRESS Good luck with the back nine, Bill; I hear the wind is going to pick up on the fifth."


def mail(body: str, params: str) -> bytes:
    return (f"From: George <george@example.test>\nTo: gm@example.test\nSubject: Re: [m1] go\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8{params}\n\n{body}").encode()


def test_a_soft_break_joins_the_next_line_and_keeps_its_space():
    assert unflow("PLAY 4 4 3\nPRESS Good luck with the back nine, Bill; I hear the wind is going to \n"
                  "pick up on the fifth.\n") == f"PLAY 4 4 3\n{LONG}\n"


def test_delsp_takes_the_space_of_the_soft_break_away():
    assert unflow("PRESS Good luck with the back nine, Bill; I hear the wind is going to  \n"
                  "pick up on the fifth.", delsp=True) == LONG
    # Without DelSp the same space stays: a word broken in two is joined only with DelSp.
    assert unflow("PRESS Hel \nlo", delsp=True) == "PRESS Hello"
    assert unflow("PRESS Hel \nlo") == "PRESS Hel lo"


def test_quoted_flowed_lines_join_within_their_depth_only():
    text = "> On Monday the GM \n> wrote this.\n>> Deeper \n> back out\nPLAY 3 5 4"
    assert unflow(text) == "> On Monday the GM wrote this.\n>> Deeper \n> back out\nPLAY 3 5 4"


def test_space_stuffing_comes_off_and_the_signature_line_stays_a_signature():
    assert unflow(" From the tee\n >quoted? no\n-- \nGeorge") == "From the tee\n>quoted? no\n-- \nGeorge"


def test_a_flowed_part_is_unflowed_when_parsed_and_a_fixed_one_is_not():
    flowed = "PLAY 4 4 3\nPRESS Good luck with the back nine, Bill; I hear the wind is going to \npick up on the fifth.\n"
    assert parse(mail(flowed, "; format=flowed")).text.splitlines()[:2] == ["PLAY 4 4 3", LONG]
    assert parse(mail(flowed, '; format="Flowed"; delsp=no')).text.splitlines()[:2] == ["PLAY 4 4 3", LONG]
    assert parse(mail(flowed, "")).text.splitlines()[:3] == flowed.splitlines()[:3]  # fixed: as it came


def test_html_only_mail_is_read_as_before():
    raw = (b"From: George <george@example.test>\nTo: gm@example.test\nSubject: x\nMIME-Version: 1.0\n"
           b"Content-Type: text/html; charset=utf-8; format=flowed\n\n<p>PLAY 3 5 4 <br>PRESS hi</p>")
    assert parse(raw).text == "PLAY 3 5 4\nPRESS hi"


@given(st.lists(st.text(alphabet="ab >-\t", max_size=12), max_size=12), st.booleans())
def test_unflowing_loses_no_character_but_the_marks_it_may_take(lines, delsp):
    """Only soft-break spaces (DelSp), stuffed spaces and quote marks may go; every other character
    the player wrote stays, in order."""
    text = "\n".join(lines)
    out = unflow(text, delsp)
    kept = [c for c in text if c not in " >\n"]
    assert [c for c in out if c not in " >\n"] == kept


@pytest.mark.parametrize("lines", [100_000])
def test_a_mail_of_endless_soft_breaks_is_one_pass(lines):
    out = unflow("word \n" * lines)
    assert out.count("word") == lines and "\n" not in out.rstrip("\n")


# -- the GM's own text, written flowed ------------------------------------------------------------
PROSE = ("You are playing a match of MatchPlay Golf against Bill by mail. I am the GM\n"
         "(Golf GM): I keep the cards, check every order and report each turn.")


def soft_lines(flowed: str) -> list[str]:
    return [line for line in flowed.split("\n") if line.endswith(" ")]


def test_a_break_the_wrapping_made_is_soft_and_reads_back_joined():
    flowed = flow(f"Hello Bill,\n\n{PROSE}\n\nGolf GM\n")
    assert soft_lines(flowed) == [PROSE.split("\n")[0] + " "]
    assert unflow(flowed) == f"Hello Bill,\n\n{' '.join(PROSE.split(chr(10)))}\n\nGolf GM\n"


def test_tables_orders_examples_headings_and_short_lines_keep_their_breaks():
    text = ("HOW TO WRITE ORDERS\n"
            "Reply to this mail (the reply address carries your secret, so you need all\n"
            "    PLAY 4 3 5\n"
            "    SPECIAL BLUE-1 HOLE 2\n\n"
            "Turn  Holes     Pars\n   1  1-3       4 4 5\n   2  4-6       3 4 5\n\n"
            "Your remaining stroke cards: 3 3 3 3 4 4 4 4 4 4 4 4 4 4 5 5 5 5 5 5\n"
            "Stroke cards: 3 3 4\n"
            "  Rule: (h) stroke cards are 3, 4 and 5, and only the ones you still hold\n"
            "  What would be right: PLAY 4 4 5\n"
            "Every shuffle and roll of this game comes from one secret seed. Its SHA-256:\n"
            "Seed commitment: " + "7c" * 32 + "\n")
    flowed = flow(text)
    assert soft_lines(flowed) == []
    assert unflow(flowed) == text


def test_a_list_item_joins_its_next_lines_without_their_indent():
    text = ("HOW THE GAME GOES\n"
            "- The match is 18 holes, played in six turns of three holes: turn 1 is\n"
            "  holes 1-3, turn 2 holes 4-6, and so on up to turn 6 (holes 16-18).\n"
            "- All four specials must be played.\n"
            "  - Bob drew Gimme from the stock, discarded it and turned up 3 (Pitching\n"
            "    Wedge)\n")
    assert unflow(flow(text)) == (
        "HOW THE GAME GOES\n"
        "- The match is 18 holes, played in six turns of three holes: turn 1 is holes 1-3, turn 2 holes "
        "4-6, and so on up to turn 6 (holes 16-18).\n"
        "- All four specials must be played.\n"
        "  - Bob drew Gimme from the stock, discarded it and turned up 3 (Pitching Wedge)\n")


def test_lines_that_begin_with_a_space_from_or_a_quote_mark_are_stuffed():
    text = "From another mail program, start with\n>not a quote\n    PLAY 4 4 5\nplain"
    flowed = flow(text)
    assert flowed.split("\n") == [" From another mail program, start with", " >not a quote", "     PLAY 4 4 5",
                                  "plain"]
    assert unflow(flowed) == text


def test_a_line_with_trailing_spaces_is_sent_without_them_unless_its_break_is_soft():
    assert flow("a  \n\n   \nb\t") == "a\n\n\nb"


@given(st.lists(st.text(alphabet="ab -(>1.F\t", max_size=90), max_size=12))
def test_flowed_text_reads_back_with_every_word_and_every_line_of_a_table(lines):
    text = "\n".join(lines)
    out = unflow(flow(text))
    assert out.split() == text.split()
    for line in text.split("\n"):
        if re.search(r"\S {2,}\S", line):  # lines up cells: it stands as it was (but its end)
            block = [b for b in text.split("\n\n") if line in b.split("\n")]
            assert block and any(line.rstrip() == o for o in out.split("\n")), (line, out)
