"""Ordinary punctuation around a command, in every game's grammar (CONTRACT section 4)."""
from __future__ import annotations

import pytest

from pbem.games import spec_for
from pbem.orders.commands import read_body, read_heading
from pbem.orders.punctuation import tidy
from pbem.orders.text import COMMAND_WORDS, read_lines

# (game type, as a person writes it, the order as the game reads it)
WRITTEN = [
    ("matchplay", "Play: 3, 5, 4.", "PLAY 3 5 4"),
    ("matchplay", "Play: 3, 5, 4.\nSpecial: blue -1 on hole 2.", "PLAY 3 5 4\nSPECIAL BLUE-1 HOLE 2"),
    ("matchplay", "PLAY 3,5,4\nSPECIAL Red +1, on hole 3!", "PLAY 3 5 4\nSPECIAL RED+1 HOLE 3"),
    ("golfdeck", "Reveal: 1, 4.", "REVEAL 1 4"),
    ("golf", "Draw stock.\nKeep: 2.", "DRAW STOCK\nKEEP 2"),
    ("golf", "Draw stock if <= 4 keep 2, else flip 5.", "DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 5"),
    ("golfdeck", "Knock!", "KNOCK"),
    ("dicegolf", "Enter: sum.", "ENTER SUM"),
    ("dicegolf", "Policy: best.", "POLICY BEST"),
    ("onpar", "Shot: D5, D4.", "SHOT D5 D4"),
    ("onpar", "Trap: sandtrap on Bob.", "TRAP SANDTRAP ON Bob"),
    ("onpar", "Pass.", "PASS"),
]


@pytest.mark.parametrize("game, text, canonical", WRITTEN)
def test_punctuation_reads_as_the_canonical_order(game, text, canonical):
    reading = read_lines(text)
    orders, errors = read_body(read_heading(reading.lines).body, spec_for(game).grammar)
    assert errors == []
    assert "\n".join(str(o.command) for o in orders) == canonical


@pytest.mark.parametrize("text, read", [
    ("TURN: 3.", "TURN 3"), ("Game: m1.", "Game m1"), ("Set absence: 2026-12-20 to 2026-12-27.",
                                                        "Set absence 2026-12-20 to 2026-12-27"),
    ("SET TIMEZONE: Europe/Paris", "SET TIMEZONE Europe/Paris"), ("Join: friday.", "Join friday"),
    ("List?", "List"), ("Ratings.", "Ratings"), ("Observe: m1.", "Observe m1"),
])
def test_every_command_word_sheds_its_punctuation(text, read):
    assert tidy(text, COMMAND_WORDS) == read


def test_a_press_keeps_its_text_as_written_and_only_loses_the_colon():
    assert tidy("PRESS: Well played, Bill. On hole 7, anyway.", COMMAND_WORDS) == \
        "PRESS Well played, Bill. On hole 7, anyway."
    # The text under a bare PRESS is prose: none of its lines is tidied, even one that begins
    # like an order, until a quote ends the press.
    reading = read_lines("PRESS\nPlay: it safe on 7, Bill.\nKeep: calm.\n> quoted\nPlay: 3, 5, 4.")
    assert [line for _, line in reading.lines] == ["PRESS", "Play: it safe on 7, Bill.", "Keep: calm.",
                                                   "Play 3 5 4"]


def test_a_line_of_no_command_is_left_as_written():
    for line in ("Hello: world.", "Thanks, George.", "See you on hole 4."):
        assert tidy(line, COMMAND_WORDS) == line


def test_the_written_line_is_kept_for_the_answer_that_quotes_it():
    reading = read_lines("Play: 3, 5, 9.\nSpecial: blue -1 on hole 2.")
    assert reading.lines == [(1, "Play 3 5 9"), (2, "Special blue -1 hole 2")]
    assert reading.written == {1: "Play: 3, 5, 9.", 2: "Special: blue -1 on hole 2."}


def test_a_password_keeps_every_character_and_a_bare_pass_is_an_order():
    assert tidy("PASSWORD: hunter2, again!", COMMAND_WORDS) == "PASSWORD hunter2, again!"
    assert tidy("Secret: a.b.c.", COMMAND_WORDS) == "Secret a.b.c."
    assert tidy("PASS s3cr3t.", COMMAND_WORDS) == "PASS s3cr3t."
    assert tidy("Pass.", COMMAND_WORDS) == "Pass"



def test_runs_of_dots_and_commas_inside_a_line_stay_and_only_the_end_is_tidied():
    assert tidy("PLAY " + "." * 990 + "x", COMMAND_WORDS) == "PLAY " + "." * 990 + "x"
    assert tidy("PLAY 3 . . . 4!?.", COMMAND_WORDS) == "PLAY 3 . . . 4"
    assert tidy("PLAY " + ", " * 490 + "x", COMMAND_WORDS) == "PLAY x"
