"""Dice golf (`dicegolf`): one to four players, seven holes, two dice, the lowest total wins.

Each hole has a flag number. A player has up to four tosses of two dice to bring the hole's
total to the flag: a toss whose sum, or either die, makes the total equal the flag completes the
hole at once (on the first toss only the sum counts, unless `lenient_first`). Any other toss
must be entered: the sum or one die, so long as the total stays below the flag, or `X` when
nothing fits. The toss that completes the hole gives its score: -2, 0, +1, +2, and +4 for a
hole still open after four tosses. Players do not meet on the course, so all play the same
hole at once; it resolves when every player has finished it, and the next hole opens.

Decisions where the seed text, RULES.md and CONTRACT.md leave room:

- The standing policy starts as ASK (CONTRACT section 8; RULES.md says BEST, the contract
  wins). A missed deadline plays the waiting toss and the rest of that hole by BEST
  (`Autoplay`), without changing the player's policy; under `nmr=forfeit` the hole is given up
  at +4 (`ForfeitHole`).
- Only a real choice waits for the player. A toss that completes the hole, fits nothing (X),
  fits one value only, or is the fourth and misses, is entered at once. On a missed fourth toss
  the entry can no longer matter: the largest value that fits is written (X when none does).
- A policy other than ASK answers a toss waiting when it is set, the rest of the hole, and
  every later hole; POLICY ASK takes effect from the next toss that needs a choice.
- `turn` is the number of the hole in play.
- Flags: the `flags` option when it is set, else the course template's `dicegolf: flags`, else
  `7 4 10 5 9 6 8`. `flags=random` makes each flag the sum of two dice, rolled before the
  first toss.
- RESIGN takes the seat out of play: its sheet stays as it is (a hole it left stays open, a
  toss it left unanswered stays blank) and it cannot win. A game of one ends at once; a game of
  more ends when one seat is left in play, and that seat wins on its total so far.
- The hole in play is played at once by everyone, each on their own: a player's tosses of it
  are shown to them alone (and the GM) until the hole closes, when every sheet shows it; the
  totals every view shares are those of the closed holes. So nobody chooses an entry knowing
  what another made of the same hole. A seat's standing policy is shown only to that seat. The
  tosses rolled ahead (below) are not shown: they are the seed's, and come out with it.
- The record every seat's view carries (`events`, `pbem.games.events`) keeps to the same line:
  each hole's flag and end, and a resignation or a hole given up at the deadline, are everyone's
  at once; a toss, an entry and a finished hole are their player's until the hole closes, and
  who chose an entry (a policy, the player, the deadline) and a standing policy their player's
  alone.

Chance (README, "Provable fairness"): every die is `die()` of the game's `rng.Generator`, one
after the other in this order. With `flags=random`, first the flags: hole 1 to 7, each two dice
whose sum is the flag. Then, as each hole opens (hole 1 when the game is made, the next when the
last one is resolved), every seat's four tosses of that hole, rolled ahead: seat 1 to n in seat
order (a seat that has resigned too), for each seat toss 1 to 4, for each toss the first die
then the second. A toss uses its dice when the seat comes to it; the tosses a hole does not need
are rolled all the same. So the dice of seat s on hole h are fixed by the seed, the number of
players and the flags option alone, whatever order the players' mails come in. `chance_record()`
lists every die drawn, in this order.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from collections.abc import Sequence

from pbem.games.dicegolf import best
from pbem.games import rng as fair
from pbem.games import base
from pbem.games.base import NMR_OPTION, GameState, Option, Resign, Result, written
from pbem.games.events import OWN, PRIVATE, GameEvent, told
from pbem.games.dicegolf.sheets import Sheets
from pbem.games.errors import BadOption, BadOrderText, GameRefused, IllegalOrder, NotReady
from pbem.games.scoring import share_the_win

HOLES = 7
DEFAULT_FLAGS = (7, 4, 10, 5, 9, 6, 8)
TOSSES = best.TOSSES
HOLE_SCORES = best.HOLE_SCORES
FAILED = best.FAILED
POLICIES = best.POLICIES
# Ranks for a player on their own: (highest total of the rank, its name).
RANKS = ((7, "Master's"), (12, "Pro"))
RANK_OVER = "Amateur"

# The kinds of the events, bound once: an enum member read off its class costs a lookup a time
# (some 100 ns on Python 3.11, as much as building a small dict), and moves are the hot path.
_ASK, _COACH, _ENTRY = GameEvent.ASK, GameEvent.COACH, GameEvent.ENTRY
_FORFEIT, _GAME_END, _HOLED = GameEvent.FORFEIT, GameEvent.GAME_END, GameEvent.HOLED
_HOLE_END, _HOLE_START, _POLICY = GameEvent.HOLE_END, GameEvent.HOLE_START, GameEvent.POLICY
_RESIGNED, _TOSS = GameEvent.RESIGNED, GameEvent.TOSS
# The record's entries of a player's card: theirs alone until the hole closes.
_ON_THE_CARD = frozenset((_TOSS, _ENTRY, _HOLED))

RULE_OVER = base.RULE_OVER
RULE_SEAT = "only the players of this game send orders"
RULE_RESIGNED = "a player who has resigned plays no more"
RULE_FOREIGN = "only the orders of dice golf"
RULE_NO_TOSS = "ENTER answers a toss that waits for you"
RULE_SHOWN = "an entry is the sum of the toss or the value of one die"
RULE_BELOW = "an entry keeps the hole's total below the flag"
RULE_X = "X is entered only when nothing fits"
RULE_POLICY = "a policy is ASK, BEST, HIGH or LOW"


@dataclass(frozen=True)
class Enter:
    """The answer to a waiting toss: SUM, DIE1, DIE2, X or a value the dice show."""
    choice: str | int

    def __str__(self) -> str:
        return f"ENTER {self.choice}"


@dataclass(frozen=True)
class Policy:
    """A standing answer for every later toss: ASK (mail me), BEST, HIGH or LOW."""
    kind: str

    def __str__(self) -> str:
        return f"POLICY {self.kind}"


@dataclass(frozen=True)
class Autoplay:
    """A missed deadline: the waiting toss and the rest of the hole are played by BEST."""

    def __str__(self) -> str:
        return "AUTOPLAY BEST"


@dataclass(frozen=True)
class ForfeitHole:
    """A missed deadline under `nmr=forfeit`: the hole is given up at +4."""

    def __str__(self) -> str:
        return "FORFEIT HOLE"


def rank(total: int) -> str:
    """The solitaire rank of a seven-hole total."""
    return next((name for top, name in RANKS if total <= top), RANK_OVER)


def read_flags(value, course=None) -> list[int] | None:
    """The seven flags the `flags` option (or else the course) gives; None for `random`."""
    if value is None or str(value).lower() == "course":
        extras = getattr(course, "extras", {}) or {}
        value = (extras.get("dicegolf") or {}).get("flags", DEFAULT_FLAGS)
    given = value
    if isinstance(value, str):
        if value.strip().lower() == "random":
            return None
        value = value.replace(",", " ").split()
    try:
        flags = [int(str(f).strip()) for f in value]
    except (TypeError, ValueError):
        flags = []
    if len(flags) != HOLES or any(not 2 <= f <= 12 for f in flags):
        raise BadOption(f"option flags: expected seven numbers from 2 to 12 (e.g. "
                        f"{','.join(map(str, DEFAULT_FLAGS))}) or random, got {written(given)}")
    return flags


class DiceGolf(Sheets, GameState):
    TYPE = "dicegolf"
    TITLE = "Dice Golf"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 4
    OPTIONS = {
        "nmr": NMR_OPTION,
        "flags": Option("course", (), "the seven flags (numbers 2-12, e.g. 7,4,10,5,9,6,8), random "
                                      "(each the sum of two dice), or course (the course's, else those)"),
        "lenient_first": Option(False, (False, True), "true: on the first toss one die equal to the "
                                                      "flag is a hole-in-one too"),
    }
    # The holes every player has finished are on the table. The hole in play is each player's
    # own until it closes (everyone plays it at once, as the rules play it: nobody tees off
    # knowing what the others made of it); a standing policy and the coaching are their
    # player's own too.
    PUBLIC_VIEW = ("game", "names", "hole", "holes", "flags", "flag", "turn", "lenient_first", "to_move",
                   "sheets", "totals", "resigned", "finished", "result")

    def __init__(self, names: Sequence[str], options: dict, flags: Sequence[int], rng: fair.Generator):
        self.names = list(names)
        self.n = len(self.names)
        self.options = dict(options)
        self.lenient = bool(self.options.get("lenient_first", False))
        self.flags = list(flags)
        self.rng = rng
        self.hole_no = 1
        self.policies = ["ASK"] * self.n
        # Per seat, one record per hole begun: {"flag", "tosses": [{"dice", "entry", "by"}],
        # "score"}; `by` says who chose the entry: auto (no choice), hand, a policy, deadline.
        self.scorecards: list[list[dict]] = [[] for _ in self.names]
        self.holes: list[dict] = []  # the resolved holes: {"hole", "flag", "scores", "totals"}
        self.resigned = [False] * self.n
        self.ahead: list[list[list[int]]] = [[] for _ in self.names]  # each seat's 4 tosses of the hole
        self.chance: list[dict] = []  # every pair of dice drawn, in order (`chance_record`)
        self.events: list[dict] = []
        # The public record (`events.told`): a few entries a toss, a toss's and an entry's as a
        # short list (`[kind, seat, hole, toss, ...]`, written out by `_expanded` when a view reads it).
        self.log: list = []
        self._result: Result | None = None

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course=None) -> DiceGolf:
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise GameRefused(f"{cls.TITLE} is a game for 1 to 4 players, not {len(names)}")
        opts = cls.options_with_defaults(dict(options or {}))
        flags = read_flags(opts["flags"], course)
        state = cls(names, opts, flags or [], fair.game_generator(seed))
        if flags is None:
            state._roll_flags()
        state._open_hole()
        return state

    def _roll(self) -> int:
        """One die. Every bit of chance in the game comes through here, from the game's
        generator (its state is stored with the game)."""
        return self.rng.die()

    def _roll_flags(self) -> None:
        for hole in range(1, HOLES + 1):
            dice = [self._roll(), self._roll()]
            self.flags.append(sum(dice))
            self.chance.append({"hole": hole, "flag": dice})

    def _roll_hole(self) -> None:
        """Every seat's four tosses of the hole that opens, before anyone tosses (module doc)."""
        for seat in range(self.n):
            self.ahead[seat] = [[self._roll(), self._roll()] for _ in range(TOSSES)]
            self.chance += [{"hole": self.hole_no, "seat": seat, "player": self.names[seat], "toss": toss,
                             "dice": list(dice)} for toss, dice in enumerate(self.ahead[seat], start=1)]

    def _toss_dice(self, seat: int, toss_no: int) -> tuple[int, int]:
        a, b = self.ahead[seat][toss_no - 1]
        return a, b

    def chance_record(self) -> list[dict]:
        """Every draw of chance, in the order drawn: `{"hole", "flag": [die, die]}` for a flag
        of `flags=random`, `{"hole", "seat", "player", "toss", "dice": [die, die]}` for a toss
        (rolled ahead, used or not). It holds tosses not yet made: for a finished game."""
        return copy.deepcopy(self.chance)

    def to_dict(self) -> dict:
        return {
            "names": list(self.names), "options": copy.deepcopy(self.options), "flags": list(self.flags),
            "rng": self.rng.state(), "hole": self.hole_no, "policies": list(self.policies),
            "scorecards": copy.deepcopy(self.scorecards), "holes": copy.deepcopy(self.holes),
            "resigned": list(self.resigned), "ahead": copy.deepcopy(self.ahead),
            "chance": copy.deepcopy(self.chance), "events": copy.deepcopy(self.events), "log": list(self.log),
            "result": self._result.to_dict() if self._result else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> DiceGolf:
        s = cls(d["names"], d["options"], d["flags"], fair.stored_generator(d["rng"], cls.TYPE))
        s.ahead = copy.deepcopy(d["ahead"])
        s.chance = copy.deepcopy(d["chance"])
        s.hole_no = d["hole"]
        s.policies = list(d["policies"])
        s.scorecards = copy.deepcopy(d["scorecards"])
        s.holes = copy.deepcopy(d["holes"])
        s.resigned = list(d["resigned"])
        s.events = copy.deepcopy(d["events"])
        s.log = list(d.get("log", ()))  # a game stored before the record began has none so far
        s._result = Result.from_dict(d["result"])
        return s

    @classmethod
    def command_from_text(cls, text: str):
        """The command whose `str()` is `text` (events store commands that way)."""
        words = text.split()
        if text == "RESIGN":
            return Resign()
        if text == str(Autoplay()):
            return Autoplay()
        if text == str(ForfeitHole()):
            return ForfeitHole()
        if len(words) == 2 and words[0] == "POLICY":
            return Policy(words[1])
        if len(words) == 2 and words[0] == "ENTER":
            return Enter(int(words[1]) if words[1].isdigit() else words[1])
        raise BadOrderText(f"not a dice golf order: {written(text)}")

    # -- the protocol ---------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.hole_no

    @property
    def hole(self) -> int:
        return self.hole_no

    def turn_holes(self) -> tuple[int, ...]:
        return (self.hole_no,)  # a turn is a hole, its tosses as they come

    @property
    def finished(self) -> bool:
        return self._result is not None

    def to_move(self) -> set[int]:
        if self._result is not None:
            return set()
        return {s for s in range(self.n) if self.waiting(s) is not None}

    def ready(self) -> bool:
        """True when every seat in play has finished the hole."""
        if self._result is not None:
            return False
        active = self._active()
        return bool(active) and all(self._card(s)["score"] is not None for s in active)

    def resolve(self) -> list[dict]:
        """Close the hole every seat has finished and open the next (or end the game)."""
        if not self.ready():
            raise NotReady("resolve() before every player has finished the hole")
        hole, flag = self.hole_no, self.flag
        scores, totals = [self._score_of(s, hole) for s in range(self.n)], self.totals()
        row = {"hole": hole, "flag": flag, "scores": scores, "totals": totals}
        self.holes.append(row)
        # The event and the record each hold their own copy of the row's lists (numbers only).
        self.events.append({"kind": _HOLE_END, "hole": hole, "flag": flag, "scores": scores[:],
                            "totals": totals[:], "sheets": [self.sheet(s, hole) for s in range(self.n)]})
        self.log.append({"kind": _HOLE_END, "hole": hole, "flag": flag, "scores": scores[:],
                         "totals": totals[:]})
        if self.hole_no == HOLES:
            self._finish()
        else:
            self.hole_no += 1
            self._open_hole()
        return [row]

    def check(self, seat: int, command) -> None:
        self.refuse_out_of_play(seat, command, seat_rule=RULE_SEAT, resigned_rule=RULE_RESIGNED)
        t = type(command)
        if t is Enter:
            self.entry_value(seat, command)
        elif t is Policy:
            if command.kind not in POLICIES:
                raise IllegalOrder(f"there is no policy {written(command.kind, quoted=False)}", rule=RULE_POLICY,
                                   hint="POLICY BEST")
        elif t in (Autoplay, ForfeitHole):
            self._waiting_toss(seat, command)
        elif t is not Resign:
            raise IllegalOrder(f"{command} is not an order of dice golf", rule=RULE_FOREIGN,
                               hint=self.suggestion(seat))

    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        t = type(command)
        if t is Enter:
            self._enter(seat, self.entry_value(seat, command), "hand")
            self._play_on(seat)
        elif t is Policy:
            self.policies[seat] = command.kind
            self.events.append({"kind": _POLICY, "seat": seat, "policy": command.kind})
            self.log.append({"kind": _POLICY, "seat": seat, "policy": command.kind, PRIVATE: True})
            if command.kind != "ASK" and self.waiting(seat) is not None:
                self._play_on(seat)
        elif t is Autoplay:
            self._play_on(seat, "BEST", "deadline")
        elif t is ForfeitHole:
            self._forfeit(seat)
        else:
            self._resign(seat)

    def view(self, seat: int | None) -> dict:
        """What `seat` may see (None: the GM, everything). `sheets` and `totals` hold the holes
        that have closed, alike for everyone; `playing` and `waiting` the hole in play, for the
        reader's own seat only."""
        seats = range(self.n) if seat is None else (seat,)
        events = {} if seat is None else {"events": told(map(_expanded, self.log), seat, self._in_play)}
        return {
            "game": self.TYPE, "names": list(self.names), "seat": seat, "hole": self.hole_no,
            "holes": HOLES, "flags": list(self.flags), "flag": self.flag, "turn": self.hole_no,
            "lenient_first": self.lenient, "to_move": sorted(self.to_move()),
            "sheets": self.closed_sheets(), "totals": self.closed_totals(), "resigned": list(self.resigned),
            "finished": [list(r["scores"]) for r in self.holes],
            "playing": [self.sheet_in_play(s) if s in seats else None for s in range(self.n)],
            "waiting": [self.toss_view(s) if s in seats else None for s in range(self.n)],
            "policies": [self.policies[s] if s in seats else None for s in range(self.n)],
            "coaching": [self.coaching_view(s) if s in seats else None for s in range(self.n)],
            "result": self._result.line if self._result is not None else None,
            **events,
        }

    def _in_play(self, entry: dict) -> bool:
        """An entry of the record about a hole not yet closed, which only its player has seen."""
        return entry["kind"] in _ON_THE_CARD and entry["hole"] > len(self.holes) and self._result is None

    def legal_orders(self, seat: int) -> list[str]:
        """The entries `seat` may make on the toss that waits for it, largest first (`choices`).
        A POLICY is always open to a player too, but it is a standing instruction for every
        toss to come rather than this toss's answer, so it is not listed."""
        return [c["order"] for c in self.choices(seat)]

    def default_orders(self, seat: int):
        """What a missed deadline plays for `seat` (None when no toss waits for it)."""
        return Autoplay() if seat in self.to_move() else None

    def nmr_orders(self, seat: int, policy: str):
        return ForfeitHole() if policy == "forfeit" else Autoplay()

    def result(self) -> Result | None:
        return self._result

    def drain_events(self) -> list[dict]:
        """The events since the last call, oldest first (and forget them)."""
        out, self.events = self.events, []
        return out

    def scores(self) -> list[int]:
        return self.totals()

    # -- what the GM asks -----------------------------------------------------------------
    @property
    def flag(self) -> int:
        return self.flags[self.hole_no - 1]

    def totals(self) -> list[int]:
        return [sum(c["score"] for c in cards if c["score"] is not None) for cards in self.scorecards]

    def waiting(self, seat: int) -> dict | None:
        """The toss that waits for `seat`'s answer, or None."""
        if self.resigned[seat] or not self.scorecards[seat]:
            return None
        card = self.scorecards[seat][-1]
        if card["score"] is not None or len(self.scorecards[seat]) != self.hole_no:
            return None
        toss = card["tosses"][-1] if card["tosses"] else None
        return toss if toss is not None and toss["entry"] is None else None

    def position(self, seat: int) -> tuple[int, int, int, tuple[int, int]]:
        """(flag, total entered before the waiting toss, its number, its dice)."""
        card = self._card(seat)
        toss = card["tosses"][-1]
        return card["flag"], _total(card), len(card["tosses"]), tuple(toss["dice"])

    def choices(self, seat: int) -> list[dict]:
        """The legal entries for `seat`'s waiting toss, largest first: the order, the value, the
        names that show it, the total and what it leaves to the flag, the exact expected hole
        score under perfect play afterwards, and whether it is the best."""
        if self.waiting(seat) is None:
            return []
        return [{"order": order, "value": v, "names": list(names), "total": total, "to_go": to_go,
                 "expected": expected, "best": top}
                for order, v, names, total, to_go, expected, top in _choices(*self.position(seat), self.lenient)]

    def toss_view(self, seat: int) -> dict | None:
        """A waiting toss as plain data (floats for the expected scores), or None."""
        if self.waiting(seat) is None:
            return None
        flag, total, toss, dice = self.position(seat)
        return {"hole": self.hole_no, "toss": toss, "flag": flag, "total": total, "dice": list(dice),
                "choices": [{**c, "expected": float(c["expected"])} for c in self.choices(seat)]}

    def suggestion(self, seat: int, word: str | None = None) -> str | None:
        """A legal order for `seat` now, of the kind `word` names (the first word of a line that
        could not be read): POLICY BEST for a POLICY, else the best answer to the waiting toss;
        None when no such order would be right."""
        if self._result is not None or self.resigned[seat]:
            return None
        if word == "POLICY":
            return str(Policy("BEST"))
        return next((c["order"] for c in self.choices(seat) if c["best"]), None)

    def coaching(self, seat: int) -> list[dict]:
        """Every toss `seat` answered by hand: what they entered and its expected hole score,
        against the best entry and its expected hole score (exact), and the difference."""
        out = []
        for hole, card in enumerate(self.scorecards[seat], start=1):
            total = 0
            for toss_no, toss in enumerate(card["tosses"], start=1):
                if toss["by"] == "hand":
                    judged = best.coach(card["flag"], total, toss_no, toss["dice"], toss["entry"], self.lenient)
                    out.append({"hole": hole, "toss": toss_no, **judged})
                if isinstance(toss["entry"], int):
                    total += toss["entry"]
        return out

    def expected_loss(self, seat: int) -> Fraction:
        """How much `seat`'s own choices cost in expected strokes against perfect play."""
        return sum((c["loss"] for c in self.coaching(seat)), Fraction(0))

    def coaching_view(self, seat: int) -> dict:
        coaching = self.coaching(seat)
        return {"tosses": [_plain(c) for c in coaching],
                "expected_loss": float(sum((c["loss"] for c in coaching), Fraction(0)))}

    def entry_value(self, seat: int, command: Enter) -> int:
        """The value `command` enters on `seat`'s waiting toss; IllegalOrder names the rule."""
        flag, total, toss, dice = self._waiting_toss(seat, command)
        choice = command.choice
        if choice == "X":
            raise IllegalOrder(f"{self._fits(seat)}, so X cannot be entered", rule=RULE_X,
                               hint=self.suggestion(seat))
        value = best.shown_value(choice, dice)
        if value is None:
            raise IllegalOrder(f"you rolled {dice[0]} and {dice[1]} (sum {sum(dice)}): there is no {choice} to "
                               f"enter; {self._fits(seat)}", rule=RULE_SHOWN, hint=self.suggestion(seat))
        # A value that reaches the flag exactly completes the hole by itself, so never waits here.
        if total + value >= flag:
            raise IllegalOrder(f"entering {value} would make the hole's total {total + value}, over the flag "
                               f"{flag}; {self._fits(seat)}", rule=RULE_BELOW, hint=self.suggestion(seat))
        return value

    # -- play -----------------------------------------------------------------------------
    def _active(self) -> list[int]:
        return [s for s in range(self.n) if not self.resigned[s]]

    def _card(self, seat: int) -> dict:
        return self.scorecards[seat][-1]

    def _score_of(self, seat: int, hole: int) -> int | None:
        cards = self.scorecards[seat]
        return cards[hole - 1]["score"] if hole <= len(cards) else None

    def _waiting_toss(self, seat: int, command) -> tuple[int, int, int, tuple[int, int]]:
        if self.waiting(seat) is None:
            raise IllegalOrder(f"{command}: no toss waits for your answer; {self._why_no_toss(seat)}",
                               rule=RULE_NO_TOSS, hint=self.suggestion(seat))
        return self.position(seat)

    def _why_no_toss(self, seat: int) -> str:
        done = f"you have finished hole {self.hole_no}"
        others = [self.names[s] for s in sorted(self.to_move())]
        if not others:
            return done
        verb = "has" if len(others) == 1 else "have"
        if self.hole_no == HOLES:
            return f"{done}, the last; the game ends when {_listed(others)} {verb} finished it"
        return f"{done}; hole {self.hole_no + 1} opens when {_listed(others)} {verb} finished it"

    def _fits(self, seat: int) -> str:
        values = [c["value"] for c in self.choices(seat)]
        return f"you can enter {_listed([str(v) for v in values], 'or')}"

    def _open_hole(self) -> None:
        flag = self.flag
        self._roll_hole()
        self.events.append({"kind": _HOLE_START, "hole": self.hole_no, "flag": flag})
        self.log.append({"kind": _HOLE_START, "hole": self.hole_no, "flag": flag})
        for s in self._active():
            self.scorecards[s].append({"flag": flag, "tosses": [], "score": None})
            self._play_on(s)

    def _play_on(self, seat: int, kind: str | None = None, by: str | None = None) -> None:
        """Toss and enter for `seat` until the hole is finished or a toss waits for a choice:
        `kind` (with `by` naming it) plays instead of the seat's standing policy."""
        card = self._card(seat)
        while card["score"] is None:
            tosses = card["tosses"]
            if not tosses or tosses[-1]["entry"] is not None:
                self._toss(seat, card)
                continue
            policy = kind or self.policies[seat]
            if policy == "ASK":
                waiting = self.toss_view(seat)
                assert waiting is not None  # the toss above waits for its entry
                self.events.append({"kind": _ASK, "seat": seat, **waiting})
                return
            flag, total, toss_no, dice = self.position(seat)
            self._enter(seat, best.choose(policy, flag, total, toss_no, dice, self.lenient), by or policy)

    def _toss(self, seat: int, card: dict) -> None:
        """Roll the next toss and enter it at once when the rules leave no choice."""
        flag, total, toss_no = card["flag"], _total(card), len(card["tosses"]) + 1
        dice = self._toss_dice(seat, toss_no)
        toss: dict[str, object] = {"dice": list(dice), "entry": None, "by": None}
        card["tosses"].append(toss)
        done = best.completing_value(flag, total, toss_no, dice, self.lenient)
        values = best.entries(flag, total, dice)
        if done is not None:
            toss["entry"], toss["by"], card["score"] = done, "auto", HOLE_SCORES[toss_no]
        elif toss_no == TOSSES:
            toss["entry"], toss["by"], card["score"] = values[-1] if values else "X", "auto", FAILED
        elif len(values) < 2:
            toss["entry"], toss["by"] = values[0] if values else "X", "auto"
        shown = list(dice)
        self.events.append({"kind": _TOSS, "seat": seat, "hole": self.hole_no, "toss": toss_no, "flag": flag,
                            "total": total, "dice": shown, "entry": toss["entry"], "by": toss["by"]})
        self.log.append([_TOSS, seat, self.hole_no, toss_no, shown, toss["entry"], toss["by"]])
        self._holed(seat, card)

    def _enter(self, seat: int, value: int | None, by: str) -> None:
        card = self._card(seat)
        toss = card["tosses"][-1]
        toss["entry"], toss["by"] = ("X" if value is None else value), by
        hole, toss_no = self.hole_no, len(card["tosses"])
        self.events.append({"kind": _ENTRY, "seat": seat, "hole": hole, "toss": toss_no, "dice": list(toss["dice"]),
                            "entry": toss["entry"], "by": by, "total": _total(card)})
        self.log.append([_ENTRY, seat, hole, toss_no, toss["entry"], by])
        if by == "hand":
            total = _total(card) - (value or 0)
            coach = best.coach(card["flag"], total, toss_no, toss["dice"], value, self.lenient)
            self.events.append({"kind": _COACH, "seat": seat, "hole": hole, "toss": toss_no, **_plain(coach)})

    def _holed(self, seat: int, card: dict) -> None:
        if card["score"] is not None:
            self.events.append({"kind": _HOLED, "seat": seat, "hole": self.hole_no, "score": card["score"],
                                "tosses": len(card["tosses"]), "total": self.totals()[seat]})
            self.log.append([_HOLED, seat, self.hole_no, card["score"], len(card["tosses"])])

    def _forfeit(self, seat: int) -> None:
        card = self._card(seat)
        card["score"], card["forfeit"] = FAILED, True
        self.events.append({"kind": _FORFEIT, "seat": seat, "hole": self.hole_no})
        self.log.append({"kind": _FORFEIT, "seat": seat, "hole": self.hole_no})
        self._holed(seat, card)

    def _finish(self) -> None:
        totals = self.totals()
        winners: tuple[int, ...]
        if self.n == 1:
            line, winners = f"{self.names[0]} scores {totals[0]}, {rank(totals[0])}", (0,)
        else:
            active = self._active()
            line, picked = share_the_win([self.names[s] for s in active], [totals[s] for s in active])
            winners = tuple(active[i] for i in picked)
        self._result = Result(line, winners, tuple(totals))
        self.events.append({"kind": _GAME_END, "line": line})
        self.log.append({"kind": _GAME_END, "line": line})

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self.events.append({"kind": _RESIGNED, "seat": seat, "hole": self.hole_no})
        self.log.append({"kind": _RESIGNED, "seat": seat, "hole": self.hole_no})
        if self.n == 1:
            done = sum(1 for c in self.scorecards[0] if c["score"] is not None)
            line = f"{self.names[0]} resigned after {done} hole{'' if done == 1 else 's'}"
            self._result = Result(line, (), tuple(self.totals()))
            self.events.append({"kind": _GAME_END, "line": line})
            self.log.append({"kind": _GAME_END, "line": line})
        elif len(self._active()) < 2:
            self._finish()



def _expanded(entry) -> dict:
    """An entry of the record written out (`events.told` reads dicts): a toss, an entry or a
    finished hole from its short list; who chose an entry is its player's alone."""
    if type(entry) is dict:
        return entry
    kind = entry[0]
    if kind == _TOSS:
        _, seat, hole, toss, dice, value, by = entry
        return {"kind": _TOSS, "seat": seat, "hole": hole, "toss": toss, "dice": dice, "entry": value, OWN: {"by": by}}
    if kind == _ENTRY:
        _, seat, hole, toss, value, by = entry
        return {"kind": _ENTRY, "seat": seat, "hole": hole, "toss": toss, "entry": value, OWN: {"by": by}}
    _, seat, hole, score, tosses = entry
    return {"kind": _HOLED, "seat": seat, "hole": hole, "score": score, "tosses": tosses}


@cache
def _choices(flag: int, total: int, toss: int, dice: tuple[int, int], lenient: bool) -> tuple[tuple, ...]:
    """`DiceGolf.choices` of a position, as tuples (a few thousand positions at most, each
    worked out once): order, value, names, total, to go, expected score, best."""
    values = best.entry_values(flag, total, toss, dice, lenient)
    top = best.best_entry(flag, total, toss, dice, lenient)
    return tuple((str(Enter(v)), v, tuple(best.names_of(v, dice)), total + v, flag - total - v, values[v], v == top)
                 for v in sorted(values, reverse=True))


def _total(card: dict) -> int:
    """The total entered on a hole so far (an entry is a number, or X)."""
    total = 0
    for toss in card["tosses"]:
        entry = toss["entry"]
        if entry.__class__ is int:
            total += entry
    return total


def _listed(items: list[str], word: str = "and") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _plain(coach: dict) -> dict:
    """Coaching data with floats for fractions, for events and views (JSON)."""
    return {k: float(v) if isinstance(v, Fraction) else v for k, v in coach.items()}


def random_orders(state: DiceGolf, seat: int, rng) -> object:
    """A random legal order for `seat` (None when no toss waits for it): now and then a
    standing policy, otherwise an entry, named by its value or by a die or the sum."""
    if state.waiting(seat) is None:
        return None
    random_ = rng.random
    if random_() < 0.1:
        return Policy(POLICIES[int(random_() * len(POLICIES))])
    dice = state.position(seat)[3]
    values = [c["value"] for c in state.choices(seat)]
    value = values[int(random_() * len(values))]
    forms = [value, *best.names_of(value, dice)]
    return Enter(forms[int(random_() * len(forms))])
