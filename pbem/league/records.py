"""The league's games as the standings read them: what the caller takes from the store, and
what each game means for each league row (won, lost, halved, by what, or not yet or never).

Nothing here is kept between calls: every table and grid is worked out again from the games'
own stored results, so standings cannot drift from the games.

A league *row* (a slot) is a place in the league file's player list. A player who replaces
another takes over the row: the games played under the old address count for it too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any
from collections.abc import Iterable, Mapping

from pbem.errors import BadValue
from pbem.games.registry import spec_for
from pbem.league.pairings import Pairing, schedule
from pbem.league.plan import is_robot
from pbem.ratings.reliability import Orders


def is_match(game: str) -> bool:
    """Whether a league scores `game` as a match (a win, a half, the margin), as its spec says."""
    return spec_for(game).match_holes is not None


def largest_margin(game: str) -> int:
    """The widest win a match can have (an 18-hole match: 10 up with 8 to play). A resignation
    and a forfeit count this much, so that giving up never costs less than playing on and losing."""
    return (spec_for(game).match_holes or 0) // 2 + 1

_GAME_NUMBER = re.compile(r"-r(\d+)-(\d+)$")
_WINS_AND = re.compile(r" wins (\d+) and (\d+)$")
_WINS_UP = re.compile(r" wins (\d+) up$")
_WINS_RESIGNED = re.compile(r" wins by resignation\b")
HALVED = "Match halved"


class RecordsDisagree(BadValue):
    """The league's records do not add up: a change or a game names an address that holds no
    row of the league, or a finished game's result or score cannot be read."""


def _no_orders() -> Mapping[str, Orders]:
    return MappingProxyType({})


@dataclass(frozen=True)
class GameRecord:
    """One league game as the store holds it. ``result`` is the result line (with or without
    ``Result: ``), ``winners`` and ``scores`` are the engine's ``Result`` fields (seats, and
    each seat's score); ``ended`` is when it finished; ``orders`` is keyed by address."""
    id: str
    round: int
    type: str
    players: tuple[str, ...]
    status: str                                 # waiting | active | finished | abandoned
    result: str | None = None
    winners: tuple[int, ...] = ()
    scores: tuple[Any, ...] = ()
    ended: datetime | None = None
    orders: Mapping[str, Orders] = field(default_factory=_no_orders)

    @property
    def number(self) -> int | None:
        """The game's number in its round, read from an id like ``winter-r3-2``."""
        found = _GAME_NUMBER.search(self.id)
        return int(found.group(2)) if found and int(found.group(1)) == self.round else None

    @property
    def line(self) -> str | None:
        if self.result is None:
            return None
        text = self.result.strip()
        return text[len("Result:"):].strip() if text.startswith("Result:") else text


@dataclass(frozen=True)
class Replacement:
    """``new`` (named ``name``) took over the league row of ``old`` at ``at``."""
    old: str
    new: str
    name: str
    at: datetime


@dataclass(frozen=True)
class Withdrawal:
    """The GM withdrew ``address`` at ``at``: the games of theirs that had not ended by then
    are scored as the league file's ``withdrawn`` says."""
    address: str
    at: datetime


@dataclass(frozen=True)
class SeatOutcome:
    """What a game means for one row. ``outcome``: won, lost, halved (these count), pending
    (not over yet) or void (never counts). ``margin``: match play, the holes up, plus for
    the winner and minus for the loser. ``score``: other games, the seat's score. ``how``:
    ``resignation`` or ``forfeit`` when the game was not played out. ``detail``: by what, as
    a results grid writes it (``4 and 3``, ``2 up``, ``by forfeit``, a table game's score)."""
    slot: int
    outcome: str
    margin: int = 0
    score: Any = None
    how: str = ""
    detail: str = ""

    @property
    def counts(self) -> bool:
        return self.outcome in ("won", "lost", "halved")


@dataclass(frozen=True)
class GameOutcome:
    id: str | None          # None: a game of the schedule that has not been made yet
    round: int
    number: int | None
    seats: tuple[SeatOutcome, ...]


