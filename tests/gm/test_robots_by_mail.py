"""Robot seats played by mail through the Maildir transport (CONTRACT section 12).

Every game against `robot:strong` to its end; a card game of two robots and two players; a silent
player's seat handed to a robot mid-game; `nmr=robot`; games of robots only; and `pbem verify`
computing every robot order again. No test lets a robot's seat receive a single mail.
"""
from __future__ import annotations

import importlib
import json
import random
from datetime import datetime, timedelta

import pytest
from conftest import BILL, GEORGE, body, kinds, too_wide, verified

from pbem.robots import version

ANN, CY = "ann@example.test", "cy@example.test"
SHORT = {"golfdeck": ["--option", "holes=2"], "golf": ["--option", "holes=2"], "onpar": ["--option", "holes=2"]}
ENGINE_MODULE = {"onpar": "pbem.games.onpar.play"}
START = "2026-12-01T10:00:00Z"  # every game here starts then; a move by mail each 150 s after


def human_order(table, game_type: str, game: str, seat: int, rng) -> str:
    """A legal order for `seat`, drawn at random (what a careless human might send)."""
    module = importlib.import_module(ENGINE_MODULE.get(game_type, f"pbem.games.{game_type}"))
    return str(module.random_orders(table.load(game).state, seat, rng))


def mailboxes(table) -> set[str]:
    return {p.name for p in (table.root / "mail").iterdir()}


def no_robot_mail(table) -> None:
    """Every Maildir folder is a real address's: no mail was ever written to a robot."""
    boxes = mailboxes(table)
    assert all("@" in box for box in boxes), boxes


def play_out(table, game: str, game_type: str, humans: dict[int, str], rng, most: int = 600) -> int:
    """The humans move by mail until the game ends, a mail each 150 seconds (under the hourly
    limit of answers); `to_move` never names a robot."""
    moves = 0
    clock = datetime.fromisoformat(START.replace("Z", "+00:00"))
    while table.show(game)["status"] == "active":
        owing = table.show(game)["to_move"]
        assert owing, "the game waits for nobody: a robot owes a move it has not made"
        assert all("@" in a for a in owing), owing
        address = owing[0]
        seat = next(s for s, a in humans.items() if a == address)
        clock += timedelta(seconds=150)
        got = table.order(address, human_order(table, game_type, game, seat, rng), game=game,
                          now=clock.strftime("%Y-%m-%dT%H:%M:%SZ"))
        assert "error" not in kinds(got), body(got[0])
        moves += 1
        assert moves < most, "the game does not end"
    return moves



@pytest.mark.slow
@pytest.mark.parametrize("game_type", ["matchplay", "golfdeck", "golf", "onpar", "dicegolf"])
def test_a_human_plays_a_strong_robot_to_the_end(table, game_type):
    table.pbem("new-game", game_type, "--player", f"George <{GEORGE}>", "--player", "robot:strong",
               "--id", "r1", *SHORT.get(game_type, []), "--seed", "7", now=START)
    welcome = table.mails(GEORGE)[0]
    assert welcome["X-PBEM-Kind"] == "welcome"
    assert "Robot (strong) is a robot" in " ".join(body(welcome).split())
    shown = table.show("r1")
    assert shown["players"][1] == {"name": "Robot (strong)", "address": None, "robot": "strong",
                                   "score": shown["players"][1]["score"]}
    play_out(table, "r1", game_type, {0: GEORGE}, random.Random(3))
    shown = table.show("r1")
    assert shown["status"] == "finished" and shown["result"].startswith("Result: ")
    assert shown["to_move"] == []
    # The maps keyed by address key the robot's seat robot-2.
    maps = {"matchplay": None, "dicegolf": "sheets", "onpar": "hands"}.get(game_type, "holes")
    if maps == "holes":
        assert set(shown["holes"][0]["grids"]) == {GEORGE, "robot-2"}
    elif maps:
        assert set(shown[maps]) == {GEORGE, "robot-2"}
    no_robot_mail(table)
    mails = table.mails(GEORGE)
    assert kinds(mails)[-1] == "result"
    for mail in mails:
        assert not too_wide(body(mail)), (mail["Subject"], too_wide(body(mail)))
    # Every robot order was recorded as the robot's, and verify computes each one again.
    robot_events = [ev for ev in shown["history"] if ev.get("robot")]
    assert robot_events and all(ev["seat"] == 1 and ev["version"] == version(game_type) for ev in robot_events)
    assert [ev["move"] for ev in robot_events] == list(range(len(robot_events)))
    out = verified(table, "r1")
    assert f"{len(robot_events)} robot move" in out and "computed again and found the same" in out


