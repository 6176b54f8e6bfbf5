"""Reading a reply against the GM's mail it answers, and the twenty languages' patterns."""
from __future__ import annotations

from datetime import datetime

import pytest

from pbem.orders.original import Original
from pbem.orders.reply_words import LANGUAGES
from pbem.orders.text import read_lines

WELCOME = """Hello George,

Welcome to MatchPlay Golf. You play Bill over 18 holes, three holes a turn,
and the lower score wins each hole.

Reply to this mail with your orders, for example:

    PLAY 3 4 5
    SPECIAL BLUE-1 HOLE 2

Your secret password is 63e9944c5d17a0b2: replying to this mail carries it.
Good golfing!

Golf GM
"""
SENT = datetime(2026, 12, 2, 10, 0)
NAMES = ("gm@example.test", "golf gm")


def read(text: str, *originals: Original) -> list[str]:
    return [line for _, line in read_lines(text, originals, NAMES).lines]


def original(text: str = WELCOME) -> Original:
    return Original.of_text(text, SENT)


def test_an_unmarked_quote_under_an_unlisted_languages_header_is_read_by_its_original():
    reply = ("PLAY 3 5 4\n\nFrá: Golf GM <gm@example.test>\nSent: 2. desember 2026 10:00\nTil: George\n"
             "Efni: [m1] Welcome\n\n" + WELCOME)
    reply = reply.replace("Sent:", "Dagsetning:")  # Icelandic: no field of the table
    assert read(reply, original()) == ["PLAY 3 5 4"]
    assert read(reply) != ["PLAY 3 5 4"]  # without the original, its words are read as orders


def test_orders_that_repeat_the_example_line_are_read():
    for reply in ("PLAY 3 4 5\n\nGolf GM wrote:\n" + "".join(f"> {line}\n" for line in WELCOME.splitlines()),
                  "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 2\n\n" + WELCOME,
                  "PLAY 3 4 5\n" + WELCOME):
        assert read(reply, original())[:1] == ["PLAY 3 4 5"], reply


def test_three_orders_that_stand_in_the_original_are_still_read():
    text = "Reply with, for example:\n\n    DRAW STOCK\n    KEEP 3\n    KNOCK\n\nGolf GM\n"
    assert read("DRAW STOCK\nKEEP 3\nKNOCK\n", original(text)) == ["DRAW STOCK", "KEEP 3", "KNOCK"]


def test_a_rewrapped_quote_is_found_word_for_word():
    """HTML mail turned into text joins a paragraph's lines; other clients wrap at 72."""
    joined = WELCOME.replace(",\nand", ", and")
    wrapped = "\n".join(f"> {line}" for line in joined.replace("18 holes, three", "18\nholes, three").splitlines())
    reply = f"PLAY 5 4 3\n\nSome client 2026-12-02:\n{wrapped}\n"
    assert read(reply, original()) == ["PLAY 5 4 3"]


def test_interleaved_orders_between_unmarked_quotes_are_read():
    lines = WELCOME.splitlines()
    reply = "\n".join(lines[:5] + ["", "PLAY 4 4 5", ""] + lines[5:])
    assert read(reply, original()) == ["PLAY 4 4 5"]


def test_the_fingerprint_outlives_the_text():
    kept = Original.of_fingerprint(original().fingerprint(), SENT)
    reply = "PLAY 3 5 4\n\nGolf GM <gm@example.test> 2026-12-02 kello 10.00 rakstīja:\n" + WELCOME
    assert read(reply, kept) == read(reply, original()) == ["PLAY 3 5 4"]
    assert WELCOME.encode() not in kept.fingerprint() and b"George" not in kept.fingerprint()


def test_a_hostile_reply_is_compared_within_bounds():
    dull = Original.of_text("the " * 30_000, SENT)
    reply = "\n".join(["the the the the the x"] * 2_000)
    assert len(read(reply, dull)) == 2_000  # no run: nothing skipped, and it came back


# --- the table of languages, read without an original ---------------------------------------

NAMES_OF_LANGUAGES = {"English", "German", "French", "Spanish", "Italian", "Portuguese", "Dutch", "Swedish",
                      "Norwegian", "Danish", "Finnish", "Polish", "Czech", "Russian", "Ukrainian", "Turkish",
                      "Greek", "Hungarian", "Japanese", "Chinese"}


def test_the_table_has_the_twenty_languages():
    assert {lang.name for lang in LANGUAGES} == NAMES_OF_LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.name)
def test_every_languages_header_block_stops_reading_whichever_field_comes_first(lang):
    fields = [f"{lang.fields[role][0].capitalize()}: {value}" for role, value in
              (("from", "Golf GM <gm@example.test>"), ("date", "2026-12-02 10:00"), ("to", "George"),
               ("subject", "[m1] Welcome"))]
    for start in range(len(fields)):
        block = fields[start:] + fields[:start]
        assert read("PLAY 3 5 4\n\n" + "\n".join(block) + "\n\n" + WELCOME) == ["PLAY 3 5 4"], block


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang.verbs], ids=lambda lang: lang.name)
def test_every_languages_attribution_skips_the_quote_and_reads_on(lang):
    opener = f"{lang.openers[0].capitalize()} " if lang.openers else ""
    quote = "".join(f"> {line}\n" for line in WELCOME.splitlines())
    for verb in lang.verbs:
        one = f"{opener}2026-12-02 10:00, Golf GM <gm@example.test> {verb}:"
        wrapped = f"{opener}2026-12-02 10:00, Golf GM <\ngm@example.test> {verb}:"
        for attribution in (one, wrapped):
            assert read(f"PLAY 3 5 4\n\n{attribution}\n{quote}\nSTATUS\n") == ["PLAY 3 5 4", "STATUS"], attribution
            # Unquoted below it: the original starts there, and reading stops.
            assert read(f"PLAY 3 5 4\n{attribution}\n\n{WELCOME}") == ["PLAY 3 5 4"], attribution


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.name)
def test_every_languages_separator_stops_reading(lang):
    for phrase in lang.originals:
        for frame in (f"-----{phrase}-----", f"-------- {phrase} --------", f"------------------ {phrase} ---"):
            assert read(f"PLAY 3 5 4\n\n{frame}\n{WELCOME}") == ["PLAY 3 5 4"], frame