class Roster:
    """The league rows: who holds each now, and which addresses have played for it."""

    def __init__(self, plan, replacements: Iterable[Replacement] = ()):
        self.plan = plan
        self.holders = [[(p.name, p.address)] for p in plan.players]
        self.taken: list[list[tuple[str, datetime]]] = [[] for _ in plan.players]
        self.by_address = {p.address: i for i, p in enumerate(plan.players)}
        for change in sorted(replacements, key=lambda c: c.at):
            self.replace(change)

    def replace(self, change: Replacement) -> None:
        old, new = change.old.strip().lower(), change.new.strip().lower()
        if old not in self.by_address:
            raise RecordsDisagree(f"replacement: {old} plays in no row of the league")
        slot = self.by_address[old]
        if new in self.by_address and self.by_address[new] != slot:
            raise RecordsDisagree(f"replacement: {new} holds another row of the league already")
        self.by_address[new] = slot
        self.taken[slot].append((self.holders[slot][-1][0], change.at))
        self.holders[slot].append((change.name, new))

    def slot(self, address: str) -> int | None:
        return self.by_address.get(address.strip().lower())

    def held(self, address: str) -> int:
        """The row of an address known to hold or to have held one (a standings row's, the
        schedule's): KeyError if not."""
        return self.by_address[address.strip().lower()]

    def name(self, slot: int) -> str:
        return self.holders[slot][-1][0]

    def address(self, slot: int) -> str:
        return self.holders[slot][-1][1]

    def __len__(self) -> int:
        return len(self.holders)


def outcomes(plan, games: Iterable[GameRecord], *, now: datetime,
             replacements: Iterable[Replacement] = (),
             withdrawals: Iterable[Withdrawal] = ()) -> list[GameOutcome]:
    """Every game of the season, made or not, with what it means for each of its rows.

    Games of the schedule are matched with their records by round and number; a scheduled
    game that has no record yet is pending, unless a withdrawn player is in it and its round
    has opened: then it is scored as a forfeit (or void) like their unfinished games."""
    roster = Roster(plan, replacements)
    return _Reader(plan, roster, list(games), withdrawals).read(plan.round_at(now))


class _Reader:
    def __init__(self, plan, roster: Roster, games: list[GameRecord],
                 withdrawals: Iterable[Withdrawal]):
        self.plan, self.roster, self.games = plan, roster, games
        self.match = is_match(plan.game)
        self.largest = largest_margin(plan.game) if self.match else 0
        self.gone: dict[int, datetime] = {}
        for leaving in withdrawals:
            slot = roster.slot(leaving.address)
            if slot is None:
                raise RecordsDisagree(f"withdrawal: {leaving.address} plays in no row of the league")
            self.gone[slot] = min(leaving.at, self.gone.get(slot, leaving.at))
        self.worst = self.worst_scores()

    def read(self, opened: int) -> list[GameOutcome]:
        made = {(g.round, g.number): g for g in self.games if g.number is not None}
        out, used = [], set()
        for one_round in schedule(self.plan):
            for pairing in one_round.games:
                record = made.get((pairing.round, pairing.number))
                used.add(id(record))
                out.append(self.game(pairing, record, opened))
        out += [self.game(None, g, opened) for g in self.games if id(g) not in used]
        return out

    def slots(self, pairing: Pairing | None, record: GameRecord | None) -> list[int | None]:
        """Each seat's row; None for a robot that holds no row (the robot of a `bye: robot`
        match), whose game counts for the other seats' rows only."""
        addresses = record.players if record is not None else _scheduled(pairing).players
        found = [self.roster.slot(a) for a in addresses]
        for address, slot in zip(addresses, found):
            if slot is None and not is_robot(address):
                where = record.id if record is not None else f"round {_scheduled(pairing).round}"
                raise RecordsDisagree(f"game {where}: {address} plays in no row")
        return found

    def remaining(self, slot: int, record: GameRecord | None) -> bool:
        """Whether this game is one a withdrawn player left unfinished."""
        if slot not in self.gone:
            return False
        if record is None or record.status != "finished":
            return True
        return record.ended is not None and record.ended > self.gone[slot]

    def game(self, pairing: Pairing | None, record: GameRecord | None, opened: int) -> GameOutcome:
        round_no = record.round if record is not None else _scheduled(pairing).round
        number = record.number if record is not None else _scheduled(pairing).number
        slots = self.slots(pairing, record)
        left = {s for s in slots if s is not None and self.remaining(s, record)}
        if record is None and (round_no > opened or not left):
            seats = tuple(SeatOutcome(s, "pending") for s in slots if s is not None)
        elif self.match:
            seats = self.match_seats(slots, record, left)
        else:
            seats = tuple(self.table_seat(i, s, record, left, round_no) for i, s in enumerate(slots)
                          if s is not None)
        return GameOutcome(record.id if record is not None else None, round_no, number, seats)

    # -- match play ------------------------------------------------------------------------

    def match_seats(self, slots: list[int | None], record: GameRecord | None,
                    left: set[int]) -> tuple[SeatOutcome, ...]:
        """The outcome of each seat that holds a row (a `bye: robot` match's robot holds none)."""
        rows = [(seat, s) for seat, s in enumerate(slots) if s is not None]
        if left:
            if self.plan.withdrawn == "void":
                return tuple(SeatOutcome(s, "void") for _, s in rows)
            return tuple(SeatOutcome(s, "lost", -self.largest, how="forfeit", detail="by forfeit")
                         if s in left else
                         SeatOutcome(s, "won", self.largest, how="forfeit", detail="by forfeit")
                         for _, s in rows)
        assert record is not None  # `game` scores a game not made only when a player of it has left
        if record.status == "abandoned":
            return tuple(SeatOutcome(s, "void") for _, s in rows)
        if record.status != "finished" or record.line is None:
            return tuple(SeatOutcome(s, "pending") for _, s in rows)
        winner, margin, how = read_match_result(record.line, record.winners, self.largest)
        if winner is None:
            return tuple(SeatOutcome(s, "halved", detail="halved") for _, s in rows)
        detail = _by_what(record.line, margin, how)
        return tuple(SeatOutcome(s, "won", margin, how=how, detail=detail) if seat == winner
                     else SeatOutcome(s, "lost", -margin, how=how, detail=detail)
                     for seat, s in rows)

    # -- table games -----------------------------------------------------------------------

    def worst_scores(self) -> dict[int, Any]:
        """Per round, the highest (worst) score that anyone made in a finished game: what a
        forfeited seat scores, as if it had come last of the whole round."""
        worst: dict[int, Any] = {}
        for record in self.games:
            if record.status != "finished" or self.match:
                continue
            for seat, address in enumerate(record.players):
                slot = self.roster.slot(address)
                if slot is None or self.remaining(slot, record):
                    continue
                score = _score(record, seat)
                worst[record.round] = max(worst.get(record.round, score), score)
        return worst

    def table_seat(self, seat: int, slot: int, record: GameRecord | None, left: set[int],
                   round_no: int) -> SeatOutcome:
        if slot in left:
            if self.plan.withdrawn == "void":
                return SeatOutcome(slot, "void")
            if round_no not in self.worst:
                return SeatOutcome(slot, "pending")
            worst = self.worst[round_no]
            return SeatOutcome(slot, "lost", score=worst, how="forfeit", detail=f"{worst} (forfeit)")
        if record is None or record.status in ("waiting", "active"):
            return SeatOutcome(slot, "pending")
        if record.status != "finished":
            return SeatOutcome(slot, "void")
        won, score = seat in record.winners, _score(record, seat)
        return SeatOutcome(slot, "won" if won else "lost", score=score, detail=str(score))


