"""The engine protocol every game follows."""
from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, cast

from mypy_extensions import mypyc_attr

from pbem.games.errors import BadOption, IllegalOrder, OrderError

RULE_OVER = "no orders once the game is over"

# The commands of one move (MatchPlay's PLAY and its SPECIAL) written on one line, as a robot
# or an arena program sends them and as `legal_orders` lists them (CONTRACT section 12).
MOVE_JOIN = "; "
# Where a line of commands splits: a semicolon with a command word after it (a MatchPlay
# player may write the cards of a PLAY with semicolons between them: `PLAY 3;4;5`).
_MOVE_SPLIT = re.compile(r";\s*(?=[^\W\d_])")


def one_line(command) -> str:
    """A command's text on one line: the lines of a move joined by `MOVE_JOIN`."""
    return MOVE_JOIN.join(str(command).splitlines())


def move_lines(text: str) -> list[str]:
    """The lines a move written on one line (`one_line`) stands for, as a mail would hold them."""
    return [part.strip() for part in _MOVE_SPLIT.split(text) if part.strip()]


def by_fields(value: Any) -> tuple:
    """`__reduce__` of the frozen value classes (results, options, orders): `copy` and `pickle`
    make one again through its constructor, from its fields. As Python runs them this is what
    the default comes to; compiled (the optional build, scripts/native.py), a frozen dataclass
    refuses the default's restore, which sets its attributes one by one."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


@dataclass(frozen=True)
class Result:
    """How a finished game stands: `line` is the text after `Result: `."""
    line: str
    winners: tuple[int, ...]
    scores: tuple[Any, ...] = ()

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def to_dict(self) -> dict:
        return {"line": self.line, "winners": list(self.winners), "scores": list(self.scores)}

    @classmethod
    def from_dict(cls, d: dict | None) -> Result | None:
        if d is None:
            return None
        return cls(d["line"], tuple(d["winners"]), tuple(d.get("scores", ())))


@dataclass(frozen=True)
class Resign:
    """A player gives up; the engine decides what that means for the game."""
    def __reduce__(self) -> tuple:
        return by_fields(self)

    def __str__(self) -> str:
        return "RESIGN"


def written(value: Any, quoted: bool = True) -> str:
    """A value as the GM writes it in an option (`--option jokers=true`, a league file) and a
    player in an order, never as Python prints it: true and false, a list as its items one after
    the other (`1 2 3`), a word in double quotes (`quoted`), cut short when it runs long."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return '"' + shown.replace('"', '\\"') + '"' if quoted else shown
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [written(v, quoted=False) for v in list(value)[:20]]
        return " ".join(items) + (" ..." if len(value) > 20 else "") if items else "an empty list"
    if isinstance(value, dict):
        return "a mapping (" + ", ".join(f"{written(k, False)}: {written(v, False)}"
                                         for k, v in list(value.items())[:5]) + ")"
    if isinstance(value, (int, float)):
        return str(value)
    return written(str(value), quoted)


def one_of(allowed: tuple) -> str:
    """The allowed values of an option, as the GM writes them (`true or false`, `one of 4, 6`),
    in the words of the configuration's own errors."""
    if set(map(type, allowed)) == {bool}:
        return "true or false"
    return "one of " + ", ".join(written(a, quoted=False) for a in allowed)


@dataclass(frozen=True)
class Option:
    default: Any
    allowed: tuple = ()
    doc: str = ""

    def __reduce__(self) -> tuple:
        return by_fields(self)

    def coerce(self, key: str, value: Any) -> Any:
        if not self.allowed:
            return value
        word = written(value, quoted=False).lower()
        for a in self.allowed:
            if written(a, quoted=False).lower() == word and not isinstance(value, (list, tuple, dict)):
                return a
        raise BadOption(f"option {key}: expected {one_of(self.allowed)}, got {written(value)}")


# The policy for a player who misses a deadline is the GM's business but varies by game, so it
# is an option every game carries.
NMR_OPTION = Option("autoplay", ("autoplay", "wait", "forfeit", "robot"),
                    "what a missed deadline does: play default orders, wait, forfeit the turn, or let the "
                    "strong robot play the move")


