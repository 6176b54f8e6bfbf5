"""Golf with the golf deck (`golfdeck`): 2-4 players, six cards each in a 2x3 grid, lowest wins.

A hole: the whole 52-card deck is shuffled and dealt (six to each seat, one card turned up as
the discard, the rest the stock); every seat secretly chooses two cards to turn up (REVEAL);
then turns go clockwise from the dealer's left. A turn takes the top discard into a position,
or draws the stock card and keeps it (KEEP) or discards it and turns a face-down card up
(DISCARD FLIP). A grid all face up gives every other seat one final turn; the turn that draws
the last stock card ends the hole at once. Columns of two cards of the same type score 0.

The deal, exactly (README, "Provable fairness": anyone can replay it from the seed). All of a
game's chance comes from one `rng.Generator` on the game's seed (16 bytes; a whole number N
means the bytes of `rng.seed_from_int(N)`), and it draws only here, at each hole's deal:

1. The deck, before every hole's shuffle, is the fresh golf deck in this order: Hole-in-One x4,
   Gimme x4, Putter x4, 3-Iron x4, 4-Iron x4, 5-Iron x4, 6-Iron x4, 7-Iron x4, 8-Iron x4,
   9-Iron x4, Pitching Wedge x4, Sand Trap x4, Water Hazard x4 (list positions 0 to 51).
2. `shuffle` (Fisher-Yates from the end) puts it in order; that order is the hole's entry in
   `chance_record()`. The top of the deck is the LAST card of the list.
3. Cards come off the top one at a time, round the table from the dealer's left: the k-th card
   dealt (k = 0, 1, ...) goes to seat (dealer + 1 + k) mod N, at grid position k // N + 1
   (1 2 3 on the top row, 4 5 6 below), until every seat has six. The next card from the top
   is turned up as the discard; the rest, in list order, is the stock, drawn from its end.
4. Then one draw, d = `below(15^N)`, picks every seat's default reveal for the hole (what
   the GM plays for a seat that does not reveal in time): seat s (0 to N - 1, resigned seats
   too) gets pair number (d // 15^s) mod 15 of the 15 pairs (1 2), (1 3), ... (1 6), (2 3),
   ... (5 6), numbered from 0 in that order. Nothing else draws. The dealer of hole h in game
   g of a series is seat (g + h - 2) mod N.

Decisions where the seed text and RULES.md say nothing:

- Reveals are recorded when they arrive but turned up only when every seat has revealed; until
  then only the revealing seat itself sees its two chosen cards.
- RESIGN takes the seat out of play, as in `golf`: it gets no more turns and cannot win, but its
  cards are still dealt and scored (face-down ones as they lie at the hole's end). A turn it
  owed passes on (a drawn stock card goes to the discard); an owed reveal is simply not made.
  When only one seat is left in play, the game ends at once and that seat wins on its total.
- At the start of a turn the mover always has a face-down card (a grid all face up ends the
  hole before its owner moves again), so DISCARD FLIP always has a card to turn. Should none be
  left all the same, DISCARD FLIP is refused and the drawn card must be kept.
- A conditional draw must name a face-down card for its ELSE even when the card is kept.
- `turn` counts reveals and finished turns; DRAW STOCK alone does not finish a turn.
- `default_orders` is a pure query: a seat's default reveal was drawn at the deal (point 4
  above), so asking for defaults (hints, reminders) never changes the game. A default turn uses
  only what that seat may see, valuing face-down cards at the average card of the deck.
- The record every seat's view carries (`events`, `pbem.games.events`): the deal's first
  discard, each chosen reveal (its positions to its chooser alone until the cards turn up),
  the cards turned up, every stock draw (the card to its drawer alone: it is kept or discarded
  face up in the same turn), every card taken from the discard and every discard with where it
  came from, each hole's end and the game's.
- `random_orders` is uniform over the atomic moves (six DRAW DISCARDs and DRAW STOCK; then
  six KEEPs and a DISCARD FLIP per face-down card; the 15 reveal pairs). The conditional draw
  is a mail shortcut for DRAW STOCK plus a decision, so it is not a move of its own.

Games stored before the move to `rng.Generator` (their `rng` a state of Python's `random`)
do not load: `from_dict` refuses them with a ValueError that says so.
"""
from __future__ import annotations

