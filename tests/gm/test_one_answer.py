"""One message, one answer (issue 18, item 15): whatever a message asks for (orders, STATUS,
HISTORY, HELP, a time zone, a press), its sender gets one mail in answer: the main answer whole
(the kind says which: `ack` when orders were taken, `error` when refused), and the rest below it
under their own headings. A press to the other players is their mail, and stays apart."""
from __future__ import annotations

import re

import pytest
from conftest import BILL, GEORGE, body, kinds

from pbem.mail.inbound import html_to_text

ANN, BOB = "ann@example.test", "bob@example.test"
START = "2026-12-01T09:00:00Z"


def new_game(table, game_type: str, *extra: str) -> None:
    table.pbem("new-game", game_type, "--id", "m1", "--player", f"Ann <{ANN}>", "--player", f"Bob <{BOB}>",
               "--deadline", "2d", "--seed", "5", *extra, now=START)


def answers(mails) -> list:
    return [m for m in mails if m["In-Reply-To"]]


def one_answer(table, sender: str, text: str):
    """Send `text`, and return the one answer it got (asserting there is one) and all new mail."""
    mails = table.order(sender, text)
    got = answers(mails)
    assert len(got) == 1, [(m["X-PBEM-Kind"], m["Subject"]) for m in mails]
    return got[0], mails


def sections(text: str) -> list[str]:
    return re.findall(r"^== (.+) ==$", text, re.M)


def assert_readable(mail) -> None:
    """Every line fits, the GM signs once, and the HTML part (if any) says all the text says."""
    text = body(mail)
    assert all(len(line) <= 78 for line in text.splitlines()), [ln for ln in text.splitlines() if len(ln) > 78]
    assert text.count("\nGolf GM\n") == (1 if sections(text) else text.count("\nGolf GM\n")) <= 1
    assert text.count("Hello") <= 1
    assert not re.search(r"\b(True|False|None)\b", text)
    html = mail.get_body(preferencelist=("html",)) if mail.is_multipart() else None
    if html is not None:
        words = [w for w in re.findall(r"\S+", html_to_text(html.get_content())) if w not in ("```",)]
        assert words == re.findall(r"\S+", text)


def test_reveal_status_history_and_help_are_one_ack(table):
    new_game(table, "golfdeck")
    answer, mails = one_answer(table, ANN, "REVEAL 1 6\nSTATUS\nHISTORY\nHELP")
    assert kinds(mails) == ["ack"]
    assert answer["Subject"] == "[m1] Order received: REVEAL 1 6 (with status, history, help)"
    text = body(answer)
    assert text.startswith("Hello Ann,\n\nI have played your order:") and text.count("Hello") == 1
    assert sections(text) == ["Status: hole 1, waiting", "History of game m1", "Help for Golf (golf deck)"]
    # The status below the ack shows the game as the order left it: two of Ann's cards face up.
    status = text.split("== Status")[1].split("== History")[0]
    ann_grid = status.split("Ann (you)")[1].split("Bob")[0]
    assert ann_grid.count("??") == 4, ann_grid
    assert_readable(answer)


@pytest.mark.parametrize("text, kind, extra", [
    ("STATUS", "status", []),
    ("HELP", "help", []),
    ("PRESS Good luck, Bill!", "press", []),
    ("PLAY 4 4 5\nSTATUS", "ack", ["Status: turn 1"]),
    ("STATUS\nPLAY 4 4 5", "ack", ["Status: turn 1"]),
    ("SET TIMEZONE Europe/Paris\nPLAY 4 4 5", "ack", ["Time zone set to Europe/Paris"]),
    ("PLAY 4 4 5\nPRESS Good luck, Bill!\nHISTORY", "ack", ["Press passed on to Bill", "History of game m1"]),
    ("PRESS Good luck, Bill!\nSTATUS", "press", ["Status: turn 1"]),
])
def test_matchplay_answers_one_mail_of_the_main_answers_kind(table, text, kind, extra):
    table.new_match()
    answer, mails = one_answer(table, GEORGE, text)
    assert answer["X-PBEM-Kind"] == kind and kinds(mails) == [kind]
    assert sections(body(answer)) == extra
    assert_readable(answer)


def test_the_press_to_the_other_player_stays_their_own_mail(table):
    table.new_match()
    table.new_mails(BILL)
    answer, _ = one_answer(table, GEORGE, "PLAY 4 4 5\nPRESS Good luck, Bill!\nSTATUS")
    assert "Good luck, Bill!" in body(answer)
    to_bill = table.new_mails(BILL)
    assert kinds(to_bill) == ["press"] and not to_bill[0]["In-Reply-To"]
    assert "PLAY" not in body(to_bill[0]) and "Status" not in body(to_bill[0])


def test_orders_that_end_the_turn_get_one_answer_and_the_report_apart(table):
    table.new_match()
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1")
    answer, mails = one_answer(table, GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 2\nSTATUS\nHISTORY")
    assert kinds(mails) == ["ack", "report"]
    # Written after the turn resolved: the status and the history show its holes.
    assert sections(body(answer)) == ["Status: all square after 3", "History of game m1"]
    assert_readable(answer)


def test_a_refusal_is_the_only_answer(table):
    table.new_match()
    answer, mails = one_answer(table, GEORGE, "PLAY 4 4 9\nSTATUS\nHELP")
    assert kinds(mails) == ["error"] and sections(body(answer)) == []


def test_dice_golf_policy_and_status_are_one_answer(table):
    new_game(table, "dicegolf")
    answer, mails = one_answer(table, BOB, "POLICY BEST\nSTATUS\nHISTORY")
    assert answer["X-PBEM-Kind"] == "ack"
    assert sections(body(answer)) == ["Status: hole 1", "History of game m1"]
    assert "Your standing policy: BEST." in body(answer).split("== Status")[1]
    assert_readable(answer)


def test_dice_golf_an_entry_and_help(table):
    new_game(table, "dicegolf")
    state = table.load().state
    entry = state.choices(0)[0]["order"]
    answer, _ = one_answer(table, ANN, f"{entry}\nHELP\nSET TIMEZONE America/New_York")
    assert answer["X-PBEM-Kind"] == "ack" and answer["Subject"] == f"[m1] Order received: {entry} (with time zone, help)"
    assert sections(body(answer)) == ["Time zone set to America/New_York", "Help for Dice Golf"]
    assert_readable(answer)


@pytest.mark.parametrize("game_type", ["onpar", "golf", "golfdeck"])
def test_turn_games_a_move_and_status_are_one_answer(table, game_type):
    new_game(table, game_type)
    state = table.load().state
    seat = min(state.to_move())
    who = (ANN, BOB)[seat]
    answer, mails = one_answer(table, who, f"{state.default_orders(seat)}\nSTATUS")
    assert answer["X-PBEM-Kind"] == "ack"
    assert [s.split(":")[0] for s in sections(body(answer))] == ["Status"]
    assert all(m["X-PBEM-Kind"] in ("ack", "turn", "report") for m in mails)
    assert_readable(answer)
