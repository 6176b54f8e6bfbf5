"""Card pieces shared by the card-grid golf games: the decks, a player's grid, column cancelling.

Cards are their canonical names (the names of the contract): golf-deck cards by type
(`Hole-in-One`, `7-Iron`, `Sand Trap` ...), standard cards as rank then suit letter (`AS`,
`10D`, `QH`) and `JOKER`. Points are the game's business (they depend on its options).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from pbem.games.rng import Generator

HIDDEN = "??"

# -- the golf deck: 13 types x 4 -------------------------------------------------------------
GOLF_DECK_POINTS = {
    "Hole-in-One": -2, "Gimme": 0, "Putter": 1, "3-Iron": 3, "4-Iron": 4, "5-Iron": 5, "6-Iron": 6,
    "7-Iron": 7, "8-Iron": 8, "9-Iron": 9, "Pitching Wedge": 10, "Sand Trap": 10, "Water Hazard": 10,
}
GOLF_DECK_TYPES = tuple(GOLF_DECK_POINTS)


def golf_deck() -> list[str]:
    return [t for t in GOLF_DECK_TYPES for _ in range(4)]


# -- the standard pack -----------------------------------------------------------------------
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JOKER"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def standard_pack(packs: int = 1, jokers: int = 0) -> list[str]:
    return [r + s for _ in range(packs) for s in SUITS for r in RANKS] + [JOKER] * jokers


def rank(card: str) -> str:
    return JOKER if card == JOKER else card[:-1]


def suit(card: str) -> str | None:
    return None if card == JOKER else card[-1]


def with_symbol(card: str) -> str:
    """`Q♠` for `QS`: for mail, beside the canonical name, never instead of it."""
    symbol = SUIT_SYMBOLS.get(suit(card) or "")
    return card if card == JOKER or symbol is None else rank(card) + symbol


def shuffled(cards: Sequence[str], rng: Generator) -> list[str]:
    """A shuffled copy of `cards` (Fisher-Yates from the end, `Generator.shuffle`); the top of
    a deck is its last card."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


# -- new games -----------------------------------------------------------------------------------
_CHECKED: dict[tuple, dict] = {}
_CHECKED_MOST = 512  # distinct option sets remembered; more empties the memo


def checked_options(engine: str, given: dict | None, check: Callable[[dict], dict]) -> dict:
    """`check(given)` (a game's options with defaults, coerced and refused when wrong), worked
    out once for each set of options given: a benchmark or a league makes thousands of games
    on the same few. A copy every time; errors are never remembered."""
    given = dict(given or {})
    try:  # by type too: True == 1 == 1.0, but an option may take one and refuse the others (the
        # same options given in another order are another key, worked out once more: harmless)
        key = (engine, tuple(given.items()), tuple(map(type, given.values())))
        known = _CHECKED.get(key)
    except TypeError:  # a value that cannot be a key (a list): work it out every time
        return check(given)
    if known is None:
        known = check(dict(given))
        if len(_CHECKED) >= _CHECKED_MOST:
            _CHECKED.clear()
        _CHECKED[key] = known
    return dict(known)


# `to_move()` of a turn-by-turn card game: shared read-only sets, one per seat (a move each).
NOBODY: Final[frozenset[int]] = frozenset()
ONLY: Final = tuple(frozenset([seat]) for seat in range(16))


# -- a player's grid ---------------------------------------------------------------------------
@dataclass
class Grid:
    """Cards in rows of `cols`, positions numbered from 1 along the top row, then the next.

    2x3: `1 2 3` / `4 5 6` (columns 1-4, 2-5, 3-6); the square: `1 2` / `3 4`."""
    cards: list[str]
    cols: int
    face_up: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.face_up:
            self.face_up = [False] * len(self.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def positions(self) -> range:
        return range(1, self.size + 1)

    def has(self, pos: int) -> bool:
        return 1 <= pos <= self.size

    def card(self, pos: int) -> str:
        return self.cards[pos - 1]

    def is_up(self, pos: int) -> bool:
        return self.face_up[pos - 1]

    def put(self, pos: int, card: str, face_up: bool) -> str:
        """Place `card` at `pos`; returns the card that was there."""
        old = self.cards[pos - 1]
        self.cards[pos - 1] = card
        self.face_up[pos - 1] = face_up
        return old

    def turn_up(self, pos: int) -> None:
        self.face_up[pos - 1] = True

    def turn_all_up(self) -> None:
        self.face_up = [True] * self.size

    def all_up(self) -> bool:
        return all(self.face_up)

    def face_down(self) -> list[int]:
        return [p for p in self.positions if not self.face_up[p - 1]]

    def columns(self) -> list[tuple[int, ...]]:
        rows = self.size // self.cols
        return [tuple(c + r * self.cols for r in range(rows)) for c in range(1, self.cols + 1)]

    def rows(self) -> list[tuple[int, ...]]:
        return [tuple(range(r * self.cols + 1, (r + 1) * self.cols + 1)) for r in range(self.size // self.cols)]

    def shown(self, seen: Iterable[int] = ()) -> list[str]:
        """The grid as someone sees it who knows the face-up cards and the positions `seen`."""
        known = set(seen)
        return [c if up or p in known else HIDDEN
                for p, (c, up) in enumerate(zip(self.cards, self.face_up), start=1)]

    def to_dict(self) -> dict:
        return {"cards": list(self.cards), "cols": self.cols, "face_up": list(self.face_up)}

    @classmethod
    def from_dict(cls, d: dict) -> Grid:
        return cls(list(d["cards"]), d["cols"], list(d["face_up"]))


def matching_groups(grid: Grid, groups: Iterable[tuple[int, ...]], same: Callable[[str, str], bool]) -> set[int]:
    """Positions of every group (a column, say) whose cards all match by `same`."""
    cancelled: set[int] = set()
    for group in groups:
        first = grid.card(group[0])
        if all(same(first, grid.card(p)) for p in group[1:]):
            cancelled.update(group)
    return cancelled


def deal(deck: list[str], players: int, per_player: int) -> list[list[str]]:
    """One card at a time round the table from the top (the end of `deck`), as a dealer does:
    hand i gets the cards dealt i-th, (i + players)-th, ...; takes the cards off `deck`."""
    count = players * per_player
    if count > len(deck):
        raise IndexError(f"{count} cards to deal from a deck of {len(deck)}")
    rest = len(deck) - count
    dealt = deck[:rest - 1:-1] if rest else deck[::-1]  # the top card first
    del deck[rest:]
    return [dealt[i::players] for i in range(players)]