@dataclass(frozen=True)
class CountOption(Option):
    """An option that is a whole number from 0 to `most` (0: the rule is off)."""
    most: int = 99

    def coerce(self, key: str, value: Any) -> Any:
        text = str(value).strip() if not isinstance(value, (bool, list, tuple, dict)) else ""
        if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) <= self.most:
            return int(text)
        raise BadOption(f"option {key}: expected a whole number from 0 to {self.most} (0: never), "
                        f"got {written(value)}")


# Options the GM reads for every game, whatever its rules (CONTRACT section 14). A game keeps one
# only when it was given, so a game made without them has the options it always had.
COMMON_OPTIONS: dict[str, Option] = {
    "takeover_after": CountOption(0, doc="after this many missed deadlines in a row of one seat, the strong robot "
                                         "plays it until its player writes again (0: never)", most=99),
}


@mypyc_attr(allow_interpreted_subclasses=True)
class GameState:
    """The protocol of a game in progress. Seats are numbered 0..n-1 in the order of `names`.

    What the rest of pbem reads of an engine is declared here (and, for the engines of one
    pacing, in `TurnByTurn` and `TossGame` below); nothing outside `pbem.games` reads more."""

    TYPE: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 1
    OPTIONS: ClassVar[dict[str, Option]] = {"nmr": NMR_OPTION}

    # The players' names by seat (a replacement's name is written in by the GM), and the game's
    # options with every default written out, as the game was made with them.
    names: list[str]
    options: dict[str, Any]

    # What `copy` and `pickle` take of a state and give back: every attribute. As Python runs it
    # these are what the default does (the instance's `__dict__`). Compiled (the optional build,
    # scripts/native.py), this class and `TurnByTurn` keep the attributes they declare apart
    # from an interpreted game's own `__dict__`, and the compiled default would copy only them.
    def __getstate__(self) -> dict[str, Any]:
        state: dict[str, Any] = dict(getattr(self, "__dict__", None) or {})
        for name in getattr(type(self), "__mypyc_attrs__", ()):
            if name != "__dict__" and name not in state and hasattr(self, name):
                state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    @classmethod
    def seat_options(cls, options: dict, names: list[str], addresses: list[str]) -> dict:
        """The options with any that name players by address rewritten by seat (the engine
        never sees an address)."""
        return options

    @classmethod
    def options_with_defaults(cls, given: dict[str, Any]) -> dict[str, Any]:
        every = {**cls.OPTIONS, **COMMON_OPTIONS}
        unknown = sorted(set(given) - set(every))
        if unknown:
            known = ", ".join(sorted(every))
            raise BadOption(f"unknown option {written(unknown[0])} for {cls.TYPE}; known: {known}")
        out = {k: o.default for k, o in cls.OPTIONS.items()}
        for k, v in given.items():
            out[k] = every[k].coerce(k, v)
        return out

    @classmethod
    def check_options(cls, given: dict[str, Any]) -> None:
        """Refuse a new game's options (a ValueError, one line) when two that the GM set
        contradict each other, so no game starts on a rule that another option silently
        overrides. At creation only: a stored game replays with every option written out,
        defaults included, and a default beside a chosen option is no contradiction."""
        options = cls.options_with_defaults(given)
        problem = cls.contradiction(options, set(given))
        if problem:
            raise BadOption(problem)

    @classmethod
    def contradiction(cls, options: dict[str, Any], given: set[str]) -> str | None:
        """Why the options contradict each other (`given`: the keys the GM set), or None."""
        return None

    # The protocol; each game implements all of it.
    @classmethod
    def new(cls, names: list[str], options: dict, seed: bytes, course) -> GameState:
        """A new game on `seed`, the game's secret bytes: all its chance comes from
        `rng.game_generator(seed)` (which also reads a whole number N as `rng.seed_from_int(N)`,
        for tests; the GM hands every engine bytes)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def to_move(self) -> AbstractSet[int]:
        """The seats that owe orders now (a set, read only: an engine may hand out a shared one)."""
        raise NotImplementedError

    def check(self, seat: int, command) -> None:
        raise NotImplementedError

    def refuse_out_of_play(self, seat: int, command, *, seat_rule: str, resigned_rule: str) -> None:
        """The refusals every engine's check starts with: the game is over, there is no such
        seat, or the seat has resigned (RESIGN included: once is enough). The state keeps
        `_result`, `n` and `resigned`; the rules are cited as the game's own text words them."""
        state = cast(_Seated, self)
        if state._result is not None:
            raise IllegalOrder(f"the game is over ({state._result.line})", rule=RULE_OVER)
        if type(seat) is not int or not 0 <= seat < state.n:
            raise IllegalOrder(f"there is no seat {seat} in this game", rule=seat_rule)
        if state.resigned[seat]:
            raise IllegalOrder("you have resigned already" if type(command) is Resign else
                               "you have resigned from this game", rule=resigned_rule)

    def apply(self, seat: int, command) -> None:
        raise NotImplementedError

    def ready(self) -> bool:
        """True when every order the current turn needs is in."""
        raise NotImplementedError

    def resolve(self) -> list[dict]:
        raise NotImplementedError

    def drain_events(self) -> list[dict]:
        """The events since the last call, oldest first (and forget them): what the GM tells the
        players of the orders just played. A game whose turns resolve together has none: what
        a turn did is what `resolve` returns."""
        return []

    def chance_record(self) -> list:
        """Every draw of chance so far (deals, shuffles, dice), as the game records them: what
        `pbem verify` compares between a stored game and its replay."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        """What `seat` may see; None is the GM, who sees everything. A seat's view carries
        `events`, the game's public record so far as that seat's own mail has told it
        (`events.told`); the GM's does not (the store's history is the GM's record), nor does
        a spectator's (`PUBLIC_VIEW` does not name it)."""
        raise NotImplementedError

    # The keys of `view` whose values every player sees alike and which give away nobody's
    # secret. A spectator's view is made of these alone, so a key added to `view` later stays
    # out of a spectator's mail until it is named here.
    PUBLIC_VIEW: ClassVar[tuple[str, ...]] = ()

    def spectator_view(self) -> dict:
        """What every player may know, and nothing else: no hand, no face-down card, no drawn
        card, no order of a turn still open, no standing policy. `seat` is None: nobody's.
        A game whose public part must be worked out (cards shown face down) adds it."""
        everything = self.view(None)
        public = {key: everything[key] for key in self.PUBLIC_VIEW}
        public["seat"] = None
        return public

    def default_orders(self, seat: int):
        raise NotImplementedError

    def legal_orders(self, seat: int) -> list[str] | None:
        """Every order `seat` may give now, each as the one line a player would mail (the
        commands of one move joined by `MOVE_JOIN`), read by the game's grammar and played by
        `apply` as it stands; an empty list when the seat owes nothing now. None where the game
        cannot list them (each engine says why). RESIGN, every game's, is not listed."""
        raise NotImplementedError

    def nmr_orders(self, seat: int, policy: str):
        """The orders a missed deadline plays under `policy` (autoplay by default)."""
        return self.default_orders(seat)

    @classmethod
    def command_from_text(cls, text: str):
        """Read back the canonical text of a command (`str(command)`), as events store it."""
        raise NotImplementedError

    def narrate(self, events: list[dict]) -> list[dict]:
        """`events` with their words written (in place): every `played` event's `text` for
        everyone and `own` for its player. An engine that writes them as it plays returns
        them as they are; the card games write them only when asked, so that bots and
        replays, which read none, do not pay for them."""
        return events

    def result(self) -> Result | None:
        raise NotImplementedError

    def scores(self) -> list:
        """Each seat's score as the game counts it (holes won, points ...), for standings and JSON."""
        raise NotImplementedError

    @property
    def turn(self) -> int:
        raise NotImplementedError

    def turn_holes(self) -> tuple[int, ...]:
        """The holes the turn open now plays, in order (the mail names them to a player whose
        orders were written for another turn)."""
        raise NotImplementedError


