"""Replies from real mail clients, in many languages, are read for the orders the player wrote.

The corpus in tests/mail/samples/replies (see its README) holds one reply layout a file: how a
client, in a language, words and lays out the line or the header block above the quoted mail,
how it quotes (or does not), what it puts around the player's lines. Each is filled with the
GM's real welcome (or turn-1 report) and the player's orders, sent to the GM's Maildir from
George's address to his reply address, and the GM's answer must be an ack listing exactly those
orders: nothing of the quoted mail, however it is quoted, is ever read as an order.

All welcome-quoting layouts are sent, one after the other, in one match (orders may be sent
again until the turn resolves; each reply gets its own answer), and all report-quoting ones in a
second match at turn 2, once with In-Reply-To and References, once without them, and once more
with them, quoting the GM's text as a client that reads format=flowed quotes it (each paragraph
joined, then rewrapped as the layout quotes).
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import BILL, GEORGE, LocalTable, body, kinds, too_wide
from loading import load_script

rc = load_script("tests/mail/reply_corpus.py", "reply_corpus")

LAYOUTS = rc.all_layouts()
BY_NAME = {layout.name: layout for layout in LAYOUTS}
MARKED = [layout for layout in LAYOUTS if layout.marked]
UNLISTED = [layout for layout in LAYOUTS if layout.locale in ("et", "vi", "is") and layout.needs_reference]
# The GM's clock is pinned, so the dates the clients write are the same on every run.
WELCOME_TIME = "2026-12-02T10:00:00Z"
TURN1_GEORGE = "PLAY 3 5 4"
TURN1_BILL = "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3"


@dataclass
class Answer:
    kinds: list[str]
    text: str
    orders: list[str] | None

    def describe(self) -> str:
        if not self.kinds:
            return f"no answer at all ({self.text})" if self.text else "no answer at all"
        if self.orders is not None:
            return f"{self.kinds}: read {self.orders}"
        lines = [ln for ln in self.text.splitlines() if ln.strip()][:8]
        return f"{self.kinds}: " + " | ".join(lines)


def _allow_many(table: LocalTable) -> None:
    """The corpus sends a hundred replies from one player within the hour: the flood guard
    (limits.messages_per_hour) is not what these tests are about."""
    with open(table.root / "pbem.yaml", "a", encoding="utf-8") as f:
        f.write("limits:\n  messages_per_hour: 100000\n")


def _reply_and_answer(table: LocalTable, layout, gm_mail, *, orders=None, references=True,
                      variant="", as_flowed=False) -> Answer:
    reply = rc.build(layout, gm_mail, to=table.reply_to(GEORGE), orders=orders, references=references,
                     variant=variant, as_flowed=as_flowed)
    table.new_mails(GEORGE)
    table.send(GEORGE, raw=reply.raw)
    table.pbem("process")
    fresh = table.new_mails(GEORGE)
    answers = [m for m in fresh if str(m.get("In-Reply-To", "")).strip() == reply.message_id] or fresh
    text = "\n\n".join(body(m) for m in answers)
    listed = None
    if answers and answers[0]["X-PBEM-Kind"] == "ack":
        listed = rc.acked_orders(body(answers[0]))
    return Answer(kinds(answers), text, listed)


def _every_mail_fits(root: Path) -> list[str]:
    """Lines wider than 78 columns in the text of every mail the GM wrote (its own inbox aside)."""
    wide = []
    for folder in (root / "mail").iterdir():
        if folder.name.startswith("gm@"):
            continue
        for sub in ("new", "cur"):
            for path in sorted((folder / sub).glob("*")) if (folder / sub).is_dir() else []:
                msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                wide += [f"{folder.name} {msg['X-PBEM-Kind']}: {line!r}" for line in too_wide(body(msg))]
    return wide


def _corpus_run(tmp_path_factory, original: str) -> dict:
    layouts = [layout for layout in LAYOUTS if layout.original == original]
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp(f"corpus-{original}")
    try:
        mp.chdir(root)
        table = LocalTable(root, mp)
        _allow_many(table)
        mp.setenv("PBEM_NOW", WELCOME_TIME)
        table.new_match()
        if original == "report":
            table.order(GEORGE, TURN1_GEORGE)
            table.order(BILL, TURN1_BILL)
        gm_mail = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == original][-1]
        answers = {}
        for layout in layouts:
            # With its reference, without it, and with the GM's flowed text read as flowed first.
            for references, as_flowed in ((True, False), (False, False), (True, True)):
                try:
                    answer = _reply_and_answer(table, layout, gm_mail, references=references, as_flowed=as_flowed,
                                               variant="flowed" if as_flowed else "ref" if references else "noref")
                except Exception as e:  # one broken sample must not hide the others
                    answer = Answer([], f"{type(e).__name__}: {e}", None)
                answers[layout.name, "flowed" if as_flowed else references] = answer
        return {"answers": answers, "wide": _every_mail_fits(root), "gm_mail": gm_mail,
                "turn": table.show()["turn"]}
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return {original: _corpus_run(tmp_path_factory, original) for original in rc.ORIGINALS}


def _expect(layout) -> list[str]:
    return [rc.normalise(o) for o in layout.orders]


def _got(answer: Answer) -> list[str] | None:
    return None if answer.orders is None else [rc.normalise(o) for o in answer.orders]


# -- the corpus itself --------------------------------------------------------------------------


def test_the_corpus_covers_the_languages_clients_forms_and_encodings():
    assert len(LAYOUTS) >= 70
    by_language: dict[str, int] = {}
    for layout in LAYOUTS:
        by_language[layout.language] = by_language.get(layout.language, 0) + 1
    languages = ("English German French Spanish Italian Portuguese Dutch Swedish Norwegian Danish Finnish "
                 "Polish Czech Russian Ukrainian Turkish Greek Hungarian Japanese Chinese").split()
    assert {lang: by_language.get(lang, 0) for lang in languages if by_language.get(lang, 0) < 2} == {}
    assert {layout.form for layout in LAYOUTS} == set(rc.FORMS)
    assert {"quoted-printable", "base64", "8bit"} <= {layout.encoding for layout in LAYOUTS}
    assert sum(layout.original == "report" for layout in LAYOUTS) >= 10
    quotes = {layout.quote for layout in LAYOUTS if layout.form != "html"}
    assert {"> ", ">", "> > ", "| ", "\t", ""} <= quotes
    assert any("<hr" in (layout.html or "") for layout in LAYOUTS)
    assert len(UNLISTED) >= 2 and all(layout.needs_reference for layout in UNLISTED)


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_the_sample_builds_what_it_declares(layout, corpus):
    """The harness, not pbem: the raw reply parses back to the text and HTML meant, in the
    declared form, charset and transfer encoding, and names the real GM mail it answers."""
    gm_mail = corpus[layout.original]["gm_mail"]
    reply = rc.build(layout, gm_mail, to="gm+0123456789abcdef@example.test")  # checks as it builds
    parsed = email.message_from_bytes(reply.raw, policy=email.policy.default)
    assert parsed["In-Reply-To"] == gm_mail["Message-ID"] and parsed["References"] == gm_mail["Message-ID"]
    assert "[m1]" in parsed["Subject"] and parsed["Subject"].endswith(str(gm_mail["Subject"]))
    assert email.utils.parseaddr(parsed["From"])[1] == GEORGE
    written = (reply.text or "") + (reply.html or "")
    for order in layout.orders:
        assert order in written
    # The GM's mail is really in it, as the client quoted it.
    first = rc.gm_text(gm_mail).splitlines()[0]
    assert first.split(",")[0] in written


# -- 1. every layout, read with its reference ---------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_every_layout_is_acked_with_exactly_the_orders_written(layout, corpus):
    answer = corpus[layout.original]["answers"][layout.name, True]
    assert answer.kinds and answer.kinds[0] == "ack", f"{layout.name}: {answer.describe()}"
    assert _got(answer) == _expect(layout), f"{layout.name}: {answer.describe()}"


# -- 2. the same without In-Reply-To and References: read by the language patterns alone ---------


@pytest.mark.parametrize("layout", MARKED, ids=lambda layout: layout.name)
def test_every_marked_layout_is_read_without_its_reference(layout, corpus):
    answer = corpus[layout.original]["answers"][layout.name, False]
    assert answer.kinds and answer.kinds[0] == "ack", f"{layout.name}: {answer.describe()}"
    assert _got(answer) == _expect(layout), f"{layout.name}: {answer.describe()}"


# -- 2b. the GM's mail read as format=flowed before it is quoted (Thunderbird, Apple Mail) ----------


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_every_layout_quoting_the_gm_mail_read_as_flowed_is_acked_with_exactly_the_orders(layout, corpus):
    answer = corpus[layout.original]["answers"][layout.name, "flowed"]
    assert answer.kinds and answer.kinds[0] == "ack", f"{layout.name}: {answer.describe()}"
    assert _got(answer) == _expect(layout), f"{layout.name}: {answer.describe()}"


def test_every_mail_the_gm_wrote_for_the_corpus_fits_78_columns(corpus):
    assert [line for run in corpus.values() for line in run["wide"]] == []
    assert corpus["welcome"]["turn"] == 1 and corpus["report"]["turn"] == 2


# -- 3. an unmarked quote in a language the reader does not know --------------------------------


@pytest.mark.parametrize("layout", UNLISTED, ids=lambda layout: layout.name)
def test_unmarked_quote_in_an_unlisted_language_is_read_by_its_reference(layout, table):
    _allow_many(table)
    table.new_match()
    if layout.original == "report":
        table.order(GEORGE, TURN1_GEORGE)
        table.order(BILL, TURN1_BILL)
    gm_mail = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == layout.original][-1]
    assert layout.needs_reference
    answer = _reply_and_answer(table, layout, gm_mail)
    assert answer.kinds[:1] == ["ack"], answer.describe()
    assert _got(answer) == _expect(layout), answer.describe()
    # Without its reference the same reply cannot be read as those orders: the reference is what
    # tells the GM's own text from the player's.
    bare = _reply_and_answer(table, layout, gm_mail, references=False, variant="bare")
    assert not (bare.kinds[:1] == ["ack"] and _got(bare) == _expect(layout)), bare.describe()
    assert _every_mail_fits(table.root) == []


# -- 4. the player's own order may be the very line the welcome gives as an example -------------


def _examples(welcome_text: str) -> list[list[str]]:
    """The welcome's example orders: each run of indented PLAY/SPECIAL lines."""
    runs, current = [], []
    for line in welcome_text.splitlines():
        if re.match(r"^\s{2,}(PLAY|SPECIAL)\b", line):
            current.append(line.strip())
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def test_orders_repeating_the_example_line_are_read(table):
    _allow_many(table)
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    examples = _examples(body(welcome))
    assert examples and examples[0][0].startswith("PLAY"), examples
    quoted = BY_NAME["en_gmail_web"]           # "> " quote under "On ... wrote:"
    unquoted = BY_NAME["en_outlook_desktop"]   # unquoted under a From/Sent/To/Subject block
    for orders in examples:
        for layout in (quoted, unquoted):
            answer = _reply_and_answer(table, layout, welcome, orders=orders, variant="example")
            assert answer.kinds[:1] == ["ack"], f"{layout.name} {orders}: {answer.describe()}"
            assert _got(answer) == [rc.normalise(o) for o in orders], f"{layout.name}: {answer.describe()}"
    assert _every_mail_fits(table.root) == []