def read_match_result(line: str, winners: tuple[int, ...], largest: int) -> tuple[int | None, int, str]:
    """The winning seat (None when halved), the margin in holes, and ``resignation`` or "".

    ``George wins 4 and 3`` counts 4, ``George wins 2 up`` counts 2, ``Match halved`` 0, and a
    resignation the largest margin a match can have. The winner's seat is the engine's."""
    text = line.strip()
    if text.startswith("Result:"):
        text = text[len("Result:"):].strip()
    if text == HALVED or len(winners) > 1:
        return None, 0, ""
    if len(winners) != 1:
        raise RecordsDisagree(f"match result {text!r}: expected one winner, got seats {list(winners)}")
    for pattern in (_WINS_AND, _WINS_UP):
        found = pattern.search(text)
        if found:
            return winners[0], int(found.group(1)), ""
    if _WINS_RESIGNED.search(text):
        return winners[0], largest, "resignation"
    raise RecordsDisagree(f"match result {text!r}: expected '<Name> wins 4 and 3', "
                          f"'<Name> wins 2 up', '{HALVED}' or a resignation")


def _scheduled(pairing: Pairing | None) -> Pairing:
    """The pairing of a game not made: `read` gives one for every game it has no record of."""
    assert pairing is not None  # a game with neither a record nor a pairing is never read
    return pairing


def _by_what(line: str, margin: int, how: str) -> str:
    """``4 and 3``, ``2 up`` or ``by resignation``, as a results grid writes a match."""
    if how:
        return f"by {how}"
    found = _WINS_AND.search(line)
    return f"{found.group(1)} and {found.group(2)}" if found else f"{margin} up"


def _score(record: GameRecord, seat: int) -> Any:
    if seat >= len(record.scores) or not isinstance(record.scores[seat], (int, float)) \
            or isinstance(record.scores[seat], bool):
        raise RecordsDisagree(f"game {record.id}: finished without a score for seat {seat}")
    return record.scores[seat]
