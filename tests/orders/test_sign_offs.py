"""Sign-offs are skipped like a signature, by the one reader, for every kind of mail."""
from __future__ import annotations

import pytest

from pbem.orders.text import read_lines

SIGN_OFFS = ["Cheers,\nGeorge", "Thanks, Carol", "Best regards,\nGeorge\nClub captain", "G", "Ta",
             "Kind regards,\nAlice Martin", "Thanks again!\nDan"]
COMMANDS = ["PLAY 3 5 4", "PLAY 3 5 9\nSPECIAL GREEN+1 HOLE 2", "SET ABSENCE 2026-12-08 TO 2026-12-12",
            "JOIN friday", "LEAVE sun", "LIST", "OBSERVE m1", "RATINGS", "DRAW STOCK\nKEEP 2"]


@pytest.mark.parametrize("sign_off", SIGN_OFFS)
@pytest.mark.parametrize("commands", COMMANDS)
def test_a_sign_off_below_the_commands_is_never_read(commands, sign_off):
    reading = read_lines(f"Hi GM,\n\n{commands}\n\n{sign_off}\n\nOn Wed, 2 Dec 2026, Golf GM wrote:\n> PLAY 4 4 5\n")
    assert [line for _, line in reading.lines] == commands.split("\n")
    kinds = [s.kind for s in reading.skipped]
    assert kinds == ["greeting", "sign-off", "quote"]
    assert "as a sign-off, which I skip" in reading.explain()


@pytest.mark.parametrize("text", [
    "PLAY 3 5 4\n\nKnok",                      # a mistyped order is never a sign-off
    "PLAY 3 5 4\n\nCheers\nSPECIAL BLUE-1 HOLE 2",  # a command below: no sign-off
    "PLAY 3 5 4\n\nSee you on 4",              # a digit: like a command
    "PLAY 3 5 4\n\nOne\nTwo\nThree\nFour",     # four lines are more than a sign-off
    "PLAY 3 5 4\nDANCE",                       # capitals right under: no name
    "PLAY 3 5 4\nI like it",                   # words right under: no name
])
def test_what_is_no_sign_off_is_read(text):
    reading = read_lines(text)
    assert len(reading.lines) > 1 and not any(s.kind == "sign-off" for s in reading.skipped)


@pytest.mark.parametrize("text", ["PLAY 3 5 4\nGeorge", "JOIN friday\nCarol", "PLAY 3 5 4\n- Bill Smith",
                                  "PLAY 3 5 4\nthanks"])
def test_a_name_or_thanks_right_under_the_commands_signs_them_off(text):
    assert len(read_lines(text).lines) == 1


def test_the_text_of_a_bare_press_keeps_its_last_paragraph():
    reading = read_lines("PLAY 3 5 4\nPRESS\nGood game so far.\n\nSee you at the club,\nGeorge")
    assert [line for _, line in reading.lines][-2:] == ["See you at the club,", "George"]


def test_a_message_of_chatter_alone_has_no_sign_off_to_skip():
    reading = read_lines("Yes please!\nIvy")
    assert [line for _, line in reading.lines] == ["Yes please!", "Ivy"]
