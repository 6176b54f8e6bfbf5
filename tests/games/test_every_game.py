"""Every registered game through the same paces (OpenSpiel's habit of one test for all games):
random legal play to the end on the pure engine from several seeds, replayed exactly from its
orders; a game against a robot by mail through the local transport, rolled back and played to
its end again; and `pbem export` / `pbem verify` of the finished game (CONTRACT sections 11-13).

The tests are parametrized by the registry, so a game registered tomorrow is played here without
a line of this file changing: no test names a game type (one checks that the contract's five are
registered). What the tests know of a game they learn from its engine (the protocol of
DESIGN.md), its robot and its grammar, each found by the game's TYPE in the helpers just below.
"""
from __future__ import annotations

import json
import random
import sys
from datetime import datetime

import pytest
from conftest import MailClock, GEORGE, body, kinds, too_wide

from pbem.games.registry import game_type, spec_for, types
from pbem.games.base import Resign, Result, move_lines, one_line
from pbem.games.events import OWN, PRIVATE, GameEvent
from pbem.games.errors import IllegalOrder
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.robots import decide, robot_generator

# -- what the tests ask of the registry: here alone, so a new registry is one change ------------

def game_types() -> list[str]:
    """Every registered game's TYPE name."""
    return types()


def engine(type_name: str):
    """The engine class of a registered game."""
    return game_type(type_name)


def robot_text(type_name: str, state, seat: int, level: str, seed: bytes, move: int) -> str:
    """What the game's robot at `level` writes for `seat`, from that seat's view alone."""
    return decide(type_name, state.view(seat), seat, level, dict(getattr(state, "options", {})),
                  robot_generator(seed, seat, move))


def read_order(type_name: str, text: str):
    """The one command `text` says (its lines, or one line of them joined by `; `), read by the
    game's own grammar as a player's mail is."""
    lines = [(n, line) for n, line in enumerate(move_lines(" ; ".join(text.splitlines())), start=1)]
    orders, errors = spec_for(type_name).grammar(lines)
    assert not errors and len(orders) == 1, (text, errors)
    return orders[0].command


# -- choosing orders the way the protocol offers them ------------------------------------------

def chooser(state, type_name: str, seed: bytes, rng: random.Random):
    """A function (seat, move) -> a legal command for `seat`, drawn with `rng` from what the game
    offers: one of `legal_orders` where the engine lists them, else a uniformly random legal order
    where the engine's module deals one (`random_orders`), else the order of one of its robots (a
    level drawn at random, on its own stream). The robot is asked often enough that its text is
    read back through the grammar in every game."""
    module = sys.modules[type(state).__module__]
    listed = getattr(state, "legal_orders", None)
    drawn = getattr(module, "random_orders", None)

    def choose(seat: int, move: int):
        if rng.random() < 0.6:
            texts = listed(seat) if listed is not None else None
            if texts is not None:
                return read_order(type_name, rng.choice(texts))
            if drawn is not None:
                return drawn(state, seat, rng)
        # A strong robot searches: one robot move in four, so every seed stays quick.
        level = "strong" if rng.random() < 0.25 else "easy"
        return read_order(type_name, robot_text(type_name, state, seat, level, seed, move))
    return choose


def resolve_ready(state) -> None:
    """Close every turn whose orders are all in, as the GM's flows do after each order."""
    while state.ready():
        state.resolve()


def round_trips(state) -> None:
    """The stored form is plain JSON and gives back the same game."""
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert type(state).from_dict(data).to_dict() == data


# -- 1. random legal play on the engine --------------------------------------------------------

SEEDS = (1, 2, 3)
MOST_MOVES = 5000  # far above any game's length: a game that has not ended by then never will


def seats_for(cls, seed: int) -> int:
    """2, 3 or 4 seats by seed, within what the game allows."""
    return max(cls.MIN_PLAYERS, min(cls.MAX_PLAYERS, 2 + seed % 3))


def new_state(type_name: str, seed: int):
    cls = engine(type_name)
    names = [f"Player {i}" for i in range(1, seats_for(cls, seed) + 1)]
    return cls.new(names, {}, seed, load_course(DEFAULT_COURSE))


