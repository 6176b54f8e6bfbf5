"""A robot takes over a seat after N missed deadlines in a row, and its player takes it back
(CONTRACT section 14, "Taking over"), in each pacing: MatchPlay (orders sent together), a card
game (round the table) and dice golf (tosses). Every clock is given."""
from __future__ import annotations

import json
import random

import pytest

from conftest import BILL, GEORGE, body, kinds, too_wide, verified
from pbem.games import dicegolf, golfdeck, matchplay
from pbem.store import LogEvent, Store

START = "2026-12-01T18:00:00Z"
BOSS = "boss@example.test"
ANN, BOB = "ann@example.test", "bob@example.test"


@pytest.fixture
def desk(table):
    """A GM with an admin to tell."""
    text = (table.root / "pbem.yaml").read_text().replace("  name: Golf GM\n",
                                                         "  name: Golf GM\n  admins: [boss@example.test]\n")
    (table.root / "pbem.yaml").write_text(text)
    return table


def events(table, game: str) -> list[dict]:
    store = Store(table.root / "pbem.sqlite3")
    try:
        return store.events(game)
    finally:
        store.close()


def robot_orders(table, game: str, seat: int) -> list[dict]:
    return [ev for ev in events(table, game) if ev["kind"] == LogEvent.ORDERS and ev["seat"] == seat
            and ev.get("robot")]


def notices(table, who: str) -> list:
    return [m for m in table.new_mails(who) if m["X-PBEM-Kind"] == "notice"]


def new_match(table, *extra):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", "--deadline", "48h", *extra, now=START)


def george_plays(table, now: str) -> None:
    """George's legal orders for the open turn (the robot of a test's own, by the rules' list)."""
    state = table.load("m1").state
    command = random.Random(state.turn).choice(state.legal_orders(0))
    got = table.order(GEORGE, str(command).replace("; ", "\n"), now=now)
    assert "error" not in kinds(got), body(got[-1])


def test_matchplay_two_missed_deadlines_hand_the_seat_to_the_robot_and_orders_take_it_back(desk):
    new_match(desk, "--option", "takeover_after=2")
    for who in (GEORGE, BILL, BOSS):
        desk.new_mails(who)
    george_plays(desk, "2026-12-02T10:00:00Z")
    desk.pbem("process", now="2026-12-03T18:00:01Z")  # Bill's first miss: no robot yet
    assert notices(desk, BILL) == [] and notices(desk, GEORGE) == [] and desk.new_mails(BOSS) == []
    assert not any(ev["kind"] == LogEvent.TAKEOVER for ev in events(desk, "m1"))
    george_plays(desk, "2026-12-04T10:00:00Z")
    desk.pbem("process", now="2026-12-05T18:00:02Z")  # the second in a row: the robot plays Bill
    told = {who: notices(desk, who) for who in (BILL, GEORGE)}
    assert [m["Subject"] for m in told[BILL]] == ["[m1] A robot plays your seat now"]
    assert [m["Subject"] for m in told[GEORGE]] == ["[m1] A robot plays for Bill now"]
    mine = " ".join(body(told[BILL][0]).split())
    assert "missed 2 deadlines in a row" in mine and "STATUS will do" in mine
    # The turn's report, written in the same pass, asks Bill for no move: the robot makes it.
    report = [m for m in desk.mails(BILL) if m["X-PBEM-Kind"] == "report"][-1]
    said = " ".join(body(report).split())
    assert "My robot plays your seat now" in said and "Reply to this mail with your orders" not in said
    boss = desk.new_mails(BOSS)
    assert kinds(boss) == ["notice"] and "Bill <bill@example.test>, seat 2 of matchplay game m1" in \
        " ".join(body(boss[0]).split())
    assert not any(too_wide(body(m)) for m in told[BILL] + told[GEORGE] + boss)
    # The robot has made Bill's move of turn 3 in the same pass: only George owes one.
    assert desk.show()["turn"] == 3 and desk.show()["to_move"] == [GEORGE]
    assert len(robot_orders(desk, "m1", 1)) == 1
    george_plays(desk, "2026-12-06T10:00:00Z")  # turn 3 resolves at once, turn 4 too is the robot's
    assert desk.show()["turn"] == 4 and desk.show()["to_move"] == [GEORGE]
    assert len(robot_orders(desk, "m1", 1)) == 2
    # No reminder goes to a seat the robot plays.
    desk.new_mails(BILL)
    desk.pbem("process", now="2026-12-08T09:00:00Z")
    assert "reminder" not in kinds(desk.new_mails(BILL))
    # Bill writes again: the seat is his at once, everyone is told, his orders replace the robot's.
    state = desk.load("m1").state
    mine = matchplay.random_orders(state, 1, random.Random(7))
    got = desk.order(BILL, str(mine).replace(" / ", "\n"), now="2026-12-08T09:30:00Z")
    assert kinds(got) == ["notice", "ack"], [m["Subject"] for m in got]
    assert got[0]["Subject"] == "[m1] Your seat is yours again"
    assert [m["Subject"] for m in notices(desk, GEORGE)] == ["[m1] Bill plays again"]
    assert desk.new_mails(BOSS) == []  # the admins hear of a takeover, not of each return
    assert [ev["kind"] for ev in events(desk, "m1")].count(LogEvent.TAKEN_BACK) == 1
    george_plays(desk, "2026-12-08T09:45:00Z")
    assert desk.show()["turn"] == 5 and sorted(desk.show()["to_move"]) == [BILL, GEORGE]  # Bill owes his own
    assert len(robot_orders(desk, "m1", 1)) == 2
    desk.pbem("gm", "ABANDON", "m1", now="2026-12-08T12:00:00Z")
    said = verified(desk, "m1")
    assert "2 robot moves computed again and found the same" in said