# -- 5. a reply to a mail whose text the GM has forgotten ----------------------------------------


def test_a_forgotten_original_is_still_read(table):
    _allow_many(table)
    table.monkeypatch.setenv("PBEM_NOW", WELCOME_TIME)
    table.new_match("m1", "445 345 434 543 434 454", "--option", "nmr=wait")
    welcome = table.mails(GEORGE)[0]
    later = (datetime(2026, 12, 2, 10, tzinfo=UTC) + timedelta(days=100)).strftime("%Y-%m-%dT%H:%M:%SZ")
    table.pbem("process", now=later)
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        rows = db.execute("SELECT raw IS NULL FROM outbox WHERE kind = 'welcome' AND recipient = ?",
                          [GEORGE]).fetchall()
    finally:
        db.close()
    assert rows == [(1,)], "retention should have forgotten the welcome's raw text"
    assert table.show()["turn"] == 1
    # A pattern-recognised attribution (German Gmail) over the quoted welcome...
    answer = _reply_and_answer(table, BY_NAME["de_gmail_web"], welcome)
    assert answer.kinds[:1] == ["ack"], answer.describe()
    assert _got(answer) == _expect(BY_NAME["de_gmail_web"]), answer.describe()
    # ...and an unmarked original under a header block in a language the reader has no words for,
    # read by what the GM keeps of the welcome after forgetting its text.
    for layout in [layout for layout in UNLISTED if layout.original == "welcome"][:1]:
        answer = _reply_and_answer(table, layout, welcome, variant="forgotten")
        assert answer.kinds[:1] == ["ack"], f"{layout.name}: {answer.describe()}"
        assert _got(answer) == _expect(layout), f"{layout.name}: {answer.describe()}"
    assert _every_mail_fits(table.root) == []


