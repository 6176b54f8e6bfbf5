import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.orders.text import (COMMAND_WORDS, command_lines, is_stop_line, normalise_line, read_lines,
                              resembles_command, subject_game_id)


def lines(text: str) -> list[str]:
    return [line for _, line in command_lines(text)]


# --- normalisation -----------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("PLAY\u00a04\u00a04\u00a05", "PLAY 4 4 5"),
        ("\ufeffGAME golf-7", "GAME golf-7"),
        ("PL\u200bAY 4\u200c 4\u200d 5\u2060", "PLAY 4 4 5"),
        ("\tPLAY  4\t4 \u2007 5  ", "PLAY 4 4 5"),
        ("PLAY\u202f4\u2009\u20034\u30005", "PLAY 4 4 5"),
        ("\uff30\uff2c\uff21\uff39 \uff14 \uff14 \uff15", "PLAY 4 4 5"),
        ("SPECIAL BLUE\u22121 HOLE 9", "SPECIAL BLUE-1 HOLE 9"),
        ("red \u20131 hole 5", "red -1 hole 5"),
        ("red\u20121 red\u20101 red\u20111 red\ufe631 red\uff0d1", "red-1 red-1 red-1 red-1 red-1"),
        ("Special Blue +1 Hole 5", "Special Blue +1 Hole 5"),
        ("Ren\u0065\u0301e", "Ren\u00e9e"),
    ],
)
def test_normalise_line(raw, expected):
    assert normalise_line(raw) == expected


# --- what is read ------------------------------------------------------------


def test_blank_lines_skipped_and_numbers_are_body_lines():
    text = "\n  GAME golf-7\n\nPASSWORD s3cret\n\u00a0\n\nPLAY 4 4 5\n"
    assert command_lines(text) == [(2, "GAME golf-7"), (4, "PASSWORD s3cret"), (7, "PLAY 4 4 5")]


def test_crlf_and_cr_line_endings_count_the_same():
    assert command_lines("A\r\nB\r\rC") == [(1, "A"), (2, "B"), (4, "C")]


def test_gmail_reply_with_header_wrapped_over_two_lines():
    text = (
        "PLAY 4 4 5\n\n"
        "On Mon, 30 Nov 2026 at 10:00, Golf GM <\n"
        "gm@example.test> wrote:\n\n"
        "> Turn 2 resolved.\n> PLAY 3 5 4\n"
    )
    assert command_lines(text) == [(1, "PLAY 4 4 5")]


def test_gmail_header_wrapped_before_wrote():
    text = "PLAY 4 4 5\nOn Mon, 30 Nov 2026 at 10:00, Golf GM <gm@example.test>\nwrote:\nPLAY 3 5 4\n"
    assert lines(text) == ["PLAY 4 4 5"]


def test_a_line_starting_on_is_kept_when_no_header_follows():
    assert lines("On hole 9 I feel lucky\nPLAY 4 4 5\n") == ["On hole 9 I feel lucky", "PLAY 4 4 5"]


REPLY_HEADERS = [
    "On Mon, 30 Nov 2026 at 10:00, Golf GM <gm@example.test> wrote:",
    "On 30 Nov 2026, at 10:00, Golf GM <gm@example.test> wrote:",
    "Le lun. 30 nov. 2026 à 10:00, Golf GM <gm@example.test> a écrit\u00a0:",
    "Am Mo., 30. Nov. 2026 um 10:00 Uhr schrieb Golf GM <gm@example.test>:",
    "El lun, 30 nov 2026 a las 10:00, Golf GM (<gm@example.test>) escribió:",
]


@pytest.mark.parametrize(
    "header, kind",
    [
        *[(header, "original") for header in REPLY_HEADERS],  # with no quote below it
        ("-----Original Message-----", "original"),
        ("----- Original Message -----", "original"),
        ("--original message--", "original"),
        ("________________________________", "original"),
        ("Begin forwarded message:", "forwarded"),
        ("---------- Forwarded message ---------", "forwarded"),
        ("Sent from my iPhone", "footer"),
        ("Sent from my Galaxy", "footer"),
        ("Get Outlook for Android", "footer"),
        ("Sent from Mail for Windows", "footer"),
        ("Envoyé de mon iPhone", "footer"),
        ("-- ", "signature"),
        ("--", "signature"),
        ("\u2014", "signature"),
        ("END", "end"),
        ("end", "end"),
    ],
)
def test_reading_stops(header, kind):
    text = f"PLAY 4 4 5\n{header}\nSPECIAL RED+1 HOLE 8\n> PLAY 3 3 3\nSTATUS\n"
    reading = read_lines(text)
    assert reading.lines == [(1, "PLAY 4 4 5")]
    assert reading.stop == (kind, 2)


