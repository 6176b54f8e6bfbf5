"""Hostile mail: no text may make the order readers raise anything but an order error, take
more than linear time, or send a control character back in an error mail.

The plain tests feed inputs on which a quadratic pattern would run for minutes; they assert
what is read, never how fast (speed is measured in the benchmarks)."""
from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.cards.orders import DrawStockIf, Keep
from pbem.games.errors import AmbiguousOrder, InvalidOrder, OrderError
from pbem.games.matchplay import Play, Special
from pbem.games import spec_for
from pbem.games.registry import types
from pbem.games.cards import grammar as cards
from pbem.games.matchplay import grammar as matchplay
from pbem.orders.commands import Press, SetTimezone, UnknownCommand, read_body, read_heading
from pbem.orders.numbers import MAX_DIGITS, read_number
from pbem.orders.text import (MAX_LINE_CHARS, MAX_LINES, QUOTE_CHARS, LongLine, command_lines, is_stop_line,
                              normalise_line, read_lines, subject_game_id)

FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=150,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# What must never come back raw in an error mail (the tab too: it is spacing, read as a space).
BIDI = {*range(0x202A, 0x202F), *range(0x2066, 0x206A)}
CONTROLS = ["\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1c", "\x1f", "\x7f", "\x80", "\x85",
            "\x9b", "\x9f", "\u2028", "\u2029", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066",
            "\u2067", "\u2068", "\u2069", "\ud800", "\udfff"]


def controls_in(text: str | None, allowed: str = "") -> list[str]:
    return [ch for ch in text or "" if (unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029"
                                        or ord(ch) in BIDI) and ch not in allowed]


def read(text: str, game: str | None):
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, spec_for(game).grammar if game else None)
    return heading, orders, heading.errors + errors


# --- the text of hostile mail ----------------------------------------------------------------

WORDS = ["PLAY", "SPECIAL", "HOLE", "TURN", "GAME", "PASSWORD", "PASS", "SECRET", "DRAW", "STOCK", "KEEP",
         "DISCARD", "FLIP", "REVEAL", "KNOCK", "PEEK", "IF", "<=", "<", "ELSE", "AND", "FROM", "THE", "INTO",
         "ON", "AT", "#", ",", "PRESS", "SET", "TIMEZONE", "TIME", "ZONE", "TZ", ":", "HELP", "STATUS",
         "HISTORY", "RESIGN", "BLUE", "RED", "+1", "-1", "BLUE-1", "RED+1", "Europe/Paris", "On", "wrote:",
         "Am", "schrieb", "Le", "a écrit", "From:", "Sent:", ">", "--", "END", "Re:", "[m1]", "-"]
UNICODE_DIGITS = st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=8)
HUGE = st.one_of(st.integers(10 ** MAX_DIGITS, 10 ** 30).map(str), st.integers(1, 5_000).map(lambda k: "9" * k))
SMALL = st.integers(-120, 120).map(str)
CONTROL = st.one_of(st.sampled_from(CONTROLS), st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Cs"]))
TOKEN = st.one_of(st.sampled_from(WORDS), SMALL, UNICODE_DIGITS, HUGE, CONTROL,
                  st.text(max_size=6), st.sampled_from(["\uff30\uff2c\uff21\uff39", "\uff14", "\ufdfa", "\u2212"]))
GAP = st.sampled_from([" ", " ", "  ", "\t", "\u00a0", "\u3000", "", ",", "\u200b", "\x00", "\u2028"])


@st.composite
def lines(draw) -> str:
    tokens = draw(st.lists(TOKEN, max_size=12))
    text = "".join(t + draw(GAP) for t in tokens)
    if draw(st.integers(0, 9)) == 0:  # now and then a line far too long to be a command
        text += draw(st.sampled_from(["x", " ", "schrieb ", "wrote ", "9", "\ufdfa", "\x00"])) * 3_000
    return text


MAILS = st.lists(lines(), max_size=12).flatmap(
    lambda ls: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda nl: nl.join(ls)))


def assert_clean(errors) -> None:
    for e in errors:
        assert isinstance(e, OrderError)
        for problem in (e, *e.also):
            assert not controls_in(problem.line), problem.line
            # A message or a hint may run over lines (an orphan SPECIAL's hint); nothing else.
            assert not controls_in(problem.message, "\n"), problem.message
            assert not controls_in(problem.hint, "\n"), problem.hint


