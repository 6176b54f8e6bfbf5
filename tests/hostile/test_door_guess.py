"""A reply read against someone else's mail: a door to the opponent's secret orders.

A reply is read against the GM's mail it names in `In-Reply-To`/`References`: lines that stand
there are skipped as a quote, with the heading above them. If that mail could be anyone's, Bill
would name George's ack, write under it the ack's lines with a guess at George's orders, and
learn from the answer (an ack, or a refusal that reads the heading as a wrong line) whether the
guess was right. CONTRACT section 4: a reply is read against the GM's mails to the sender's own
address only; naming another address's mail changes nothing in how it is read or answered.

So Bill's answers to a right and a wrong guess must be the same, byte for byte, but for the
Message-IDs (and MIME boundaries) that every mail has afresh. Every clock here is given.
"""
from __future__ import annotations

import email
import email.policy
import random
import re
import secrets
import time
from email.message import EmailMessage

from conftest import BILL, GEORGE, GM, body

from pbem.gm.games import new_secret
from pbem.mail.outbound import Letter, compose, new_message_id
from pbem.tables.book import new_token

COURSE = "445 345 434 543 434 454"
CREATED, GEORGE_MOVES, BILL_GUESSES = "2026-12-01T09:00:00Z", "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z"
MAIL_DATE = "Tue, 01 Dec 2026 10:30:00 +0000"
GEORGES_ORDERS = "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2\n"
RIGHT, WRONG = "PLAY 4 4 5", "PLAY 4 4 4"
BILLS_ORDERS = "PLAY 5 3 4\nSPECIAL RED+1 HOLE 1\n"
# What differs between two mails that say the same: ids (Message-ID, In-Reply-To, References),
# the MIME boundaries, both made afresh for every mail, and the Date (each mail is dated after
# the one before it).
_IDS = re.compile(rb"<[^<>@\s]+@[^<>\s]+>")
_BOUNDARIES = re.compile(rb"=_pbem_[0-9a-f]+")
_DATE = re.compile(rb"^Date: .*$", re.MULTILINE)


class Match:
    """George v Bill at match play, George's orders in, Bill's not."""

    def __init__(self, table):
        self.table = table
        table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
                   "--course", COURSE, "--id", "m1", "--seed", "7", "--deadline", "48h", now=CREATED)
        self.sent = 0
        self.mail(GEORGE, "Re: [m1] Welcome", GEORGES_ORDERS, now=GEORGE_MOVES)
        self.georges_ack = table.mails(GEORGE)[-1]
        assert self.georges_ack["X-PBEM-Kind"] == "ack" and "PLAY 4 4 5" in body(self.georges_ack)

    def mail(self, sender: str, subject: str, text: str, answering: str | None = None,
             now: str = BILL_GUESSES) -> list[EmailMessage]:
        """`sender` replies (to the Reply-To of their own mail, as a client does); one pass; the
        raw mails the sender got from it, as they reached the mailbox."""
        self.sent += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, self.table.reply_to(sender), subject
        msg["Date"], msg["Message-ID"] = MAIL_DATE, f"<guess{self.sent}@player.test>"
        if answering:
            msg["In-Reply-To"], msg["References"] = answering, answering
        msg.set_content(text)
        before = len(self._raw(sender))
        self.table.send(sender, raw=msg.as_bytes())
        self.table.pbem("process", now=now)
        return self._raw(sender)[before:]

    def _raw(self, address: str) -> list[bytes]:
        return [m.as_bytes() for m in self.table.mails(address)]

    def bill_owes(self) -> bool:
        return BILL in self.table.show("m1")["to_move"]


def masked(raws: list[bytes]) -> list[bytes]:
    return [_masked(raw) for raw in raws]


def _masked(raw: bytes) -> bytes:
    head, blank, rest = raw.partition(b"\n\n")
    head = re.sub(rb"\n[ \t]+", b" ", head)  # ids of other lengths fold elsewhere
    return _DATE.sub(b"Date: D", _BOUNDARIES.sub(b"=_pbem_B", _IDS.sub(b"<ID>", head + blank + rest)))