# --- quotes: skipped, and reading goes on after them ---------------------------


@pytest.mark.parametrize("quote", ["> PLAY 3 5 4", "  > PLAY 3 5 4", "\u00a0>PLAY 3 5 4", ">> PLAY 3 5 4", ">"])
def test_a_quoted_line_is_skipped_and_reading_goes_on(quote):
    assert command_lines(f"PLAY 4 4 5\n{quote}\nSPECIAL RED+1 HOLE 8\n") == [
        (1, "PLAY 4 4 5"), (3, "SPECIAL RED+1 HOLE 8")]


@pytest.mark.parametrize("header", REPLY_HEADERS)
def test_interleaved_reply_under_a_reply_header(header):
    text = (f"Turn 2, here goes.\n\n{header}\n\n> Turn 2: holes 4-6.\n> Example: PLAY 3 5 4\n\n"
            "PLAY 4 4 5\n\n> Your specials left: BLUE+1, BLUE-1\n\nSPECIAL BLUE-1 HOLE 5\n\n> Golf GM\n")
    reading = read_lines(text)
    # A line that begins with a command's word loses its punctuation; an answer quotes it as written.
    assert [line for _, line in reading.lines] == ["Turn 2 here goes", "PLAY 4 4 5", "SPECIAL BLUE-1 HOLE 5"]
    assert reading.written == {1: "Turn 2, here goes."}
    assert reading.breaks == {8: "quote", 12: "quote"}
    assert [(s.first, s.last) for s in reading.skipped] == [(3, 6), (10, 10), (14, 14)]


@pytest.mark.parametrize("attribution", [
    "Golf GM wrote:",
    "Golf GM <gm@example.test> wrote:",
    "gm+5ecret@example.test wrote:",
    "Golf GM schrieb:",
    "Golf GM a écrit\u00a0:",
    "On 30/11/2026 10:00, Golf GM wrote:",
])
def test_thunderbird_attribution_before_a_quote_is_skipped(attribution):
    text = f"{attribution}\n> Turn 2: your move.\n> PLAY 3 5 4\n\nPLAY 4 4 5\n"
    reading = read_lines(text)
    assert reading.lines == [(5, "PLAY 4 4 5")]
    assert [(s.kind, s.first, s.last) for s in reading.skipped] == [("quote", 1, 3)]


def test_a_line_ending_in_wrote_without_a_quote_below_is_read():
    assert command_lines("PRESS Bill wrote:\nI like it\n") == [(1, "PRESS Bill wrote:"), (2, "I like it")]
    # A command stays a command even with a quote below it.
    assert command_lines("PRESS As Bill wrote:\n> a quote\n") == [(1, "PRESS As Bill wrote:")]


def test_a_gmail_header_wrapped_over_two_lines_before_a_quote_is_skipped_whole():
    text = "PLAY 4 4 5\nOn Mon, 30 Nov 2026 at 10:00, Golf GM <\ngm@example.test> wrote:\n\n> PLAY 3 5 4\nHELP\n"
    reading = read_lines(text)
    assert reading.lines == [(1, "PLAY 4 4 5"), (6, "HELP")]
    assert [(s.first, s.last) for s in reading.skipped] == [(2, 5)]


def test_an_unquoted_original_after_a_quote_still_stops_reading():
    text = ("> PLAY 3 3 3\nPLAY 5 3 4\n\nFrom: Golf GM <gm@example.test>\nSent: Monday, November 30, 2026\n"
            "To: Anna\n\nPLAY 3 3 3\n")
    reading = read_lines(text)
    assert reading.lines == [(2, "PLAY 5 3 4")] and reading.stop == ("original", 4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["PLAY 3 5 4", "SPECIAL RED-1 HOLE 2", "KEEP 1", "",
                                                          "Golf GM wrote:", "HELP", "On x wrote:"])),
                max_size=30))
def test_a_quoted_line_is_never_read(lines_and_quoting):
    text = "\n".join(("> " if quoted else "") + line for quoted, line in lines_and_quoting)
    for number, _ in command_lines(text):
        assert not lines_and_quoting[number - 1][0]


# --- greetings -------------------------------------------------------------------


@pytest.mark.parametrize("greeting", ["Hi George,", "Dear GM", "Hello!", "Bonjour Golf GM,", "Orders:"])
def test_a_greeting_set_apart_before_the_orders_is_skipped(greeting):
    reading = read_lines(f"{greeting}\n\nPLAY 4 4 5\n")
    assert reading.lines == [(3, "PLAY 4 4 5")]
    assert [(s.kind, s.first) for s in reading.skipped] == [("greeting", 1)]


