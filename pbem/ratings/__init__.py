"""Ratings (CONTRACT section 13): who is good, per game type, from the stored results.

Worked out afresh from every finished game each time they are asked for, never kept as counters
that could drift: OpenSkill's Plackett-Luce model at the package's defaults, the games in the
order they finished (their last finish, for one rolled back and finished again), then by id. A
match is a ranking of two; a table ranks its seats by the result: the winners first, sharing
the first rank, then the others by score, lower first, ties sharing a rank. A player is an
address; each robot level is one player, `Robot (<level>)`, rated at the best rank its seats of
a game reached (two seats of one level in one game are one player, not two). An abandoned game
is not rated, nor one with fewer than two players to rank.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.games import game_type
from pbem.ratings.reliability import figures, reliability
from pbem.store import GameStatus, Seat, Store

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating

@dataclass(frozen=True)
class Finish:
    """One finished game as the ratings read it: who sat where, and the rank of each seat."""
    game_id: str
    type: str
    ended: str  # the ISO time of its (last) finish
    players: tuple[tuple[str, str | None, str], ...]  # (key, address or None, name) a seat
    ranks: tuple[int, ...]


@dataclass
class Row:
    key: str
    name: str
    address: str | None
    type: str
    rating: PlackettLuceRating
    games: int = 0
    last: str = field(default="", repr=False)


def player_key(seat: Seat) -> tuple[str, str | None, str]:
    """(key, address, name) of a seat's player: a robot is its level, a person their address."""
    if seat.robot:
        name = f"Robot ({seat.robot})"
        return f"robot:{seat.robot}", None, name
    return seat.address, seat.address, seat.name


def seat_ranks(winners: tuple[int, ...], scores: tuple, seats: int) -> tuple[int, ...]:
    """Each seat's rank, 1 the best: the winners (the engine's word) share the first, the rest
    follow by score, lower first, ties sharing a rank. (A match has one seat left behind a
    winner, or none when halved, so the direction of its score never decides.)"""

    def place(s: int) -> tuple:
        if s in winners:
            return (0, 0)
        score = scores[s] if s < len(scores) and isinstance(scores[s], (int, float)) else 0
        return (1, score)

    places = [place(s) for s in range(seats)]
    order = {p: i + 1 for i, p in enumerate(sorted(set(places)))}
    return tuple(order[p] for p in places)


def finishes(store: Store, type_name: str | None = None) -> list[Finish]:
    """Every finished game (of one type), in the order the ratings take them."""
    out = []
    for row in store.games():
        if row.status != GameStatus.FINISHED or (type_name and row.type != type_name):
            continue
        ended = store.finished_at(row.id)
        result = game_type(row.type).from_dict(row.state).result()
        if result is None or ended is None:
            continue
        seats = store.seats(row.id)
        out.append(Finish(row.id, row.type, ended, tuple(player_key(s) for s in seats),
                          seat_ranks(tuple(result.winners), tuple(result.scores), len(seats))))
    out.sort(key=lambda f: (f.ended, f.game_id))
    return out


def teams_of(finish: Finish) -> tuple[list[str], list[int]]:
    """The players of a game once each (a robot level at its best seat's rank), with their ranks."""
    best: dict[str, int] = {}
    for (key, _, _), rank in zip(finish.players, finish.ranks):
        best[key] = min(rank, best.get(key, rank))
    return list(best), list(best.values())


def rate(games: list[Finish]) -> list[Row]:
    """Every player's rating per type after `games`, in the order given."""
    # Here, not at the head: the ratings layer is loaded with every pass, and asked for ratings rarely.
    from openskill.models import PlackettLuce  # noqa: PLC0415
    model = PlackettLuce()
    rows: dict[tuple[str, str], Row] = {}
    for finish in games:
        keys, ranks = teams_of(finish)
        if len(keys) < 2:
            continue
        players = {key: (address, name) for key, address, name in finish.players}
        current = []
        for key in keys:
            row = rows.get((finish.type, key))
            if row is None:
                address, name = players[key]
                row = rows[(finish.type, key)] = Row(key, name, address, finish.type, model.rating(name=key))
            row.name = players[key][1]  # the latest name the player went by
            current.append(row)
        placings: list[float] = list(ranks)  # as openskill takes them (equal ranks tie)
        rated = model.rate([[row.rating] for row in current], ranks=placings)
        for row, (new,) in zip(current, rated):
            row.rating, row.games = new, row.games + 1
    return sorted(rows.values(), key=lambda r: (r.type, -r.rating.ordinal(), r.name.casefold(), r.key))


def ratings(store: Store, type_name: str | None = None, *, now: datetime | None = None) -> list[dict]:
    """`pbem ratings --json`: rows by type, then highest ordinal first. With `now`, each row
    says too how reliable its player is (`on_time`, `owed`: section 14; a robot owes nothing)."""
    rows = [as_dict(row) for row in rate(finishes(store, type_name))]
    if now is not None:
        kept = reliability(store, now)
        for row in rows:
            row.update(figures(kept.get(row["address"]) if row["address"] else None))
    return rows


def as_dict(row: Row) -> dict:
    return {"name": row.name, "address": row.address, "type": row.type, "mu": row.rating.mu,
            "sigma": row.rating.sigma, "ordinal": row.rating.ordinal(), "games": row.games}


def ratings_text(rows: list[dict], *, addresses: bool = True, mark: str | None = None) -> str:
    """The ratings as a text table a type at a time, in 78 columns: rank, player, ordinal, mu,
    sigma and games. `addresses`: the GM's own view names each address (mail to a player shows
    names only); `mark`: the address whose rows get an arrow."""
    if not rows:
        return "No game has finished yet: nobody is rated.\n"
    out = []
    for type_name in dict.fromkeys(r["type"] for r in rows):
        engine = game_type(type_name)
        out += [f"{engine.TITLE} ({type_name})", "",
                f"  {'#':>3}  {'Player':<40} {'Ordinal':>7} {'Mu':>6} {'Sigma':>5} {'Games':>5}"]
        of_type = [r for r in rows if r["type"] == type_name]
        for rank, r in enumerate(of_type, start=1):
            who = r["name"] if not (addresses and r["address"]) else f"{r['name']} <{r['address']}>"
            if len(who) > 40:
                who = who[:39] + "."
            arrow = ">" if mark is not None and r["address"] == mark else " "
            out.append(f"{arrow} {rank:>3}  {who:<40} {r['ordinal']:>7.2f} {r['mu']:>6.2f} {r['sigma']:>5.2f} "
                       f"{r['games']:>5}")
        out.append("")
    return "\n".join(out)
