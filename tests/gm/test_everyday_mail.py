"""Everyday mail from real clients is read as it was meant (CONTRACT section 4).

The corpus in tests/mail/samples/everyday/ (index.yaml says what each file is) holds replies and
new mails as Thunderbird (flowed, and its HTML compose), Apple Mail (`DelSp=yes`), Outlook,
Gmail and phone clients write them, each with a sign-off or a signature: game orders, JOIN,
LEAVE and LIST to an open table, SET ABSENCE in reply to a league's welcome, OBSERVE and
RATINGS. Each is filled with the GM's real mail it answers and sent through a real pass; the
reader must read exactly the lines the index names, and the answer must be the true one (an
ack of exactly those orders, a seat taken or declined, an absence noted ...), never an error.
"""
from __future__ import annotations

import email
import email.policy
import html
import json
import uuid
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from conftest import BILL, GEORGE, GM, LocalTable, body, too_wide
from pbem.mail.inbound import parse
from pbem.orders.original import Original
from pbem.orders.text import read_lines, resembles_command

CORPUS = Path(__file__).resolve().parents[1] / "mail" / "samples" / "everyday"
INDEX = yaml.safe_load((CORPUS / "index.yaml").read_text(encoding="utf-8"))["samples"]
NOW = "2026-12-02T10:00:00Z"
LEAGUE_PLAYERS = {"alice": "Alice", "bruno": "Bruno", "chloe": "Chloe", "dmitri": "Dmitri"}
# A new mail (no reply) has a subject of the sender's own.
SUBJECTS = {"join": "Seat please", "list": "Tables?", "observe": "Watching", "ratings": "Ratings"}


def address(who: str) -> str:
    return GEORGE if who == "george" else f"{who}@example.test"


def sender(who: str) -> str:
    return f"{who.capitalize()} <{address(who)}>"


def fill(name: str, original: EmailMessage | None, who: str) -> bytes:
    """The corpus file with the GM's mail it answers (`original`) and the sender filled in."""
    raw = (CORPUS / f"{name}.eml").read_text(encoding="utf-8")
    newline = "\r\n" if "\r\n" in raw else "\n"
    text = body(original).rstrip("\n") if original is not None else ""
    lines = text.split("\n")
    half = len(lines) // 2
    quote = lambda part: "\n".join(f"> {line}" if line else ">" for line in part)  # noqa: E731
    values = {
        "FROM": sender(who), "ME": sender(who), "ME_HTML": html.escape(sender(who)), "GM": GM,
        "DATE": "Wed, 02 Dec 2026 10:05:00 +0000", "MESSAGE_ID": f"<{uuid.uuid4().hex}@player.test>",
        "QUOTED": quote(lines), "QUOTED_HEAD": quote(lines[:half]), "QUOTED_TAIL": quote(lines[half:]),
        "INDENTED": "\n".join(f" {line}" for line in lines), "ORIGINAL": text,
        "ORIGINAL_HTML": "<br>\n".join(html.escape(line) for line in lines),
    }
    if original is not None:
        values.update(TO=reply_address(original), SUBJECT=f"Re: {original['Subject']}",
                      ORIG_SUBJECT=original["Subject"], IN_REPLY_TO=original["Message-ID"])
    else:
        values.update(TO=GM, SUBJECT=SUBJECTS[name.split("_")[0]])
    for key, value in values.items():
        raw = raw.replace(f"%%{key}%%", value.replace("\r\n", "\n").replace("\n", newline))
    assert "%%" not in raw, name
    return raw.encode("utf-8")


def reply_address(m: EmailMessage) -> str:
    return email.utils.parseaddr(m["Reply-To"])[1]


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    """One GM with a match (m1), an open table (sun) and a league (cup) before its first round."""
    root = tmp_path_factory.mktemp("everyday")
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.chdir(root)
    table = LocalTable(root, monkeypatch)
    with open(root / "pbem.yaml", "a", encoding="utf-8") as f:
        f.write("limits:\n  messages_per_hour: 100000\n  strangers_per_hour: 100000\n")
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", now=NOW)
    table.pbem("table", "open", "golfdeck", "--seats", "4", "--id", "sun", now=NOW)
    league = root / "cup.yaml"
    league.write_text("id: cup\nname: Winter Cup\ngame: matchplay\ncourse: parkland\nplayers:\n"
                      + "".join(f"  - {n} <{address(w)}>\n" for w, n in LEAGUE_PLAYERS.items())
                      + "start: 2026-12-07T18:00:00Z\nround_length: 7d\ndeadline: 48h\nformat: round-robin\n")
    table.pbem("league", "create", str(league), now=NOW)
    yield table
    monkeypatch.undo()


def send(table: LocalTable, who: str, raw: bytes) -> list[EmailMessage]:
    table.new_mails(address(who))
    table.send(address(who), raw=raw)
    table.pbem("process", now=NOW)
    return table.new_mails(address(who))


