"""On Par's cards and the ground a ball travels over: the course deck, the distance deck, a
hole's course laid out in spaces, and the rules of clubs, hazards, skill shots and traps.

Pure: these functions only compute where a ball goes; the engine (`onpar`) decides whose ball,
keeps the hands and the strokes, and turns a `Refusal` into an order error.

Spaces are counted from the tee: the ball starts on space 0, before the first course card; card
k covers the spaces after those of cards 1..k-1; The Green is last, and its last space is the hole.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from pbem.errors import PbemError

# -- the course deck -------------------------------------------------------------------------
PLAIN = "plain"
GREEN = "Green"
GREEN_SPACES = 5
HAZARD_SPACES = 3
PLAIN_SPACES = (4, 5, 6)
PLAIN_EACH = 4
POND, TARGET, DOG_LEG = "Pond", "Target", "Dog Leg"
# The six with only the general rule, then the three with a rule of their own.
HAZARDS = ("Windmill", "Construction", "Sink Hole", "Boulder", "Building", "Bridge", DOG_LEG, POND, TARGET)


def course_deck(hazards: bool, pond: bool = True) -> list[tuple[str, int]]:
    """The course cards as (name, spaces): 12 plain ones and, with `hazards`, the nine hazards
    (`pond=False` leaves the Pond out: see `onpar` on why)."""
    deck = [(PLAIN, n) for n in PLAIN_SPACES for _ in range(PLAIN_EACH)]
    if hazards:
        deck += [(h, HAZARD_SPACES) for h in HAZARDS if pond or h != POND]
    return deck


# -- the distance deck -----------------------------------------------------------------------
HAND = 5  # cards dealt to each player, and the most a hand holds at the end of a turn
CLUBS = {"D": "Driver", "I": "Iron", "W": "Wedge", "P": "Putter"}
CLUB_VALUES = {"D": (4, 5, 6, 7), "I": (2, 3, 4, 5), "W": (1, 2, 3), "P": (1, 2, 3, 4)}
CLUB_COPIES = {"D": 4, "I": 4, "W": 4, "P": 3}
MOST_CARDS = {"D": 3, "I": 2, "W": 1, "P": 1}
SKILL_SHOTS = {"POWER": "Power Shot", "FADE": "High Fade", "SLICE": "Slice"}
TRAPS = {"LIGHTWIND": "Light Wind", "TREES": "Trees", "HEAVYWIND": "Heavy Wind", "SANDTRAP": "Sand Trap",
         "WATERTRAP": "Water Trap", "RAINSTORM": "Sudden Rainstorm"}
PUSH_BACK = {"LIGHTWIND": 2, "TREES": 3, "HEAVYWIND": 5, "SANDTRAP": 10}
DISTANCE_CODES = tuple(f"{c}{v}" for c, values in CLUB_VALUES.items() for v in values)
CODES = DISTANCE_CODES + tuple(SKILL_SHOTS) + tuple(TRAPS)
# Each distance card's value (`value`), and its club's cards (`club`), looked up.
VALUES = {code: int(code[1:]) for code in DISTANCE_CODES}
CLUB_CARDS = {letter: frozenset(code for code in DISTANCE_CODES if code[0] == letter) for letter in CLUB_VALUES}


def distance_deck(skill_shots: bool, traps: bool) -> list[str]:
    """The 56 distance cards, with one of each skill shot and trap shuffled in when they play."""
    deck = [f"{c}{v}" for c, values in CLUB_VALUES.items() for v in values for _ in range(CLUB_COPIES[c])]
    return deck + (list(SKILL_SHOTS) if skill_shots else []) + (list(TRAPS) if traps else [])


def is_distance(card: str) -> bool:
    return card in DISTANCE_CODES


def club(card: str) -> str:
    return card[0]


def value(card: str) -> int:
    return int(card[1:])


def card_name(card: str) -> str:
    """`Driver 5`, `Power Shot`, `Sand Trap`: a card as the rules call it."""
    if is_distance(card):
        return f"{CLUBS[club(card)]} {value(card)}"
    return SKILL_SHOTS.get(card) or TRAPS[card]


# -- a hole's course -----------------------------------------------------------------------------
class Refusal(PbemError):
    """A shot the rules do not allow: `rule` names the rule, the message says what broke it."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message