@FUZZ
@given(MAILS, st.sampled_from([None, *types()]))
def test_any_mail_reads_to_orders_and_order_errors(text, game):
    lines_read = command_lines(text)
    assert len(lines_read) <= MAX_LINES
    for _, line in lines_read:
        assert line and not controls_in(line)
        assert len(line) <= MAX_LINE_CHARS or isinstance(line, LongLine)
        if isinstance(line, LongLine):
            assert len(line) <= QUOTE_CHARS + 1
    heading, orders, errors = read(text, game)
    assert_clean(errors)
    assert heading.turn is None or 0 <= heading.turn < 10 ** MAX_DIGITS
    for order in orders:
        if isinstance(order.command, Press):
            assert not controls_in(order.command.text)


@FUZZ
@given(st.lists(st.sampled_from(WORDS + ["1", "4", "12", "\u0664", "\u19da", "99999999"]), max_size=10),
       st.sampled_from(types()))
def test_mixes_of_command_words(words, game):
    """Sentences of command words (more likely than random text to come near a real order)."""
    text = " ".join(words) + "\n" + "\n".join(words)
    _, orders, errors = read(text, game)
    assert_clean(errors)
    for order in orders:
        assert order.lines and all(not controls_in(ln) for _, ln in order.lines)


@FUZZ
@given(st.text(st.characters(codec="utf-8"), max_size=40), st.sampled_from(CONTROLS))
def test_a_control_character_shows_as_a_replacement_and_never_makes_an_order(text, control):
    line = normalise_line(f"PLAY 4{control}4 5 {text}")
    assert not controls_in(line)
    assert "\ufffd" in line
    _, orders, errors = read(f"PLAY 4{control}4 5", "matchplay")
    assert not orders and isinstance(errors[0], InvalidOrder)


@FUZZ
@given(st.text(max_size=200), st.integers(0, 3_000))
def test_subjects_are_read_whatever_they_hold(subject, padding):
    whole = subject + " " * padding + subject
    found = subject_game_id(whole)
    assert found is None or (re.fullmatch(r"[A-Za-z0-9_.-]+", found) and found in unicodedata.normalize("NFKC", whole))


@FUZZ
@given(st.one_of(UNICODE_DIGITS, HUGE, SMALL, st.text(max_size=10)))
def test_read_number_takes_only_a_few_ascii_digits(text):
    n = read_number(text)
    if n is None:
        assert not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS)
    else:
        assert str(n) == text.lstrip("0") or n == 0
        assert 0 <= n < 10 ** MAX_DIGITS


# --- numbers -------------------------------------------------------------------------------

@pytest.mark.parametrize("number", ["\u19da", "\u0664", "1\u0663", "\u0f2a", "9" * 7, "9" * 5_000, "-1", "+2",
                                    "2.0", "\ufffd"])
def test_turn_must_be_a_few_ascii_digits(number):
    heading, _, errors = read(f"GAME m1\nTURN {number}\nPLAY 4 4 5", "matchplay")
    assert heading.turn is None and len(errors) == 1
    assert isinstance(errors[0], OrderError) and errors[0].lineno == 2
    if len(number) < MAX_LINE_CHARS:  # a longer line is no command at all (below)
        assert errors[0].line == f"TURN {number}" and errors[0].hint is None  # no number is put in its mouth


# NFKC makes ASCII digits of fullwidth, superscript, circled and mathematical ones.
@pytest.mark.parametrize("number, turn", [("2", 2), ("\uff12", 2), ("\u00b2", 2), ("\u2461", 2), ("\U0001d7da", 2),
                                          ("007", 7), ("999999", 999_999)])
def test_turn_in_ascii_digits_or_what_nfkc_makes_them(number, turn):
    heading, _, errors = read(f"TURN {number}", "matchplay")
    assert heading.turn == turn and not errors


@pytest.mark.parametrize("play", ["PLAY \u0664 \u0663 \u0665", "PLAY \u0664\u0663\u0665", "PLAY 4 3 \u19da",
                                  "PLAY 4 3 " + "9" * 900, "PLAY 4 3 5 1234567", "PLAY 4 3 5\u0663"])