import copy
from collections.abc import Set as AbstractSet
from itertools import repeat
from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from pbem.games.base import NMR_OPTION, Option, Result, TurnByTurn, written
from pbem.games.events import OWN, GameEvent, stored, told
from pbem.games.cards.orders import card_command, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Reveal
from pbem.games.cards import words as card_words
from pbem.games.golfdeck.words import SAYINGS
from pbem.games.cards.deck import GOLF_DECK_POINTS, NOBODY, ONLY, Grid, checked_options, golf_deck
from pbem.games.errors import BadOption, GameRefused
from pbem.games.golfdeck.rules import GRID, MOST_PLAYERS, GolfDeckRules
from pbem.games.rng import Generator, game_generator, stored_generator
from pbem.games.scoring import share_the_win

POINTS: Final = GOLF_DECK_POINTS
DECK: Final = tuple(golf_deck())
COLUMNS: Final = ((0, 3), (1, 4), (2, 5))  # zero-based: positions 1-4, 2-5, 3-6
# The default orders value an unseen card at the deck's average.
UNSEEN: Final = sum(POINTS[c] for c in DECK) / len(DECK)

# The kinds of the events, bound once: an enum member read off its class costs a lookup a time
# (some 100 ns on Python 3.11, as much as building a small dict), and moves are the hot path.
_DRAWN: Final = GameEvent.DRAWN
_GAME_END: Final = GameEvent.GAME_END
_HOLE_END: Final = GameEvent.HOLE_END
_HOLE_START: Final = GameEvent.HOLE_START
_PLAYED: Final = GameEvent.PLAYED
_REVEALED: Final = GameEvent.REVEALED

# Commands are frozen values: the hot path hands out shared instances.
_DRAW_STOCK: Final = DrawStock()
_DRAW_DISCARD: Final = (None,) + tuple(DrawDiscard(p) for p in range(1, GRID + 1))
_KEEP: Final = (None,) + tuple(Keep(p) for p in range(1, GRID + 1))
_FLIP: Final = (None,) + tuple(DiscardFlip(p) for p in range(1, GRID + 1))
_DRAWS: Final = _DRAW_DISCARD[1:] + (_DRAW_STOCK,)  # the random player's first half of a turn
# The sets of seats `to_move` hands out while the seats reveal, by mask (bit s: seat s).
_SEATS: Final = tuple(frozenset(s for s in range(MOST_PLAYERS) if mask >> s & 1) for mask in range(1 << MOST_PLAYERS))
# The 15 reveals in the order the deal's draw indexes them: (1 2), (1 3) ... (5 6).
REVEAL_PAIRS: Final = tuple(Reveal(a, b) for a in range(1, GRID + 1) for b in range(a + 1, GRID + 1))
PAIRS: Final = len(REVEAL_PAIRS)
_PAIRS_POWER: Final = tuple(PAIRS ** n for n in range(17))  # the deal's one draw is below PAIRS ** players
_DOWN: Final = (False,) * GRID
# _REVEAL[a][b] is Reveal(a, b) (index 0 is a placeholder, never read).
_REVEAL: Final = ((),) + tuple((None,) + tuple(Reveal(a, b) for b in range(1, GRID + 1)) for a in range(1, GRID + 1))


# The positions that cancelled columns free, in order, by which columns cancel (bit k: the
# column of positions k + 1 and k + 4).
_CANCELLED: Final = tuple(tuple(sorted(p for k in range(3) if mask >> k & 1 for p in (k + 1, k + 4)))
                          for mask in range(8))


def score_grid(cards: Sequence[str]) -> tuple[int, list[int]]:
    """(the score of a grid turned all face up, the positions of its cancelled columns)."""
    score, cancelled, _ = scored_grid(list(cards))
    return score, cancelled


def scored_grid(cards: list[str]) -> tuple[int, list[int], list[int]]:
    """`score_grid`, and the points of each card in grid order (a hole's end tells them)."""
    a, b, c, d, e, f = cards
    points = POINTS
    pa, pb, pc, pd, pe, pf = points[a], points[b], points[c], points[d], points[e], points[f]
    score = mask = 0
    if a == d:
        mask = 1
    else:
        score = pa + pd
    if b == e:
        mask |= 2
    else:
        score += pb + pe
    if c == f:
        mask |= 4
    else:
        score += pc + pf
    return score, list(_CANCELLED[mask]), [pa, pb, pc, pd, pe, pf]


def estimate(cards: Sequence[str], up: Sequence[bool]) -> float:
    """A grid's score as its owner can judge it: face-down cards at the deck's average."""
    total = 0.0
    for a, b in COLUMNS:
        if up[a] and up[b]:
            if cards[a] != cards[b]:
                total += POINTS[cards[a]] + POINTS[cards[b]]
        else:
            total += (POINTS[cards[a]] if up[a] else UNSEEN) + (POINTS[cards[b]] if up[b] else UNSEEN)
    return total


