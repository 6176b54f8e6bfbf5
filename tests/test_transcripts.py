"""The golden transcripts: every kind of mail of each game, as the players read it.

A failure here means some mail changed. If the change is meant, run `scripts/transcripts.py`,
read `git diff tests/transcripts` as the players who get those mails, and commit it with the
template.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from transcript_scenarios import SCENARIOS, WIDTH, play

from pbem.mail.inbound import parse

HERE = Path(__file__).parent / "transcripts"
EVERY_KIND = {"welcome", "ack", "error", "report", "reminder", "result", "status", "history", "help", "press"}

# Whole games by mail, each played once per process (`played`; `--dist loadfile` keeps this
# module on one worker): the gate runs them, the fast loop does not.
pytestmark = pytest.mark.slow


@lru_cache(maxsize=None)
def played(name):
    return play(name)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_transcript_is_as_written(name):
    stored = (HERE / f"{name}.txt").read_text()
    assert played(name).text() == stored, f"run scripts/transcripts.py {name} and read the diff"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_kind_of_mail_is_in_the_transcript(name):
    kinds = {kind for _, kind, _, _ in played(name).mails}
    assert EVERY_KIND <= kinds, EVERY_KIND - kinds
    if name not in ("matchplay", "rollback"):  # MatchPlay's turns open in its reports
        assert "turn" in kinds
    texts = [text for *_, text, _ in played(name).mails]
    flat = [" ".join(t.split()) for t in texts]
    assert any(re.search(r"sent no (orders|answer) by the deadline", t) for t in flat), "no NMR note"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_line_of_every_mail_fits(name):
    # The one exception: CONTRACT section 11 gives the commitment line whole (81 columns).
    wide = [(to, kind, line) for to, kind, text, html in played(name).mails
            for line in text.splitlines() if len(line) > WIDTH and not line.startswith("Seed commitment: ")]
    assert not wide, "\n".join(f"{to} {kind}: {len(line)}: {line}" for to, kind, line in wide[:20])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_html_part_says_what_the_text_says(name):
    for to, kind, text, html in played(name).mails:
        if html is not None:
            html_words = [w for w in re.findall(r"\S+", html) if w not in ("```", "[code]", "[/code]")]
            assert html_words == re.findall(r"\S+", text), (to, kind)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_no_mail_shows_a_python_value(name):
    # Options and values are written as the GM and the players write them (`jokers=true`),
    # never as Python prints them (True, None, [], {}).
    leaks = [(to, kind, line) for to, kind, text, _ in played(name).mails for line in text.splitlines()
             if re.search(r"\b(True|False|None)\b|=\[|=\{|\[\]|\{\}", line)]
    assert not leaks, leaks[:5]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_calendar_part_comes_after_the_text_and_reads_as_one_event(name):
    for to, kind, first, ics in played(name).calendars:
        assert first == "text/plain", (to, kind)
        lines = ics.splitlines()
        assert lines[0] == "BEGIN:VCALENDAR" and "METHOD:PUBLISH" in lines and lines.count("BEGIN:VEVENT") == 1
        assert all(len(line.encode()) <= 75 for line in lines), (to, kind)


def test_the_rollback_scenario_shows_calendar_parts():
    calendars = played("rollback").calendars
    assert {kind for _, kind, _, _ in calendars} >= {"ack", "report", "notice"}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_mail_is_auto_replied_exactly_when_it_answers_a_message(name):
    for m in played(name).messages:
        assert m["Auto-Submitted"] == ("auto-replied" if m["In-Reply-To"] else "auto-generated"), (
            m["To"], m["X-PBEM-Kind"], m["Subject"])


def _runs(text: str, read: str) -> list[list[str]]:
    """The lines of `text` (the text part as its lines go) in the runs that the reader joined into
    each line of `read`, each join one space: a failure if the reading is no such joining."""
    lines, runs = text.split("\n"), []
    at = 0
    for line in read.split("\n"):
        run = [lines[at]]
        at += 1
        while " ".join([run[0], *(r.strip() for r in run[1:])]) != line:
            assert at < len(lines) and len(" ".join(r.strip() for r in run)) < len(line), (line, run)
            run.append(lines[at])
            at += 1
        runs.append(run)
    assert at == len(lines), lines[at:]
    return runs


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_flowed_text_part_reads_back_to_the_text_as_the_gm_wrote_it(name):
    """Each text part is format=flowed (RFC 3676, DelSp=no), and pbem's own reader reads it back
    to the same words, in the same lines but for the prose the wrapping broke, which joins:
    a table's rows, an order or an example set in, a line of a score sheet, stay as written."""
    played_ = played(name)
    assert len(played_.raws) == len(played_.messages) == len(played_.mails)
    for raw, m in zip(played_.raws, played_.messages):
        to, kind = m["To"], m["X-PBEM-Kind"]
        part = m.get_body(preferencelist=("plain",))
        assert part.get_param("format") == "flowed" and part.get_param("delsp") == "no"
        wire = part.get_content().split("\n")
        text = "\n".join((line[1:] if line.startswith(" ") else line).rstrip(" ") for line in wire)
        read = parse(raw).text
        assert read.split() == text.split(), (to, kind)  # not a word lost, added or moved
        for run in _runs(text.rstrip("\n"), read.rstrip("\n")):
            for line in run if len(run) > 1 else ():
                assert not re.search(r"\S {2,}\S", line) and not line.startswith("    "), (to, kind, run)
        assert all(not line.startswith((">", "From ")) for line in wire), (to, kind)  # stuffed
        # A soft break's space or a stuffed one may pass the 78 columns of the text by one at most.
        assert all(len(line) <= WIDTH + 1 for line in wire if not line.startswith(("Seed commitment: ", "Result: "))), (
            to, kind)