RULE_PUTTER = "the Putter is played only on The Green"
RULE_BEYOND = "a ball cannot go past the hole, the last space of The Green"
RULE_HAZARD = "a Driver or Iron shot may not start on, end on or cross a hazard (only a Wedge may)"
RULE_TARGET = "no shot may pass the Target: the ball must land on it exactly"
RULE_FADE = "a High Fade places a ball that is short of The Green on its first space"
RULE_SLICE = "a Slice moves the ball on half the distance to the hole, in whole spaces"


@dataclass(frozen=True)
class Outcome:
    """Where a ball comes to rest: `space`, whether it is in the hole, and what on the way
    changed its course (a sentence, or "")."""
    space: int
    holed: bool = False
    note: str = ""


class Layout:
    """A hole's course cards plus The Green, in spaces."""

    def __init__(self, cards: Sequence[Sequence]):
        self.cards = [(str(name), int(spaces)) for name, spaces in cards]
        self.first: list[int] = []
        self.last: list[int] = []
        end = 0
        for _, spaces in self.cards:
            self.first.append(end + 1)
            end += spaces
            self.last.append(end)
        self.hole = end
        self.green = self.first[-1]
        self.par = len(self.cards) - 1
        # `outcome`'s answers so far: a layout never changes, so a shot's outcome never does.
        self._outcomes: dict[tuple[int, str, int, int], Outcome | None] = {}

    @classmethod
    def of(cls, course_cards: Sequence[Sequence]) -> Layout:
        """The layout of these course cards with The Green added at the end."""
        return cls([*course_cards, (GREEN, GREEN_SPACES)])

    def card_at(self, space: int) -> int | None:
        """The index of the card `space` lies on (None for the tee, space 0)."""
        for k, last in enumerate(self.last):
            if space <= last:
                return k if space >= self.first[k] else None
        return None

    def hazard_at(self, space: int) -> int | None:
        k = self.card_at(space)
        return k if k is not None and self.cards[k][0] in HAZARDS else None

    def on_green(self, space: int) -> bool:
        return space >= self.green

    def cards_ahead(self, space: int) -> int:
        """The course cards still ahead of a ball on `space`, the one it lies on included (The
        Green is none of them): the strokes a player who has not holed out adds."""
        k = self.card_at(space)
        return self.par if k is None else max(0, self.par - k)

    def target_space(self, k: int) -> int:
        """The bull's-eye of a Target card: its middle space."""
        return self.first[k] + self.cards[k][1] // 2

    def where(self, space: int) -> str:
        """`the tee`, `space 12 (Windmill)`, `space 30 (The Green)`, `the hole`."""
        if space == 0:
            return "the tee"
        if space == self.hole:
            return "the hole"
        card = self.card_at(space)
        assert card is not None  # neither the tee nor the hole: a space of a card
        name = self.cards[card][0]
        return f"space {space} ({'The Green' if name == GREEN else name if name != PLAIN else 'fairway'})"

    def described(self, k: int) -> str:
        name = self.cards[k][0]
        return f"the {name} (spaces {self.first[k]}-{self.last[k]})"

    def course(self) -> list[dict]:
        """The course as CONTRACT section 9 writes it."""
        return [{"card": name, "spaces": spaces} for name, spaces in self.cards]

    def spans(self) -> list[dict]:
        """Each card with its first and last space (and a Target's bull's-eye), for pictures."""
        out = []
        for k, (name, spaces) in enumerate(self.cards):
            row = {"card": name, "spaces": spaces, "first": self.first[k], "last": self.last[k]}
            if name == TARGET:
                row["target"] = self.target_space(k)
            out.append(row)
        return out

    # -- where a ball goes ------------------------------------------------------------------
    def shot(self, start: int, club_letter: str, distance: int, handicap: int = 0) -> Outcome:
        """A club shot of `distance` spaces from `start`; Refusal when the rules forbid it."""
        end = start + distance
        club_name = CLUBS[club_letter]
        if club_letter == "P" and not self.on_green(start):
            raise Refusal(RULE_PUTTER, f"your ball lies on {self.where(start)}, short of The Green "
                                       f"(spaces {self.green}-{self.hole})")
        if end > self.hole:
            raise Refusal(RULE_BEYOND, f"{distance} from space {start} would end on space {end}, past the "
                                       f"hole on space {self.hole} (at most {self.hole - start})")
        if club_letter in ("D", "I"):
            self._clear_of_hazards(start, end, club_name)
        for k, (name, _) in enumerate(self.cards):
            if name == TARGET and start < self.target_space(k) < end:
                raise Refusal(RULE_TARGET, f"the Target's bull's-eye is space {self.target_space(k)}: "
                                           f"a shot from space {start} may not carry past it to {end}")
        note = ""
        for k, (name, _) in enumerate(self.cards):
            if name == DOG_LEG and start < self.last[k] < end:
                end, note = self.last[k], "it stopped at the Dog Leg's corner"
        return self._rest(end, handicap, note)

    def outcome(self, start: int, club_letter: str, distance: int, handicap: int = 0) -> Outcome | None:
        """`shot`'s outcome, or None where the rules forbid the shot: what the legal orders ask
        of every set of cards in a hand, remembered (many sets add up to one distance)."""
        key = (start, club_letter, distance, handicap)
        try:
            return self._outcomes[key]
        except KeyError:
            pass
        try:
            found: Outcome | None = self.shot(start, club_letter, distance, handicap)
        except Refusal:
            found = None
        self._outcomes[key] = found
        return found

    def _clear_of_hazards(self, start: int, end: int, club_name: str) -> None:
        k = self.hazard_at(start)
        if k is not None:
            raise Refusal(RULE_HAZARD, f"your ball lies on {self.described(k)}: only a Wedge gets it out")
        for space in range(start + 1, end + 1):
            k = self.hazard_at(space)
            if k is not None:
                how = "end on" if self.hazard_at(end) == k else "cross"
                raise Refusal(RULE_HAZARD, f"a {club_name} shot from space {start} to {end} would {how} "
                                           f"{self.described(k)}")

    def _rest(self, space: int, handicap: int, note: str = "") -> Outcome:
        """Where a ball that arrives on `space` stays: the Pond sends it back; within the
        player's handicap short of the hole it counts as holed."""
        k = self.card_at(space)
        if k is not None and self.cards[k][0] == POND:
            back = self.first[k] - 1
            return Outcome(back, False, f"it landed in the Pond on space {space} and went back")
        if space >= self.hole - handicap:
            if space < self.hole:
                note = (note + "; " if note else "") + f"space {space} is within the handicap of {handicap}"
            return Outcome(self.hole, True, note)
        return Outcome(space, False, note)

    def skill_shot(self, start: int, card: str, handicap: int = 0) -> Outcome:
        """A skill shot places the ball (no club rule, Target or Dog Leg applies); the Pond and
        the handicap count where it comes to rest."""
        if card == "POWER":
            return Outcome(self.hole, True)
        if card == "FADE":
            if self.on_green(start):
                raise Refusal(RULE_FADE, f"your ball is on The Green already, on {self.where(start)}")
            return self._rest(self.green, handicap)
        half = (self.hole - start) // 2
        if half < 1:
            raise Refusal(RULE_SLICE, f"your ball is {self.hole - start} space from the hole: half of it "
                                      "is no whole space")
        return self._rest(start + half, handicap)

    def pushed_back(self, space: int, spaces: int) -> Outcome:
        """A trap's wind or sand: the ball goes back `spaces` (never behind the tee)."""
        return self._rest(max(0, space - spaces), 0)