@pytest.mark.slow
def test_a_card_game_of_two_robots_and_two_players(table):
    table.pbem("new-game", "golfdeck", "--player", f"George <{GEORGE}>", "--player", "Caddie <robot:strong>",
               "--player", f"Bill <{BILL}>", "--player", "robot:easy", "--id", "c4", "--option", "holes=2",
               "--seed", "11", now=START)
    shown = table.show("c4")
    assert [p["name"] for p in shown["players"]] == ["George", "Caddie", "Bill", "Robot (easy)"]
    assert [p.get("robot") for p in shown["players"]] == [None, "strong", None, "easy"]
    play_out(table, "c4", "golfdeck", {0: GEORGE, 2: BILL}, random.Random(5))
    no_robot_mail(table)
    assert mailboxes(table) == {GEORGE, BILL, "gm@example.test"}
    # Each human read the robots' moves as anyone's, in the turn mails and the reports.
    seen = " ".join(body(m) for m in table.mails(BILL))
    assert "Caddie" in seen and "Robot (easy)" in seen
    history = table.show("c4")["history"]
    assert {ev["seat"] for ev in history if ev.get("robot")} == {1, 3}
    assert verified(table, "c4").startswith("verified: c4")


def test_replace_hands_a_silent_players_seat_to_a_robot_mid_game(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m1", "--course", "parkland", now=START)
    table.order(GEORGE, "PLAY 4 4 3\nSPECIAL BLUE-1 HOLE 1")
    before = len(table.mails(BILL))
    # Bill stays silent; the GM hands his seat to a robot, which plays the turn at once.
    table.pbem("gm", "REPLACE", "m1", BILL, "robot")
    bill = table.mails(BILL)[before:]
    assert kinds(bill) == ["notice"] and "to a robot player" in body(bill[0])
    george = table.new_mails(GEORGE)
    assert kinds(george) == ["notice", "report"]
    assert "Robot (strong), a robot player of pbem's, now plays in place of Bill" in " ".join(body(george[0]).split())
    shown = table.show("m1")
    assert shown["turn"] == 2 and shown["to_move"] == [GEORGE]
    assert shown["players"][1]["robot"] == "strong" and shown["players"][1]["address"] is None
    play_out(table, "m1", "matchplay", {0: GEORGE}, random.Random(8))
    assert len(table.mails(BILL)) == before + 1  # nothing more for Bill after his notice
    no_robot_mail(table)
    assert verified(table, "m1").startswith("verified: m1")


def test_nmr_robot_plays_the_strong_robots_move_for_a_missed_deadline(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "n1", "--course", "parkland", "--deadline", "2d", "--option", "nmr=robot",
               now="2026-12-01T10:00:00Z")
    table.order(GEORGE, "PLAY 4 4 3", game="n1", now="2026-12-01T11:00:00Z")
    table.pbem("process", now="2026-12-03T11:00:00Z")  # past Bill's deadline
    history = table.show("n1")["history"]
    missed = [ev for ev in history if ev["kind"] == "nmr"]
    assert len(missed) == 1 and missed[0]["seat"] == 1 and missed[0]["policy"] == "robot"
    assert missed[0]["robot"] == "strong" and missed[0]["move"] == 0
    report = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "report"][-1]
    assert "the robot played for them" in " ".join(body(report).split())
    # Bill is still a player: his next turn is his own again.
    assert table.show("n1")["to_move"] == [GEORGE, BILL]


def test_a_game_of_robots_only_needs_robots_only_and_sends_no_mail(table):
    code, _, err = table.pbem("new-game", "matchplay", "--player", "robot", "--player", "robot:easy",
                              "--id", "x1", check=False)
    assert code == 2 and "robots_only=true" in err
    table.pbem("new-game", "matchplay", "--player", "robot", "--player", "robot:easy", "--id", "x1",
               "--option", "robots_only=true", "--course", "parkland")
    shown = table.show("x1")
    assert shown["status"] == "finished" and shown["result"].startswith("Result: ")
    assert not (table.root / "mail").exists() or not mailboxes(table)
    assert verified(table, "x1").startswith("verified: x1")


@pytest.mark.parametrize("spec,words", [("robot:medium", "level"), ("Caddie <robot:hard>", "level")])
def test_a_robot_spec_with_an_unknown_level_is_refused(table, spec, words):
    code, _, err = table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", spec,
                              check=False)
    assert code == 2 and words in err and "robot:strong" in err


def test_a_press_with_only_robots_to_read_it_is_answered_once(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", "robot", "--id", "p1",
               now=START)
    got = table.order(GEORGE, "PRESS good luck", game="p1")
    assert kinds(got) == ["press"] and "pbem's robots, which read no mail" in " ".join(body(got[0]).split())
    no_robot_mail(table)