@pytest.mark.parametrize("text", [
    "Hi George,\nPLAY 4 4 5",              # not set apart by a blank line
    "Pley 4 4 5\n\nSPECIAL RED-1 HOLE 2",   # a mistyped order (a digit)
    "Hi, my turn\n\nPLAY 4 4 5",            # a command's word
    "Dear GM, please draw\n\nKEEP 2",
    "STAUTS\n\nPLAY 4 4 5",                  # a command mistyped: refused, never dropped
    "Knok\n\nPRESS bye",
    "DISCRAD\n\nPRESS bye",
    "Hi George\n",                          # nothing follows
    "Hi George, " + "and everyone else at the club " * 2 + "\n\nPLAY 4 4 5",  # too long for a greeting
])
def test_lines_that_are_no_greeting_are_read(text):
    assert command_lines(text)[0][0] == 1


def test_only_one_greeting_and_only_before_the_first_command():
    assert [n for n, _ in command_lines("Hi,\n\nThanks,\n\nPLAY 4 4 5")] == [3, 5]
    assert [n for n, _ in command_lines("PLAY 4 4 5\n\nHi,\n\nSTATUS")] == [1, 3, 5]


def test_a_greeting_below_a_quote():
    assert command_lines("Golf GM wrote:\n> PLAY 3 5 4\n\nHi GM,\n\nPLAY 4 4 5") == [(6, "PLAY 4 4 5")]


def grammar_examples() -> list[str]:
    """The example orders in the docstring of each game's grammar (its spec's `grammar`)."""
    import inspect
    import re

    from pbem.games.registry import specs
    examples = []
    for module in {inspect.getmodule(spec.grammar) for spec in specs()}:
        doc = module.__doc__ or ""
        for line in doc.splitlines():
            if line.startswith("    "):
                # Orders stand apart by two spaces or more; a note in brackets follows them.
                examples += [order for order in re.split(r"\s{2,}", line.split("(")[0].strip()) if order]
    return examples


def test_every_command_word_resembles_a_command():
    from pbem.gm.admin import VERBS
    examples = grammar_examples()
    assert {"PLAY 4 3 5", "KNOCK", "DRAW STOCK"} <= set(examples)
    words = {order.split()[0].upper() for order in examples}
    words |= {*VERBS, "HELP", "STATUS", "HISTORY", "RESIGN", "PRESS", "GAME", "PASSWORD", "PASS", "SECRET",
              "TURN", "TZ", "TIMEZONE", "SET"}
    assert words <= COMMAND_WORDS
    for word in COMMAND_WORDS:
        assert resembles_command(f"Hi {word.lower()},")
    assert not resembles_command("Hi George,")
    for greeting in ["Dear GM", "Hello!", "Good morning all,", "Hi Paul,", "Cheers", "Hi Ed,", "Hi Helen,"]:
        assert not resembles_command(greeting), greeting


# --- what reading says about itself ---------------------------------------------


@pytest.mark.parametrize("text, why", [
    ("", "the message was empty"),
    ("\n \n\u00a0\n", "the message was empty"),
    ("GAME m1\nPASSWORD x\n\nOn Mon, 30 Nov 2026, Golf GM <gm@example.test> wrote:\n> PLAY 3 5 4\n",
     "everything after line 3 was quoted text, which I skip"),
    ("> PLAY 3 5 4\n>\n> HELP\n", "all of it was quoted text, which I skip"),
    ("GAME m1\n-- \nGeorge\n", "reading stopped at the signature on line 2"),
    ("GAME m1\nEND\nPLAY 4 4 5\n", "reading stopped at END on line 2"),
    ("Sent from my iPhone\n", "reading stopped at the mail program's footer on line 1"),
    ("Hi George,\n\n-----Original Message-----\nPLAY 3 5 4\n",
     "line 1 reads as a greeting, which I skip; reading stopped at the original message on line 3"),
    ("GAME m1\n> a\n\n> b\nTURN 2\n> c\nPASSWORD x\n> d\n",
     "lines 2-4 and 6 were quoted text, which I skip; everything after line 7 was quoted text, which I skip"),
    ("GAME m1\n> a\nTURN 2\n> b\nTURN 2\n> c\nTURN 2\n> d\nTURN 2\n> e\nTURN 2\n",
     "lines 2, 4, 6 and 2 more were quoted text, which I skip"),
    ("GAME m1\n> a\nTURN 2\n", "line 2 was quoted text, which I skip"),
    ("GAME m1\nTURN 2\n", ""),
])
def test_reading_explains_what_it_did_not_read(text, why):
    assert read_lines(text).explain() == why


def test_breaks_tell_paragraphs_from_quotes():
    reading = read_lines("PRESS\nGood luck!\n\nSee you.\n\n> quoted\n\nPLAY 4 4 5\nHELP\n")
    assert reading.breaks == {4: "paragraph", 8: "quote"}