LAYOUTS = {
    "Outlook, Dutch": "PLAY 3 5 4\n\nVan: Golf GM <gm@example.test>\nVerzonden: woensdag 2 december 2026 "
                      "10:00\nAan: George\nOnderwerp: [m1] Welcome\n\n{welcome}",
    "Outlook, Italian": "PLAY 3 5 4\n\nDa: Golf GM <gm@example.test>\nInviato: mercoledì 2 dicembre 2026 "
                        "10:00\nA: George\nOggetto: [m1] Welcome\n\n{welcome}",
    "Outlook, Swedish": "PLAY 3 5 4\n\n________________________________\nFrån: Golf GM <gm@example.test>\n"
                        "Skickat: den 2 december 2026 10:00\nTill: George\nÄmne: [m1] Welcome\n\n{welcome}",
    "Outlook.com, French": "PLAY 3 5 4\n\nDe : Golf GM <gm@example.test>\nEnvoyé le : mercredi 2 décembre "
                           "2026 10:00\nÀ : George\nObjet : [m1] Welcome\n\n{welcome}",
    "Samsung, Danish": "PLAY 3 5 4\n\nSendt fra min Galaxy\n\n-------- Oprindelig meddelelse --------\n"
                       "Fra: Golf GM <gm@example.test>\nDato: 02-12-2026 10:00 (GMT+00:00)\nTil: George\n"
                       "Emne: [m1] Welcome\n\n{welcome}",
    "Zoho": "PLAY 3 5 4\n\n---- On Wed, 02 Dec 2026 10:00:00 +0000 Golf GM <gm@example.test> wrote ----\n\n"
            "{welcome}",
    "Hotmail, Date first": "PLAY 3 5 4\n\nDate: Wed, 2 Dec 2026 10:00:00 +0000\nFrom: gm@example.test\n"
                           "To: george@example.test\nSubject: [m1] Welcome\n\n{welcome}",
    "iPad, Norwegian": "PLAY 3 5 4\n\nSendt fra min iPad\n\nDen 2. des. 2026 kl. 10:00 skrev Golf GM "
                       "<gm@example.test>:\n\n{quoted}",
    "Android, Russian": "PLAY 3 5 4\n2 дек. 2026 г. 10:00 пользователь Golf GM <gm@example.test> написал:\n"
                        "{quoted}",
    "Evolution": "Hi,\nOn Wed, 2026-12-02 at 10:00 +0000, Golf GM wrote:\n{quoted}\nPLAY 3 5 4\n",
    "s-nail, tab": "PLAY 3 5 4\n\nGolf GM <gm@example.test> wrote:\n{tabbed}",
    "hr in HTML": "PLAY 3 5 4\n\n* * *\n\nFrom: Golf GM\nSent: Wednesday, December 2, 2026 10:00\n"
                  "To: George\nSubject: [m1] Welcome\n\n{welcome}",
    "Gmail, Japanese": "PLAY 3 5 4\n\n2026年12月2日(水) 10:00 Golf GM <gm@example.test>:\n\n{quoted}",
    "QQ, Chinese": "PLAY 3 5 4\n\n------------------ 原始邮件 ------------------\n发件人: \"Golf GM\" "
                   "<gm@example.test>\n发送时间: 2026年12月2日(星期三) 上午10:00\n收件人: \"George\"\n"
                   "主题: [m1] Welcome\n\n{welcome}",
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_layouts_that_were_refused_are_read_with_or_without_the_original(name):
    text = LAYOUTS[name].format(welcome=WELCOME, quoted="".join(f"> {ln}\n" for ln in WELCOME.splitlines()),
                                tabbed="".join(f"\t{ln}\n" for ln in WELCOME.splitlines()))
    assert read(text) == ["PLAY 3 5 4"]
    assert read(text, original()) == ["PLAY 3 5 4"]


def test_a_header_block_that_names_only_the_subject_goes_with_the_quote():
    """A block in a language with no row in the table, whose only line that pbem can know is the
    subject of the mail it answers: it is skipped with the quote below it, before and after the
    text is forgotten."""
    welcome = Original.of_text(WELCOME, None, "[m1] Welcome to MatchPlay Golf: George v Bill")
    kept = Original.of_fingerprint(welcome.fingerprint())
    assert kept.subject == welcome.subject and kept.words == welcome.words
    reply = ("PLAY 3 5 4\n\nPengirim: seseorang\nPerihal: [m1] Welcome to MatchPlay Golf: George v Bill\n\n"
             + WELCOME)
    assert read(reply, welcome) == read(reply, kept) == ["PLAY 3 5 4"]
    assert read(reply, original()) != ["PLAY 3 5 4"]  # without the subject, "Pengirim:" is read
