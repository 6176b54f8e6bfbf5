"""Golf with the golf deck (`golfdeck`): 2-4 players, six cards each in a 2x3 grid, lowest wins.

A hole: the whole 52-card deck is shuffled and dealt (six to each seat, one card turned up as
the discard, the rest the stock); every seat secretly chooses two cards to turn up (REVEAL);
then turns go clockwise from the dealer's left. A turn takes the top discard into a position,
or draws the stock card and keeps it (KEEP) or discards it and turns a face-down card up
(DISCARD FLIP). A grid all face up gives every other seat one final turn; the turn that draws
the last stock card ends the hole at once. Columns of two cards of the same type score 0.

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
- `default_orders` is a pure query: a seat's default reveal comes from a per-hole salt drawn
  from the game's RNG at the deal, so asking for defaults (hints, reminders) never changes the
  game. A default turn uses only what that seat may see, valuing face-down cards at the
  average card of the deck.
- `random_orders` is uniform over the atomic moves (six DRAW DISCARDs and DRAW STOCK; then
  six KEEPs and a DISCARD FLIP per face-down card; the 15 reveal pairs). The conditional draw
  is a mail shortcut for DRAW STOCK plus a decision, so it is not a move of its own.
"""
from __future__ import annotations

import copy
import random
from typing import Sequence

from .base import NMR_OPTION, Option, Resign, Result, TurnByTurn, register
from .card_orders import Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek, Reveal
from .cards import GOLF_DECK_POINTS, Grid, deal, golf_deck, share_the_win
from .errors import IllegalOrder

POINTS = GOLF_DECK_POINTS
DECK = tuple(golf_deck())
GRID = 6
COLUMNS = ((0, 3), (1, 4), (2, 5))  # zero-based: positions 1-4, 2-5, 3-6
# The default orders value an unseen card at the deck's average.
UNSEEN = sum(POINTS[c] for c in DECK) / len(DECK)

_OURS = frozenset({Reveal, DrawDiscard, DrawStock, Keep, DiscardFlip, DrawStockIf, Resign})
_GOLF_ONLY = {Discard: "DISCARD", Knock: "KNOCK", Peek: "PEEK"}
# Commands are frozen values: the hot path hands out shared instances.
_DRAW_STOCK = DrawStock()
_DRAW_DISCARD = (None,) + tuple(DrawDiscard(p) for p in range(1, GRID + 1))
_KEEP = (None,) + tuple(Keep(p) for p in range(1, GRID + 1))
_FLIP = (None,) + tuple(DiscardFlip(p) for p in range(1, GRID + 1))

RULE_OVER = "no orders once the game is over"
RULE_FOREIGN = "only the orders of golf with the golf deck"
RULE_POSITION = "grid positions are 1 to 6 (top row 1 2 3, bottom row 4 5 6)"
RULE_REVEAL_ONCE = "two cards are turned up once a hole, before its first turn"
RULE_REVEAL_TWO = "a reveal turns up two different cards"
RULE_REVEAL_PHASE = "cards are revealed only before the first turn of a hole"
RULE_REVEAL_FIRST = "no turn starts before every player has revealed two cards"
RULE_TURN = "turns go clockwise from the dealer's left: only the player to move may play"
RULE_ONE_DRAW = "one draw a turn: the drawn stock card is kept or discarded first"
RULE_NO_DRAWN = "KEEP and DISCARD FLIP answer a DRAW STOCK"
RULE_FACE_UP = "only a face-down card can be turned up"
RULE_NONE_DOWN = "a discarded stock card obliges a flip; with no face-down card left, keep it"
RULE_ELSE_FLIP = "the ELSE of a conditional draw turns up a face-down card"
RULE_RESIGNED = "a player who has resigned takes no more turns"


def score_grid(cards: Sequence[str]) -> tuple[int, list[int]]:
    """(the score of a grid turned all face up, the positions of its cancelled columns)."""
    score, cancelled = 0, []
    for a, b in COLUMNS:
        if cards[a] == cards[b]:
            cancelled += (a + 1, b + 1)
        else:
            score += POINTS[cards[a]] + POINTS[cards[b]]
    return score, sorted(cancelled)


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
        raise ValueError(f"option {key}: expected a positive whole number, got {value!r}") from None
    if n < 1:
        raise ValueError(f"option {key}: expected a positive whole number, got {value!r}")
    if key == "holes" and n > MAX_HOLES:
        raise ValueError(f"option holes: at most {MAX_HOLES}, got {n}")
    return n