def test_a_rollback_of_the_missed_turns_takes_the_takeover_back_too(desk):
    new_match(desk, "--option", "takeover_after=1")
    george_plays(desk, "2026-12-02T10:00:00Z")
    desk.pbem("process", now="2026-12-03T18:00:01Z")  # the miss, the takeover, the robot's turn 2
    assert desk.show()["turn"] == 2 and desk.show()["to_move"] == [GEORGE]
    desk.pbem("gm", "ROLLBACK", "m1", now="2026-12-03T19:00:00Z")  # back to the start of turn 1
    assert desk.show()["turn"] == 1 and BILL in desk.show()["to_move"]
    assert not [ev for ev in events(desk, "m1") if ev["kind"] == LogEvent.TAKEOVER]


def test_a_turn_the_gm_closes_early_is_no_missed_deadline(desk):
    new_match(desk, "--option", "takeover_after=2")
    george_plays(desk, "2026-12-02T10:00:00Z")
    desk.pbem("gm", "PROCESS", "m1", now="2026-12-02T11:00:00Z")
    george_plays(desk, "2026-12-02T12:00:00Z")
    desk.pbem("process", now="2026-12-04T11:00:01Z")  # one deadline missed, and one PROCESS
    assert not any(ev["kind"] == LogEvent.TAKEOVER for ev in events(desk, "m1"))


def test_the_configs_takeover_after_stands_for_a_game_without_the_option(desk):
    with open(desk.root / "pbem.yaml", "a", encoding="utf-8") as f:
        f.write("games:\n  takeover_after: 1\n")
    new_match(desk)
    george_plays(desk, "2026-12-02T10:00:00Z")
    desk.pbem("process", now="2026-12-03T18:00:01Z")
    assert [ev["seat"] for ev in events(desk, "m1") if ev["kind"] == LogEvent.TAKEOVER] == [1]
    assert desk.show()["to_move"] == [GEORGE]


def test_the_option_is_refused_when_it_is_no_count(desk):
    code, _, err = desk.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--option",
                             "takeover_after=soon", check=False)
    assert code == 2 and "option takeover_after: expected a whole number from 0 to 99" in err


def test_a_league_may_set_it_for_its_games(table):
    league = table.root / "cup.yaml"
    league.write_text("id: cup\nname: Winter Cup\ngame: matchplay\ncourse: parkland\nplayers:\n"
                      "  - George <george@example.test>\n  - Bill <bill@example.test>\n"
                      "start: 2026-12-07T18:00:00Z\nround_length: 7d\ndeadline: 48h\nformat: round-robin\n"
                      "options:\n  takeover_after: 2\n")
    table.pbem("league", "create", str(league), now=START)
    table.pbem("process", now="2026-12-07T18:00:00Z")
    games = json.loads(table.pbem("list", "--json")[1])
    assert games
    for game in games:
        assert table.load(game["id"]).row.options["takeover_after"] == 2


def play_cards_until(table, game: str, silent: int, players: list[str], now: str, rng, moves: int = 200) -> None:
    """Every seat but `silent` plays random legal moves while the move is theirs (`moves` at most)."""
    for _ in range(moves):
        state = table.load(game).state
        owing = sorted(state.to_move())
        if state.result() is not None or not owing or owing[0] == silent:
            return
        command = golfdeck.random_orders(state, owing[0], rng)
        got = table.order(players[owing[0]], str(command), game=game, now=now)
        assert "error" not in kinds(got), body(got[-1])