def test_verify_fails_when_one_robot_order_is_changed_to_another_legal_one(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", "robot", "--id", "v1",
               "--course", "parkland", "--seed", "5", now=START)
    play_out(table, "v1", "matchplay", {0: GEORGE}, random.Random(2))
    _, text, _ = table.pbem("export", "v1")
    record = json.loads(text)
    step = next(s for s in record["steps"] if s.get("robot"))
    other = "PLAY 4 4 4" if step["order"] != "PLAY 4 4 4" else "PLAY 4 4 4\nSPECIAL BLUE-1 HOLE 1"
    step["order"] = other
    path = table.root / "changed.json"
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code == 1 and out.startswith("not verified: v1")
    assert "the robot (strong" in out and "PLAY" in out
    # A record made by another robot version is not failed for it: it says so.
    record = json.loads(text)
    for s in record["steps"]:
        if s.get("robot"):
            s["robot"]["version"] = "matchplay-older-0"
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code == 0 and "made by robot version matchplay-older-0" in out


def plain(value) -> bool:
    """Whether `value` is data alone (what JSON holds): nothing through which a state is reached."""
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and plain(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def test_the_gm_hands_a_robot_its_seats_view_and_nothing_else(table, monkeypatch):
    """What reaches a robot: the seat's view (as STATUS shows it), the public options, its stream.
    No engine state, no seat object, no store: only data, and the view of its own seat."""
    from pbem.robots import door
    handed = []
    real = door.decide

    def watching(game_type, view, seat, level, options, rng):
        handed.append((view, seat, options))
        return real(game_type, view, seat, level, options, rng)

    monkeypatch.setattr(door, "decide", watching)
    table.pbem("new-game", "onpar", "--player", f"Ann <{ANN}>", "--player", "robot", "--player", f"Cy <{CY}>",
               "--id", "o1", "--option", "holes=1", "--seed", "3", now=START)
    play_out(table, "o1", "onpar", {0: ANN, 2: CY}, random.Random(4))
    assert handed
    for view, seat, options in handed:
        assert seat == 1 and view["seat"] == 1 and plain(view) and plain(options)
        # The others' hands are not in it: its own hand, and only the sizes of theirs.
        assert "hands" not in view and isinstance(view["hand"], list) and len(view["hand_sizes"]) == 3


@pytest.mark.slow
def test_robots_only_on_par_with_four_robots_ends_in_the_pass_that_makes_it(table):
    table.pbem("new-game", "onpar", "--player", "robot", "--player", "robot:easy", "--player", "robot",
               "--player", "robot:easy", "--option", "robots_only=true", "--option", "holes=2", "--id", "q1",
               "--seed", "2")
    shown = table.show("q1")
    assert shown["status"] == "finished"
    assert [p["name"] for p in shown["players"]] == ["Robot (strong)", "Robot (easy)", "Robot (strong) 2",
                                                     "Robot (easy) 2"]
    assert verified(table, "q1").startswith("verified: q1")


def test_a_robot_that_fails_plays_the_default_and_the_players_mail_still_counts(table, monkeypatch):
    from pbem.robots import door
    real = door.decide

    def broken(*args):
        raise RuntimeError("a robot's bug")

    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", "robot", "--id", "f1",
               "--course", "parkland", now=START)
    monkeypatch.setattr(door, "decide", broken)
    got = table.order(GEORGE, "PLAY 4 4 3", game="f1")
    assert kinds(got) == ["ack", "report"]  # the robot's order of turn 1 stood; turn 2 opened
    shown = table.show("f1")
    assert shown["turn"] == 2 and shown["to_move"] == [GEORGE]
    fallback = [ev for ev in shown["history"] if ev.get("fallback")]
    assert len(fallback) == 1 and fallback[0]["move"] == 1 and fallback[0]["seat"] == 1
    monkeypatch.setattr(door, "decide", real)
    play_out(table, "f1", "matchplay", {0: GEORGE}, random.Random(6))
    assert verified(table, "f1").startswith("verified: f1")  # the default it played is what it says


def test_robot_specs_and_keys_from_a_gms_mail_are_read_with_care():
    """A SPEC or a robot's key comes from the GM's mail or command line: a long line is no robot
    SPEC (and is not run through the patterns), a name is one short line, and a key's digits
    are ASCII only (a Unicode digit names no seat)."""
    from pbem.gm import robot_seats
    from pbem.store import Seat
    assert robot_seats.read_spec("robot" + " " * 5_000_000) is None
    assert robot_seats.read_spec("Caddie <robot:strong>") == ("Caddie", "robot:strong")
    for bad in ("Cad\x00die <robot:strong>", "Cad\rdie <robot>", "x" * 61 + " <robot>"):
        with pytest.raises(robot_seats.RobotSpecError):
            robot_seats.read_spec(bad)
    seats = [Seat("g", 0, "Ann", ANN, "s"), Seat("g", 2, "Robot (strong)", "robot-3", "", robot="strong")]
    assert robot_seats.seat_of_key(seats, "robot-3") is seats[1]
    assert robot_seats.seat_of_key(seats, "robot-\u0663") is None  # ARABIC-INDIC DIGIT THREE
    assert robot_seats.level_of("robot-\u0663:strong") is None