def test_french_header_wrapped():
    text = "PLAY 4 4 5\nLe lun. 30 nov. 2026 à 10:00, Golf GM <gm@example.test> a\nécrit :\n> PLAY 3 5 4\n"
    assert lines(text) == ["PLAY 4 4 5"]


def test_signature_stops_reading():
    assert command_lines("PLAY 4 4 5\nSPECIAL BLUE -1 HOLE 5\n-- \nGeorge\n") == [
        (1, "PLAY 4 4 5"),
        (2, "SPECIAL BLUE -1 HOLE 5"),
    ]


def test_nine_underscores_or_three_dashes_do_not_stop():
    # A horizontal rule is never a command, and reading goes on below it.
    assert lines("A\n_________\n---\n* * *\n=====\nB\n") == ["A", "B"]


def test_end_inside_a_line_does_not_stop():
    assert lines("PRESS see you at the end\nPLAY 4 4 5\n") == ["PRESS see you at the end", "PLAY 4 4 5"]


def test_outlook_reply_header_block():
    text = (
        "PLAY 5 3 4\n\n"
        "From: Golf GM <gm@example.test>\n"
        "Sent: Monday, November 30, 2026 10:00 AM\n"
        "To: Anna Smith <anna@corp.example>\n"
        "Subject: [golf-7] Turn 3: your move\n\n"
        "PLAY 3 3 3\n"
    )
    assert command_lines(text) == [(1, "PLAY 5 3 4")]


def test_outlook_header_with_date_four_lines_down():
    text = "PLAY 5 3 4\nFrom: Golf GM\nTo: Anna\nCc: Ref\nSubject: x\nDate: Mon\nPLAY 3 3 3\n"
    assert lines(text) == ["PLAY 5 3 4"]


def test_from_line_without_sent_or_date_is_kept():
    text = "PRESS From: the desk of George\nPLAY 5 3 4\nFrom: me\nTo: you\nA\nB\nC\nDate: later\n"
    assert lines(text) == ["PRESS From: the desk of George", "PLAY 5 3 4", "From: me", "To: you", "A", "B", "C", "Date: later"]


def test_quoted_orders_are_never_read():
    assert command_lines("> PLAY 3 5 4\nPLAY 4 4 5\n") == [(2, "PLAY 4 4 5")]


def test_is_stop_line_direct():
    assert is_stop_line("END")
    assert is_stop_line("On Mon, Golf GM <", ["gm@example.test> wrote:"])
    assert not is_stop_line("On Mon, Golf GM <", ["gm@example.test> wrote:", "> quoted"])
    assert not is_stop_line("On Mon, Golf GM <")
    assert not is_stop_line("PLAY 4 4 5")
    assert not is_stop_line("> PLAY 3 5 4")


def test_empty_text():
    assert command_lines("") == []
    assert command_lines("\n \n\u00a0\n") == []


# --- subject -----------------------------------------------------------------


@pytest.mark.parametrize(
    "subject, expected",
    [
        ("[golf-7] Turn 3: your move", "golf-7"),
        ("Re: [golf-7] Turn 3: your move", "golf-7"),
        ("RE: RE: [golf-7] Turn 3", "golf-7"),
        ("Fwd: Re: [m.2026_a] Welcome", "m.2026_a"),
        ("FW: [g1] x", "g1"),
        ("AW: [g1] x", "g1"),
        ("TR: [g1] x", "g1"),
        ("Sv: [g1] x", "g1"),
        ("Re[2]: [g1] x", "g1"),
        ("AW(3): [g1] x", "g1"),
        ("re:[g1] x", "g1"),
        ("[EXTERNAL] Re: [golf-7] Turn 3", "golf-7"),
        ("Re: [golf-7] [urgent] Turn 3", "golf-7"),
        ("Re: Turn 3 [golf-7]", "golf-7"),
        ("Re: \uff3bgolf-7\uff3d Turn 3", "golf-7"),
        ("Re: [not an id] [golf-7]", "golf-7"),
    ],
)
def test_subject_game_id(subject, expected):
    assert subject_game_id(subject) == expected


@pytest.mark.parametrize("subject", ["", "Re: Turn 3", "Re: [] x", "[two words]", "Re[2]: hello"])
def test_subject_without_game_id(subject):
    assert subject_game_id(subject) is None



@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_command_lines_are_clean_and_numbered_in_order(text):
    result = command_lines(text)
    numbers = [n for n, _ in result]
    assert numbers == sorted(set(numbers))
    body_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in result:
        assert 1 <= number <= len(body_lines)
        assert line and line == line.strip() and "  " not in line
        assert not line.startswith(">")
        assert not set(line) & set("\u00a0\u200b\ufeff\u2212\u2013\t")
