"""The league table, worked out afresh from the games' stored results each time it is shown.

Match play (a game whose spec gives ``match_holes``, whatever the format): a win 1 point, a halved match 0.5;
``holes_diff`` adds the winner's lead and takes it from the loser; rank by points, then
holes_diff, then the points of the games between the players still level, then name.
Other games: ``total`` adds the game scores (lower is better), ``won`` counts games won or
shared; rank by total, then won, then name. Rows level on every key but the name share a rank.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any
from collections.abc import Iterable

from pbem.league.records import (GameOutcome, GameRecord, Replacement, Roster,
                                 Withdrawal, outcomes, is_match)

ROW_KEYS = ("rank", "name", "address", "played", "won", "halved", "lost", "points",
            "holes_diff", "total", "on_time", "note")
# `ordinal`: the player's rating for the game type (ratings.py), added by the season beside
# the standings, which it never decides.
MATCH_COLUMNS = ("rank", "name", "played", "won", "halved", "lost", "points", "holes_diff",
                 "on_time", "ordinal")
TABLE_COLUMNS = ("rank", "name", "played", "won", "lost", "total", "on_time", "ordinal")


@dataclass(frozen=True)
class Row:
    """One line of the standings. ``note`` says who took the row over, or that its player
    withdrew ("" otherwise)."""
    rank: int
    name: str
    address: str
    played: int
    won: int
    halved: int
    lost: int
    points: float
    holes_diff: int
    total: Any
    on_time: float
    note: str = ""

    def to_dict(self) -> dict:
        return {key: getattr(self, key) for key in ROW_KEYS}


def columns(plan) -> tuple[str, ...]:
    """The keys worth showing for the league's game (all of them are in every row)."""
    return MATCH_COLUMNS if is_match(plan.game) else TABLE_COLUMNS


def standings(plan, games: Iterable[GameRecord], *, now: datetime,
              replacements: Iterable[Replacement] = (),
              withdrawals: Iterable[Withdrawal] = ()) -> list[Row]:
    """The rows in rank order, from the league's games as ``games`` gives them."""
    games, replacements, withdrawals = list(games), list(replacements), list(withdrawals)
    roster = Roster(plan, replacements)
    played = outcomes(plan, games, now=now, replacements=replacements, withdrawals=withdrawals)
    tallies = [_Tally(slot) for slot in range(len(roster))]
    for game in played:
        for seat in game.seats:
            tallies[seat.slot].add(seat)
    for record in games:
        for address, orders in record.orders.items():
            slot = roster.slot(address)
            if slot is not None and roster.address(slot) == address.strip().lower():
                tallies[slot].owed += orders.owed
                tallies[slot].in_time += orders.on_time
    notes = _notes(plan, roster, replacements, withdrawals)
    if is_match(plan.game):
        ranked = _rank_matches(tallies, played, roster)
    else:
        ranked = _rank_tables(tallies, roster)
    return [_row(rank, tally, roster, notes) for rank, tally in ranked]


class _Tally:
    def __init__(self, slot: int):
        self.slot = slot
        self.played = self.won = self.halved = self.lost = 0
        self.points = 0.0
        self.holes_diff = 0
        self.total: Any = 0
        self.owed = self.in_time = 0

    def add(self, seat) -> None:
        if not seat.counts:
            return
        self.played += 1
        if seat.outcome == "won":
            self.won, self.points = self.won + 1, self.points + 1
        elif seat.outcome == "halved":
            self.halved, self.points = self.halved + 1, self.points + 0.5
        else:
            self.lost += 1
        self.holes_diff += seat.margin
        if seat.score is not None:
            self.total += seat.score

    @property
    def on_time(self) -> float:
        return round(self.in_time / self.owed, 3) if self.owed else 1.0


def _rank_matches(tallies: list[_Tally], played: list[GameOutcome],
                  roster: Roster) -> list[tuple[int, _Tally]]:
    """Points, then holes_diff; players still level are ordered by the points they took off
    each other (for two, the result between the two), then by name."""
    ordered = sorted(tallies, key=lambda t: (-t.points, -t.holes_diff))
    keyed: list[tuple[tuple, _Tally]] = []
    for level, group in groupby(ordered, key=lambda t: (-t.points, -t.holes_diff)):
        members = list(group)
        among = _head_to_head({t.slot for t in members}, played)
        for tally in members:
            keyed.append(((*level, -among.get(tally.slot, 0.0)), tally))
    return _ranked(keyed, roster)


def _head_to_head(slots: set[int], played: list[GameOutcome]) -> dict[int, float]:
    points: dict[int, float] = {}
    if len(slots) < 2:
        return points
    for game in played:
        seats = [s for s in game.seats if s.counts]
        if len(game.seats) < 2:
            continue  # a match against a robot that holds no row (`bye: robot`) is no one's head to head
        if len(seats) == len(game.seats) and all(s.slot in slots for s in seats):
            for seat in seats:
                gained = {"won": 1.0, "halved": 0.5}.get(seat.outcome, 0.0)
                points[seat.slot] = points.get(seat.slot, 0.0) + gained
    return points


def _rank_tables(tallies: list[_Tally], roster: Roster) -> list[tuple[int, _Tally]]:
    return _ranked([((t.total, -t.won), t) for t in tallies], roster)


def _ranked(keyed: list[tuple[tuple, _Tally]], roster: Roster) -> list[tuple[int, _Tally]]:
    """Sorted by key, then name; equal keys share the rank of the first of them (1, 2, 2, 4)."""
    keyed.sort(key=lambda kt: (kt[0], roster.name(kt[1].slot).casefold(), roster.address(kt[1].slot)))
    out, rank, last = [], 0, None
    for place, (key, tally) in enumerate(keyed, start=1):
        if key != last:
            rank, last = place, key
        out.append((rank, tally))
    return out


def _notes(plan, roster: Roster, replacements: list[Replacement],
           withdrawals: list[Withdrawal]) -> dict[int, str]:
    """Per row, who took it over and when, and whether its player withdrew."""
    notes: dict[int, list[str]] = {}
    for slot in range(len(roster)):
        for old_name, at in roster.taken[slot]:
            notes.setdefault(slot, []).append(
                f"took over from {old_name} in round {max(1, plan.round_at(at))}")
    for leaving in sorted(withdrawals, key=lambda w: w.at):
        left = roster.slot(leaving.address)
        if left is None:
            continue  # never: `outcomes` has refused the withdrawal of an address that holds no row
        what = "forfeited" if plan.withdrawn == "forfeit" else "void"
        notes.setdefault(left, []).append(
            f"withdrew in round {max(1, plan.round_at(leaving.at))}, games left {what}")
    return {slot: "; ".join(lines) for slot, lines in notes.items()}


def _row(rank: int, tally: _Tally, roster: Roster, notes: dict[int, str]) -> Row:
    return Row(rank=rank, name=roster.name(tally.slot), address=roster.address(tally.slot),
               played=tally.played, won=tally.won, halved=tally.halved, lost=tally.lost,
               points=tally.points, holes_diff=tally.holes_diff, total=tally.total,
               on_time=tally.on_time, note=notes.get(tally.slot, ""))