def play_to_the_end(type_name: str, seed: int) -> tuple[object, list[tuple[int, str]]]:
    """A game played by random legal orders to its end; the orders as (seat, canonical text)."""
    state = new_state(type_name, seed)
    choose = chooser(state, type_name, seed.to_bytes(16, "big"), random.Random(seed))
    played: list[tuple[int, str]] = []
    resolve_ready(state)
    while state.result() is None:
        owing = state.to_move()
        assert owing and owing <= set(range(len(state.names))), owing  # it waits for a real seat
        seat = sorted(owing)[len(played) % len(owing)]
        # What a seat and a spectator may see is plain data (it goes into mail and JSON).
        assert json.dumps(state.view(seat)) and json.dumps(state.spectator_view())
        command = choose(seat, len(played))
        state.check(seat, command)
        state.apply(seat, command)
        played.append((seat, str(command)))
        resolve_ready(state)
        if len(played) % 25 == 0:
            round_trips(state)
        assert len(played) < MOST_MOVES, "the game does not end"
    return state, played


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("type_name", game_types())
def test_random_legal_play_ends_with_a_result_and_replays_exactly(type_name, seed):
    state, played = play_to_the_end(type_name, seed)
    result = state.result()
    assert isinstance(result, Result) and result.line
    assert set(result.winners) <= set(range(len(state.names)))
    assert state.to_move() == set() and not state.ready()
    assert len(state.scores()) == len(state.names)
    round_trips(state)
    # Over is over: the engine refuses any order, naming its rule.
    with pytest.raises(IllegalOrder):
        state.check(0, Resign())
    # The game replays exactly from its orders' canonical text: chance is the seed's alone.
    again = new_state(type_name, seed)
    resolve_ready(again)
    for seat, text in played:
        again.apply(seat, type(again).command_from_text(text))
        resolve_ready(again)
    assert again.to_dict() == state.to_dict()
    assert again.chance_record() == state.chance_record()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("type_name", game_types())
def test_every_listed_order_reads_with_the_grammar_and_is_played_as_it_stands(type_name, seed):
    """Random play by `legal_orders` alone, where the game lists them: at every step each seat's
    list is empty when it owes nothing and holds a move when it owes one, and every text in it
    is one line, read by the game's grammar into the command whose text it is, which the rules
    accept; the one played is drawn from the list. A game that cannot list (None) is played by
    the protocol's other offers at that step."""
    state = new_state(type_name, seed)
    rng = random.Random(seed)
    fallback = chooser(state, type_name, seed.to_bytes(16, "big"), random.Random(seed))
    resolve_ready(state)
    listed_moves = 0
    while state.result() is None:
        owing = state.to_move()
        for seat in range(len(state.names)):
            texts = state.legal_orders(seat)
            if texts is None:
                continue
            assert bool(texts) == (seat in owing), (seat, owing, texts)
            assert len(set(texts)) == len(texts), texts
            for text in texts:
                assert "\n" not in text and text == text.strip(), text
                command = read_order(type_name, text)
                assert one_line(command) == text
                state.check(seat, command)
        seat = sorted(owing)[listed_moves % len(owing)]
        texts = state.legal_orders(seat)
        command = read_order(type_name, rng.choice(texts)) if texts else fallback(seat, listed_moves)
        state.apply(seat, command)
        resolve_ready(state)
        listed_moves += 1
        if listed_moves % 25 == 0:
            round_trips(state)
        assert listed_moves < MOST_MOVES, "the game does not end"
    assert all(state.legal_orders(seat) in ([], None) for seat in range(len(state.names)))


def is_subsequence(short: list, long: list) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("type_name", game_types())
def test_a_seats_view_carries_the_public_events_so_far(type_name, seed):
    """Every seat's view has `events`, the game's record as that seat was told it: plain data,
    each with a kind the engines name, nothing marked for one seat alone left in; a record that
    never forgets (what a seat was told stays, what it is told later may come in between, as a
    hole's tosses do once the hole closes); the same after the stored round trip. The GM's view
    and a spectator's have none (`pbem show --json` and the spectators' mail stay as they were)."""
    state = new_state(type_name, seed)
    choose = chooser(state, type_name, seed.to_bytes(16, "big"), random.Random(seed))
    seats = range(len(state.names))
    told = [state.view(seat)["events"] for seat in seats]
    resolve_ready(state)
    moves = 0
    while state.result() is None:
        seat = sorted(state.to_move())[moves % len(state.to_move())]
        state.apply(seat, choose(seat, moves))
        resolve_ready(state)
        moves += 1
        if moves % 10 == 0 or state.result() is not None:
            for s in seats:
                events = state.view(s)["events"]
                assert is_subsequence(told[s], events), (s, told[s][-3:], events[-3:])
                told[s] = events
        assert moves < MOST_MOVES, "the game does not end"
    kinds = set(GameEvent)
    for s in seats:
        assert json.loads(json.dumps(told[s])) == told[s]
        assert all(e["kind"] in kinds and OWN not in e and PRIVATE not in e for e in told[s]), told[s]
        assert any(e["kind"] == GameEvent.GAME_END for e in told[s])
    again = type(state).from_dict(json.loads(json.dumps(state.to_dict())))
    assert all(again.view(s)["events"] == told[s] for s in seats)
    assert "events" not in state.view(None) and "events" not in state.spectator_view()


