"""Who plays whom in each round of a league: a round robin for two-player games, tables for
every game. Pure and deterministic: the same players in the same order give the same season.

Players are addresses; a pairing lists them in seat order, so seat 0 (the first-named player)
is ``players[0]``.
"""
from __future__ import annotations

import random
from functools import lru_cache
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from collections.abc import Sequence

from pbem.errors import BadValue


@dataclass(frozen=True)
class Pairing:
    """One game of a round: its number in the round (from 1) and its players in seat order."""
    round: int
    number: int
    players: tuple[str, ...]

    def game_id(self, league: str) -> str:
        return f"{league}-r{self.round}-{self.number}"


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()

    def game_of(self, address: str) -> Pairing | None:
        return next((g for g in self.games if address in g.players), None)


def schedule(plan) -> list[Round]:
    """Every round of a ``LeaguePlan``, as its format pairs them."""
    if plan.format == "round-robin":
        return round_robin(plan.addresses)
    return tables(plan.addresses, plan.rounds, plan.table_size, min_size=plan.min_table)


@dataclass(frozen=True)
class Fixture:
    """One round of one player's season, for the welcome mail's schedule: when the round
    opens, on which course, and the others in the player's game (none: a bye)."""
    round: int
    opens: datetime
    course: str
    game: Pairing | None
    others: tuple[str, ...]

    @property
    def bye(self) -> bool:
        return self.game is None


def fixtures(plan, address: str) -> list[Fixture]:
    """The rounds of ``address``'s season, in order (a player of the plan's list)."""
    wanted = address.strip().lower()
    if wanted not in plan.addresses:
        raise BadValue(f"{address} plays in no row of the league")
    out = []
    for one_round in schedule(plan):
        game = one_round.game_of(wanted)
        others = tuple(p for p in game.players if p != wanted) if game else ()
        out.append(Fixture(one_round.number, plan.opens(one_round.number),
                           plan.course_for(one_round.number), game, others))
    return out