def test_a_card_game_round_the_table_the_robot_moves_when_the_seat_is_to_move(desk):
    players = [ANN, BOB]
    desk.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--deadline", "24h", "--option", "holes=2",
              "--option", "takeover_after=1", "--player", f"Ann <{ANN}>", "--player", f"Bob <{BOB}>", now=START)
    rng = random.Random(3)
    play_cards_until(desk, "c1", 1, players, "2026-12-01T19:00:00Z", rng)
    assert 1 in desk.load("c1").state.to_move()
    desk.pbem("process", now="2026-12-03T18:00:00Z")  # Bob misses one deadline: N = 1
    assert [ev["seat"] for ev in events(desk, "c1") if ev["kind"] == LogEvent.TAKEOVER] == [1]
    assert "A robot plays your seat now" in [m["Subject"].split("] ", 1)[1] for m in notices(desk, BOB)]
    play_cards_until(desk, "c1", -1, players, "2026-12-03T19:00:00Z", rng, moves=3)  # the robot answers Ann
    assert robot_orders(desk, "c1", 1), "the robot made Bob's moves"
    assert "turn" not in kinds(desk.new_mails(BOB))  # no "your move" for a move the robot makes
    state = desk.load("c1").state
    assert state.result() is None and 1 not in state.to_move()
    got = desk.order(BOB, "STATUS", game="c1", now="2026-12-03T20:00:00Z")
    assert [m["Subject"].split("] ", 1)[1] for m in got][0] == "Your seat is yours again"
    made = len(robot_orders(desk, "c1", 1))
    play_cards_until(desk, "c1", -1, players, "2026-12-03T21:00:00Z", rng)  # both by hand to the end
    assert desk.load("c1").state.result() is not None and len(robot_orders(desk, "c1", 1)) == made
    assert "robot move" in verified(desk, "c1")


def test_dice_golf_the_robot_answers_the_silent_players_tosses(desk):
    desk.pbem("new-game", "dicegolf", "--id", "dg", "--seed", "9", "--deadline", "2d", "--option",
              "takeover_after=1", "--player", f"Ann <{ANN}>", "--player", f"Bob <{BOB}>", now=START)
    rng = random.Random(4)
    for _ in range(20):  # Ann plays her first hole out; Bob is silent
        state = desk.load("dg").state
        if 0 not in state.to_move():
            break
        got = desk.order(ANN, str(dicegolf.random_orders(state, 0, rng)), game="dg", now="2026-12-01T19:00:00Z")
        assert "error" not in kinds(got), body(got[-1])
    desk.pbem("process", now="2026-12-03T18:00:01Z")  # Bob's hole is played by the rule, then the robot's
    assert [ev["seat"] for ev in events(desk, "dg") if ev["kind"] == LogEvent.TAKEOVER] == [1]
    assert 1 not in desk.load("dg").state.to_move()
    assert robot_orders(desk, "dg", 1), "the robot answered Bob's tosses of the next hole"
    got = desk.order(BOB, "STATUS", game="dg", now="2026-12-03T19:00:00Z")
    assert got[0]["Subject"] == "[dg] Your seat is yours again"
    desk.pbem("gm", "ABANDON", "dg", now="2026-12-03T20:00:00Z")
    assert "robot move" in verified(desk, "dg")


def test_a_digest_readers_seat_taken_by_the_robot_asks_nothing_but_the_takeover_notice(desk):
    # Bill reads a digest and goes quiet. The pass that hands his seat to the robot writes him
    # the turn's report while his seat still owes the move the robot makes a moment later: it
    # asks nothing of him, so it waits for his digest; the notice that the robot plays for him
    # (which asks him to write if he wants the seat back) goes at once, and so does his return.
    new_match(desk, "--option", "takeover_after=1")
    desk.send(BILL, "SET DIGEST DAILY 18:00", subject="Re: [m1] welcome", to=desk.reply_to(BILL))
    desk.pbem("process", now="2026-12-01T19:00:00Z")
    for who in (GEORGE, BILL, BOSS):
        desk.new_mails(who)
    george_plays(desk, "2026-12-02T10:00:00Z")
    desk.pbem("process", now="2026-12-03T18:00:01Z")  # Bill's miss: the robot plays his seat from now
    got = desk.new_mails(BILL)
    assert [(m["X-PBEM-Kind"], m["Subject"]) for m in got] == [("notice", "[m1] A robot plays your seat now")]
    george_plays(desk, "2026-12-04T10:00:00Z")  # turn 2 resolves at once: its report waits too
    assert desk.new_mails(BILL) == []
    desk.pbem("process", now="2026-12-04T18:00:00Z")  # the digest: the two reports, in order
    digest, = desk.new_mails(BILL)
    assert digest["X-PBEM-Kind"] == "digest"
    text = body(digest)
    assert text.index("Turn 1 report") < text.index("Turn 2 report")
    state = desk.load("m1").state
    got = desk.order(BILL, str(matchplay.random_orders(state, 1, random.Random(3))).replace(" / ", "\n"),
                     now="2026-12-04T19:00:00Z")
    assert kinds(got) == ["notice", "ack"] and got[0]["Subject"] == "[m1] Your seat is yours again"