def parsed(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def heading_guess(guess: str) -> str:
    """Between Bill's two orders (so that nothing reads as a sign-off), the ack's lines with a
    guess at George's, under `>` below a heading that names the GM: that heading is skipped only
    above lines that stand in the original, and read as a wrong line otherwise."""
    play, special = BILLS_ORDERS.splitlines()
    return (f"{play}\n\nGolf GM <gm@example.test>\n> Hello George,\n>\n"
            "> Your orders for turn 1 are in. As I read them:\n>\n"
            f">     {guess}\n>     SPECIAL BLUE-1 HOLE 2\n\n{special}\n")


def bare_guess(guess: str) -> str:
    """The ack's lines with no quote marks at all, as some clients quote, between Bill's orders."""
    play, special = BILLS_ORDERS.splitlines()
    return (f"{play}\n\nYour orders for turn 1 are in. As I read them:\n"
            f"{guess}\nSPECIAL BLUE-1 HOLE 2\n\n{special}\n")


def test_a_guess_at_the_opponents_orders_is_answered_alike_right_or_wrong(table):
    match = Match(table)
    ack_id = match.georges_ack["Message-ID"]
    wrong = match.mail(BILL, "Re: [m1] Orders received for turn 1", heading_guess(WRONG), ack_id)
    right = match.mail(BILL, "Re: [m1] Orders received for turn 1", heading_guess(RIGHT), ack_id)
    assert len(wrong) == len(right) == 1
    assert masked(right) == masked(wrong)
    answer = parsed(right[0])
    assert answer["X-PBEM-Kind"] == "error" and "Golf GM <gm@example.test>" in body(answer)
    assert "4 4 5" not in body(answer) and "BLUE-1" not in body(answer)
    assert match.bill_owes()


def test_a_guess_in_unmarked_lines_is_read_as_the_senders_own_lines_right_or_wrong(table):
    match = Match(table)
    ack_id = match.georges_ack["Message-ID"]
    wrong = match.mail(BILL, "Re: [m1] Orders received for turn 1", bare_guess(WRONG), ack_id)
    right = match.mail(BILL, "Re: [m1] Orders received for turn 1", bare_guess(RIGHT), ack_id)
    # Bill's own lines are quoted back to him as he wrote them: the guess itself is masked.
    guess_masked = [raw.replace(WRONG.encode(), b"GUESS") for raw in masked(wrong)]
    assert guess_masked == [raw.replace(RIGHT.encode(), b"GUESS") for raw in masked(right)]
    answer = body(parsed(right[0]))
    assert parsed(right[0])["X-PBEM-Kind"] == "error" and "quoted text" not in answer
    assert match.bill_owes()


def test_naming_anothers_mail_is_as_naming_none(table):
    match = Match(table)
    text = heading_guess(RIGHT)
    named = match.mail(BILL, "Re: [m1] Orders received for turn 1", text, match.georges_ack["Message-ID"])
    unknown = match.mail(BILL, "Re: [m1] Orders received for turn 1", text, "<nobody-sent-this@example.test>")
    assert len(named) == 1 and masked(named) == masked(unknown)


def test_a_reply_with_no_command_naming_any_of_the_gms_mails_is_an_echo_and_not_answered(table):
    """A reply to the GM's mail with not one command is taken for an auto-responder's and not
    answered, whichever address the mail went to: a mailbox that a player's mail is forwarded to
    answers from an address of its own. It tells Bill nothing of George's mail (not a word of it
    is read), only that the id he named is the GM's, which he had to know to name it."""
    match = Match(table)
    quote_only = "> Your orders for turn 1 are in. As I read them:\n>\n>     PLAY 4 4 5\n"
    assert match.mail(BILL, "Re: [m1] Orders received", quote_only, match.georges_ack["Message-ID"]) == []
    assert match.mail(BILL, "Re: [m1] Welcome", quote_only, table.mails(BILL)[0]["Message-ID"]) == []
    unknown = match.mail(BILL, "Re: [m1] Orders received", quote_only, "<nobody-sent-this@example.test>")
    assert [parsed(raw)["X-PBEM-Kind"] for raw in unknown] == ["error"]


def test_a_reply_is_still_read_against_the_senders_own_mail(table):
    """The same heading over a quote of Bill's own welcome is skipped: his orders stand."""
    match = Match(table)
    welcome = table.mails(BILL)[0]
    first_lines = [line for line in body(welcome).splitlines() if line.strip()][:3]
    play, special = BILLS_ORDERS.splitlines()
    text = (f"{play}\n\nGolf GM <gm@example.test>\n" + "".join(f"> {line}\n" for line in first_lines)
            + f"\n{special}\n")
    answers = match.mail(BILL, "Re: [m1] Welcome", text, welcome["Message-ID"])
    assert [parsed(raw)["X-PBEM-Kind"] for raw in answers] == ["ack", "report"]
    assert table.show("m1")["turn"] == 2


def test_a_message_id_is_128_secret_bits_and_shows_no_time_or_process():
    ids = {new_message_id("ack", GM) for _ in range(50)}
    assert len(ids) == 50
    for mid in ids:
        assert re.fullmatch(r"<[0-9a-f]{32}\.ack@example\.test>", mid), mid


def test_message_ids_do_not_come_from_random(monkeypatch):
    """With `random` and the time held still (as a guesser who learnt `random`'s state would
    have them), two mails still get different ids."""
    monkeypatch.setattr(random, "getrandbits", lambda bits: 1)
    monkeypatch.setattr(time, "time", lambda: 1796420000.0)
    letter = Letter("ack", BILL, "[m1] Orders received", "Hello Bill,\n")
    now = email.utils.parsedate_to_datetime(MAIL_DATE)
    first, second = (compose(letter, gm_address=GM, gm_name="Golf GM", now=now) for _ in range(2))
    assert first.message_id != second.message_id
    assert parsed(first.raw)["Message-ID"] == first.message_id


def test_every_secret_and_token_is_drawn_from_secrets(monkeypatch):
    monkeypatch.setattr(secrets, "token_hex", lambda n: "ab" * n)
    assert new_secret() == "ab" * 8
    assert new_token() == "t" + "ab" * 8
    assert new_message_id("turn", GM) == f"<{'ab' * 16}.turn@example.test>"