def round_robin(players: Sequence[str]) -> list[Round]:
    """The circle method: each pair meets once, in n-1 rounds (n for an odd n, where each
    player sits out one round: the first player in round 1, the second in round 2 ...).

    The pairs and who takes seat 0 follow de Werra's canonical schedule: for an odd count
    every player alternates seat 0 and seat 1 from game to game; for an even count the fewest
    possible players (n-2) ever take the same seat twice running, and never three times."""
    players = list(players)
    if len(set(players)) != len(players):
        raise BadValue("round_robin: each player once")
    if len(players) < 2:
        return []
    # Players 0..q-1 stand on a circle; the last place (a player, or the bye) stays apart.
    circle: list[str | None] = players + ([None] if len(players) % 2 else [])
    q = len(circle) - 1
    rounds = []
    for r in range(q):
        couples = [(circle[r], circle[q]) if r % 2 == 0 else (circle[q], circle[r])]
        for k in range(1, (q + 1) // 2):
            high, low = circle[(r + k) % q], circle[(r - k) % q]
            couples.append((high, low) if k % 2 else (low, high))
        byes = tuple(p for a, b in couples if a is None or b is None for p in (a, b) if p is not None)
        games = tuple(Pairing(r + 1, n + 1, (a, b))
                      for n, (a, b) in enumerate((a, b) for a, b in couples if a is not None and b is not None))
        rounds.append(Round(r + 1, games, byes))
    return rounds


def table_sizes(count: int, table_size: int, min_size: int = 1) -> tuple[list[int], int]:
    """The sizes of a round's tables (largest first, differing by at most one, none above
    ``table_size``) and how many players sit the round out, the fewest that keep every table
    at ``min_size`` or more."""
    if table_size < 1 or min_size > table_size:
        raise BadValue(f"table_sizes: a table of {table_size} cannot seat {min_size}")
    for byes in range(count + 1):
        seated = count - byes
        if seated == 0:
            break
        tables = -(-seated // table_size)
        if seated // tables >= min_size:
            small, extra = divmod(seated, tables)
            return [small + 1] * extra + [small] * (tables - extra), byes
    return [], count


def tables(players: Sequence[str], rounds: int, table_size: int, *, min_size: int = 1,
           seed: int = 0) -> list[Round]:
    """``rounds`` rounds of tables. Each round seats everyone once, at tables as even as
    possible; a player sits out only when a table would otherwise fall below ``min_size``
    (sitting out goes round, the last-named first). Tables are drawn to keep repeat meetings
    few, and seat order turns so that each player is seated first about as often as the
    others. Deterministic: the search draws only from a generator seeded with ``seed``."""
    players = tuple(players)
    if len(set(players)) != len(players):
        raise BadValue("tables: each player once")
    return list(_tables(players, rounds, table_size, min_size, seed))


@lru_cache(maxsize=32)
def _tables(players: tuple[str, ...], rounds: int, table_size: int, min_size: int,
            seed: int) -> tuple[Round, ...]:
    # Kept: the search takes a moment, and every standings page asks for the same season.
    season = _Season(len(players), random.Random(f"pbem-tables-{seed}"))
    for _ in range(rounds):
        season.add_round(*table_sizes(len(players), table_size, min_size))
    season.improve()
    return tuple(season.rounds(list(players)))


# How much searching the seating may do: counted in swaps weighed, not in seconds, so that the
# same league always gets the same tables.
_SEARCH_BUDGET = 600_000
_STARTS = 8
_PATIENCE = 40     # shakes in a row that find nothing better, and the search stops


class _Season:
    """The season's tables as lists of player numbers, and how often each two have met.

    The measure of a season is the sum over all pairs of their meetings cubed: a first
    meeting adds 1, a second 7, a third 19, so the search spreads repeats instead of piling
    them on a few pairs (squares would weigh one pair meeting thrice like two pairs meeting
    twice)."""

    def __init__(self, count: int, rng: random.Random):
        self.count, self.rng = count, rng
        self.met = [[0] * count for _ in range(count)]
        self.layout: list[list[list[int]]] = []
        self.sat_out: list[list[int]] = []
        self.bye_count = [0] * count
        self.budget = _SEARCH_BUDGET

    def add_round(self, sizes: list[int], bye_count: int) -> None:
        """The round's byes (those who sat out least, the last-named first), then the tables
        that add least to the measure of a few greedy starts, each polished by swaps."""
        order = sorted(range(self.count), key=lambda p: (self.bye_count[p], -p))
        byes = sorted(order[:bye_count])
        seated = [p for p in range(self.count) if p not in byes]
        best, best_cost = None, None
        for start in range(_STARTS):
            if start:
                self.rng.shuffle(seated)
            groups = self.greedy(seated, sizes)
            self.layout.append(groups)
            self.meet_all(groups, 1)
            self.climb([groups])
            cost = self.total()
            self.meet_all(groups, -1)
            self.layout.pop()
            if best_cost is None or cost < best_cost:
                best, best_cost = groups, cost
        assert best is not None  # _STARTS tries at least one start
        for player in byes:
            self.bye_count[player] += 1
        self.meet_all(best, 1)
        self.layout.append(best)
        self.sat_out.append(byes)

    def greedy(self, seated: list[int], sizes: list[int]) -> list[list[int]]:
        groups: list[list[int]] = [[] for _ in sizes]
        for player in seated:
            open_tables = [i for i, size in enumerate(sizes) if len(groups[i]) < size]
            target = min(open_tables, key=lambda i: (self.cost(player, groups[i]), len(groups[i]), i))
            groups[target].append(player)
        return groups

    def cost(self, player: int, group: list[int]) -> int:
        """What seating ``player`` with ``group`` adds to the measure."""
        return sum(_more(self.met[player][other]) for other in group if other != player)

    def leave(self, player: int, group: list[int]) -> int:
        """What taking ``player`` away from ``group`` takes off the measure."""
        return sum(_more(self.met[player][other] - 1) for other in group)

    def meet_all(self, groups: list[list[int]], step: int) -> None:
        for group in groups:
            for a, b in combinations(group, 2):
                self.met[a][b] += step
                self.met[b][a] += step

    def meet_each(self, player: int, group: list[int], step: int) -> None:
        for other in group:
            self.met[player][other] += step
            self.met[other][player] += step

    def total(self) -> int:
        return sum(c ** 3 for row in self.met for c in row) // 2

    def floor(self) -> int:
        """The least the measure can be: every pair meeting equally often, give or take one."""
        pairs = self.count * (self.count - 1) // 2
        meetings = sum(len(g) * (len(g) - 1) // 2 for groups in self.layout for g in groups)
        if not pairs:
            return 0
        low, extra = divmod(meetings, pairs)
        return (pairs - extra) * low ** 3 + extra * (low + 1) ** 3

    def improve(self) -> None:
        """Polish the whole season by swaps, then shake the best one found and polish again
        (iterated local search) while the budget lasts."""
        self.climb(self.layout)
        best, best_total = _copy(self.layout), self.total()
        idle = 0
        while self.budget > 0 and best_total > self.floor() and idle < _PATIENCE:
            self.load(best)
            for _ in range(2 + len(self.layout) // 4):
                self.shake()
            self.climb(self.layout)
            idle += 1
            if self.total() < best_total:
                best, best_total, idle = _copy(self.layout), self.total(), 0
        self.load(best)

    def climb(self, rounds: list[list[list[int]]]) -> None:
        improved = True
        while improved and self.budget > 0:
            improved = False
            for groups in rounds:
                for one, two in combinations(groups, 2):
                    improved |= self.swaps(one, two)

    def swaps(self, one: list[int], two: list[int]) -> bool:
        changed = False
        self.budget -= len(one) * len(two)
        for i in range(len(one)):
            for j in range(len(two)):
                a, b = one[i], two[j]
                rest_one, rest_two = [p for p in one if p != a], [p for p in two if p != b]
                gain = self.leave(a, rest_one) + self.leave(b, rest_two)
                if self.cost(a, rest_two) + self.cost(b, rest_one) < gain:
                    self.swap(one, i, two, j)
                    changed = True
        return changed

    def swap(self, one: list[int], i: int, two: list[int], j: int) -> None:
        a, b = one[i], two[j]
        rest_one, rest_two = [p for p in one if p != a], [p for p in two if p != b]
        self.meet_each(a, rest_one, -1)
        self.meet_each(b, rest_two, -1)
        self.meet_each(a, rest_two, 1)
        self.meet_each(b, rest_one, 1)
        one[i], two[j] = b, a

    def shake(self) -> None:
        groups = self.rng.choice(self.layout)
        if len(groups) >= 2:
            one, two = self.rng.sample(groups, 2)
            self.swap(one, self.rng.randrange(len(one)), two, self.rng.randrange(len(two)))

    def load(self, layout: list[list[list[int]]]) -> None:
        self.layout = _copy(layout)
        self.met = [[0] * self.count for _ in range(self.count)]
        for groups in self.layout:
            self.meet_all(groups, 1)

    def rounds(self, players: list[str]) -> list[Round]:
        """The season as Rounds, with seat order turning: in each game the player who has been
        seated first least often goes first, then the one whose seats were latest so far."""
        firsts, seat_sum = [0] * self.count, [0] * self.count
        out = []
        for r, groups in enumerate(self.layout, start=1):
            games = []
            for n, group in enumerate(groups, start=1):
                seats = sorted(group, key=lambda p: (firsts[p], -seat_sum[p], p))
                firsts[seats[0]] += 1
                for seat, player in enumerate(seats):
                    seat_sum[player] += seat
                games.append(Pairing(r, n, tuple(players[p] for p in seats)))
            out.append(Round(r, tuple(games), tuple(players[p] for p in self.sat_out[r - 1])))
        return out


def _more(met: int) -> int:
    """What one more meeting of a pair that has met ``met`` times adds to the measure."""
    return 3 * met * met + 3 * met + 1


def _copy(layout: list[list[list[int]]]) -> list[list[list[int]]]:
    return [[list(group) for group in groups] for groups in layout]
