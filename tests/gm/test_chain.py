"""The inbox as a chain of named steps (Mailman's rules and chains): their order, and each step
answering the message it is for, or passing it on to the next."""
from __future__ import annotations

import email.utils
import uuid
from email.message import EmailMessage

import pytest
from conftest import BILL, GEORGE, GM, kinds

from pbem.app import App
from pbem.config import load, local_defaults
from pbem.gm import steps
from pbem.gm.chain import Found
from pbem.gm.inbox import Inbox

ALICE = "alice@example.test"  # no player here


def raw(sender: str, text: str, *, subject: str = "orders", to: str = GM, headers: dict | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@player.test>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(text)
    return msg.as_bytes()


def receive(table, sender: str, text: str, **how):
    """The GM's outcome of one message (which names the step that ended it); its answer is sent."""
    with App.open(load(table.root / "pbem.yaml")) as app:
        outcome = app.gm.receive(raw(sender, text, **how))
        app.send_outbox()
    return outcome


@pytest.fixture
def match(table):
    table.new_match()  # m1: George and Bill
    table.pbem("process")  # the welcomes out, with each seat's secret in their Reply-To
    return table


def test_the_steps_in_their_order(tmp_path):
    with App.open(local_defaults(tmp_path)) as app:
        _ = app.gm  # the app's GM registers the layers above it
        chain = steps.chain()
    assert [step.name for step in chain] == [
        "screen", "size", "read", "spectator_confirmation", "league", "tables", "ratings", "calendars", "absences",
        "digests", "echo", "gm_commands", "spectators", "identify", "authenticate", "commands"]
    assert all(step.reason for step in chain)


def test_screen_keeps_a_list_message_unanswered(match):
    outcome = receive(match, ALICE, "HELP", headers={"Precedence": "bulk"})
    assert (outcome.step, outcome.status, outcome.note) == ("screen", "screened", "precedence: Precedence: bulk")
    assert match.mails(ALICE) == []


def test_screen_passes_on_a_seat_own_mail_through_a_list(match):
    outcome = receive(match, GEORGE, "PLAY 4 4 5", subject="Re: [m1] welcome", to=match.reply_to(GEORGE),
                      headers={"List-Id": "<golf.example.test>"})
    assert (outcome.step, outcome.status) == ("commands", "handled")


def test_size_refuses_a_message_larger_than_the_gm_reads(match):
    outcome = receive(match, ALICE, ("x" * 70 + "\n") * 16_000)  # 1.1 MB, past the 1 MiB read
    assert (outcome.step, outcome.status) == ("size", "refused") and outcome.note.startswith("too large to read")
    assert match.mails(ALICE)[0]["Subject"] == "Not accepted: Your message is too large."


def found_by(table, chain: tuple, sender: str, text: str, **how) -> Found:
    """What the steps `chain` (which answer nothing) find in one message, checked in turn."""
    found = Found()
    with App.open(load(table.root / "pbem.yaml")) as app:
        door, msg = Inbox(app.gm.postman(), app.gm.policy), app.gm.parse(raw(sender, text, **how))
        for step in chain:
            assert step.check(door, msg, found) is None
    return found


def test_read_answers_nothing_and_finds_the_lines_heading_and_secret(match):
    found = found_by(match, (steps.Read(),), GEORGE, "GAME m1\nPLAY 4 4 5", to=match.reply_to(GEORGE))
    assert [line for _, line in found.head] == ["GAME m1", "PLAY 4 4 5"]
    assert (found.heading.game_id, found.heading.body) == ("m1", [(2, "PLAY 4 4 5")])
    assert found.token == match.secret(GEORGE) and found.table is None


def test_spectator_confirmation_takes_the_reply_to_the_question(match):
    assert receive(match, ALICE, "OBSERVE m1").step == "spectators"
    question = match.mails(ALICE)[-1]
    confirm = email.utils.parseaddr(question["Reply-To"])[1]
    outcome = receive(match, ALICE, "", subject=f"Re: {question['Subject']}", to=confirm)
    assert (outcome.step, outcome.status, outcome.note) == ("spectator_confirmation", "handled",
                                                            "spectator confirmed: m1")


@pytest.mark.parametrize("layer, how", [
    ("league", {"text": "SET ABSENCE 2026-12-08 TO 2026-12-10", "to": "gm+l0123456789abcdef@example.test"}),
    ("tables", {"text": "LIST"}),
    ("ratings", {"text": "RATINGS", "sender": GEORGE}),
])
def test_each_layer_answers_its_own_mail(match, layer, how):
    how = dict(how)
    outcome = receive(match, how.pop("sender", ALICE), how.pop("text"), **how)
    assert outcome.step == layer and outcome.status in ("handled", "refused"), outcome


def test_echo_ignores_a_reply_to_the_gm_with_no_command(match):
    welcome = match.mails(GEORGE)[0]
    outcome = receive(match, GEORGE, "I am away from my desk until Monday.", subject="Auto: welcome",
                      headers={"In-Reply-To": welcome["Message-ID"]})
    assert (outcome.step, outcome.status) == ("echo", "ignored")
    assert len(match.mails(GEORGE)) == 1


def test_gm_commands_are_refused_from_an_address_that_is_no_admin(match):
    outcome = receive(match, ALICE, "PAUSE m1")
    assert (outcome.step, outcome.status, outcome.note) == ("gm_commands", "refused", "GM command from a non-admin")
    assert match.mails(ALICE)[0]["Subject"] == "Not accepted: GM commands are taken only from the GM's admin addresses."


def test_spectators_ask_an_observe_to_confirm(match):
    outcome = receive(match, ALICE, "OBSERVE m1")
    assert (outcome.step, outcome.status, outcome.note) == ("spectators", "handled",
                                                            "spectator: OBSERVE m1; asked to confirm")


def test_identify_answers_nothing_and_finds_the_game_and_seat(match):
    found = found_by(match, (steps.Read(), steps.Identify()), GEORGE, "PLAY 4 4 5", subject="Re: [m1] welcome")
    assert (found.game_id, found.table.id, found.seat.address, found.secret) == ("m1", "m1", GEORGE, None)


def test_authenticate_refuses_a_seat_own_address_without_its_password(match):
    outcome = receive(match, GEORGE, "PLAY 4 4 5", subject="Re: [m1] welcome")
    assert (outcome.step, outcome.status, outcome.note) == ("authenticate", "refused",
                                                            "This message carries no password. (m1)")


def test_authenticate_asks_mail_naming_no_game_to_name_one(match):
    outcome = receive(match, ALICE, "PLAY 4 4 5")
    assert (outcome.step, outcome.status, outcome.note) == ("authenticate", "refused", "no game named")


def test_commands_carry_out_a_proven_seat_orders(match):
    outcome = receive(match, BILL, "PLAY 4 4 5", subject="Re: [m1] welcome", to=match.reply_to(BILL))
    assert (outcome.step, outcome.status, outcome.auth) == ("commands", "handled", BILL)
    assert kinds(match.mails(BILL))[-1] == "ack"


def test_the_log_names_the_step_that_ended_a_message(match):
    match.send(ALICE, "HELP", headers={"Precedence": "bulk"})
    _, _, err = match.pbem("-v", "process")
    assert "screened (precedence: Precedence: bulk) by step screen" in err, err
