"""MatchPlay Golf: two players, eighteen holes, six turns of three holes, secret orders.

Each player holds one stroke card per hole (as many 3s, 4s and 5s as the course has holes of
that par) and four specials: BLUE+1 and BLUE-1 change the player's own score on a hole, RED+1
and RED-1 the opponent's. One colour goes on two different turns among 1-3, the other colour
on two different turns among 4-6, never more than one special a turn.

Nothing in MatchPlay is left to chance: no card is shuffled or dealt (each player holds a known
set) and no die is rolled, so the game draws nothing from its seed and `chance_record()` is empty.

The record every seat's view carries (`events`, `pbem.games.events`): each turn's orders once
the turn is resolved (never before: until then they are their player's secret), each hole
played, a resignation and the result. The holes played hold every public fact of a turn (both
seats' cards and specials hole by hole), so the record is read off them (`record`) rather than
written twice; the state keeps beside them only what they do not hold (`log`: a resignation).
A match that ends inside a turn shows the orders of the holes played, as its report does.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, NamedTuple
from collections.abc import Sequence

from pbem.games.base import MOVE_JOIN, NMR_OPTION, GameState, Resign, Result, written
from pbem.games.events import GameEvent, told
from pbem.games.errors import BadOrderText, GameRefused, IllegalOrder, NotReady, OrderError

if TYPE_CHECKING:
    from pbem.games.course import Course

HOLES = 18
HOLES_PER_TURN = 3
TURNS = HOLES // HOLES_PER_TURN
STROKE_VALUES = (3, 4, 5)
_STROKE_SET = frozenset(STROKE_VALUES)
SPECIALS = ("BLUE+1", "BLUE-1", "RED+1", "RED-1")
# When the GM must choose a special for a silent player, the ones that help come first.
HELPFUL_FIRST = ("BLUE-1", "RED+1", "BLUE+1", "RED-1")

# The rules an error cites, by the letter the welcome lists them under. (a)-(c) keep the letters
# of the rule text the game comes from, which some players know.
RULES = {
    "a": "at most one special card a turn",
    "b": "specials in two different turns among turns 1-3",
    "c": "never specials of two colours in turns 1-3",
    "d": "the two specials of the other colour in two different turns among 4-6",
    "e": "a special goes on one of the turn's three holes",
    "f": "each special card once: BLUE+1, BLUE-1, RED+1 and RED-1",
    "g": "one PLAY a turn: three stroke cards, one per hole, in hole order",
    "h": "stroke cards are 3, 4 and 5, and only the ones you still hold",
    "i": "a turn's orders come in one mail: its PLAY line with any SPECIAL",
    "j": "no orders once the match is over",
}
# A player's name in the hole table: the table is laid out for names up to this wide.
TABLE_NAME_WIDTH = 8


def rule(label: str) -> str:
    """A rule as an error cites it: "(b) specials in two ..." points at the welcome's line (b)."""
    return f"({label}) {RULES[label]}"


def table_names(names: Sequence[str]) -> list[str]:
    """The names the hole table uses: a long name shortens to its first word, or to the first
    letters of it; two players who would look alike there take their seat number."""
    tags = [_table_name(n) for n in names]
    if len(set(tags)) < len(tags):
        tags = [f"{t[:TABLE_NAME_WIDTH - 2]}-{i + 1}" for i, t in enumerate(tags)]
    return tags


def _table_name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    if len(name) <= TABLE_NAME_WIDTH:
        return name
    first = name.split()[0]
    return first if len(first) <= TABLE_NAME_WIDTH else first[:TABLE_NAME_WIDTH - 1] + "."


_TURN_HOLES = {t: (3 * t - 2, 3 * t - 1, 3 * t) for t in range(1, TURNS + 1)}


def special_part(n: int) -> str:
    """The part of a Play that names its n-th SPECIAL line (from 0), so an error lands on it."""
    return "special" if n == 0 else f"special {n + 1}"


def turn_holes(turn: int) -> tuple[int, int, int]:
    return _TURN_HOLES[turn]


def phase_turns(turn: int) -> tuple[int, int, int]:
    """The turns of the half of the match that `turn` belongs to (1-3 or 4-6)."""
    return (1, 2, 3) if turn <= 3 else (4, 5, 6)


