"""The engines' `playout_copy` (Golf Deck, Golf, On Par): what a robot plays out. The copy is
independent of its original (moves on it leave the original's views and record as they were),
copies and shares exactly what the robots' own clones did, and no robot decision writes an
attribute on an engine state that the engine itself does not set."""
from __future__ import annotations

import random

import pytest

from pbem.games import golf, golfdeck, onpar, spec_for
from pbem.games.rng import Generator, seed_from_int

NAMES = ["Ann", "Bob", "Cy", "Di"]

# What each engine's copy shares with its original (the same object), and what starts empty; the
# rest is copied (equal, not the same object). `rng`: "shared", or "restored" (a fresh generator
# at the same point of the stream).
SHARED = {
    golfdeck.GolfDeck: {"names", "n", "options", "holes_total", "game_no", "rng", "shuffles", "hole_no",
                        "dealer", "starter", "current", "revealing", "drawn", "ender", "default_reveals",
                        "_turn", "_result"},
    golf.Golf: {"names", "n", "options", "size", "cols", "positions", "faceup", "once", "chosen_looks", "near",
                "seen_at_deal", "packs", "points", "lo", "hi", "guess", "jacks", "deck", "_result", "_turn",
                "hole_no", "last_seat", "last_kind", "dealer", "current", "drawn", "knocker", "rebuilt"},
    onpar.OnPar: {"names", "n", "options", "pars", "holes_total", "handicaps", "hole_no", "course", "layout",
                  "starter", "current", "_turn", "_result"},
}
EMPTY = {
    golfdeck.GolfDeck: {"holes", "events", "log"},
    golf.Golf: {"holes", "events", "log", "shuffles"},
    onpar.OnPar: {"events", "log", "shuffles"},
}
# Copied lists of lists: each row a list of its own too.
NESTED = {golfdeck.GolfDeck: {"grid", "up"}, golf.Golf: {"grids", "up", "known", "start_seen", "replaced"},
          onpar.OnPar: {"hands"}}
GAMES = [
    (golfdeck, golfdeck.GolfDeck, {}),
    (golf, golf.Golf, {}),
    (golf, golf.Golf, {"layout": 6}),
    (onpar, onpar.OnPar, {}),
]


def moves(module, game, rng: random.Random, count: int) -> None:
    """Up to `count` random legal moves (On Par: the missed-deadline play), or to the game's end."""
    for _ in range(count):
        if game.result() is not None:
            return
        seat = min(game.to_move())
        order = game.default_orders(seat) if module is onpar else module.random_orders(game, seat, rng)
        game.apply(seat, order)


def seen(game) -> tuple:
    """Everything the original shows: every seat's view, the spectators', and its stored record."""
    return [game.view(s) for s in range(game.n)], game.view(None), game.to_dict()


def attributes(state) -> dict:
    """A state's attributes by name: its `vars()` as Python runs it; compiled (scripts/native.py),
    a native state has no `__dict__`, and `__getstate__` gathers what it holds (the same as
    `vars()` when pure: tests/games/test_native_build.py)."""
    return state.__getstate__()


def declared(engine, options: dict, players: int) -> set[str]:
    """The attributes the engine itself sets on a state (a new game's)."""
    return set(attributes(engine.new(NAMES[:players], {**options, "holes": 1}, b"declared-seed-16", None)))


@pytest.mark.parametrize("module,engine,options", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_playout_copy_shares_and_copies_as_the_robots_clones_did(module, engine, options, seed):
    game = engine.new(NAMES[:3], {**options, "holes": 2}, seed_from_int(seed), None)
    moves(module, game, random.Random(seed), 4 + seed)
    game.drain_events()
    copy = game.playout_copy()
    assert type(copy) is engine
    assert set(attributes(copy)) == set(attributes(game))
    for name, value in attributes(game).items():
        mine = getattr(copy, name)
        if name == "rng":
            continue
        if name in SHARED[engine]:
            assert mine is value, name
        elif name in EMPTY[engine]:
            assert mine == [], name
        else:
            assert mine == value, name
            assert value is None or mine is not value, name  # (golf's `final`: None or a list)
            if name in NESTED[engine]:
                assert all(a is not b for a, b in zip(mine, value)), name
    if engine is golfdeck.GolfDeck:
        assert copy.rng is game.rng
    else:
        assert copy.rng is not game.rng and copy.rng.state() == game.rng.state()


@pytest.mark.parametrize("module,engine,options", GAMES)
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_moves_on_a_playout_copy_leave_the_original_as_it_was(module, engine, options, seed):
    game = engine.new(NAMES[:3], {**options, "holes": 1}, seed_from_int(seed), None)
    rng = random.Random(seed)
    moves(module, game, rng, 3 + seed)
    before = seen(game)
    copy = game.playout_copy()
    moves(module, copy, rng, 5_000)
    assert copy.result() is not None  # played to the game's end
    assert seen(game) == before
    # and the original plays on as it would have without the copy
    later = engine.from_dict(game.to_dict())
    moves(module, game, random.Random(seed + 100), 5_000)
    moves(module, later, random.Random(seed + 100), 5_000)
    assert game.to_dict() == later.to_dict()


def watched(monkeypatch, engine) -> list[set[str]]:
    """Every engine state a robot plays a move on (its rollouts and playouts), by its
    attribute names, recorded as the move is applied and after."""
    names: list[set[str]] = []
    apply = engine.apply

    def recording(self, seat, command):
        names.append(set(attributes(self)))
        apply(self, seat, command)
        names.append(set(attributes(self)))

    monkeypatch.setattr(engine, "apply", recording)
    return names


@pytest.mark.parametrize("module,engine,options,players", [
    (golfdeck, golfdeck.GolfDeck, {}, 2),
    (golfdeck, golfdeck.GolfDeck, {}, 4),
    (golf, golf.Golf, {"peek": "any2"}, 3),
    (golf, golf.Golf, {"layout": 6, "jacks": "20skip"}, 2),
    (onpar, onpar.OnPar, {}, 2),
])
def test_a_strong_robots_decisions_set_no_attribute_the_engine_does_not(monkeypatch, module, engine, options,
                                                                          players):
    game = engine.new(NAMES[:players], {**options, "holes": 1}, seed_from_int(7), None)
    robot = spec_for(engine.TYPE).robot
    own = declared(engine, options, players)
    assert set(attributes(game)) == own
    if not hasattr(game, "__dict__"):
        # Compiled (scripts/native.py): a native state holds its declared attributes and no
        # other, so no decision can add one; and its class's `apply` cannot be watched.
        with pytest.raises(AttributeError):
            game.robot_fact = 1
        states: list[set[str]] | None = None
    else:
        states = watched(monkeypatch, engine)
    decisions = played_out = 0
    while game.result() is None and decisions < 400:
        seat = min(game.to_move())
        text = robot.decide(game.view(seat), seat, "strong", {**options, "holes": 1},
                            Generator(seed_from_int(100 + decisions)))
        decisions += 1
        if states is not None:
            for names in states:  # every state the decision played a move on
                assert names == own
            played_out += len(states)
            del states[:]
        game.apply(seat, engine.command_from_text(text))
        if states is not None:
            del states[:]  # (the game's own move)
        assert set(attributes(game)) == own
    assert game.result() is not None
    assert played_out > 0 or states is None  # the decisions played moves out on engine states