@register
class GolfDeck(TurnByTurn):
    TYPE = "golfdeck"
    TITLE = "Golf (golf deck)"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
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

    def __init__(self, names: Sequence[str], options: dict, rng: random.Random):
        self.names = list(names)
        self.n = len(self.names)
        self.options = dict(options)
        self.holes_total = self.options["holes"]
        self.game_no = self.options["game"]
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
        self.salt = 0  # per hole, for the default reveals
        self.totals = [0] * self.n
        self.holes: list[dict] = []
        self.resigned = [False] * self.n
        self.events: list[dict] = []
        self._turn = 1
        self._result: Result | None = None

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course=None) -> "GolfDeck":
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise ValueError(f"{cls.TITLE} is a game for 2 to 4 players, not {len(names)}")
        opts = cls.options_with_defaults(dict(options or {}))
        for key in ("holes", "game"):
            opts[key] = _positive(key, opts[key])
        state = cls(names, opts, random.Random(seed))
        state._deal()
        return state

    def to_dict(self) -> dict:
        version, internal, gauss = self.rng.getstate()
        return {
            "names": list(self.names), "options": dict(self.options),
            "rng": [version, list(internal), gauss], "shuffles": [list(d) for d in self.shuffles],
            "hole": self.hole_no, "dealer": self.dealer, "starter": self.starter,
            "current": self.current, "grids": [list(g) for g in self.grid],
            "face_up": [list(u) for u in self.up], "stock": list(self.stock),
            "discard": list(self.discard), "revealing": self.revealing,
            "reveals": [list(r) if r else None for r in self.reveals], "drawn": self.drawn,
            "ender": self.ender, "salt": self.salt, "totals": list(self.totals),
            "holes": copy.deepcopy(self.holes), "resigned": list(self.resigned),
            "events": copy.deepcopy(self.events), "turn": self._turn,
            "result": self._result.to_dict() if self._result else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "GolfDeck":
        rng = random.Random()
        version, internal, gauss = d["rng"]
        rng.setstate((version, tuple(internal), gauss))
        s = cls(d["names"], d["options"], rng)
        s.shuffles = [list(x) for x in d["shuffles"]]
        s.hole_no, s.dealer, s.starter, s.current = d["hole"], d["dealer"], d["starter"], d["current"]
        s.grid = [list(g) for g in d["grids"]]
        s.up = [list(u) for u in d["face_up"]]
        s.stock, s.discard = list(d["stock"]), list(d["discard"])
        s.revealing = d["revealing"]
        s.reveals = [tuple(r) if r else None for r in d["reveals"]]
        s.drawn, s.ender, s.salt = d["drawn"], d["ender"], d["salt"]
        s.totals = list(d["totals"])
        s.holes = copy.deepcopy(d["holes"])
        resigned = d["resigned"]
        # Stored games from before seats could resign and play on hold one seat number (or None).
        s.resigned = list(resigned) if isinstance(resigned, list) else [i == resigned for i in range(s.n)]
        s.events = copy.deepcopy(d["events"])
        s._turn = d["turn"]
        s._result = Result.from_dict(d["result"])
        return s

    # -- the protocol ---------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._result is not None

    def to_move(self) -> set[int]:
        if self._result is not None:
            return set()
        if self.revealing:
            return {s for s in range(self.n) if self.reveals[s] is None and not self.resigned[s]}
        return {self.current}

    def check_order(self, seat: int, command) -> None:
        if self._result is not None:
            raise IllegalOrder(f"the game is over ({self._result.line})", rule=RULE_OVER)
        if not 0 <= seat < self.n:
            raise IllegalOrder(f"there is no seat {seat} in this game", rule=RULE_TURN)
        t = type(command)
        if self.resigned[seat]:
            raise IllegalOrder("you have resigned from this game" if t is not Resign else
                               "you have resigned already", rule=RULE_RESIGNED)
        if t is Resign:
            return
        if t not in _OURS:
            self._foreign(seat, command)
        if self.revealing:
            self._check_reveal(seat, command, t)
        elif t is Reveal:
            raise IllegalOrder(f"hole {self.hole_no} is under way: its cards were revealed before "
                               "the first turn", rule=RULE_REVEAL_PHASE, hint=self._hint(seat))
        elif seat != self.current:
            raise IllegalOrder(f"it is {self.names[self.current]}'s turn, not yours", rule=RULE_TURN)
        elif self.drawn is None:
            self._check_draw(seat, command, t)
        else:
            self._check_decision(seat, command, t)

    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        t = type(command)
        if t is DrawDiscard:
            self._take_discard(seat, command.pos)
        elif t is DrawStock:
            self._draw(seat, f"You drew {self.stock[-1]} from the stock")
        elif t is Keep:
            self._keep(seat, command.pos)
        elif t is DiscardFlip:
            self._discard_flip(seat, command.pos)
        elif t is Reveal:
            self._reveal(seat, command)
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
            "result": self._result.line if over else None,
        }
        if seat is None:
            v["grids"] = [list(g) for g in self.grid]
            v["face_up"] = [list(u) for u in self.up]
            v["reveals"] = [list(r) if r else None for r in self.reveals]
            v["drawn"] = self.drawn
            return v
        grids = []
        for s in range(self.n):
            seen = self.reveals[s] if s == seat and self.revealing and self.reveals[s] else ()
            grids.append(Grid(self.grid[s], 3, list(self.up[s])).shown(seen))
        v["grids"] = grids
        v["drawn"] = self.drawn if not over and seat == self.current and not self.revealing else None
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
            first, second = sorted(random.Random(self.salt * 8 + seat).sample(range(1, GRID + 1), 2))
            return Reveal(first, second)
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

    def orders_like(self, seat: int, word: str | None) -> list:
        down = [p for p in range(1, GRID + 1) if not self.up[seat][p - 1]] or [1]
        default = self.default_orders(seat)
        keep = default if type(default) is Keep else _KEEP[1]
        flip = _FLIP[down[0]]
        return {"DRAW": [_DRAW_STOCK], "IF": [DrawStockIf(4, down[0], down[0])], "KEEP": [keep],
                "DISCARD": [flip], "FLIP": [flip]}.get(word or "", [])

    # -- checks ---------------------------------------------------------------------------
    def _foreign(self, seat: int, command) -> None:
        word = _GOLF_ONLY.get(type(command))
        what = f"{word} is an order of the classic card game (golf)" if word else f"{command!r} is not an order"
        hint = self._hint(seat) if seat in self.to_move() else None
        raise IllegalOrder(f"{what}, not in this game", rule=RULE_FOREIGN, hint=hint)

    def _check_reveal(self, seat: int, command, t) -> None:
        done = self.reveals[seat]
        if t is not Reveal:
            if done:
                waiting = ", ".join(self.names[s] for s in sorted(self.to_move()))
                raise IllegalOrder(f"the first turn waits for {waiting} to reveal", rule=RULE_REVEAL_FIRST)
            raise IllegalOrder(f"hole {self.hole_no} starts with every player turning up two cards",
                               rule=RULE_REVEAL_FIRST, hint=self._hint(seat))
        if done:
            raise IllegalOrder(f"you revealed {done[0]} and {done[1]} for this hole already",
                               rule=RULE_REVEAL_ONCE)
        for pos in (command.first, command.second):
            self._position(seat, pos)
        if command.first == command.second:
            raise IllegalOrder(f"position {command.first} twice: name two different cards",
                               rule=RULE_REVEAL_TWO, hint=self._hint(seat))

    def _check_draw(self, seat: int, command, t) -> None:
        if t is DrawDiscard:
            self._position(seat, command.pos)
        elif t is DrawStockIf:
            self._position(seat, command.keep)
            up = self.up[seat]
            down = [p for p in range(1, GRID + 1) if not up[p - 1]]
            keep = f"DRAW STOCK IF <= {command.limit} KEEP {command.keep}"
            if not down:
                raise IllegalOrder("you have no face-down card for the ELSE to turn up", rule=RULE_NONE_DOWN,
                                   hint="DRAW STOCK")
            if command.flip is None:
                raise IllegalOrder("a conditional draw in this game ends ELSE FLIP <position>",
                                   rule=RULE_ELSE_FLIP, hint=f"{keep} ELSE FLIP {down[0]}")
            self._position(seat, command.flip)
            if up[command.flip - 1]:
                raise IllegalOrder(f"{self.grid[seat][command.flip - 1]} at {command.flip} is face up already",
                                   rule=RULE_FACE_UP, hint=f"{keep} ELSE FLIP {down[0]}")
        elif t is not DrawStock:  # KEEP or DISCARD FLIP
            raise IllegalOrder(f"{command} needs a card drawn from the stock first; you have none",
                               rule=RULE_NO_DRAWN, hint="DRAW STOCK")

    def _check_decision(self, seat: int, command, t) -> None:
        if t is Keep:
            self._position(seat, command.pos)
        elif t is DiscardFlip:
            self._position(seat, command.pos)
            up = self.up[seat]
            if False not in up:
                raise IllegalOrder(f"all your cards are face up, so {self.drawn} must be kept",
                                   rule=RULE_NONE_DOWN, hint=str(self.default_orders(seat)))
            if up[command.pos - 1]:
                raise IllegalOrder(f"{self.grid[seat][command.pos - 1]} at {command.pos} is face up already",
                                   rule=RULE_FACE_UP, hint=f"DISCARD FLIP {up.index(False) + 1}")
        else:
            raise IllegalOrder(f"you drew {self.drawn} from the stock: keep it or discard it before "
                               "anything else", rule=RULE_ONE_DRAW, hint=self._hint(seat))

    def _position(self, seat: int, pos) -> None:
        if type(pos) is not int or not 1 <= pos <= GRID:
            raise IllegalOrder(f"there is no position {pos}", rule=RULE_POSITION, hint=self._hint(seat))

    def _hint(self, seat: int) -> str | None:
        order = self.default_orders(seat)
        return None if order is None else str(order)

    # -- play -----------------------------------------------------------------------------
    # Each move leaves a `played` event: `text` for everyone, `own` for its player (who may be
    # told the card they drew); `move` is False for what follows from others' moves.
    def _played(self, seat: int, text: str, own: str, move: bool = True) -> None:
        self.events.append({"kind": "played", "seat": seat, "text": text, "own": own, "move": move})

    def _deal(self) -> None:
        n = self.n
        self.dealer = (self.game_no - 1 + self.hole_no - 1) % n
        self.drawn = self.ender = None
        self.starter = self.current = self._following(self.dealer)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.shuffles.append(list(deck))
        hands = deal(deck, n, GRID)  # one at a time from the dealer's left
        grid = self.grid
        for i in range(n):
            grid[(self.dealer + 1 + i) % n] = hands[i]
        self.up = [[False] * GRID for _ in range(n)]
        self.discard = [deck.pop()]
        self.stock = deck
        self.revealing = True
        self.reveals = [None] * n
        self.salt = self.rng.getrandbits(32)
        self.events.append({"kind": "hole_start", "hole": self.hole_no, "dealer": self.dealer})

    def _reveal(self, seat: int, command: Reveal) -> None:
        self.reveals[seat] = (command.first, command.second)
        self._turn += 1
        self._played(seat, f"{self.names[seat]} has chosen the two cards to reveal",
                     f"You chose {command.first} and {command.second} to reveal")
        self._end_reveals()

    def _end_reveals(self) -> None:
        """Once every seat in play has chosen, all the chosen cards are turned up together."""
        reveals, resigned = self.reveals, self.resigned
        if any(r is None and not resigned[s] for s, r in enumerate(reveals)):
            return
        for s, pair in enumerate(reveals):
            if pair is None:
                continue
            a, b = sorted(pair)
            up, cards = self.up[s], self.grid[s]
            up[a - 1] = up[b - 1] = True
            shown = f"{a} ({cards[a - 1]}) and {b} ({cards[b - 1]})"
            self._played(s, f"{self.names[s]} turned up {shown}", f"You turned up {shown}", move=False)
        self.revealing = False
        self.events.append({"kind": "revealed", "hole": self.hole_no})

    def _take_discard(self, seat: int, pos: int) -> None:
        grid, up, discard = self.grid[seat], self.up[seat], self.discard
        card = discard.pop()
        old = grid[pos - 1]
        grid[pos - 1] = card
        up[pos - 1] = True
        discard.append(old)
        what = f"took {card} from the discard into {pos} (out went {old})"
        self._end_turn(seat, f"{self.names[seat]} {what}", f"You {what}")

    def _draw(self, seat: int, own: str | None = None) -> str:
        card = self.drawn = self.stock.pop()
        self.events.append({"kind": "drawn", "seat": seat, "card": card, "own": own})
        return card

    def _draw_if(self, seat: int, command: DrawStockIf) -> None:
        card = self._draw(seat)
        points, limit = POINTS[card], command.limit
        if points <= limit:
            self._keep(seat, command.keep, f"You drew {card} ({points}): {points} <= {limit}, so ")
        else:
            self._discard_flip(seat, command.flip, f"You drew {card} ({points}): {points} > {limit}, so ")

    def _keep(self, seat: int, pos: int, why: str = "") -> None:
        grid, card = self.grid[seat], self.drawn
        self.drawn = None
        old = grid[pos - 1]
        grid[pos - 1] = card
        self.up[seat][pos - 1] = True
        self.discard.append(old)
        own = f"{why}you kept it in {pos} (out went {old})" if why else f"You kept {card} in {pos} (out went {old})"
        self._end_turn(seat, f"{self.names[seat]} drew {card} from the stock and kept it in {pos} "
                             f"(out went {old})", own)

    def _discard_flip(self, seat: int, pos: int, why: str = "") -> None:
        card = self.drawn
        self.drawn = None
        self.discard.append(card)
        self.up[seat][pos - 1] = True
        shown = f"{pos} ({self.grid[seat][pos - 1]})"
        own = (f"{why}it went to the discard and you turned up {shown}" if why
               else f"You discarded {card} and turned up {shown}")
        self._end_turn(seat, f"{self.names[seat]} drew {card} from the stock, discarded it and turned "
                             f"up {shown}", own)

    def _end_turn(self, seat: int, text: str, own: str) -> None:
        self._turn += 1
        self._played(seat, text, own)
        if self.ender is None and False not in self.up[seat]:
            self.ender = seat
        following = self._following(seat)
        if not self.stock or following is None:
            self._end_hole()
        else:
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
        grids = [list(g) for g in self.grid]
        scores, cancelled = [], []
        for cards in grids:
            score, gone = score_grid(cards)
            scores.append(score)
            cancelled.append(gone)
        for s in range(self.n):
            self.totals[s] += scores[s]
            self.up[s] = [True] * GRID
        self.holes.append({"hole": self.hole_no, "grids": grids, "scores": scores})
        self.events.append({
            "kind": "hole_end", "hole": self.hole_no, "grids": [list(g) for g in grids],
            "points": [[POINTS[c] for c in g] for g in grids], "cancelled": cancelled,
            "scores": list(scores), "totals": list(self.totals), "stock_out": not self.stock,
        })
        self.drawn = None
        if self.hole_no >= self.holes_total:
            self._finish_among_active()
        else:
            self.hole_no += 1
            self._deal()

    def _finish_among_active(self) -> None:
        """The lowest total among the seats still in play wins (a resigned seat cannot)."""
        active = [s for s in range(self.n) if not self.resigned[s]]
        line, picked = share_the_win([self.names[s] for s in active], [self.totals[s] for s in active])
        self._result = Result(line, tuple(active[i] for i in picked), tuple(self.totals))
        self.events.append({"kind": "game_end", "line": line})

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self._played(seat, f"{self.names[seat]} resigned", "You resigned")
        if self.resigned.count(False) < 2:
            return self._finish_among_active()
        if self.revealing:
            return self._end_reveals()
        if self.current != seat:
            return
        if self.drawn is not None:  # the drawn card is not kept: it goes where a discarded one goes
            self.discard.append(self.drawn)
            self.drawn = None
        self._turn += 1
        following = self._following(seat)
        if following is None:
            self._end_hole()
        else:
            self.current = following


def random_orders(state: GolfDeck, seat: int, rng) -> object:
    """A uniformly chosen legal move for `seat` now (None when the seat owes nothing)."""
    if state._result is not None or state.resigned[seat]:
        return None
    random_ = rng.random
    if state.revealing:
        if state.reveals[seat] is not None:
            return None
        first = int(random_() * GRID) + 1
        second = int(random_() * (GRID - 1)) + 1
        return Reveal(first, second + 1 if second >= first else second)
    if seat != state.current:
        return None
    if state.drawn is None:
        k = int(random_() * (GRID + 1))
        return _DRAW_STOCK if k == GRID else _DRAW_DISCARD[k + 1]
    up = state.up[seat]
    down = [i + 1 for i in range(GRID) if not up[i]]
    k = int(random_() * (GRID + len(down)))
    return _KEEP[k + 1] if k < GRID else _FLIP[down[k - GRID]]