class Special(NamedTuple):
    card: str  # BLUE+1, BLUE-1 (own score), RED+1, RED-1 (the opponent's)
    hole: int

    @property
    def colour(self) -> str:
        return self.card[:-2]

    @property
    def delta(self) -> int:
        return 1 if self.card[-2] == "+" else -1

    def __str__(self) -> str:
        return f"SPECIAL {self.card} HOLE {self.hole}"


class Play(NamedTuple):
    """A turn's orders: one stroke card per hole, in hole order, and at most one special."""
    cards: tuple[int, ...]
    specials: tuple[Special, ...] = ()

    def __str__(self) -> str:
        lines = ["PLAY " + " ".join(str(c) for c in self.cards)]
        lines += [str(s) for s in self.specials]
        return "\n".join(lines)

    def line(self) -> str:
        """The orders on one line (`base.one_line`), as the record and `legal_orders` write them."""
        text = _PLAY_LINES.get(self.cards) or "PLAY " + " ".join(map(str, self.cards))
        for special in self.specials:
            text += f"{MOVE_JOIN}{special}"
        return text


# Every turn's PLAY line written once: the record writes one for each seat's orders of each turn.
# The stroke cards of every PLAY of three, each value once with how many of it the PLAY uses.
_NEEDS = {cards: tuple((v, cards.count(v)) for v in dict.fromkeys(cards))
          for cards in product(STROKE_VALUES, repeat=HOLES_PER_TURN)}
_PLAY_LINES = {cards: "PLAY " + " ".join(map(str, cards)) for cards in product(STROKE_VALUES, repeat=HOLES_PER_TURN)}


@dataclass(frozen=True)
class Forfeit:
    """A missed turn under the forfeit policy: the cards are used up, every hole is lost."""
    play: Play

    def __str__(self) -> str:
        return "FORFEIT\n" + str(self.play)


def match_line(names: Sequence[str], lead: int, after: int) -> str:
    """`lead` > 0 means seat 0 is up."""
    if after == 0:
        return "Match: all square, no hole played yet"
    if lead == 0:
        return f"Match: all square after {after}"
    leader = names[0] if lead > 0 else names[1]
    return f"Match: {leader} {abs(lead)} up after {after}"