def original_for(table: LocalTable, kind: str, who: str) -> EmailMessage | None:
    """The GM's mail a sample answers (a JOIN first, and a confirmation, where it needs them)."""
    mine = address(who)
    if kind == "game":
        return next(m for m in table.mails(mine) if m["X-PBEM-Game"] == "m1" and m["X-PBEM-Kind"] == "welcome")
    if kind == "league":
        return next(m for m in table.mails(mine) if m["X-PBEM-League"] == "cup" and m["X-PBEM-Kind"] == "welcome")
    if kind in ("ask", "seat"):
        table.new_mails(mine)
        table.send(sender(who), "JOIN sun", subject="Seat please")
        table.pbem("process", now=NOW)
        ask = table.new_mails(mine)[-1]
        assert ask["Subject"] == "[sun] Confirm: a seat at table sun", ask["Subject"]
        if kind == "ask":
            return ask
        table.send(sender(who), "", subject=f"Re: {ask['Subject']}", to=reply_address(ask))
        table.pbem("process", now=NOW)
        seat = table.new_mails(mine)[-1]
        assert seat["Subject"] == "[sun] You have a seat at table sun", seat["Subject"]
        return seat
    return None


def joined(table: LocalTable) -> list[str]:
    rows = json.loads(table.pbem("table", "list", "--json")[1])
    return [j["address"] for j in next(r for r in rows if r["id"] == "sun")["joined"]]


def test_the_corpus_is_broad_enough():
    assert len(INDEX) >= 40
    assert {s["to"] for s in INDEX.values()} == {"game", "gm", "ask", "seat", "league"}
    clients = " ".join(s["client"] for s in INDEX.values())
    for client in ("Thunderbird", "HTML compose", "delsp=yes", "Outlook", "Gmail", "iPhone", "Android"):
        assert client in clients, client


@pytest.mark.parametrize("name", list(INDEX))
def test_an_everyday_mail_reads_as_meant_and_gets_the_true_answer(desk, name):
    sample = INDEX[name]
    who, kind = sample["sender"], sample["to"]
    original = original_for(desk, kind, who)
    raw = fill(name, original, who)
    msg = parse(raw)
    # The reader alone: exactly the lines the sample carries, read against the mail it answers.
    originals = [] if original is None else [Original.of_text(body(original), datetime(2026, 12, 2, 10, 0,
                                                                                        tzinfo=UTC),
                                                              original["Subject"])]
    reading = read_lines(msg.text, originals, (GM, "golf gm"))
    assert [line for _, line in reading.lines] == sample["lines"], reading.explain()
    # Each is signed: a sign-off skipped, or reading stopped at a signature or a client's footer
    # (a reply that holds no command, a table's confirmation, has nothing to sign off from).
    signed = any(s.kind == "sign-off" for s in reading.skipped) or (reading.stop or ("",))[0] in (
        "signature", "footer")
    assert signed or not any(resembles_command(line) for line in sample["lines"]), reading.explain()
    # The pass: the true answer, one mail, no error.
    before_bill = len(desk.mails(BILL))
    got = send(desk, who, raw)
    assert len(got) == 1, [(m["X-PBEM-Kind"], m["Subject"]) for m in got]
    answer, text = got[0], " ".join(body(got[0]).split())
    assert answer["X-PBEM-Kind"] != "error", body(answer)
    assert not too_wide(body(answer))
    check = ANSWERS[sample["answer"]]
    check(desk, sample, answer, text, address(who))
    if sample["answer"] != "ack":
        assert len(desk.mails(BILL)) == before_bill


def _ack(desk, sample, answer, text, who):
    assert answer["X-PBEM-Kind"] in ("ack", "press"), answer["X-PBEM-Kind"]
    shown = body(answer).split("As I read them:\n\n", 1)[1].split("\n\n", 1)[0]
    assert [line.strip() for line in shown.splitlines()] == sample["orders"]
    press = [line for line in sample["lines"] if line.upper().startswith("PRESS ")]
    if press:
        said = body(desk.mails(BILL)[-1])
        assert desk.mails(BILL)[-1]["X-PBEM-Kind"] == "press"
        assert press[0][len("PRESS "):] in " ".join(said.split()), said


def _subject(expected: str):
    def check(desk, sample, answer, text, who):
        assert expected in answer["Subject"], answer["Subject"]
    return check


def _seated(desk, sample, answer, text, who):
    assert answer["Subject"] == "[sun] You have a seat at table sun", answer["Subject"]
    assert who in joined(desk)


def _declined(desk, sample, answer, text, who):
    assert answer["Subject"] == "[sun] No seat at table sun" and "no seat was taken" in text
    assert who not in joined(desk)


def _left(desk, sample, answer, text, who):
    assert answer["Subject"] == "[sun] You left table sun" and "the seat is free again" in text
    assert who not in joined(desk)


def _absence(desk, sample, answer, text, who):
    assert answer["Subject"] == "[cup] Absence noted: 2026-12-08 to 2026-12-12", answer["Subject"]
    assert answer["X-PBEM-League"] == "cup" and answer["In-Reply-To"]


ANSWERS = {
    "ack": _ack,
    "ask": _subject("[sun] Confirm: a seat at table sun"),
    "seated": _seated,
    "declined": _declined,
    "left": _left,
    "list": _subject("Open tables"),
    "observe": _subject("[m1] Confirm: watch game m1"),
    "ratings": _subject("Ratings"),
    "absence": _absence,
}