def test_every_game_type_is_played_here():
    """The parametrization is the registry: at least the games the contract describes."""
    assert {"matchplay", "golfdeck", "golf", "dicegolf", "onpar"} <= set(game_types())


# -- 2. a robot game by mail, a rollback, export and verify ------------------------------------

START = datetime(2026, 12, 1, 10, 0)  # the game's clock; a mail each 150 s (under the hourly limit)



def short(cls) -> list[str]:
    """The shortest game the options allow, where a game is counted in holes."""
    return ["--option", "holes=2"] if "holes" in cls.OPTIONS else []


def play_by_mail(table, type_name: str, game: str, rng: random.Random, clock: MailClock) -> list[int]:
    """George sends legal orders by mail until the game ends; the robot moves in the same pass.
    The turn of each mail he sent."""
    turns: list[int] = []
    while (shown := table.show(game))["status"] == "active":
        assert shown["to_move"] == [GEORGE], shown["to_move"]  # never the robot: it has moved
        state = table.load(game).state
        command = chooser(state, type_name, rng.randbytes(16), rng)(0, len(turns))
        got = table.order(GEORGE, str(command), game=game, now=clock.tick())
        assert "error" not in kinds(got), body(got[0])
        turns.append(shown["turn"])
        assert len(turns) < MOST_MOVES, "the game does not end"
    return turns


def exported_and_verified(table, game: str) -> tuple[dict, str]:
    _, text, _ = table.pbem("export", game)
    path = table.root / f"{game}.json"
    path.write_text(text)
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code == 0, out
    return json.loads(text), out


@pytest.mark.slow
@pytest.mark.parametrize("type_name", game_types())
def test_a_game_against_a_robot_by_mail_rolled_back_and_verified(table, type_name):
    cls, clock, game = engine(type_name), MailClock(START), "e1"
    table.pbem("new-game", type_name, "--player", f"George <{GEORGE}>", "--player", "robot:easy",
               "--id", game, "--seed", "5", *short(cls), now=clock.tick())
    welcome = table.new_mails(GEORGE)
    assert kinds(welcome)[0] == "welcome" and "Seed commitment: " in body(welcome[0])
    george_turns = play_by_mail(table, type_name, game, random.Random(5), clock)
    assert george_turns
    ended = table.show(game)
    assert ended["status"] == "finished" and ended["result"].startswith("Result: ")
    assert ended["seed"] is not None and ended["to_move"] == []
    robot_moves = [ev for ev in ended["history"] if ev.get("robot")]
    assert robot_moves and all(ev["seat"] == 1 for ev in robot_moves)
    mails = table.mails(GEORGE)
    assert kinds(mails)[-1] == "result" and ended["result"] in " ".join(body(mails[-1]).split())
    assert not any(too_wide(body(m)) for m in mails)
    # No mail ever went to the robot's seat: only George's and the GM's folders exist.
    assert {p.name for p in (table.root / "mail").iterdir()} <= {GEORGE, "gm@example.test"}

    # The GM takes the game back to the start of George's last turn (a robot's last move alone
    # would be played again the same, from the same stream): the result is withdrawn, George told.
    back_to = george_turns[-1]
    table.pbem("gm", "ROLLBACK", game, "TO", str(back_to), now=clock.tick())
    reopened = table.show(game)
    assert reopened["status"] == "active" and reopened["result"] is None and reopened["seed"] is None
    assert reopened["to_move"] == [GEORGE]
    assert any(ev["kind"] == "rollback" for ev in reopened["history"])
    assert any(ev.get("rolled_back") for ev in reopened["history"])
    notice = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    assert len(notice) == 1 and "withdrawn" in body(notice[0])

    # Played to the end again, the record holds the rollback, names no secret, and verifies.
    play_by_mail(table, type_name, game, random.Random(6), clock)
    final = table.show(game)
    assert final["status"] == "finished" and final["result"].startswith("Result: ")
    record, out = exported_and_verified(table, game)
    assert out.startswith(f"verified: {game}: ") and final["result"].removeprefix("Result: ") in out
    assert record["type"] == type_name and record["seed"] == final["seed"]
    assert any(step["kind"] == "rollback" for step in record["steps"])
    assert table.secret(GEORGE) not in json.dumps(record)
