"""The proof that a game is one folder (docs/architecture.md): Closest to the Pin lives in
`pingame/` beside this file, is registered through its `GameSpec` alone, and is played by mail
end to end like the package's own games: welcome, orders, acknowledgements, reports, the result,
a robot seat, `pbem export` and `pbem verify`."""
from __future__ import annotations

import re

import pytest
from conftest import BILL, GEORGE, body, kinds, verified
from pingame.spec import SPEC

from pbem.games import registry

PIN = re.compile(r"the pin is (\d+) yards away")


@pytest.fixture
def pin_table(table):
    with registry.registered(SPEC):
        yield table


def nearest(mail) -> str:
    """The club a good player sends, read from the mail as a player reads it."""
    pin = int(PIN.search(body(mail)).group(1))
    return f"CLUB {min(range(1, 10), key=lambda n: abs(90 + 10 * n - pin))}"



def test_two_players_play_the_test_game_by_mail_to_its_result(pin_table):
    t = pin_table
    t.pbem("new-game", "pingame", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>", "--id", "p1")
    welcome = t.new_mails(GEORGE)
    assert kinds(welcome) == ["welcome"] and "Welcome to Closest to the Pin: George v Bill" in welcome[0]["Subject"]
    t.new_mails(BILL)
    for hole in (1, 2, 3):
        george = t.order(GEORGE, nearest(t.mails(GEORGE)[-1]), game="p1")
        assert kinds(george) == ["ack"] and "Still waiting for Bill" in body(george[0])
        bill = t.order(BILL, "CLUB 9", game="p1")
        assert kinds(bill)[:2] == ["ack", "report"], kinds(bill)
        assert f"Hole {hole}, pin" in body(bill[1]) and "CLUB 9" in body(bill[1])
    result = t.new_mails(GEORGE)
    assert kinds(result) == ["report", "result"]
    shown = t.show("p1")
    assert shown["status"] == "finished" and shown["result"].startswith("Result: ")
    assert body(result[1]).startswith(f"Closest to the Pin, game p1: {shown['result'][len('Result: '):]}")
    assert "Result:" in verified(t, "p1")


def test_an_easy_robot_plays_a_seat_and_the_record_verifies(pin_table):
    t = pin_table
    t.pbem("new-game", "pingame", "--player", f"George <{GEORGE}>", "--player", "Robbie <robot:easy>", "--id", "p2")
    for _ in range(3):
        got = t.order(GEORGE, "CLUB 1", game="p2")
        assert "error" not in kinds(got) and "report" in kinds(got)
    shown = t.show("p2")
    robot = shown["players"][1]
    assert shown["status"] == "finished" and robot["robot"] == "easy"
    # The robot plays the club nearest the pin; CLUB 1 (100 yards) never beats it.
    assert robot["score"] >= shown["players"][0]["score"]
    assert "Result:" in verified(t, "p2")


def test_the_game_is_gone_once_its_registration_is_undone(table):
    with registry.registered(SPEC):
        assert registry.spec_for("pingame") is SPEC
    assert "pingame" not in registry.types()
    code, _, err = table.pbem("new-game", "pingame", "--player", GEORGE, "--player", BILL, check=False)
    assert code != 0 and "unknown game type" in err
