"""A stale TURN line and a press nobody could read (issue 31, item 10). A TURN line for another
turn says which turn is open and which holes it plays, and suggests no other number: orders
thought out for one turn are no orders for the next. A PRESS after the end reaches the other
players; where only robots would read it, no mail offers PRESS, and one sent anyway is answered
once, in the same answer as the orders beside it, which stand."""
from __future__ import annotations

import pytest
from conftest import BILL, GEORGE, body, kinds, too_wide

START = "2026-12-01T18:00:00Z"
TYPES = ("matchplay", "golfdeck", "golf", "dicegolf", "onpar")


def flat(m) -> str:
    return " ".join(body(m).split())


def game(table, game_type: str, *players: str, game_id: str = "m1") -> None:
    specs = [p if p.startswith("robot") else f"{p.split('@')[0].title()} <{p}>" for p in players]
    args = [a for spec in specs for a in ("--player", spec)]
    extra = ["--course", "445 345 434 543 434 454"] if game_type == "matchplay" else ["--option", "holes=2"] \
        if game_type in ("golfdeck", "golf", "onpar") else []
    # An open seed: with some seeds the dice have moved a dice game past hole 1 by its first mail.
    table.pbem("new-game", game_type, *args, "--id", game_id, "--deadline", "2d", "--seed", "1", *extra, now=START)


def at_turn_three(table) -> None:
    game(table, "matchplay", GEORGE, BILL)
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE+1 HOLE 4")
    table.order(BILL, "PLAY 4 4 5")
    assert table.show()["turn"] == 3


# -- TURN ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("turn, when", [(2, "is over"), (4, "has not begun")])
def test_a_stale_turn_names_the_open_turn_and_its_holes_and_suggests_nothing(table, turn, when):
    at_turn_three(table)
    before = table.show()
    # Orders for turn 2's holes, one of them wrong: nothing of them is checked against turn 3.
    got = table.order(GEORGE, f"TURN {turn}\nPLAY 4 4 9\nSPECIAL BLUE-1 HOLE 5")
    assert kinds(got) == ["error"]
    text = body(got[0])
    assert (f"Line 1: TURN {turn} Problem (against a rule): this message is for turn {turn}, which {when}: turn 3 "
            "is open now, and it plays holes 7, 8 and 9") in flat(got[0]), text
    assert "a TURN line must match the current turn" in flat(got[0])
    # No order is suggested, the TURN line least of all: the player rethinks for turn 3.
    assert "What would be right" not in text and "TURN 3" not in text and "Line 2" not in text, text
    assert too_wide(text) == []
    after = table.show()
    assert after["state"] == before["state"] and after["history"] == before["history"]


def test_the_right_turn_line_still_passes(table):
    at_turn_three(table)
    got = table.order(GEORGE, "TURN 3\nPLAY 4 4 5\nSPECIAL BLUE-1 HOLE 7")
    assert kinds(got) == ["ack"] and table.show()["to_move"] == [BILL]


@pytest.mark.parametrize("game_type", TYPES)
def test_every_game_says_which_holes_its_open_turn_plays(table, game_type):
    game(table, game_type, GEORGE, BILL)
    turn = table.show()["turn"]
    got = table.order(GEORGE, "TURN 99\nSTATUS")
    assert kinds(got) == ["error"]
    holes = "holes 1, 2 and 3" if game_type == "matchplay" else "hole 1"
    assert (f"this message is for turn 99, which has not begun: turn {turn} is open now, and it plays "
            f"{holes}") in flat(got[0])
    assert "What would be right" not in body(got[0]) and too_wide(body(got[0])) == []


# -- PRESS after the end --------------------------------------------------------------------------

