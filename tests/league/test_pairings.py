"""Pairings: the round robin (each pair once, byes and seats spread fairly) and tables (everyone
once a round, even tables, few repeat meetings)."""
from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from pbem.league.pairings import (Pairing, fixtures, round_robin, schedule, table_sizes,
                                  tables)
from pbem.league.plan import read_plan


def names(n: int) -> list[str]:
    return [f"p{i}@example.test" for i in range(n)]


def seat_runs(sequence: str) -> int:
    """The longest run of the same seat in a player's games (``0101`` -> 1, ``0011`` -> 2)."""
    longest = run = 0
    for i, seat in enumerate(sequence):
        run = run + 1 if i and seat == sequence[i - 1] else 1
        longest = max(longest, run)
    return longest


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_every_pair_meets_exactly_once(n):
    players = names(n)
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(g.players) for r in rounds for g in r.games)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [p for g in r.games for p in g.players] + list(r.byes)
        assert sorted(seated) == sorted(players)        # everyone once a round
        assert all(len(g.players) == 2 for g in r.games)


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_byes_go_round_one_each(n):
    rounds = round_robin(names(n))
    byes = Counter(p for r in rounds for p in r.byes)
    if n % 2:
        assert byes == Counter(names(n))                # each exactly one bye
        assert all(len(r.byes) == 1 for r in rounds)
    else:
        assert not byes


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_seat_zero_alternates_fairly(n):
    seats = {p: "" for p in names(n)}
    for r in round_robin(names(n)):
        for g in r.games:
            seats[g.players[0]] += "0"
            seats[g.players[1]] += "1"
    for player, sequence in seats.items():
        assert abs(sequence.count("0") - sequence.count("1")) <= 1, (player, sequence)
        assert seat_runs(sequence) <= (1 if n % 2 else 2), (player, sequence)
    # An even count cannot alternate for everyone: the fewest possible (n - 2) break once.
    breaks = sum(1 for s in seats.values() for i in range(1, len(s)) if s[i] == s[i - 1])
    assert breaks == (0 if n % 2 else n - 2)


def test_round_robin_numbers_games_and_rounds():
    rounds = round_robin(names(5))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    assert [g.number for g in rounds[0].games] == [1, 2]
    assert rounds[2].games[1].game_id("winter") == "winter-r3-2"
    assert round_robin(["a@x.test"]) == []
    with pytest.raises(ValueError):
        round_robin(["a@x.test", "a@x.test"])


@pytest.mark.parametrize(("count", "size", "least", "sizes", "byes"), [
    (5, 4, 2, [3, 2], 0), (5, 2, 2, [2, 2], 1), (5, 2, 1, [2, 2, 1], 0), (3, 4, 2, [3], 0),
    (13, 4, 2, [4, 3, 3, 3], 0), (7, 3, 3, [3, 3], 1), (1, 4, 2, [], 1), (9, 4, 2, [3, 3, 3], 0),
])
def test_table_sizes_are_as_even_as_possible(count, size, least, sizes, byes):
    assert table_sizes(count, size, least) == (sizes, byes)


def meetings(rounds) -> Counter:
    return Counter(frozenset(pair) for r in rounds for g in r.games
                   for pair in combinations(g.players, 2))


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("n", range(3, 14))
def test_tables_seat_everyone_once_a_round_in_even_tables(n, size):
    players = names(n)
    rounds = tables(players, 6, size)
    assert len(rounds) == 6
    for r in rounds:
        seated = [p for g in r.games for p in g.players]
        assert sorted(seated) == sorted(players) and not r.byes
        sizes = [len(g.players) for g in r.games]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size
        assert len(sizes) == math.ceil(n / size)
        assert [g.number for g in r.games] == list(range(1, len(r.games) + 1))


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("n", range(3, 14))
def test_tables_keep_the_engines_least_and_spread_the_byes(n, size):
    players = names(n)
    rounds = tables(players, 7, size, min_size=2)
    byes = Counter(p for r in rounds for p in r.byes)
    for r in rounds:
        seated = [p for g in r.games for p in g.players]
        assert sorted(seated + list(r.byes)) == sorted(players)
        assert len(set(seated)) == len(seated)
        sizes = [len(g.players) for g in r.games]
        assert min(sizes) >= 2 and max(sizes) - min(sizes) <= 1 and max(sizes) <= size
        # Sitting out only where a table would otherwise be too small: odd counts in pairs.
        assert len(r.byes) == (n % 2 if size == 2 else 0)
    counts = [byes[p] for p in players]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("rounds", [3, 5, 9])
