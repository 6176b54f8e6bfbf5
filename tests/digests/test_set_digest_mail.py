"""SET DIGEST as people write it (CONTRACT section 14): a Thunderbird reply (format=flowed), an
Outlook reply (its quoted header block), a phone's (`Sent from my iPhone`), from a player with
their secret and from a spectator with their token; a wrong line named with its rule and a
legal example, changing nothing; a stranger's SET DIGEST answered within the strangers' limit."""
from __future__ import annotations

import email.utils
import sqlite3
import uuid

import pytest

from conftest import BILL, GEORGE, GM, body, kinds
from test_digest_day import FAN, follow

NOW = "2026-12-02T10:00:00Z"


def raw(sender: str, to: str, subject: str, text: str, *, flowed: bool = False, reply_to=None) -> bytes:
    head = (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Wed, 02 Dec 2026 10:00:00 +0000\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@player.test>\r\n")
    if reply_to is not None:
        head += f"In-Reply-To: {reply_to['Message-ID']}\r\nReferences: {reply_to['Message-ID']}\r\n"
    kind = "text/plain; charset=utf-8" + ("; format=flowed" if flowed else "")
    head += f"MIME-Version: 1.0\r\nContent-Type: {kind}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    return (head + text.replace("\n", "\r\n")).encode("utf-8")


def thunderbird(original, line: str) -> str:
    """A flowed reply: the command's line broken softly (a trailing space), the quote below."""
    words = line.split()
    quoted = "\n".join(f"> {ln}" if ln else ">" for ln in body(original).splitlines())
    return (f"{' '.join(words[:2])} \n{' '.join(words[2:])}\n\nThanks!\n\n"
            f"On 02/12/2026 09:00, Golf GM wrote:\n{quoted}\n")


def outlook(original, line: str) -> str:
    return (f"{line}\n\nBest regards\nGeorge\n\n"
            f"From: Golf GM <{GM}>\nSent: Wednesday, December 2, 2026 9:00 AM\nTo: George <{GEORGE}>\n"
            f"Subject: {original['Subject']}\n\n{body(original)}")


def iphone(original, line: str) -> str:
    quoted = "\n".join(f"> {ln}" if ln else ">" for ln in body(original).splitlines())
    return f"{line.capitalize()}.\n\nSent from my iPhone\n\n> On 2 Dec 2026, at 09:00, Golf GM <{GM}> wrote:\n>\n{quoted}\n"


CLIENTS = {"thunderbird": thunderbird, "outlook": outlook, "iphone": iphone}


def digest_of(table, address: str):
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return conn.execute("SELECT at FROM digest_readers WHERE address = ?", [address]).fetchone()
    finally:
        conn.close()


@pytest.mark.parametrize("client", CLIENTS)
def test_a_players_reply_from_every_client_sets_the_digest(table, client):
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    table.new_mails(GEORGE)
    flowed = client == "thunderbird"
    table.send(GEORGE, raw=raw(f"George <{GEORGE}>", table.reply_to(GEORGE), f"Re: {welcome['Subject']}",
                               CLIENTS[client](welcome, "SET DIGEST DAILY 07:30"), flowed=flowed, reply_to=welcome))
    table.pbem("process", now=NOW)
    ack, = table.new_mails(GEORGE)
    assert ack["X-PBEM-Kind"] == "ack" and ack["Subject"] == "[m1] Digest daily at 07:30", body(ack)
    assert "Your next digest: 2026-12-03 07:30 UTC" in " ".join(body(ack).split())
    assert digest_of(table, GEORGE) == ("07:30",)
    table.send(GEORGE, raw=raw(f"George <{GEORGE}>", table.reply_to(GEORGE), f"Re: {ack['Subject']}",
                               CLIENTS[client](ack, "SET DIGEST OFF"), flowed=flowed, reply_to=ack))
    table.pbem("process", now=NOW)
    off, = table.new_mails(GEORGE)
    assert off["Subject"] == "[m1] Digest off", body(off)
    assert digest_of(table, GEORGE) == (None,)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_spectators_reply_from_every_client_sets_the_digest(table, client):
    table.new_match()
    follow(table, FAN, "m1")
    confirmed = table.mails(FAN)[-1]
    table.send(FAN, raw=raw(f"Fan <{FAN}>", email.utils.parseaddr(confirmed["Reply-To"])[1],
                            f"Re: {confirmed['Subject']}", CLIENTS[client](confirmed, "SET DIGEST DAILY 21:15"),
                            flowed=client == "thunderbird", reply_to=confirmed))
    table.pbem("process", now=NOW)
    ack, = table.new_mails(FAN)
    assert ack["X-PBEM-Kind"] == "ack" and ack["Subject"] == "Digest daily at 21:15", body(ack)
    assert digest_of(table, FAN) == ("21:15",)


@pytest.mark.parametrize("line, why", [
    ("SET DIGEST WEEKLY", "SET DIGEST takes DAILY (with a time or none) or OFF"),
    ("SET DIGEST DAILY 25:00", "SET DIGEST takes a time of day as HH:MM, from 00:00 to 23:59"),
    ("SET DIGEST DAILY 6pm", "SET DIGEST takes a time of day as HH:MM, from 00:00 to 23:59"),
])
def test_a_wrong_line_is_named_with_its_rule_and_a_legal_example_and_changes_nothing(table, line, why):
    table.new_match()
    answer, = table.order(GEORGE, f"PLAY 3 5 4\n{line}")
    text = " ".join(body(answer).split())
    assert answer["X-PBEM-Kind"] == "error" and line in text and why in text
    assert "SET DIGEST DAILY, with a time of day HH:MM" in text and "SET DIGEST DAILY 18:00" in text
    assert digest_of(table, GEORGE) is None and table.show()["to_move"] == [GEORGE, BILL]  # the PLAY neither
    fan_token = follow(table, FAN, "m1")
    table.send(FAN, line, subject="digest", to=fan_token)
    table.pbem("process", now=NOW)
    error, = table.new_mails(FAN)
    assert error["X-PBEM-Kind"] == "error" and why in " ".join(body(error).split())
    assert digest_of(table, FAN) is None


def test_a_strangers_set_digest_is_answered_within_the_strangers_limit_and_changes_nothing(table):
    (table.root / "pbem.yaml").write_text((table.root / "pbem.yaml").read_text() + "limits:\n  strangers_per_hour: 3\n")
    table.new_match()
    for n in range(8):
        table.send(f"mallory{n}@example.test", "SET DIGEST DAILY 03:00", subject="digest")
        table.send(BILL, "SET DIGEST OFF", subject="no token")  # a player's address, but no secret
    table.pbem("process", now=NOW)
    answers = [m for n in range(8) for m in table.mails(f"mallory{n}@example.test")] + table.mails(BILL)[1:]
    assert len(answers) == 3 and set(kinds(answers)) == {"error"}
    assert "carries none" in " ".join(body(answers[0]).split())
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        assert conn.execute("SELECT count(*) FROM digest_readers").fetchone() == (0,)
    finally:
        conn.close()