def test_a_press_after_the_result_reaches_the_other_player(table):
    game(table, "matchplay", GEORGE, BILL)
    table.order(GEORGE, "RESIGN")
    assert table.show()["status"] == "finished"
    before = table.show()
    got = table.order(BILL, "PRESS Well played, George.")
    assert kinds(got) == ["press"] and "passed your press on to George" in flat(got[0])
    press = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "press"]
    assert len(press) == 1 and "Well played, George." in body(press[0]) and "Bill" in press[0]["Subject"]
    after = table.show()
    assert after["state"] == before["state"] and after["result"] == before["result"]


def test_a_press_after_the_gm_abandoned_the_game_reaches_the_other_player(table):
    game(table, "matchplay", GEORGE, BILL)
    table.pbem("gm", "ABANDON", "m1")
    got = table.order(GEORGE, "PRESS Pity, Bill.")
    assert kinds(got) == ["press"]
    assert [m["Subject"] for m in table.mails(BILL) if m["X-PBEM-Kind"] == "press"] == ["[m1] Press from George"]


def test_orders_beside_a_late_press_are_still_refused_whole(table):
    game(table, "matchplay", GEORGE, BILL)
    table.order(GEORGE, "RESIGN")
    got = table.order(BILL, "PLAY 4 4 5\nPRESS Well played.")
    assert kinds(got) == ["error"] and "Line 1: PLAY 4 4 5" in body(got[0]) and "Line 2" not in body(got[0])
    assert not [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "press"]  # all or nothing


# -- PRESS with nobody to read it ---------------------------------------------------------------

@pytest.mark.parametrize("game_type", TYPES)
def test_no_mail_offers_press_where_only_robots_would_read_it(table, game_type):
    game(table, game_type, GEORGE, "robot:easy")
    welcome = table.mails(GEORGE)[0]
    assert welcome["X-PBEM-Kind"] == "welcome"
    assert "PRESS" not in body(welcome) and "a press goes" not in flat(welcome), body(welcome)
    assert "robot" in flat(welcome)
    (helped,) = table.order(GEORGE, "HELP")
    assert "PRESS" not in body(helped) and too_wide(body(welcome)) == too_wide(body(helped)) == []


@pytest.mark.parametrize("game_type", TYPES)
def test_every_mail_offers_press_where_another_player_reads_it(table, game_type):
    # Beside a robot where the game seats three (MatchPlay seats two).
    seats = (GEORGE, BILL) if game_type == "matchplay" else (GEORGE, "robot:easy", BILL)
    game(table, game_type, *seats)
    for address in (GEORGE, BILL):
        assert "PRESS" in body(table.mails(address)[0])
        (helped,) = table.order(address, "HELP")
        assert "PRESS" in body(helped)


def test_a_press_beside_orders_in_a_robot_game_is_answered_once_and_the_orders_stand(table):
    game(table, "matchplay", GEORGE, "robot:easy")
    got = table.order(GEORGE, "PLAY 4 4 5\nPRESS Good luck, robot.")
    answers = [m for m in got if m["In-Reply-To"]]
    assert kinds(answers) == ["ack"] and "error" not in kinds(got)
    assert answers[0]["Subject"] == "[m1] Orders received for turn 1 (with press not passed on)"
    text = flat(answers[0])
    assert "PLAY 4 4 5" in text and "== Press not passed on: nobody else reads it ==" in text
    assert "passed your press on to nobody: the other seats of game m1 are played by pbem's robots" in text
    assert too_wide(body(answers[0])) == []
    shown = table.show()
    assert shown["turn"] == 2 and not [ev for ev in shown["history"] if ev.get("kind") == "press"]


def test_a_press_alone_in_a_solitaire_game_is_answered_and_changes_nothing(table):
    table.pbem("new-game", "dicegolf", "--id", "m1", "--player", f"George <{GEORGE}>", "--deadline", "2d",
               now=START)
    assert "PRESS" not in body(table.mails(GEORGE)[0])
    before = table.show()
    got = table.order(GEORGE, "PRESS note to self")
    assert kinds(got) == ["press"] and "you play game m1 alone" in flat(got[0])
    after = table.show()
    assert after["state"] == before["state"] and after["history"] == before["history"]
