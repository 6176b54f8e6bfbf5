"""The no-show simulation of `bench/noshow.py` (issue 34), run tiny: four players, two matches
and two two-player golfdeck games, one player gone for good, the others never missing, a week.
What it counts must be right: the gone player's games finish within the week only when a robot
takes over; every mail a player got is counted once, as asking or not; a digest reader gets
digests and at most two mails a day that ask nothing."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from loading import load_script

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GONE = "p00@example.test"




noshow = load_script("bench/noshow.py", "noshow_bench")


def _run(tmp_path: Path, features: bool):
    s = noshow.Settings(players=4, p=0.0, days=7, seed=3, features=features, card_seats=2, golfdeck_holes=1,
                        matchplay_deadline="2d", golfdeck_deadline="2d", mean_delay_h=1.0, digest_share=1.0,
                        gone_addresses=(GONE,))
    folder = tmp_path / ("on" if features else "off")
    folder.mkdir()
    world = noshow.World(folder, s)
    world.setup()
    world.run()
    return world


def _files(world, address: str) -> int:
    folder = world.root / "mail" / address / "new"
    return len(os.listdir(folder)) if folder.is_dir() else 0


def _check_counts(world) -> None:
    for p in world.players.values():
        got = _files(world, p.address)
        assert got > 0
        assert p.asks + p.other == got == sum(p.kinds.values()) == len(p.seen)
        assert sum(p.other_by_day.values()) == p.other
    assert world.refused == 0  # no player's mail was refused: the simulation sends legal moves in time


def test_without_the_features_the_gone_players_games_do_not_finish_in_a_week(tmp_path):
    world = _run(tmp_path, features=False)
    _check_counts(world)
    with_gone = [g for g in world.games.values() if GONE in g.players]
    others = [g for g in world.games.values() if GONE not in g.players]
    assert len(with_gone) == 2 and len(others) == 2
    assert all(g.finished is None for g in with_gone)  # a deadline of 2 days a move, played by autoplay
    assert all(g.finished is not None for g in others)
    assert world.takeovers == 0 and world.statuses == 0
    assert not any(p.digest or p.kinds["digest"] or p.kinds["reminder"] for p in world.players.values())
    summary = noshow.Result(world.s, list(world.games.values()), list(world.players.values()), world.takeovers,
                            world.taken_back, world.moves_sent, world.refused, 0.0, world.passes).summary()
    assert summary["with_gone"]["finished"] == 0 and summary["without_gone"]["share"] == 1.0
    assert summary["mail_gone"]["players"] == 1


def test_with_the_features_a_robot_takes_the_gone_players_seats_and_every_game_finishes(tmp_path):
    world = _run(tmp_path, features=True)
    _check_counts(world)
    assert all(g.finished is not None for g in world.games.values())
    assert world.takeovers == 2  # the gone player's seat in each of the two games, once
    assert world.taken_back == 0 and world.statuses == 0  # the gone player never writes again
    readers = [p for p in world.players.values() if p.digest]
    assert len(readers) == 3 and all(not p.gone for p in readers)
    assert all(p.kinds["digest"] >= 1 for p in readers)
    assert all(max(p.other_by_day.values(), default=0) <= 2 for p in readers)
    gone = world.players[GONE]
    assert gone.kinds["notice"] >= 2  # told of each takeover
    summary = noshow.Result(world.s, list(world.games.values()), list(world.players.values()), world.takeovers,
                            world.taken_back, world.moves_sent, world.refused, 0.0, world.passes).summary()
    assert summary["all"]["share"] == 1.0 and summary["with_gone"]["finished"] == 2
    assert summary["mail_digest_readers"]["most_other_in_a_day"] <= 2