class MatchPlay(GameState):
    TYPE = "matchplay"
    TITLE = "MatchPlay Golf"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPTIONS = {"nmr": NMR_OPTION}
    # Who has sent orders is public; what they are (`seats`: hands, orders) is not until resolved.
    PUBLIC_VIEW = ("names", "pars", "turn", "turn_holes", "turn_pars", "holes", "match", "table_names",
                   "result", "ordered")

    def __init__(self, names: Sequence[str], pars: Sequence[int], options: dict | None = None):
        self.names = list(names)
        self.pars = tuple(pars)
        self.options = dict(options or {})
        pars = self.pars
        self.hands = [{3: pars.count(3), 4: pars.count(4), 5: pars.count(5)} for _ in range(2)]
        self.specials_left: list[list[str]] = [list(SPECIALS), list(SPECIALS)]
        self.specials_played: list[list[dict]] = [[], []]  # {"turn", "card", "hole"}
        self.pending: list[Play | None] = [None, None]
        self.forfeits: list[bool] = [False, False]
        self.holes: list[dict] = []
        self.lead = 0
        self._turn = 1
        self._result: Result | None = None
        self.log: list[dict] = []  # what the record holds beyond the holes played: a resignation
        self._phase_cache: dict = {}  # derived from specials_played; the rules ask it often

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course: Course) -> MatchPlay:
        if len(names) != 2:
            raise GameRefused("MatchPlay Golf is a game for exactly two players")
        if course.holes != HOLES:
            raise GameRefused(f"MatchPlay Golf needs an 18-hole course, {course.name} has {course.holes}")
        return cls(names, course.pars, cls.options_with_defaults(options))

    def to_dict(self) -> dict:
        return {
            "names": self.names, "pars": list(self.pars), "options": self.options,
            "hands": [{str(k): v for k, v in h.items()} for h in self.hands],
            "specials_left": self.specials_left, "specials_played": self.specials_played,
            "pending": [str(p) if p else None for p in self.pending], "forfeits": self.forfeits,
            "holes": self.holes, "lead": self.lead, "turn": self._turn,
            "result": self._result.to_dict() if self._result else None, "log": list(self.log),
        }

    @classmethod
    def from_dict(cls, d: dict) -> MatchPlay:
        s = cls(d["names"], d["pars"], d["options"])
        s.hands = [{int(k): v for k, v in h.items()} for h in d["hands"]]
        s.specials_left = [list(x) for x in d["specials_left"]]
        s.specials_played = [list(x) for x in d["specials_played"]]
        s.pending = [parse_canonical(p) if p else None for p in d["pending"]]
        s.forfeits = list(d["forfeits"])
        s.holes = list(d["holes"])
        s.lead = d["lead"]
        s._turn = d["turn"]
        s._result = Result.from_dict(d["result"])
        s.log = list(d.get("log", ()))  # a game stored before the record began has none so far
        return s

    def chance_record(self) -> list:
        """Every draw of chance the game made: none (module doc)."""
        return []

    @classmethod
    def command_from_text(cls, text: str):
        """The command whose `str()` is `text` (events store commands that way)."""
        if text == "RESIGN":
            return Resign()
        if text.startswith("FORFEIT"):
            return Forfeit(parse_canonical(text))
        return parse_canonical(text)

    def nmr_orders(self, seat: int, policy: str):
        """What a missed deadline plays for `seat` under the game's NMR policy."""
        play = self.default_orders(seat)
        return Forfeit(play) if policy == "forfeit" else play

    # -- the protocol ---------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._turn

    def turn_holes(self) -> tuple[int, ...]:
        return turn_holes(self._turn)

    @property
    def finished(self) -> bool:
        return self._result is not None

    def to_move(self) -> set[int]:
        if self.finished:
            return set()
        return {s for s in (0, 1) if self.pending[s] is None}

    def ready(self) -> bool:
        return self._result is None and None not in self.pending

    def result(self) -> Result | None:
        return self._result

    def scores(self) -> list[int]:
        """Holes won by each player so far."""
        won = [0, 0]
        for row in self.holes:
            if row["winner"] is not None:
                won[row["winner"]] += 1
        return won

    def check(self, seat: int, command) -> None:
        if self._result is not None:
            raise IllegalOrder(f"the match is over ({self._result.line})", rule=rule("j"))
        if type(command) is not Play:
            if isinstance(command, Resign):
                return
            if isinstance(command, Forfeit):
                command = command.play
            if not isinstance(command, Play):
                raise IllegalOrder(f"{command} is not an order of MatchPlay Golf", rule=rule("g"))
        problems: list[OrderError] = []
        try:
            self._check_cards(seat, command.cards)
        except IllegalOrder as e:  # the specials may be wrong too: report every wrong line
            problems.append(e)
        if command.specials:
            problems += self._special_problems(seat, command.specials)
        else:  # no SPECIAL line: only whether one is owed now (as `_special_problems` checks it)
            try:
                self._check_special_timing(seat, None)
            except IllegalOrder as e:
                e.part = special_part(0)
                problems.append(e)
        if problems:
            right = str(self.nearest_orders(seat, command.cards, command.specials))
            for problem in problems:
                problem.hint = right
            problems[0].also = problems[1:]
            raise problems[0]

    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        if type(command) is Play:
            self.forfeits[seat] = False
            self.pending[seat] = command
        elif isinstance(command, Resign):
            self._resign(seat)
        else:
            self.forfeits[seat] = True
            self.pending[seat] = command.play

    def resolve(self) -> list[dict]:
        """Play the turn's holes; returns the holes played (fewer than three if the match ends)."""
        if self._result is not None or None in self.pending:
            raise NotReady("resolve() before both players have orders in")
        played = []
        for i, hole in enumerate(turn_holes(self._turn)):
            played.append(self._play_hole(i, hole))
            left = HOLES - hole
            if left and abs(self.lead) > left:
                leader = self.names[0] if self.lead > 0 else self.names[1]
                self._result = Result(f"{leader} wins {abs(self.lead)} and {left}", (0 if self.lead > 0 else 1,))
                break
        if not self.finished and self._turn == TURNS:
            self._result = self._final_result()
        if not self.finished:
            self._turn += 1
        self.pending = [None, None]
        self.forfeits = [False, False]
        return played

    def view(self, seat: int | None) -> dict:
        holes = turn_holes(self._turn)
        v = {
            "names": self.names, "pars": list(self.pars), "turn": self._turn,
            "turn_holes": list(holes), "turn_pars": [self.pars[h - 1] for h in holes],
            "holes": self.holes, "match": self.match_line(), "table_names": table_names(self.names),
            "result": self._result.line if self._result else None,
            "ordered": [p is not None for p in self.pending],
        }
        seats = (0, 1) if seat is None else (seat,)
        v["seats"] = {s: self._seat_view(s) for s in seats}
        if seat is not None:
            v["events"] = told(self.record(), seat)
        return v

    def default_orders(self, seat: int) -> Play:
        """What the GM plays for a silent player: the card nearest each hole's par (ties to the
        lower card) and, only when the rules demand one now, a special on the hardest hole."""
        hand = dict(self.hands[seat])
        holes = turn_holes(self._turn)
        cards = []
        for hole in holes:
            par = self.pars[hole - 1]
            card = min((v for v in STROKE_VALUES if hand[v]), key=lambda v: (abs(v - par), v))
            hand[card] -= 1
            cards.append(card)
        required, allowed = self._special_options(seat)
        if not required:
            return Play(tuple(cards))
        special = next(c for c in HELPFUL_FIRST if c in allowed)
        hardest = max(range(3), key=lambda i: (cards[i] - self.pars[holes[i] - 1], self.pars[holes[i] - 1], -i))
        return Play(tuple(cards), (Special(special, holes[hardest]),))

    def legal_orders(self, seat: int) -> list[str]:
        """Every set of orders `seat` may send for the turn, as one line (`PLAY 3 4 5; SPECIAL
        BLUE-1 HOLE 2`): each order of three of its stroke cards (a value once a place, so a
        hand of 3 4 4 gives `3 4 4`, `4 3 4` and `4 4 3`), alone when no special is due this
        turn, and with each special it may play on each of the turn's holes: 27 x 13 at most.
        Nothing once its orders for the turn are in (new orders would replace them)."""
        if seat not in self.to_move():
            return []
        left = dict(self.hands[seat])
        orders: list[tuple[int, ...]] = []

        def pick(cards: tuple[int, ...]) -> None:
            if len(cards) == HOLES_PER_TURN:
                orders.append(cards)
                return
            for value in STROKE_VALUES:
                if left[value]:
                    left[value] -= 1
                    pick(cards + (value,))
                    left[value] += 1
        pick(())
        required, _ = self._special_options(seat)
        specials = ([] if required else [()]) + [(s,) for s in self._legal_specials(seat)]
        return [Play(cards, special).line() for cards in orders for special in specials]

    def record(self) -> list[dict]:
        """The public record (module doc): each resolved turn's orders, seat by seat, and its
        holes played, then a resignation and the result."""
        out: list[dict] = []
        for first in range(0, len(self.holes), HOLES_PER_TURN):
            rows = self.holes[first:first + HOLES_PER_TURN]
            turn = (rows[0]["hole"] - 1) // HOLES_PER_TURN + 1
            for s in (0, 1):
                play = Play(tuple(r["cards"][s] for r in rows),
                            tuple(Special(card, r["hole"]) for r in rows for card in r["specials"][s]))
                out.append({"kind": GameEvent.PLAYED, "seat": s, "turn": turn, "orders": play.line(),
                            "forfeit": rows[0]["forfeits"][s]})
            out += [{"kind": GameEvent.HOLE_END, **row} for row in rows]
        out += self.log
        if self._result is not None:
            out.append({"kind": GameEvent.GAME_END, "line": self._result.line})
        return out

    # -- helpers --------------------------------------------------------------------------
    def match_line(self) -> str:
        after = self.holes[-1]["hole"] if self.holes else 0
        return match_line(self.names, self.lead, after)

    def hand_cards(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        return [3] * hand[3] + [4] * hand[4] + [5] * hand[5]

    def owed_specials(self, seat: int) -> str:
        """Which specials `seat` must still play, and by the end of which turn, as a sentence to
        the player (the rules ask all four: one colour in turns 1-3, the other in turns 4-6)."""
        first, count, colour = self._phase(seat)
        left = self.specials_left[seat]
        owed = []
        if first == 1:
            if colour is None:
                owed.append(f"two specials of one colour (both BLUE or both RED), in two different turns, "
                            f"{self._by(3)}")
            elif count < 2:
                mine = " and ".join(c for c in left if c.startswith(colour))
                owed.append(f"a {colour} special ({mine}) {self._by(3)}")
        later = [c for c in left if colour is None or not c.startswith(colour)]
        if colour is None:
            owed.append(f"the two of the other colour {self._by(6)}")
        elif len(later) == 2:
            owed.append(f"{' and '.join(later)}, in two different turns, {self._by(6)}")
        elif later:
            owed.append(f"a {later[0][:-2]} special ({later[0]}) {self._by(6)}")
        if not owed:
            return "You have played all four specials."
        return "You still owe " + ", and ".join(owed) + "."

    def _by(self, turn: int) -> str:
        return "by the end of this turn" if turn == self._turn else f"by the end of turn {turn}"

    def _seat_view(self, seat: int) -> dict:
        return {
            "name": self.names[seat], "hand": self.hand_cards(seat),
            "specials_left": list(self.specials_left[seat]),
            "specials_played": list(self.specials_played[seat]),
            "orders": str(self.pending[seat]) if self.pending[seat] else None,
            "special_required": self._special_options(seat)[0] if not self.finished else False,
            "owed": self.owed_specials(seat) if not self.finished else None,
            "example": str(self.default_orders(seat)) if not self.finished else None,
        }

    def _check_cards(self, seat: int, cards: tuple[int, ...]) -> None:
        if len(cards) != HOLES_PER_TURN:
            holes = turn_holes(self._turn)
            raise IllegalOrder(
                f"this PLAY has {len(cards)} stroke card(s); a turn takes three, one for each of "
                f"holes {holes[0]}, {holes[1]} and {holes[2]}", rule=rule("g"), part="cards")
        needs = _NEEDS.get(cards)  # each stroke card the PLAY uses and how many of it
        if needs is None:
            for c in cards:
                if c not in _STROKE_SET:
                    raise IllegalOrder(f"there is no stroke card {c}: stroke cards are 3, 4 and 5",
                                       rule=rule("h"), part="cards")
        hand = self.hands[seat]
        for value, n in needs or ((value, cards.count(value)) for value in cards):
            if hand[value] < n:
                held = " ".join(str(c) for c in self.hand_cards(seat))
                raise IllegalOrder(
                    f"this PLAY uses {n} card(s) of {value} but you hold {hand[value]}; "
                    f"your stroke cards are: {held}", rule=rule("h"), part="cards")

    def _special_problems(self, seat: int, specials: tuple[Special, ...]) -> list[IllegalOrder]:
        """What is wrong with each SPECIAL line, each on its own line (`special_part`): every
        special on its own, and every one past the first for being one too many."""
        problems = []
        for n, special in enumerate(specials or (None,)):
            try:
                self._check_specials(seat, (special,) if special else ())
            except IllegalOrder as e:
                e.part = special_part(n)
                problems.append(e)
            if n:
                problems.append(IllegalOrder(f"this message has {len(specials)} SPECIAL lines; a turn takes "
                                             "one at most", rule=rule("a"), part=special_part(n)))
        return problems

    def _check_specials(self, seat: int, specials: tuple[Special, ...]) -> None:
        """One special (or none) on its own: `_special_problems` takes a message's several."""
        holes = turn_holes(self._turn)
        special = specials[0] if specials else None
        if special:
            if special.card not in SPECIALS:
                raise IllegalOrder(f"there is no special card {special.card}", rule=rule("f"), part="special")
            if special.card not in self.specials_left[seat]:
                when = next(p for p in self.specials_played[seat] if p["card"] == special.card)
                raise IllegalOrder(f"you played {special.card} already (turn {when['turn']}, "
                                   f"hole {when['hole']})", rule=rule("f"), part="special")
            if special.hole not in holes:
                raise IllegalOrder(
                    f"hole {special.hole} is not in this turn; turn {self._turn} plays holes "
                    f"{holes[0]}, {holes[1]} and {holes[2]}", rule=rule("e"), part="special")
        self._check_special_timing(seat, special)

    def nearest_orders(self, seat: int, cards: Sequence[int] | None = None,
                       specials: Sequence[Special] = ()) -> Play:
        """The legal orders most like what the player wrote, to suggest when theirs are refused:
        their stroke cards if they may play them, else the GM's default ones; of the specials that
        are legal now, the one most like theirs (a special's card may be known only in part, as
        `RED` or `RED-`), else none unless one is due this turn."""
        default = self.default_orders(seat)
        if cards is None or not self._cards_legal(seat, tuple(cards)):
            cards = default.cards
        legal = self._legal_specials(seat)
        special = max(legal, key=lambda s: max(_likeness(w, s) for w in specials), default=None) \
            if specials else None
        if special is None and default.specials:
            special = default.specials[0]
        return Play(tuple(cards), (special,) if special else ())

    def _cards_legal(self, seat: int, cards: tuple[int, ...]) -> bool:
        try:
            self._check_cards(seat, cards)
        except IllegalOrder:
            return False
        return True

    def _legal_specials(self, seat: int) -> list[Special]:
        legal = []
        for card in self._special_options(seat)[1]:
            for hole in turn_holes(self._turn):
                try:
                    self._check_specials(seat, (Special(card, hole),))
                except IllegalOrder:
                    continue
                legal.append(Special(card, hole))
        return legal

    def _phase(self, seat: int) -> tuple[int, int, str | None]:
        """(first turn of the current half, specials already played in it, colour of turns 1-3)."""
        # It changes only with the half (turns 1-3, 4-6) and with a special played (the list
        # only grows), so those are its key: a new turn in the same half asks it again for free.
        key = (seat, self._turn <= 3, len(self.specials_played[seat]))
        cached = self._phase_cache.get(key)
        if cached is None:
            cached = self._phase_cache[key] = self._count_phase(seat)
        return cached

    def _count_phase(self, seat: int) -> tuple[int, int, str | None]:
        first = 1 if self._turn <= 3 else 4
        count = 0
        first_colour = None
        for p in self.specials_played[seat]:
            early = p["turn"] <= 3
            if early:
                first_colour = p["card"][:-2]
            if early == (first == 1):
                count += 1
        return first, count, first_colour

    def _check_special_timing(self, seat: int, special: Special | None) -> None:
        first, count, first_colour = self._phase(seat)
        if special and first == 1 and first_colour and first_colour != special.colour:
            earlier = next(p for p in self.specials_played[seat] if p["turn"] <= 3)
            raise IllegalOrder(
                f"you played {earlier['card']} in turn {earlier['turn']}, so your specials in "
                f"turns 1-3 are {first_colour}", rule=rule("c"), part="special")
        if special and first == 4 and special.colour == first_colour:
            raise IllegalOrder(f"{special.colour} was your colour in turns 1-3; turns 4-6 take the "
                               "other colour", rule=rule("d"), part="special")
        owed_after = 2 - count - (1 if special else 0)
        turns_left_after = first + 2 - self._turn
        if owed_after > turns_left_after:
            raise IllegalOrder(
                f"without a special now you would still owe {owed_after} with {turns_left_after} "
                f"turn(s) of turns {first}-{first + 2} left, and a turn takes one at most",
                rule=rule("b" if first == 1 else "d"), part="special")

    def _special_options(self, seat: int) -> tuple[bool, list[str]]:
        """(a special must be played this turn, the specials that may be played this turn)."""
        first, count, first_colour = self._phase(seat)
        # The specials allowed change only with the half and a special played (`_phase`'s key).
        key = ("allowed", seat, first, len(self.specials_played[seat]))
        allowed = self._phase_cache.get(key)
        if allowed is None:
            left = self.specials_left[seat]
            if first_colour is None:
                allowed = list(left)
            else:
                allowed = [c for c in left if (c[:-2] == first_colour) == (first == 1)]
            self._phase_cache[key] = allowed
        return 2 - count > first + 2 - self._turn, allowed

    def _play_hole(self, i: int, hole: int) -> dict:
        o0, o1 = self.pending
        assert o0 is not None and o1 is not None  # `resolve` plays a turn with both orders in
        c0, c1 = o0.cards[i], o1.cards[i]
        scores = [c0, c1]
        played_specials: list[list[str]] = [[], []]
        if o0.specials or o1.specials:
            for s, orders in ((0, o0), (1, o1)):
                for sp in orders.specials:
                    if sp.hole == hole:
                        scores[s if sp.card[0] == "B" else 1 - s] += sp.delta
                        played_specials[s].append(sp.card)
                        self.specials_left[s].remove(sp.card)
                        self.specials_played[s].append({"turn": self._turn, "card": sp.card, "hole": hole})
        hands = self.hands
        hands[0][c0] -= 1
        hands[1][c1] -= 1
        f0, f1 = self.forfeits
        s0, s1 = scores
        if f0 != f1:
            winner = 1 if f0 else 0
        elif s0 == s1 or f0:
            winner = None
        else:
            winner = 0 if s0 < s1 else 1
        if winner is not None:
            self.lead += 1 if winner == 0 else -1
        row = {"hole": hole, "par": self.pars[hole - 1], "cards": [c0, c1], "specials": played_specials,
               "scores": scores, "winner": winner, "lead": self.lead, "forfeits": [f0, f1]}
        self.holes.append(row)
        return row

    def _final_result(self) -> Result:
        if self.lead == 0:
            return Result("Match halved", (0, 1))
        leader = 0 if self.lead > 0 else 1
        return Result(f"{self.names[leader]} wins {abs(self.lead)} up", (leader,))

    def _resign(self, seat: int) -> None:
        winner = 1 - seat
        after = self.holes[-1]["hole"] if self.holes else 0
        self._result = Result(
            f"{self.names[winner]} wins by resignation ({self.names[seat]} resigned after {after} holes)", (winner,))
        self.pending = [None, None]
        self.log.append({"kind": GameEvent.RESIGNED, "seat": seat})


def _likeness(wanted: Special, legal: Special) -> int:
    """How much of what the player wrote a legal special keeps: its colour counts most, then
    the sign, then the hole."""
    colour = wanted.card.startswith(legal.colour)
    sign = legal.card[-2] in wanted.card
    return 4 * colour + 2 * sign + (wanted.hole == legal.hole)


def parse_canonical(text: str) -> Play:
    """Read back `str(Play)` (the engine stores pending orders in that form)."""
    lines = text.splitlines()
    if lines and lines[0] == "FORFEIT":
        lines = lines[1:]
    try:
        cards = tuple(int(c) for c in lines[0].split()[1:])
        specials = tuple(Special(ln.split()[1], int(ln.split()[3])) for ln in lines[1:])
    except (IndexError, ValueError):
        raise BadOrderText(f"not a MatchPlay order: {written(text)}") from None
    return Play(cards, specials)


def random_orders(state: MatchPlay, seat: int, rng) -> Play:
    """A uniformly chosen legal order for `seat` (bots, property tests, benchmarks)."""
    random = rng.random
    hand = state.hands[seat]
    n3, n4, n5 = hand[3], hand[4], hand[5]
    picked = [0, 0, 0]
    for i in (0, 1, 2):  # draw three cards from the hand without putting them back
        r = random() * (n3 + n4 + n5)
        if r < n3:
            picked[i] = 3
            n3 -= 1
        elif r < n3 + n4:
            picked[i] = 4
            n4 -= 1
        else:
            picked[i] = 5
            n5 -= 1
    required, allowed = state._special_options(seat)
    holes = _TURN_HOLES[state.turn]
    n = len(allowed) * 3
    pick = int(random() * n) if required else int(random() * (n + 1)) - 1
    if pick < 0:
        return Play(tuple(picked))
    return Play(tuple(picked), (Special(allowed[pick // 3], holes[pick % 3]),))
