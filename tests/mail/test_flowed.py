"""format=flowed (RFC 3676 section 4) is undone before a message is read."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.mail.flowed import unflow
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