def test_play_with_digits_that_are_not_ascii_or_too_many(play):
    _, orders, errors = read(play, "matchplay")
    assert not orders and len(errors) == 1
    assert isinstance(errors[0], InvalidOrder) and errors[0].line == play and errors[0].hint == "PLAY 4 3 5"


def test_play_in_fullwidth_digits_and_run_together():
    _, orders, errors = read("PLAY \uff14\uff13\uff15", "matchplay")
    assert not errors and orders[0].command == Play((4, 3, 5))
    _, orders, errors = read("PLAY " + "4" * 900, "matchplay")
    assert not errors and orders[0].command.cards == (4,) * 900  # the engine refuses the count


def test_special_hole_in_other_digits_is_refused():
    _, orders, errors = read("PLAY 4 3 5\nSPECIAL BLUE-1 HOLE \u0662", "matchplay")
    assert isinstance(errors[0], InvalidOrder) and errors[0].lineno == 2
    _, orders, errors = read("PLAY 4 3 5\nSPECIAL BLUE-1 HOLE # \uff12", "matchplay")
    assert not errors and orders[0].command.specials == (Special("BLUE-1", 2),)


@pytest.mark.parametrize("line", ["KEEP \u0664", "DRAW DISCARD \u19da", "REVEAL 1 \u0662", "PEEK \u0662",
                                  "DRAW STOCK IF <= \u0664 KEEP 2 ELSE FLIP 5", "KEEP 123"])
@pytest.mark.parametrize("game", ["golf", "golfdeck"])
def test_card_positions_in_other_digits_are_refused(line, game):
    _, orders, errors = read(line, game)
    assert not orders and isinstance(errors[0], InvalidOrder) and errors[0].line == line


def test_card_orders_in_fullwidth_digits():
    _, orders, errors = read("KEEP #\uff14\nDRAW STOCK IF <= \uff14 KEEP \uff12 ELSE DISCARD", "golf")
    assert not errors
    assert [o.command for o in orders] == [Keep(4), DrawStockIf(4, 2, None)]


# --- control characters ----------------------------------------------------------------------

@pytest.mark.parametrize("control", CONTROLS)
def test_each_control_character_becomes_a_replacement_character(control):
    assert normalise_line(f"GAME m1{control}x") == "GAME m1\ufffdx"
    heading, orders, errors = read(f"GAME m{control}\nHELP{control}\nPRESS a{control}b", "golf")
    assert heading.game_id == "m\ufffd" and orders[0].command == Press("a\ufffdb")
    assert [(e.lineno, e.line) for e in errors] == [(2, "HELP\ufffd")]


def test_nul_and_bidi_override_in_an_order_are_quoted_visibly():
    _, orders, errors = read("PLAY 4 4 5\x00\nSPECIAL BLUE-1 HOLE \u202e2", "matchplay")
    assert not orders
    assert [e.line for e in errors] == ["PLAY 4 4 5\ufffd", "SPECIAL BLUE-1 HOLE \ufffd2"]


def test_tabs_and_invisible_characters_are_still_just_spacing():
    assert normalise_line("\tPLAY\t4\u200b 4\u00a05\t") == "PLAY 4 4 5"


# --- long lines and long mail ------------------------------------------------------------------

def test_a_two_megabyte_line_is_one_line_that_is_no_command():
    text = "GAME m1\nPLAY " + "4 " * 1_000_000 + "\nHELP"
    numbered = command_lines(text)
    assert [n for n, _ in numbered] == [1, 2, 3]
    long = numbered[1][1]
    assert isinstance(long, LongLine) and long.length == 2_000_005
    assert long == "PLAY " + "4 " * 27 + "4\u2026" and len(long) == QUOTE_CHARS + 1
    heading, orders, errors = read(text, "matchplay")
    assert heading.game_id == "m1" and [str(o.command) for o in orders] == ["HELP"]
    assert len(errors) == 1 and isinstance(errors[0], UnknownCommand)
    assert errors[0].lineno == 2 and errors[0].line == long and "2,000,005 characters" in errors[0].message


def test_a_line_just_long_enough_is_still_read_and_padding_does_not_count():
    assert command_lines("PRESS " + "a" * (MAX_LINE_CHARS - 6)) == [(1, "PRESS " + "a" * (MAX_LINE_CHARS - 6))]
    assert isinstance(command_lines("PRESS " + "a" * (MAX_LINE_CHARS - 5))[0][1], LongLine)
    assert command_lines(" " * 3_000 + "PLAY\t" + "\u00a0" * 3_000 + "4 4 5" + "\u200b" * 3_000) == [
        (1, "PLAY 4 4 5")]


