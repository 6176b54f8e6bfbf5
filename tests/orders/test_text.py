import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.orders.text import command_lines, is_stop_line, normalise_line, subject_game_id


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


@pytest.mark.parametrize(
    "header",
    [
        "On Mon, 30 Nov 2026 at 10:00, Golf GM <gm@example.test> wrote:",
        "On 30 Nov 2026, at 10:00, Golf GM <gm@example.test> wrote:",
        "Le lun. 30 nov. 2026 à 10:00, Golf GM <gm@example.test> a écrit\u00a0:",
        "Am Mo., 30. Nov. 2026 um 10:00 Uhr schrieb Golf GM <gm@example.test>:",
        "El lun, 30 nov 2026 a las 10:00, Golf GM (<gm@example.test>) escribió:",
        "-----Original Message-----",
        "----- Original Message -----",
        "--original message--",
        "________________________________",
        "Begin forwarded message:",
        "---------- Forwarded message ---------",
        "Sent from my iPhone",
        "Sent from my Galaxy",
        "Get Outlook for Android",
        "Sent from Mail for Windows",
        "Envoyé de mon iPhone",
        "-- ",
        "--",
        "END",
        "end",
        "  > quoted",
        "\u00a0>quoted",
    ],
)
def test_reading_stops(header):
    text = f"PLAY 4 4 5\n{header}\nSPECIAL RED+1 HOLE 8\n"
    assert command_lines(text) == [(1, "PLAY 4 4 5")]


def test_french_header_wrapped():
    text = "PLAY 4 4 5\nLe lun. 30 nov. 2026 à 10:00, Golf GM <gm@example.test> a\nécrit :\n> PLAY 3 5 4\n"
    assert lines(text) == ["PLAY 4 4 5"]


def test_signature_stops_reading():
    assert command_lines("PLAY 4 4 5\nSPECIAL BLUE -1 HOLE 5\n-- \nGeorge\n") == [
        (1, "PLAY 4 4 5"),
        (2, "SPECIAL BLUE -1 HOLE 5"),
    ]


def test_nine_underscores_or_three_dashes_do_not_stop():
    assert lines("A\n_________\n---\nB\n") == ["A", "_________", "---", "B"]


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
    assert command_lines("> PLAY 3 5 4\nPLAY 4 4 5\n") == []


def test_is_stop_line_direct():
    assert is_stop_line("END")
    assert is_stop_line("On Mon, Golf GM <", ["gm@example.test> wrote:"])
    assert not is_stop_line("On Mon, Golf GM <")
    assert not is_stop_line("PLAY 4 4 5")


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