class _Seated(Protocol):
    """What `GameState.refuse_out_of_play` reads of a state (MatchPlay, which never calls it,
    keeps no `n` nor `resigned`)."""
    _result: Result | None
    n: int
    resigned: list[bool]


@mypyc_attr(allow_interpreted_subclasses=True)
class TurnByTurn(GameState):
    """A game whose turns go round the table (the card games, On Par): each action takes effect
    inside `apply`, nothing waits to be resolved, and the GM learns what happened from
    `drain_events` (the words of a move from `narrate`). Subclasses keep `events`, `totals`,
    `holes` (each finished hole, with its `hole` and `scores` seat by seat), `_result`, `_turn`
    and `hole_no`."""

    events: list
    totals: list
    holes: list[dict]
    _result: Result | None
    _turn: int
    hole_no: int

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def hole(self) -> int:
        """The hole in play (the last one, once the game is over)."""
        return self.hole_no

    def turn_holes(self) -> tuple[int, ...]:
        return (self.hole_no,)  # a turn is one player's move, on the hole in play

    def hole_scores(self) -> dict[int, list]:
        """Each finished hole's scores, seat by seat, by the hole's number."""
        return {h["hole"]: list(h["scores"]) for h in self.holes}

    def ready(self) -> bool:
        return False

    def resolve(self) -> list[dict]:
        return []

    def result(self) -> Result | None:
        return self._result

    def scores(self) -> list:
        return list(self.totals)

    def drain_events(self) -> list[dict]:
        """The events since the last call, oldest first (and forget them). A `played` event
        may hold only the facts of its move (`say`) until `narrate` writes its words."""
        out, self.events = self.events, []
        return out

    # -- suggestions ------------------------------------------------------------------------
    # An error's hint must be an order the player can send as it stands. The engine writes it
    # where the rule broke, but a mail's second order (KEEP after DRAW STOCK) is checked on a
    # copy that has the first one played: `check` leaves the error a `suggest` that answers for
    # the game as it really is, and falls back on a legal order of its own. (None by default: a
    # game without a drawn card, On Par, need not set it; compiled, the default is the instance's.)
    drawn: str | None = None

    def check(self, seat: int, command) -> None:
        try:
            self.check_order(seat, command)
        except OrderError as e:
            if e.suggest is None:
                e.suggest = _suggester(e.hint, self.drawn is not None)
            raise

    def check_order(self, seat: int, command) -> None:
        raise NotImplementedError

    def suggestion(self, seat: int, word: str | None = None) -> str | None:
        """A legal order for `seat` now, of the kind `word` names (the first word of a line that
        could not be read) where one is legal, else the GM's own choice; None when `seat` owes
        nothing."""
        if self._result is not None or seat not in self.to_move():
            return None
        for order in self.orders_like(seat, word):
            if self.accepts(seat, str(order)):
                return str(order)
        default = self.default_orders(seat)
        return None if default is None else str(default)

    def orders_like(self, seat: int, word: str | None) -> list:
        """Orders of the kind `word` names, the likeliest first (they are checked after)."""
        return []

    def accepts(self, seat: int, text: str) -> bool:
        """Whether `text`, one order a line in canonical form, would be played as it stands."""
        trial = type(self).from_dict(self.to_dict())
        try:
            for line in text.splitlines():
                trial.apply(seat, trial.command_from_text(line.strip()))
        except (OrderError, ValueError, IndexError):
            return False
        return True