@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("n", range(3, 14))
def test_tables_keep_repeat_meetings_near_the_least_possible(n, size, rounds):
    met = meetings(tables(names(n), rounds, size, min_size=2))
    pairs = n * (n - 1) // 2
    # Spread perfectly, no pair would meet more than ceil(meetings / pairs) times; the search
    # may miss that by one at most (for some shapes, such as 5 players at tables of 3 and 2,
    # one more is forced).
    assert max(met.values()) <= math.ceil(sum(met.values()) / pairs) + 1


def test_tables_find_a_season_without_repeats_where_one_is_easy():
    # Nine players in threes for four rounds: the affine plane of order 3, no pair twice.
    met = meetings(tables(names(9), 4, 3))
    assert max(met.values()) == 1 and len(met) == 36
    # Pairs of six for five rounds: a whole round robin.
    met = meetings(tables(names(6), 5, 2))
    assert max(met.values()) == 1 and len(met) == 15


@pytest.mark.parametrize(("n", "size"), [(5, 2), (7, 3), (9, 4), (12, 4), (13, 3)])
def test_tables_turn_the_first_seat(n, size):
    firsts = Counter(g.players[0] for r in tables(names(n), 8, size, min_size=2) for g in r.games)
    counts = [firsts[p] for p in names(n)]
    assert max(counts) - min(counts) <= 2


def test_tables_are_the_same_every_time():
    one = tables(names(11), 6, 4, min_size=2)
    two = tables(list(names(11)), 6, 4, min_size=2)
    assert one == two and one is not two
    one.clear()                                          # the caller's list is its own
    assert tables(names(11), 6, 4, min_size=2) == two


def test_schedule_follows_the_plan():
    base = {"name": "L", "start": "2026-12-07T18:00:00Z",
            "players": [f"P{i} <p{i}@example.test>" for i in range(5)]}
    plan = read_plan(base | {"game": "matchplay"})
    assert schedule(plan) == round_robin(plan.addresses)
    plan = read_plan(base | {"game": "golfdeck", "table_size": 2, "rounds": 3})
    rounds = schedule(plan)
    assert rounds == tables(plan.addresses, 3, 2, min_size=2)
    assert all(len(r.byes) == 1 for r in rounds)
    assert isinstance(rounds[0].games[0], Pairing)
    assert rounds[0].game_of(rounds[0].games[1].players[0]) == rounds[0].games[1]


def test_a_players_fixtures_list_every_round_with_its_course_and_opponents():
    plan = read_plan({"name": "L", "game": "matchplay", "start": "2026-12-07T18:00:00Z",
                      "courses": ["parkland", "links"], "round_length": "3d",
                      "players": [f"P{i} <p{i}@example.test>" for i in range(5)]})
    mine = fixtures(plan, "P2@example.test")
    assert [f.round for f in mine] == [1, 2, 3, 4, 5]
    assert [f.course for f in mine] == ["parkland", "links", "parkland", "links", "parkland"]
    assert mine[1].opens == plan.opens(2)
    assert sum(f.bye for f in mine) == 1
    met = [o for f in mine for o in f.others]
    assert sorted(met) == sorted(a for a in plan.addresses if a != "p2@example.test")
    with pytest.raises(ValueError):
        fixtures(plan, "nobody@example.test")
