"""`pbem arena`: robots and outside programs play each other on the pure engines (CONTRACT
section 12), with no mail and no store.

Each seat is a SPEC: `robot:<level>` (pbem's robot, through the same door as at a table: the
seat's view only, its own random stream) or `exec:<command line>` (a program, see
`programs.py`). Game k (from 0) is dealt from seed N+k and the SPECs sit rotated by k, so over
a multiple of the seat count every SPEC plays every seat equally often and a run is repeatable.
An order that cannot be read or breaks a rule ends its game: the seat that wrote it loses, the
others share the win (one other wins alone), and the game counts in no mean score.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import BadValue
from pbem.games.base import move_lines
from pbem.games.errors import OrderError
from pbem.games.registry import spec_for
from pbem.games.rng import seed_from_int
from pbem.robots import LEVELS, decide, robot_generator
from pbem.robots.programs import Program, ProgramFailed, command_line

__all__ = ["MOST_MOVES", "Arena", "Outcome", "SeatSpec", "Tally", "read_seat"]

# Far above any game's length (a four-seat card game of nine holes is a few hundred moves): a
# game still going after this many is stopped, and counts for nobody.
MOST_MOVES = 20_000
MOST_LINES = 20  # of one answer, as at the robots' door


@dataclass(frozen=True)
class SeatSpec:
    """A `--seat`: as written, and what plays it."""
    text: str
    level: str | None = None       # robot:<level>
    words: tuple[str, ...] = ()    # exec:<command line>


def read_seat(text: str) -> SeatSpec:
    kind, _, rest = text.strip().partition(":")
    if kind.lower() == "robot" and rest.strip().lower() in LEVELS:
        return SeatSpec(text.strip(), level=rest.strip().lower())
    if kind.lower() == "exec":
        return SeatSpec(text.strip(), words=tuple(command_line(rest)))
    raise BadValue(f"--seat {text.strip()[:60]!r}: a seat is robot:<level> ({', '.join(LEVELS)}) or "
                   "exec:<command line> (exec:python3 contrib/bots/first_legal.py)")


@dataclass
class Tally:
    """One SPEC's record over the run."""
    spec: str
    won: int = 0
    shared: int = 0
    scores: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)  # each: the game, the seat and what it wrote

    def as_json(self) -> dict:
        ms = sorted(s * 1000 for s in self.seconds)
        return {"spec": self.spec, "won": self.won, "shared": self.shared,
                "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else None,
                "decision_ms": {"median": round(statistics.median(ms), 3) if ms else None,
                                "p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3) if ms else None},
                "illegal": len(self.illegal)}


@dataclass(frozen=True)
class Outcome:
    """How one game ended: the winning seats, each seat's score (None: the game was stopped),
    and the seat that lost it by an illegal or missing order, with why."""
    winners: tuple[int, ...]
    scores: tuple[Any, ...] | None
    forfeit: int | None = None
    why: str = ""


class _Player:
    """What sits at a seat: asked for a move's text."""

    def __init__(self, spec: SeatSpec, timeout: float):
        self.spec = spec
        self.program = Program(list(spec.words), timeout) if spec.words else None

    def move(self, game_type: str, state, seat: int, options: dict, seed: bytes, index: int) -> str:
        view = state.view(seat)
        if self.program is None:
            assert self.spec.level is not None
            return decide(game_type, view, seat, self.spec.level, options, robot_generator(seed, seat, index))
        return self.program.ask({"view": view, "seat": seat, "legal": state.legal_orders(seat)})

    def close(self) -> None:
        if self.program is not None:
            self.program.stop()


class Arena:
    """N games of one type between the SPECs, seats rotated, seeds first_seed + k."""

    def __init__(self, game_type: str, seats: list[SeatSpec], options: dict, course, *,
                 first_seed: int = 1, timeout: float = 10.0):
        self.spec = spec_for(game_type)
        engine = self.spec.engine
        if not engine.MIN_PLAYERS <= len(seats) <= engine.MAX_PLAYERS:
            raise BadValue(f"{engine.TYPE} is played by {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} "
                           f"seats, not {len(seats)}")
        robots = [s for s in seats if s.level is not None]
        if robots and self.spec.robot is None:
            raise BadValue(f"no robot plays {engine.TYPE} yet")
        engine.check_options(options)
        self.options = engine.options_with_defaults(options)
        self.course = course
        self.first_seed = first_seed
        self.players = [_Player(s, timeout) for s in seats]
        self.tallies = [Tally(s.text) for s in seats]

    def run(self, games: int, progress: Callable[[int], None] | None = None) -> list[Tally]:
        try:
            for k in range(games):
                self._count(k, self.play(k), self.first_seed + k)
                if progress is not None:
                    progress(k + 1)
        finally:
            self.close()
        return self.tallies

    def sitting(self, k: int) -> list[int]:
        """Game k's seats, each the index of the SPEC that plays it."""
        n = len(self.players)
        return [(seat - k) % n for seat in range(n)]

    def deal(self, seed: int, k: int) -> Outcome:
        """Seed `seed` dealt to game k's seating, played and counted: a duplicate deal plays one
        seed in every seating (k = 0 .. seats - 1), so that each SPEC meets every seat's luck."""
        outcome = self.play(k, seed)
        self._count(k, outcome, seed)
        return outcome

    def close(self) -> None:
        for player in self.players:
            player.close()

    def play(self, k: int, seed_number: int | None = None) -> Outcome:
        """Game k: its seating, dealt from seed first_seed + k (or `seed_number`)."""
        order = self.sitting(k)
        seed = seed_from_int(self.first_seed + k if seed_number is None else seed_number)
        state = self.spec.engine.new([f"Seat {s + 1}" for s in range(len(order))], dict(self.options), seed,
                                     self.course)
        moves = [0] * len(order)
        for _ in range(MOST_MOVES):
            while state.result() is None and state.ready():
                state.resolve()
            result = state.result()
            if result is not None:
                return Outcome(tuple(result.winners), tuple(state.scores()))
            owing = sorted(state.to_move())
            if not owing:
                return Outcome((), None, why="the game waits for nobody")
            seat = owing[0]
            spec = order[seat]
            started = time.perf_counter()
            try:
                text = self.players[spec].move(self.spec.type, state, seat, self.options, seed, moves[seat])
            except ProgramFailed as e:
                return self._forfeit(seat, str(e))
            self.tallies[spec].seconds.append(time.perf_counter() - started)
            moves[seat] += 1
            wrong = self._played(state, seat, text)
            if wrong:
                return self._forfeit(seat, wrong)
        return Outcome((), None, why=f"no result after {MOST_MOVES} moves")

    def _played(self, state, seat: int, text: str) -> str | None:
        """Plays the move `text` says for `seat`; what was wrong with it, if anything was."""
        shown = text[:80]
        lines = [(n, line) for n, line in enumerate(
            [part for raw in text.splitlines()[:MOST_LINES] for part in move_lines(raw)], start=1)]
        if not lines:
            return "an empty answer"
        orders, errors = self.spec.grammar(lines)
        if errors or len(orders) != 1:
            return f"{shown!r} does not read as one order" + (f" ({errors[0]})" if errors else "")
        try:
            state.check(seat, orders[0].command)
            state.apply(seat, orders[0].command)
        except (OrderError, BadValue) as e:  # a rule broken, or a move the game cannot make now
            return f"{shown!r}: {e}"
        state.drain_events()  # what a GM would tell the players; nobody reads it here
        return None

    def _forfeit(self, seat: int, why: str) -> Outcome:
        others = tuple(s for s in range(len(self.players)) if s != seat)
        return Outcome(others, None, forfeit=seat, why=why)

    def _count(self, k: int, outcome: Outcome, seed: int) -> None:
        order = self.sitting(k)
        for seat, spec in enumerate(order):
            tally = self.tallies[spec]
            if seat in outcome.winners:
                if len(outcome.winners) == 1:
                    tally.won += 1
                else:
                    tally.shared += 1
            if outcome.scores is not None and isinstance(outcome.scores[seat], (int, float)):
                tally.scores.append(outcome.scores[seat])
        if outcome.forfeit is not None:
            self.tallies[order[outcome.forfeit]].illegal.append(
                f"game {k + 1} (seed {seed}), seat {outcome.forfeit + 1}: {outcome.why}")