def test_a_line_that_nfkc_makes_too_long_is_a_long_line():
    ligatures = "\ufdfa" * 100  # 18 characters each once normalised
    (n, line), = command_lines(ligatures)
    assert isinstance(line, LongLine) and line.length == 100 and len(line) == QUOTE_CHARS + 1


def test_a_long_signature_paragraph_after_the_orders_is_set_aside():
    _, orders, errors = read("PLAY 4 4 5\n\nThis message is confidential. " + "x" * 5_000, "matchplay")
    assert [str(o.command) for o in orders] == ["PLAY 4 4 5"] and not errors


def test_a_long_line_in_press_text_is_refused_not_cut_short():
    _, orders, errors = read("PRESS\nGood luck!\n" + "blah " * 1_000 + "\nBill", "golf")
    assert isinstance(orders[0].command, Press)
    assert [e.lineno for e in errors] == [3] and "5,000 characters" in errors[0].message


def test_a_long_quoted_line_is_still_a_quote():
    """However long, a quoted line is skipped, never refused as a long line; reading goes on."""
    reading = read_lines("PLAY 4 4 5\n> " + "quoted " * 1_000 + "\nPLAY 3 3 3")
    assert reading.lines == [(1, "PLAY 4 4 5"), (3, "PLAY 3 3 3")]
    assert reading.breaks == {3: "quote"} and [(s.kind, s.first, s.last) for s in reading.skipped] == [
        ("quote", 2, 2)]


def test_a_million_quoted_lines_are_skipped_within_the_line_budget():
    reading = read_lines("PLAY 4 4 5\n" + "> PLAY 3 3 3\n" * 1_000_000 + "STATUS\n")
    assert reading.lines == [(1, "PLAY 4 4 5")]
    assert reading.stop == ("limit", MAX_LINES + 1) and "after 2,000 lines" in reading.explain()


def test_a_million_interleaved_quotes_and_replies():
    reading = read_lines("> PLAY 3 3 3\nHELP\n" * 500_000)
    assert len(reading.lines) == MAX_LINES // 2 and all(line == "HELP" for _, line in reading.lines)


@pytest.mark.parametrize("line", ["Golf GM wrote:", "x " * 500_000 + "wrote:", "wrote " * 200_000 + ":",
                                  "a écrit " * 200_000 + "a écrit :"])
def test_attribution_lines_of_any_length(line):
    """Only the end of a line is looked at to see whether it says who wrote the quote below."""
    reading = read_lines(f"PLAY 4 4 5\n{line}\n> PLAY 3 3 3\nSTATUS")
    long = len(line) > MAX_LINE_CHARS
    assert [ln for _, ln in reading.lines][0] == "PLAY 4 4 5" and reading.lines[-1] == (4, "STATUS")
    assert len(reading.lines) == (3 if long else 2)  # a long line is never an attribution: it is refused


def test_exactly_spacing_and_invisible_characters_make_a_line_blank():
    """`command_lines` skips a line with none of the other characters without normalising it:
    that is only right if every other character survives normalisation."""
    vanishing = {chr(c) for c in range(sys.maxunicode + 1) if not normalise_line(chr(c))}
    assert vanishing == set(" \t\u00a0\u1680\u202f\u205f\u3000\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"
                            + "".join(map(chr, range(0x2000, 0x200B))))
    for ch in sorted(vanishing):
        # A line that a tab begins is a quote (s-nail's way); spacing inside it still vanishes.
        led = "STATUS" if ch == "\t" else f"{ch}STATUS"
        assert command_lines(f"HELP\n{ch * 3}\n{led}") == [(1, "HELP"), (3, "STATUS")]
    assert command_lines("HELP\n\tSTATUS") == [(1, "HELP")]