def _suggester(hint: str | None, after_draw: bool):
    """The `suggest` of an engine error: `hint` where it is legal in the real game (with the draw
    in front when the error came after a DRAW STOCK of the same mail), else the game's own."""
    def suggest(state: TurnByTurn, seat: int) -> str | None:
        if state.result() is not None or seat not in state.to_move():
            return None
        if hint:
            wanted = "DRAW STOCK\n" + hint if after_draw and state.drawn is None else hint
            if state.accepts(seat, wanted):
                return wanted
        return state.suggestion(seat)
    return suggest


class TossGame(Protocol):
    """A game played by tosses (dice golf): every seat plays the same hole at once, each
    answering the tosses the game makes for it, and the hole resolves when every seat has
    finished it. Beyond `GameState`, the toss flow reads the events of the tosses, each seat's
    sheet and the toss that waits for a seat."""
    names: list[str]

    @property
    def turn(self) -> int: ...

    def to_move(self) -> AbstractSet[int]: ...

    def apply(self, seat: int, command) -> None: ...

    def ready(self) -> bool: ...

    def resolve(self) -> list[dict]: ...

    def result(self) -> Result | None: ...

    def drain_events(self) -> list[dict]: ...

    def sheet(self, seat: int, hole: int) -> dict | None:
        """One hole of `seat`'s score sheet (None: not begun)."""
        ...

    def position(self, seat: int) -> tuple[int, int, int, tuple[int, int]]:
        """The toss that waits for `seat`: (flag, total entered before it, its number, its dice)."""
        ...