def best_place(cards: Sequence[str], up: Sequence[bool], card: str) -> tuple[float, int]:
    """(how much `card` lowers the estimate at its best position, that position)."""
    before = estimate(cards, up)
    gain, where = float("-inf"), 1
    for i in range(GRID):
        trial, shown = list(cards), list(up)
        trial[i], shown[i] = card, True
        g = before - estimate(trial, shown)
        if g > gain:
            gain, where = g, i + 1
    return gain, where


# A game of this many holes takes months by mail; a longer one is a mistake (or a flood of mail).
MAX_HOLES = 99


def _positive(key: str, value) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise BadOption(f"option {key}: expected a positive whole number, got {written(value)}") from None
    if n < 1:
        raise BadOption(f"option {key}: expected a positive whole number, got {written(value)}")
    if key == "holes" and n > MAX_HOLES:
        raise BadOption(f"option holes: at most {MAX_HOLES}, got {n}")
    return n


# Compiled (scripts/native.py), a class open to interpreted subclasses has a `__new__` that makes a
# bare instance, as in Python (`playout_copy`); mypyc's other native classes call `__init__` there.
@mypyc_attr(allow_interpreted_subclasses=True)
class GolfDeck(TurnByTurn, GolfDeckRules):
    TYPE = "golfdeck"
    TITLE = "Golf (golf deck)"
    MIN_PLAYERS = 2
    MAX_PLAYERS = MOST_PLAYERS
    OPTIONS = {
        "nmr": NMR_OPTION,
        "holes": Option(9, (), "how many holes (deals) the game lasts: any positive whole number"),
        "game": Option(1, (), "the game's number in a series: game g, hole h is dealt by seat g+h-2 "
                              "(counting round the table)"),
    }
    # The layouts are public only as far as they lie face up (`spectator_view` adds them so).
    PUBLIC_VIEW = ("game", "names", "hole", "holes", "game_number", "dealer", "starter", "phase", "turn",
                   "to_move", "current", "discard", "stock", "revealed", "final_turns_from", "totals",
                   "finished", "resigned", "result")

    @classmethod
    def command_from_text(cls, text: str):
        return card_command(text)

    def check_order(self, seat: int, command) -> None:
        # The rules' own: `GolfDeckRules` comes after `TurnByTurn` in the bases (a compiled class
        # has one base that is not a trait, and it comes first), so the base's stub would win.
        GolfDeckRules.check_order(self, seat, command)

    def __init__(self, names: Sequence[str], options: dict, rng: Generator):
        self.names = list(names)
        self.n = len(self.names)
        self.options = dict(options)
        # Whole numbers (`_checked`): typed so, the deal's arithmetic is the machine's when compiled.
        self.holes_total: int = self.options["holes"]
        self.game_no: int = self.options["game"]
        self.rng = rng
        self.shuffles: list[list[str]] = []  # each hole's deck order after the shuffle (top last)
        self.hole_no = 1
        self.dealer = self.starter = self.current = 0
        self.grid: list[list[str]] = [[] for _ in self.names]
        self.up: list[list[bool]] = [[] for _ in self.names]
        self.stock: list[str] = []  # top card last
        self.discard: list[str] = []  # top card last
        self.revealing = True
        self.reveals: list[tuple[int, int] | None] = [None] * self.n
        self.drawn: str | None = None  # the current seat's stock card, not yet kept or discarded
        self.ender: int | None = None  # the seat whose grid went all face up
        self.default_reveals: list[Reveal] = []  # per seat, drawn at the deal
        self.totals = [0] * self.n
        self.holes: list[dict] = []
        self.resigned = [False] * self.n
        self.events: list[dict] = []
        # The public record (`events.told`): an entry or two a move, a move's as a short tuple
        # (`(kind, seat, facts)`, written out by `_expanded` when a view reads it, stored as a list).
        self.log: list = []
        self._turn = 1
        self._result: Result | None = None

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course=None) -> GolfDeck:
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise GameRefused(f"{cls.TITLE} is a game for 2 to 4 players, not {len(names)}")
        state = cls(names, checked_options(cls.TYPE, options, cls._checked), game_generator(seed))
        state._deal()
        return state

    @classmethod
    def _checked(cls, given: dict) -> dict:
        opts = cls.options_with_defaults(given)
        for key in ("holes", "game"):
            opts[key] = _positive(key, opts[key])
        return opts

    def to_dict(self) -> dict:
        return {
            "names": list(self.names), "options": dict(self.options),
            "rng": self.rng.state(), "shuffles": [list(d) for d in self.shuffles],
            "hole": self.hole_no, "dealer": self.dealer, "starter": self.starter,
            "current": self.current, "grids": [list(g) for g in self.grid],
            "face_up": [list(u) for u in self.up], "stock": list(self.stock),
            "discard": list(self.discard), "revealing": self.revealing,
            "reveals": [list(r) if r else None for r in self.reveals], "drawn": self.drawn,
            "ender": self.ender, "totals": list(self.totals),
            "default_reveals": [[r.first, r.second] for r in self.default_reveals],
            "holes": copy.deepcopy(self.holes), "resigned": list(self.resigned),
            "events": copy.deepcopy(self.events), "log": stored(self.log), "turn": self._turn,
            "result": self._result.to_dict() if self._result else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> GolfDeck:
        s = cls(d["names"], d["options"], stored_generator(d["rng"], cls.TYPE))
        s.shuffles = [list(x) for x in d["shuffles"]]
        s.hole_no, s.dealer, s.starter, s.current = d["hole"], d["dealer"], d["starter"], d["current"]
        s.grid = [list(g) for g in d["grids"]]
        s.up = [list(u) for u in d["face_up"]]
        s.stock, s.discard = list(d["stock"]), list(d["discard"])
        s.revealing = d["revealing"]
        s.reveals = [tuple(r) if r else None for r in d["reveals"]]
        s.drawn, s.ender = d["drawn"], d["ender"]
        s.default_reveals = [Reveal(a, b) for a, b in d["default_reveals"]]
        s.totals = list(d["totals"])
        s.holes = copy.deepcopy(d["holes"])
        resigned = d["resigned"]
        # Stored games from before seats could resign and play on hold one seat number (or None).
        s.resigned = list(resigned) if isinstance(resigned, list) else [i == resigned for i in range(s.n)]
        s.events = copy.deepcopy(d["events"])
        s.log = list(d.get("log", ()))  # a game stored before the record began has none so far
        s._turn = d["turn"]
        s._result = Result.from_dict(d["result"])
        return s

    def playout_copy(self) -> GolfDeck:
        """A copy of the hole in play for a robot to play out (cheaper than `copy.deepcopy`).

        Copied, so that moves on the copy leave this state as it was: the layouts (`grid`,
        `up`), the `stock`, the `discard` pile, the `reveals`, `totals` and `resigned`.
        Shared, as read and never changed in place by a hole's moves, or as the robots' playouts
        have always shared them: `names`, `options`, `default_reveals`, the `shuffles` record and
        the generator `rng` itself (a playout that rebuilds the stock draws on this state's
        stream). Not kept: the copy starts with no `events`, no `log` and no finished `holes`
        (a playout's own record, read by nobody)."""
        c = GolfDeck.__new__(GolfDeck)
        c.names = self.names
        c.n = self.n
        c.options = self.options
        c.holes_total = self.holes_total
        c.game_no = self.game_no
        c.rng = self.rng
        c.shuffles = self.shuffles
        c.hole_no = self.hole_no
        c.dealer, c.starter, c.current = self.dealer, self.starter, self.current
        c.grid = [g[:] for g in self.grid]
        c.up = [u[:] for u in self.up]
        c.stock = self.stock[:]
        c.discard = self.discard[:]
        c.revealing = self.revealing
        c.reveals = self.reveals[:]
        c.drawn = self.drawn
        c.ender = self.ender
        c.default_reveals = self.default_reveals
        c.totals = self.totals[:]
        c.holes = []
        c.resigned = self.resigned[:]
        c.events = []
        c.log = []
        c._turn = self._turn
        c._result = self._result
        return c

    def chance_record(self) -> list:
        """Every deck order the game has shuffled, one a hole, as card names with the top card
        last: what `pbem verify` compares between a stored game and its replay."""
        return [list(d) for d in self.shuffles]

    # -- the protocol ---------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._result is not None

    def to_move(self) -> AbstractSet[int]:
        if self._result is not None:
            return NOBODY
        if self.revealing:  # the seats in play that have not chosen, as bits of a mask
            mask, bit, resigned = 0, 1, self.resigned
            for s, pair in enumerate(self.reveals):
                if pair is None and not resigned[s]:
                    mask |= bit
                bit <<= 1
            return _SEATS[mask]
        return ONLY[self.current]

    def apply(self, seat: int, command) -> None:
        t = type(command)
        # The common orders go straight to play when they are plainly legal (a benchmark hole is
        # some 37 of them); anything else is checked in full first, and refused there if wrong.
        if t is DrawDiscard:
            take: DrawDiscard = command
            pos = take.pos
            if (seat == self.current and self.drawn is None and not self.revealing and self._result is None
                    and type(pos) is int and 0 < pos <= GRID and not self.resigned[seat]):
                return self._take_discard(seat, pos)
        elif t is Reveal and self.revealing and self._result is None and 0 <= seat < self.n:
            rv: Reveal = command
            a, b = rv.first, rv.second
            if (self.reveals[seat] is None and not self.resigned[seat] and type(a) is int
                    and type(b) is int and 0 < a <= GRID and 0 < b <= GRID and a != b):
                return self._reveal(seat, a, b)
        elif seat == self.current and not self.revealing and self._result is None and not self.resigned[seat]:
            drawn = self.drawn
            if t is DrawStock:
                if drawn is None:
                    self._draw(seat, True)
                    return
            elif t is Keep:
                keep: Keep = command
                pos = keep.pos
                if drawn is not None and type(pos) is int and 0 < pos <= GRID:
                    return self._keep(seat, pos)
            elif t is DiscardFlip:
                flip: DiscardFlip = command
                pos = flip.pos
                if drawn is not None and type(pos) is int and 0 < pos <= GRID and not self.up[seat][pos - 1]:
                    return self._discard_flip(seat, pos)
        self.check(seat, command)
        if t is DrawDiscard:
            self._take_discard(seat, command.pos)
        elif t is DrawStock:
            self._draw(seat, True)
        elif t is Keep:
            self._keep(seat, command.pos)
        elif t is DiscardFlip:
            self._discard_flip(seat, command.pos)
        elif t is Reveal:
            self._reveal(seat, command.first, command.second)
        elif t is DrawStockIf:
            self._draw_if(seat, command)
        else:
            self._resign(seat)

    def view(self, seat: int | None) -> dict:
        over = self._result is not None
        v = {
            "game": self.TYPE, "names": list(self.names), "seat": seat, "hole": self.hole_no,
            "holes": self.holes_total, "game_number": self.game_no, "dealer": self.dealer,
            "starter": self.starter, "phase": "over" if over else "reveal" if self.revealing else "play",
            "turn": self._turn, "to_move": sorted(self.to_move()),
            "current": None if over or self.revealing else self.current,
            "discard": self.discard[-1] if self.discard else None, "stock": len(self.stock),
            "revealed": [r is not None for r in self.reveals] if self.revealing else [True] * self.n,
            "final_turns_from": self.ender, "totals": list(self.totals),
            "finished": [{"hole": h["hole"], "grids": [list(g) for g in h["grids"]],
                          "scores": list(h["scores"])} for h in self.holes],
            "resigned": list(self.resigned),
            "result": self._result.line if self._result is not None else None,
        }
        if seat is None:
            v["grids"] = [list(g) for g in self.grid]
            v["face_up"] = [list(u) for u in self.up]
            v["reveals"] = [list(r) if r else None for r in self.reveals]
            v["drawn"] = self.drawn
            return v
        grids = []
        for s in range(self.n):
            pair = self.reveals[s]
            seen = pair if s == seat and self.revealing and pair else ()
            grids.append(Grid(self.grid[s], 3, list(self.up[s])).shown(seen))
        v["grids"] = grids
        v["drawn"] = self.drawn if not over and seat == self.current and not self.revealing else None
        v["events"] = told(map(_expanded, self.log), seat)
        return v

    def spectator_view(self) -> dict:
        v = super().spectator_view()
        v["grids"] = [Grid(self.grid[s], 3, list(self.up[s])).shown(()) for s in range(self.n)]
        return v

    def default_orders(self, seat: int):
        """What the GM plays for `seat` (None when the seat owes nothing now)."""
        if self._result is not None or self.resigned[seat]:
            return None
        if self.revealing:
            if self.reveals[seat] is not None:
                return None
            return self.default_reveals[seat]
        if seat != self.current:
            return None
        cards, up = self.grid[seat], self.up[seat]
        if self.drawn is None:
            gain, where = best_place(cards, up, self.discard[-1])
            return _DRAW_DISCARD[where] if gain > 0 else _DRAW_STOCK
        gain, where = best_place(cards, up, self.drawn)
        if gain > 0 or all(up):
            return _KEEP[where]
        return _FLIP[up.index(False) + 1]

    def legal_orders(self, seat: int) -> list[str]:
        """The moves `seat` may make now: before a hole's first turn the 15 reveals; at the
        start of a turn each DRAW DISCARD and DRAW STOCK; with a drawn card each KEEP and a
        DISCARD FLIP for each face-down card. The conditional draw is left out: it is a mail's
        shortcut for DRAW STOCK and the decision on the card, which are listed in their turn."""
        if seat not in self.to_move():
            return []
        if self.revealing:
            return [str(r) for r in REVEAL_PAIRS]
        if self.drawn is None:
            return [str(d) for d in _DRAWS]
        up = self.up[seat]
        return [str(k) for k in _KEEP[1:]] + [str(_FLIP[p]) for p in range(1, GRID + 1) if not up[p - 1]]

    def orders_like(self, seat: int, word: str | None) -> list:
        down = [p for p in range(1, GRID + 1) if not self.up[seat][p - 1]] or [1]
        default = self.default_orders(seat)
        keep = default if type(default) is Keep else _KEEP[1]
        flip = _FLIP[down[0]]
        orders: dict[str, list] = {"DRAW": [_DRAW_STOCK], "IF": [DrawStockIf(4, down[0], down[0])], "KEEP": [keep],
                                   "DISCARD": [flip], "FLIP": [flip]}
        return orders.get(word or "", [])

    # -- play -----------------------------------------------------------------------------
    # Each move leaves a `played` event with its facts in `say`, a list (it stores as JSON);
    # `narrate` writes them as `text` for everyone and `own` for its player. `move` is False
    # for what follows from others' moves.
    def narrate(self, events: list[dict]) -> list[dict]:
        return card_words.narrate(SAYINGS, self.names, events)

    def _deal(self) -> None:
        n = self.n
        self.dealer = dealer = (self.game_no - 1 + self.hole_no - 1) % n
        self.drawn = self.ender = None
        starter = dealer + 1 if dealer + 1 < n else 0  # the next seat in play (no ender yet)
        if self.resigned[starter]:
            following = self._following(dealer)
            assert following is not None  # two seats in play at least (else the game is over)
            starter = following
        self.starter = self.current = starter
        deck = list(DECK)
        rng = self.rng
        rng.shuffle(deck)
        self.shuffles.append(deck[:])
        # One card at a time from the top (the end) round the table from the dealer's left, as
        # `deck.deal` deals: the k-th card to seat (dealer + 1 + k) mod n.
        count = n * GRID
        dealt = deck[:-count - 1:-1]
        del deck[-count:]
        grid = self.grid
        for i in range(n):
            grid[(dealer + 1 + i) % n] = dealt[i::n]
        self.up = list(map(list, repeat(_DOWN, n)))  # a list of its own each seat
        self.discard = [deck.pop()]
        self.stock = deck
        self.revealing = True
        self.reveals = [None] * n
        draw = rng.below(_PAIRS_POWER[n])  # one draw for all: seat s's pair is base-15 digit s
        pairs = []
        for _ in range(n):
            draw, digit = divmod(draw, PAIRS)
            pairs.append(REVEAL_PAIRS[digit])
        self.default_reveals = pairs
        hole = self.hole_no
        self.events.append({"kind": _HOLE_START, "hole": hole, "dealer": dealer})
        self.log.append({"kind": _HOLE_START, "hole": hole, "dealer": dealer, "discard": self.discard[-1]})

    def _reveal(self, seat: int, first: int, second: int) -> None:
        self.reveals[seat] = (first, second)
        self._turn += 1
        say = ["chose", first, second]
        self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
        self.log.append((_PLAYED, seat, say))
        self._end_reveals()

    def _end_reveals(self) -> None:
        """Once every seat in play has chosen, all the chosen cards are turned up together."""
        reveals, resigned = self.reveals, self.resigned
        if None in reveals and (True not in resigned
                                or any(r is None and not resigned[s] for s, r in enumerate(reveals))):
            return
        events = self.events
        for s, pair in enumerate(reveals):
            if pair is None:
                continue
            a, b = pair if pair[0] < pair[1] else (pair[1], pair[0])
            up, cards = self.up[s], self.grid[s]
            up[a - 1] = up[b - 1] = True
            say = ["turned", a, cards[a - 1], b, cards[b - 1]]
            events.append({"kind": _PLAYED, "seat": s, "say": say, "move": False})
            self.log.append((_PLAYED, s, say))
        self.revealing = False
        events.append({"kind": _REVEALED, "hole": self.hole_no})
        self.log.append({"kind": _REVEALED, "hole": self.hole_no})

    def _take_discard(self, seat: int, pos: int) -> None:
        i, grid, discard = pos - 1, self.grid[seat], self.discard
        card, old = discard[-1], grid[i]
        grid[i], discard[-1] = card, old
        up = self.up[seat]
        up[i] = True
        say = ["took", card, pos, old]
        # The plain case inline (most moves take the discard): the grid is not yet all face up
        # (or was already), the stock is left, and the next seat plays on.
        ender = self.ender
        if (ender is not None or False in up) and self.stock:
            following = seat + 1 if seat + 1 < self.n else 0
            if (ender is None or following != ender) and not self.resigned[following]:
                self._turn += 1
                self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
                self.log.append((_PLAYED, seat, say))
                self.current = following
                return
        self._end_turn(seat, up, say)

    def _draw(self, seat: int, tell: bool = False) -> str:
        """The top stock card becomes the mover's drawn card; `tell`: the event tells its player
        which (a conditional draw tells them in its `played` event instead)."""
        card = self.drawn = self.stock.pop()
        self.events.append({"kind": _DRAWN, "seat": seat, "card": card, "tell": tell})
        self.log.append((_DRAWN, seat, card))
        return card

    def _draw_if(self, seat: int, command: DrawStockIf) -> None:
        card = self._draw(seat)
        limit = command.limit
        if POINTS[card] <= limit:
            self._keep(seat, command.keep, limit)
        else:
            assert command.flip is not None  # checked: here a conditional draw names its flip
            self._discard_flip(seat, command.flip, limit)

    def _keep(self, seat: int, pos: int, limit: int | None = None) -> None:
        """Keep the drawn card at `pos`; `limit`: the conditional draw's, when that kept it."""
        i, grid, card = pos - 1, self.grid[seat], self.drawn
        assert card is not None  # KEEP follows a draw
        self.drawn = None
        old = grid[i]
        grid[i] = card
        up = self.up[seat]
        up[i] = True
        self.discard.append(old)
        self._end_turn(seat, up, ["kept", card, pos, old, limit])

    def _discard_flip(self, seat: int, pos: int, limit: int | None = None) -> None:
        card = self.drawn
        assert card is not None  # DISCARD FLIP follows a draw
        self.drawn = None
        self.discard.append(card)
        up = self.up[seat]
        up[pos - 1] = True
        self._end_turn(seat, up, ["flipped", card, pos, self.grid[seat][pos - 1], limit])

    def _end_turn(self, seat: int, up: list[bool], say: list) -> None:
        """After the mover's turn (`up`: their face-up flags, `say`: the move's facts for its
        `played` event): the next seat, or the hole's end."""
        self._turn += 1
        self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
        self.log.append((_PLAYED, seat, say))
        ender = self.ender
        if ender is None and False not in up:
            self.ender = ender = seat
        if not self.stock:
            return self._end_hole()
        following = seat + 1 if seat + 1 < self.n else 0  # the plain case: the next seat
        if (ender is not None and following == ender) or self.resigned[following]:
            in_play = self._following(seat)
            if in_play is None:
                return self._end_hole()
            following = in_play
        self.current = following

    def _following(self, seat: int) -> int | None:
        """The next seat in play after `seat`, or None once the turn would come back round to
        the seat whose grid went all face up (every other seat has had its final turn)."""
        s, n, resigned, ender = seat, self.n, self.resigned, self.ender
        for _ in range(n):
            s = s + 1 if s + 1 < n else 0
            if s == ender:
                return None
            if not resigned[s]:
                return s
        return None

    def _end_hole(self) -> None:
        grids = [g[:] for g in self.grid]
        scored = [scored_grid(cards) for cards in grids]
        scores = [score for score, _, _ in scored]
        totals = self.totals
        for s in range(self.n):
            totals[s] += scores[s]
        self.up = [[True] * GRID for _ in grids]
        self.holes.append({"hole": self.hole_no, "grids": grids, "scores": scores})
        after = totals[:]
        self.events.append({
            "kind": _HOLE_END, "hole": self.hole_no, "grids": [g[:] for g in grids],
            "points": [each for _, _, each in scored], "cancelled": [gone for _, gone, _ in scored],
            "scores": scores[:], "totals": after, "stock_out": not self.stock,
        })
        # The hole's lists are never changed once it is scored: the record shares them.
        self.log.append({"kind": _HOLE_END, "hole": self.hole_no, "grids": grids, "scores": scores,
                         "totals": after, "stock_out": not self.stock})
        self.drawn = None
        if self.hole_no >= self.holes_total:
            self._finish_among_active()
        else:
            self.hole_no += 1
            self._deal()

    def _finish_among_active(self) -> None:
        """The lowest total among the seats still in play wins (a resigned seat cannot)."""
        if True in self.resigned:
            active = [s for s in range(self.n) if not self.resigned[s]]
            line, picked = share_the_win([self.names[s] for s in active], [self.totals[s] for s in active])
            picked = tuple(active[i] for i in picked)
        else:
            line, picked = share_the_win(self.names, self.totals)
        self._result = Result(line, picked, tuple(self.totals))
        self.events.append({"kind": _GAME_END, "line": line})
        self.log.append({"kind": _GAME_END, "line": line})

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self.events.append({"kind": _PLAYED, "seat": seat, "say": ["resigned"], "move": True})
        resigned = ["resigned"]  # and the drawn card it leaves, which goes onto the discard
        self.log.append((_PLAYED, seat, resigned))
        if self.resigned.count(False) < 2:
            return self._finish_among_active()
        if self.revealing:
            if self.current == seat:  # the seat due to start the hole is out: the next in play starts
                starter = self._following(seat)
                assert starter is not None  # two seats in play at least, and no ender while revealing
                self.starter = self.current = starter
            return self._end_reveals()
        if self.current != seat:
            return
        if self.drawn is not None:  # the drawn card is not kept: it goes where a discarded one goes
            self.discard.append(self.drawn)
            resigned.append(self.drawn)
            self.drawn = None
        self._turn += 1
        following = self._following(seat)
        if following is None:
            self._end_hole()
        else:
            self.current = following


def _expanded(entry) -> dict:
    """An entry of the record written out (`events.told` reads dicts): a move's short list, its
    facts as the `played` event's `say` holds them, or a drawn card. Every card a move shows
    goes face up or onto the discard in front of everyone; the positions a seat chose to reveal
    (until all are turned up), the card it drew and a conditional draw's limit are its own."""
    if type(entry) is dict:
        return entry
    kind, seat, facts = entry
    if kind == _DRAWN:
        return {"kind": _DRAWN, "seat": seat, "from": "stock", OWN: {"card": facts}}
    what = facts[0]
    out: dict = {"kind": _PLAYED, "seat": seat, "what": what}
    if what == "chose":
        out[OWN] = {"positions": facts[1:3]}
    elif what == "turned":
        _, a, card_a, b, card_b = facts
        out.update(positions=[a, b], cards=[card_a, card_b])
    elif what == "resigned":
        if len(facts) > 1:
            out.update(discarded=facts[1], discarded_from="stock")
    else:
        card, pos, other = facts[1], facts[2], facts[3]
        if what == "flipped":  # the drawn card onto the discard, the card at `pos` (`other`) turned up
            out.update(pos=pos, card=other, discarded=card, discarded_from="stock")
        else:  # "took" the top discard, or "kept" the drawn card, into `pos`: the card there goes
            out.update(pos=pos, card=card, discarded=other, discarded_from="grid")
        if len(facts) > 4 and facts[4] is not None:
            out[OWN] = {"limit": facts[4]}
    return out


def random_orders(state: GolfDeck, seat: int, rng) -> object:
    """A uniformly chosen legal move for `seat` now (None when the seat owes nothing)."""
    if state._result is not None or state.resigned[seat]:
        return None
    # Each draw `rng.random()` into a float local: compiled (scripts/native.py), the arithmetic
    # on it is then the machine's, and the method is called without binding it first.
    x: float
    if state.revealing:
        if state.reveals[seat] is not None:
            return None
        x = rng.random()
        first = int(x * GRID) + 1
        x = rng.random()
        second = int(x * (GRID - 1)) + 1
        return _REVEAL[first][second + 1 if second >= first else second]
    if seat != state.current:
        return None
    x = rng.random()
    if state.drawn is None:
        return _DRAWS[int(x * (GRID + 1))]
    up = state.up[seat]
    k = int(x * (GRID + up.count(False)))
    if k < GRID:
        return _KEEP[k + 1]
    i = up.index(False)
    for _ in range(k - GRID):  # the (k - GRID)-th face-down card, counting from 0
        i = up.index(False, i + 1)
    return _FLIP[i + 1]
