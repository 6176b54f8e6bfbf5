"""The headers of the mail the GM writes (CONTRACT section 5), each kind as a player gets it."""
from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest
from conftest import BILL, GEORGE, kinds

from pbem.mail.kinds import MailKind
from pbem.mail.outbound import SUBJECT_WIDTH, Letter, compose, short_subject

KINDS = [k.value for k in MailKind]

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def composed(letter: Letter):
    raw = compose(letter, gm_address="gm@example.test", gm_name="Golf GM", now=NOW).raw
    return email.message_from_bytes(raw, policy=email.policy.default)


# -- Auto-Submitted (RFC 3834) ---------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_a_mail_that_answers_a_message_is_auto_replied_whatever_its_kind(kind):
    answer = composed(Letter(kind, GEORGE, "s", "text\n", in_reply_to="<m1@player.test>"))
    assert (answer["Auto-Submitted"], answer["In-Reply-To"]) == ("auto-replied", "<m1@player.test>")
    started = composed(Letter(kind, GEORGE, "s", "text\n"))
    assert (started["Auto-Submitted"], started["In-Reply-To"]) == ("auto-generated", None)


def test_the_answers_of_the_kinds_press_and_turn_are_auto_replied(table):
    """A press's copy to its sender and the next toss a dice player's answer brings are answers
    (they carry In-Reply-To), as the acknowledgement is; the press to the others is not."""
    table.new_match()
    got = table.order(GEORGE, "PRESS Good luck, Bill.")
    assert kinds(got) == ["press"] and got[0]["In-Reply-To"] and got[0]["Auto-Submitted"] == "auto-replied"
    press = table.mails(BILL)[-1]
    assert press["X-PBEM-Kind"] == "press" and press["In-Reply-To"] is None
    assert press["Auto-Submitted"] == "auto-generated"

    ann = "ann@example.test"
    table.pbem("new-game", "dicegolf", "--id", "dg", "--player", f"Ann <{ann}>", "--seed", "3")
    lowest = table.load("dg").state.choices(0)[-1]["order"]  # the hole goes on: the next toss comes back
    got = table.order(ann, lowest, game="dg")
    assert kinds(got) == ["turn"] and got[0]["In-Reply-To"] and got[0]["Auto-Submitted"] == "auto-replied"
    for m in table.mails(GEORGE) + table.mails(BILL) + table.mails(ann):
        assert m["Auto-Submitted"] == ("auto-replied" if m["In-Reply-To"] else "auto-generated"), m["Subject"]


# -- short subjects ------------------------------------------------------------------------------
LONG_ID = "spring-league-2026-round-3-game-17-final"  # as long as an id may be (40)


@pytest.mark.parametrize("subject", [
    "[table-1] Order received: DRAW STOCK IF <= 7 KEEP 2 ELSE DISCARD (with status, history, help)",
    f"[{LONG_ID}] Not accepted: 1 problem in your message (with status, history, help)",
    f"[{LONG_ID}] Order received: DRAW STOCK IF <= 7 KEEP 2 ELSE DISCARD (with status, history, help)",
    f"[{LONG_ID}] No longer watching league {LONG_ID}",
    "[m1] Not accepted: " + "a very long problem " * 8,
    "[m1] Order received: " + "X" * 120,
    "Your mail about table " + LONG_ID + ": nothing was done, and " + LONG_ID,
])
def test_a_long_subject_is_cut_in_what_it_quotes_keeping_the_game_id(subject):
    short = short_subject(subject)
    assert len(short) <= SUBJECT_WIDTH == 78, short
    if "..." not in short:  # only the list of what else the answer holds went
        assert " (with " in subject and subject.startswith(short), short
        return
    if subject.startswith("["):
        tag = subject.split("] ", 1)[0] + "] "
        assert short.startswith(tag), short
    head, _, also = short.partition("...")
    assert subject.startswith(head) and subject.endswith(also), short
    assert not head.endswith((" ", ":")) and len(head.split("] ", 1)[-1]) >= 12, short
    if also:
        assert also.startswith(" (with ") and subject.endswith(also)


def test_a_subject_that_fits_is_left_as_it_is():
    for subject in ("[m1] Orders received for turn 1 (with press)", "x" * SUBJECT_WIDTH, "Ratings",
                    "Not accepted: GM commands are taken only from the GM's admin addresses."):
        assert short_subject(subject) == subject


def test_a_refusal_with_more_answers_beside_it_in_a_game_of_the_longest_id_has_a_short_subject(table):
    """The answer to a message of several commands names what else it holds; with an id of 40
    characters, a refusal's subject was once 99 long."""
    table.new_match(LONG_ID)
    table.new_mails(GEORGE)
    table.send(GEORGE, "PLAY 4 4 9\nSTATUS\nHISTORY\nHELP", subject=f"Re: [{LONG_ID}] orders",
               to=table.reply_to_game(GEORGE, LONG_ID))
    table.pbem("process")
    refusal, = table.new_mails(GEORGE)
    subject = refusal["Subject"]
    assert refusal["X-PBEM-Kind"] == "error" and subject.startswith(f"[{LONG_ID}] Not accepted")
    assert len(subject) <= SUBJECT_WIDTH, subject
    assert subject.startswith(f"[{LONG_ID}] Not accepted: 1 problem in") and subject.endswith("..."), subject
    # The reply keeps the game's id in front: replying just works.
    got = table.order(GEORGE, "PLAY 4 4 5", game=LONG_ID)
    assert kinds(got) == ["ack"]
