"""The results grid of a league, as data for the standings page: who beat whom, and by what.

Match play gives a cross table (a row and a column per player, in standings order; the cell
in row A, column B is A's match against B). Other games give a row per player and a column
per round (the player's table, score and outcome that round).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from collections.abc import Iterable

from pbem.league.pairings import schedule
from pbem.league.records import (GameOutcome, GameRecord, Replacement, Roster,
                                 SeatOutcome, Withdrawal, outcomes, is_match)
from pbem.league.standings import standings


@dataclass(frozen=True)
class GridCell:
    """One game from one row's side. ``outcome``: won, lost, halved, pending, void, or bye
    (sat the round out). ``detail``: by what (``4 and 3``, ``2 up``, ``by resignation``,
    ``by forfeit``, ``halved``; a table game's score). ``game`` is None for a game not made
    yet, and for a bye."""
    outcome: str
    detail: str = ""
    game: str | None = None
    round: int | None = None
    against: tuple[str, ...] = ()    # the names of the others in the game

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "detail": self.detail, "game": self.game,
                "round": self.round, "against": list(self.against)}


@dataclass(frozen=True)
class GridRow:
    name: str
    address: str
    cells: tuple[GridCell | None, ...]

    def to_dict(self) -> dict:
        return {"name": self.name, "address": self.address,
                "cells": [None if c is None else c.to_dict() for c in self.cells]}


@dataclass(frozen=True)
class ResultsGrid:
    """``kind`` is ``matches`` (columns are the players, by name, in row order; a cell is None
    on the diagonal) or ``rounds`` (columns are ``Round 1`` ...; None where a player was in no
    game of that round and had no bye, as for a row that withdrew and was left out)."""
    kind: str
    columns: tuple[str, ...]
    rows: tuple[GridRow, ...]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "columns": list(self.columns),
                "rows": [row.to_dict() for row in self.rows]}


def results_grid(plan, games: Iterable[GameRecord], *, now: datetime,
                 replacements: Iterable[Replacement] = (),
                 withdrawals: Iterable[Withdrawal] = ()) -> ResultsGrid:
    games, replacements, withdrawals = list(games), list(replacements), list(withdrawals)
    roster = Roster(plan, replacements)
    table = standings(plan, games, now=now, replacements=replacements, withdrawals=withdrawals)
    order = [roster.held(row.address) for row in table]
    played = outcomes(plan, games, now=now, replacements=replacements, withdrawals=withdrawals)
    if is_match(plan.game) and plan.format == "round-robin":
        return _matches(order, roster, played)
    return _rounds(plan, order, roster, played)


def _matches(order: list[int], roster: Roster, played: list[GameOutcome]) -> ResultsGrid:
    place = {slot: i for i, slot in enumerate(order)}
    cells: list[list[GridCell | None]] = [[None] * len(order) for _ in order]
    for game in played:
        if len(game.seats) != 2:
            continue
        one, two = game.seats
        cells[place[one.slot]][place[two.slot]] = _cell(one, game, roster)
        cells[place[two.slot]][place[one.slot]] = _cell(two, game, roster)
    return _grid("matches", tuple(roster.name(s) for s in order), order, roster, cells)


def _rounds(plan, order: list[int], roster: Roster, played: list[GameOutcome]) -> ResultsGrid:
    place = {slot: i for i, slot in enumerate(order)}
    cells: list[list[GridCell | None]] = [[None] * plan.rounds for _ in order]
    for game in played:
        if 1 <= game.round <= plan.rounds:
            for seat in game.seats:
                cells[place[seat.slot]][game.round - 1] = _cell(seat, game, roster)
    for one_round in schedule(plan):
        for address in one_round.byes:
            row = cells[place[roster.held(address)]]
            if row[one_round.number - 1] is None:
                row[one_round.number - 1] = GridCell("bye", round=one_round.number)
    columns = tuple(f"Round {r}" for r in range(1, plan.rounds + 1))
    return _grid("rounds", columns, order, roster, cells)


def _grid(kind: str, columns: tuple[str, ...], order: list[int], roster: Roster,
          cells: list[list[GridCell | None]]) -> ResultsGrid:
    rows = tuple(GridRow(roster.name(slot), roster.address(slot), tuple(line))
                 for slot, line in zip(order, cells))
    return ResultsGrid(kind, columns, rows)


def _cell(seat: SeatOutcome, game: GameOutcome, roster: Roster) -> GridCell:
    others = tuple(roster.name(s.slot) for s in game.seats if s.slot != seat.slot)
    return GridCell(seat.outcome, seat.detail, game.id, game.round, others)