# -- 6. a refused message says what was read and what was skipped -------------------------------


def test_a_refused_message_says_what_was_read(table):
    _allow_many(table)
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    orders = ["PLAY 3 5 4", "SPECIAL RED+1 HOLE 9"]
    # A "> " quote under "On ... wrote:", an unquoted original under an Outlook header block,
    # and the wrong line written between two parts of the quote.
    for name in ("en_gmail_web", "en_outlook_desktop", "en_mutt_interleaved"):
        answer = _reply_and_answer(table, BY_NAME[name], welcome, orders=orders, variant="wrong")
        assert answer.kinds[:1] == ["error"], f"{name}: {answer.describe()}"
        text = answer.text
        read = re.findall(r"(?m)^\s*Line (\d+): (.+)$", text)
        assert ("SPECIAL RED+1 HOLE 9" in {line for _, line in read}), f"{name}: the wrong line\n{text}"
        assert "PLAY 3 5 4" in {line for _, line in read}, f"{name}: every line read as a command\n{text}"
        # Nothing of the welcome was taken for a command: only the two lines written are named.
        assert {line for _, line in read} == set(orders), f"{name}: {read}\n{text}"
        assert re.search(r"(?i)\blines? \d[^.\n]*quoted text", text), (
            f"{name}: the error should say where it skipped quoted text\n{text}")
    assert table.show()["turn"] == 1
    assert _every_mail_fits(table.root) == []
