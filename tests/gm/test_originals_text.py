"""The text and subject of pbem's own mail, as a reply is read against it (gm/originals.py), are
cut out of the bytes where the composer puts them; they must say what a whole parse of the same
mail says, for every shape the composer writes, and any other mail goes to the whole parse."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime

from pbem.gm.originals import _own_text, fingerprint
from pbem.mail.inbound import parse
from pbem.mail.outbound import Letter, compose
from pbem.orders.original import Original

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
TEXTS = ["Turn 1: holes 1, 2, 3 (par 4, 4, 3).\nYour remaining stroke cards: 3 3 4\n\nReply with orders.\n",
         "Caf\u00e9 au lait \u2013 Gr\u00fc\u00dfe, Ren\u00e9e\nline two =3D not an escape\n" + "x" * 90 + "\n",
         "one line, no newline at the end", "tabs\tand  spaces   \n\n\n  indented\n"]
SUBJECTS = ["Turn 1 report: George 1 up after 3", "[cup1] Bienvenue, Ren\u00e9e \u2013 \u00e0 vous",
            "A subject long enough to be folded by the header writer " * 3]
HTML = [None, "<p>Hello</p>"]
CALENDARS = [None, "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n"]


def test_the_cut_says_what_a_whole_parse_says_for_every_shape():
    for text, subject, html, calendar in itertools.product(TEXTS, SUBJECTS, HTML, CALENDARS):
        letter = Letter("turn", "george@example.test", subject, text, to_name="George", game_id="cup1",
                        html=html, calendar=calendar)
        raw = compose(letter, gm_address="gm@example.test", gm_name="Golf GM", now=NOW).raw
        whole = parse(raw)
        assert _own_text(raw) == (whole.text, whole.subject), (text, subject, html, calendar)
        assert whole.text.strip() and whole.subject


def test_any_other_mail_is_parsed_whole():
    foreign = (b"From: x@example.test\r\nSubject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=\r\nMIME-Version: 1.0\r\n"
               b"Content-Type: multipart/alternative; boundary=\"zz\"\r\n\r\n--zz\r\n"
               b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
               b"caf=E9 PLAY 4 4 3\r\n--zz--\r\n")
    whole = parse(foreign)
    assert _own_text(foreign) == (whole.text, whole.subject) == ("caf\u00e9 PLAY 4 4 3", "Gr\u00fc\u00dfe")


def test_the_fingerprint_kept_after_retention_is_the_one_of_the_whole_parse():
    letter = Letter("welcome", "bill@example.test", SUBJECTS[1], TEXTS[1], html=HTML[1], calendar=CALENDARS[1])
    raw = compose(letter, gm_address="gm@example.test", gm_name="Golf GM", now=NOW).raw
    whole = parse(raw)
    assert fingerprint(raw) == Original.of_text(whole.text, subject=whole.subject).fingerprint()