@FUZZ
# Each line with text has a digit, so that none is taken for a greeting.
@given(st.lists(st.sampled_from(["", " ", "\t", "\u00a0\u200b", "x1", " y 2 ", "\x0b3", "\u20284"]), max_size=30),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_lines_keep_their_numbers_however_many_blank_lines_come_between(raw_lines, newline):
    expected = [(n, normalise_line(raw)) for n, raw in enumerate(raw_lines, start=1) if normalise_line(raw)]
    assert command_lines(newline.join(raw_lines)) == expected


def test_reading_stops_after_max_lines():
    numbered = command_lines("HELP\n\n" * (MAX_LINES + 500))
    assert len(numbered) == MAX_LINES and numbered[-1] == (2 * MAX_LINES - 1, "HELP")
    assert command_lines("\n" * 2_000_000) == []


@pytest.mark.parametrize("ending, header", [(":", True), ("", False), (" x:", True)])
def test_german_header_with_200000_verbs(ending, header):
    # An attribution is short: a line of 200,000 verbs is looked at no further, and is none.
    line = "am " + "schrieb " * 200_000
    assert is_stop_line(line.rstrip() + ending) is False
    assert is_stop_line("am x", [line + ending]) is False
    short = "am " + "schrieb " * 20
    assert is_stop_line(short.rstrip() + ending) is header
    assert is_stop_line("am 1", [short + ending]) is header


def test_headers_with_long_lines_and_many_verbs():
    assert not is_stop_line("On " + "wrote " * 200_000 + "wrote:")
    assert is_stop_line("On " + "wrote " * 20 + "wrote:")
    assert not is_stop_line("On " + "wrote: " * 200_000 + "x:")
    assert is_stop_line("Op " + "schreef " * 20 + ":")
    assert not is_stop_line("Op " + "schreefx " * 20 + ":")
    assert not is_stop_line("On x", ["y " * 1_000_000 + "wrote :"])
    assert is_stop_line("On x", ["y " * 10 + "wrote :"])
    assert not is_stop_line("On " + "x " * 1_000_000, ["wrote " * 200_000])
    assert is_stop_line("von meinem " + "gesendet " * 200_000 + "gesendet")
    assert not is_stop_line("-" * 1_000_000 + "original message" + "-" * 1_000_000 + "x")
    assert not is_stop_line("-" * 1_000_000 + "original message" + "-" * 1_000_000)
    assert is_stop_line("-" * 10 + "original message" + "-" * 10)
    assert not is_stop_line("From: " + " " * 1_000_000, ["To: x"])
    assert not is_stop_line("* " * 1_000_000)


def test_whitespace_runs_in_orders_read_straight_through():
    spaces = " " * 100_000
    # Lines as `command_lines` never makes them (it squeezes spaces): the readers hold anyway.
    orders, errors = cards.grammar([(1, f"REVEAL 1{spaces}x"), (2, f"KEEP{spaces}x"), (3, f"KEEP{spaces}#{spaces}2")])
    assert [(type(e), e.lineno) for e in errors] == [(InvalidOrder, 1), (InvalidOrder, 2)]
    assert [o.command for o in orders] == [Keep(2)]
    _, errors = matchplay.grammar([(1, f"SPECIAL BLUE-1 HOLE{spaces}#{spaces}x")])
    assert isinstance(errors[0], InvalidOrder)
    orders, errors = read_body([(1, f"TZ{spaces}:{spaces}x y"), (2, f"SET TIME ZONE{spaces}UTC")], None)
    assert [o.command for o in orders] == [SetTimezone("UTC")]
    assert isinstance(errors[0], UnknownCommand) and errors[0].lineno == 1


def test_unknown_time_zone_quotes_only_the_start_of_it():
    zone = "Mars/" + "x" * 900
    _, _, errors = read(f"SET TIMEZONE {zone}", "golf")
    assert isinstance(errors[0], InvalidOrder) and len(errors[0].message) < 200
    assert errors[0].hint == "SET TIMEZONE Europe/Paris"


def test_subject_tags_are_found_only_near_the_start():
    assert subject_game_id("Re" + " " * 200_000 + ": [g1]") is None
    assert subject_game_id("Re:  [g1] " + "x" * 2_000_000) == "g1"
    assert subject_game_id("Re[\u0664]: [g1]") == "g1"
    assert subject_game_id("[" * 1_000_000) is None


def test_ambiguous_and_unknown_lines_still_name_their_line():
    _, _, errors = read("TURN 2\nTURN 3\nfoo\x00", "golfdeck")
    assert [(type(e), e.lineno) for e in errors] == [(AmbiguousOrder, 2), (UnknownCommand, 3)]
