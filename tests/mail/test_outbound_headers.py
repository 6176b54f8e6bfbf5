"""The headers of the mail the GM writes (CONTRACT section 5), each kind as a player gets it."""
from __future__ import annotations

import email
import email.policy
from datetime import datetime, timezone

import pytest
from conftest import BILL, GEORGE, kinds

from pbem.mail.outbound import KINDS, Letter, compose

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)


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
