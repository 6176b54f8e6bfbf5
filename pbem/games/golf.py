"""Golf, the classic card game (TYPE `golf`): each player has a small layout of face-down cards (a
square of four, or two rows of three) and improves it one card a turn from the stock or the
discard pile; the lowest total over the holes wins. Scoring lives in `golf_scoring`.

Where the rule text and RULES.md leave a gap, this engine decides:
- `peek=near2` shows positions 3 and 4 at the deal (4 and 5 in the 2x3 layout). `peek=any2|one`:
  the player chooses with free `PEEK <pos>` orders (two / one) on their first turn of the hole,
  before drawing; the allowance lapses with their first draw or knock. `peek=paid`: the near two
  at the deal as usual, then `PEEK <pos>` before drawing on any turn, 1 point a look (part of the
  hole score before the knocker is compared). Only an unseen face-down card may be looked at.
- `spade_queen=40` (or `true`): QS scores 40 and every eight 0; the other queens follow `queens`.
- Jokers (two a pack) never pair: they keep their -5. Pairs are by rank. With `pairs=none` a
  wild one-eyed jack (JS, JH) still pairs with any card; under `rowcol` "together" means in the
  same row or the same column. Where cards could pair more than one way, the pairing that
  cancels the most points counts.
- `jacks=20skip`: any jack the player sends to the discard pile (the drawn card or the card it
  replaced) makes the next player miss a turn; a missed final turn is lost.
- The knocker is "lowest" unless someone scored less (ties favour the knocker). `knock_bonus=
  zero` never raises a negative score. `knock_bonus=minus_players` brings its own doubling when
  not lowest, so it cannot be combined with a `knock_penalty`.
- The stock is rebuilt (once a hole) at the end of the turn that empties it; when the rebuilt
  stock empties too, the hole ends at the end of that turn, final turns owed or not.
- Hole h is dealt by seat (h-1) mod N; the seat to the dealer's left starts. `holes` takes any
  number (9 and 18 are the text's); `target=T` (T > 0) plays until a total reaches T instead.
- RESIGN: the seat takes no more turns (its cards are still dealt and scored) and cannot win;
  when one player is left, they win.
"""
from __future__ import annotations

import random
from typing import Sequence

from .base import NMR_OPTION, Option, Resign, Result, TurnByTurn, register
from .card_orders import Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek, Reveal
from .cards import HIDDEN, SUITS, share_the_win, standard_pack
from .errors import IllegalOrder
from .golf_scoring import best_spot, card_points, score_hole

COLS = {4: 2, 6: 3}
NEAREST = {4: (3, 4), 6: (4, 5)}
LOOK_ORDER = {4: (3, 4, 1, 2), 6: (4, 5, 6, 1, 2, 3)}  # nearest first
FREE_PEEKS = {"any2": 2, "one": 1}
_PLAY_ORDERS = frozenset((DrawDiscard, DrawStock, DrawStockIf, Keep, Discard, Knock, Peek))
_ON = (False, True)
_DONE_AS = {"take": "DRAW DISCARD", "keep": "KEEP", "discard": "DISCARD", "knock": "KNOCK"}

OPTIONS = {
    "nmr": NMR_OPTION,
    "layout": Option(4, (4, 6), "4: square 1 2 / 3 4; 6: rows 1 2 3 / 4 5 6"),
    "ending": Option("knock", ("knock", "faceup"), "knock: KNOCK ends the hole after one more turn each; "
                     "faceup: replacements lie face up and a full face-up layout ends it"),
    "peek": Option("near2", ("near2", "any2", "one", "paid"), "which own cards a player sees"),
    "pairs": Option("none", ("none", "any", "rowcol"), "equal cards that score nothing together"),
    "queens": Option(10, (10, 12, 13, 20), "points of a queen"),
    "spade_queen": Option(False, (False, True, 40), "40 (or true): QS scores 40, eights 0"),
    "jacks": Option(10, (10, 0, "20skip"), "points of a jack; 20skip: 20, and a discarded jack skips a turn"),
    "one_eyed_jacks_wild": Option(False, _ON, "JS and JH pair with any card"),
    "jokers": Option(False, _ON, "two jokers a pack, -5 each"),
    "kings": Option(0, (0, 13), "points of a king"),
    "knock_penalty": Option("none", ("none", "plus10", "double_plus5", "highest"),
                            "a knocker who is not lowest: +10, doubled +5, or the highest score"),
    "knock_bonus": Option("none", ("none", "zero", "minus_players"),
                          "a lowest knocker: scores 0, or minus the players (and doubled when not lowest)"),
    "replace_unseen_once": Option(False, _ON, "the cards not seen at the start are replaced once at most"),
    "holes": Option(9, (), "holes in a game (9 or 18)"),
    "target": Option(0, (), "0: play the holes; T: play until a total reaches T"),
}


# A game of this many holes takes months by mail; a longer one is a mistake (or a flood of mail).
MAX_HOLES = 99


def _whole(options: dict, key: str, least: int, most: int | None = None) -> int:
    try:
        value = int(options[key])
    except (TypeError, ValueError):
        raise ValueError(f"option {key}: expected a whole number, got {options[key]!r}") from None
    if value < least:
        raise ValueError(f"option {key}: expected at least {least}, got {value}")
    if most is not None and value > most:
        raise ValueError(f"option {key}: at most {most}, got {value}")
    return value


@register
class Golf(TurnByTurn):
    TYPE = "golf"
    TITLE = "Golf"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 8
    OPTIONS = OPTIONS
    # `grids` is public as every player's view shows it (face-down cards hidden); the GM's is not.
    PUBLIC_VIEW = ("type", "names", "options", "hole", "holes", "target", "dealer", "current", "to_move", "phase",
                   "turn", "knocker", "finished", "final_turns", "last_round", "stock", "discard", "totals",
                   "face_up", "peeks_paid", "drawing", "resigned", "result")

    @classmethod
    def contradiction(cls, options: dict, given: set[str]) -> str | None:
        target = _whole(options, "target", 0)
        if target and "holes" in given:
            return (f"options holes={options['holes']} and target={target} contradict each other: with a "
                    "target the game lasts until a total reaches it, however many holes that takes "
                    "(set one of them, not both)")
        if options["ending"] == "faceup":
            knocking = [f"{k}={options[k]}" for k in ("knock_penalty", "knock_bonus") if options[k] != "none"]
            if knocking:
                return (f"option {knocking[0]} scores a knocker, and ending=faceup has no knocking "
                        "(use ending=knock, or leave it out)")
        return None

    def __init__(self, names: Sequence[str], options: dict, seed: int = 0):
        self.names, self.n = list(names), len(names)
        n = self.n
        self.options = dict(options)
        self.rng = random.Random(seed)
        self._derive()
        self.totals = [0] * n
        self.holes: list[dict] = []
        self.shuffles: list[dict] = []
        self.resigned = [False] * n
        self._result: Result | None = None
        self._turn, self.hole_no = 1, 0
        self.events: list[dict] = []
        self.last_seat, self.last_kind = None, None  # who completed the last turn, and how
        self.dealer, self.current, self.drawn = 0, None, None
        self.knocker: int | None = None
        self.final: list[int] | None = None  # seats still owed a last turn, once the end is called
        self.rebuilt = False
        self.stock: list[str] = []
        self.discard: list[str] = []
        # Per seat and position; `known`: what the seat has seen of its own face-down cards.
        self.grids, self.up, self.known, self.start_seen, self.replaced = [], [], [], [], []
        self.peeks_left, self.paid, self.started = [0] * n, [0] * n, [False] * n

    def _derive(self) -> None:
        o = self.options
        self.size = o["layout"]
        self.cols = COLS[self.size]
        self.positions = tuple(range(1, self.size + 1))
        self.faceup = o["ending"] == "faceup"
        self.once = bool(o["replace_unseen_once"])
        self.jacks = frozenset("J" + s for s in SUITS) if o["jacks"] == "20skip" else frozenset()
        self.packs = 2 if self.n >= 8 else 1
        self.points = card_points(o)
        values = [self.points[c] for c in standard_pack(1, 2 if o["jokers"] else 0)]
        self.lo, self.hi = min(values), max(values)
        self.guess = dict(self.points)
        self.guess[HIDDEN] = sum(values) / len(values)  # an unseen card is worth the pack's average

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course=None) -> "Golf":
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise ValueError(f"Golf is a game for 2 to 8 players, not {len(names)}")
        opts = cls.options_with_defaults(options)
        opts["holes"] = _whole(opts, "holes", 1, MAX_HOLES)
        opts["target"] = _whole(opts, "target", 0)
        opts["spade_queen"] = opts["spade_queen"] in (True, 40)
        if opts["knock_bonus"] == "minus_players" and opts["knock_penalty"] != "none":
            raise ValueError("option knock_bonus=minus_players already doubles a knocker who is not lowest; "
                             "use it with knock_penalty=none")
        game = cls(names, opts, seed)
        game._start_hole(1)
        return game

    _LISTS = ("totals", "resigned", "stock", "discard", "peeks_left", "paid", "started", "holes", "shuffles")
    _GRIDS = ("grids", "up", "known", "start_seen", "replaced")

    def to_dict(self) -> dict:
        version, state, gauss = self.rng.getstate()
        d = {k: list(getattr(self, k)) for k in self._LISTS}
        d.update({k: [list(row) for row in getattr(self, k)] for k in self._GRIDS})
        d.update({
            "names": list(self.names), "options": dict(self.options), "rng": [version, list(state), gauss],
            "result": self._result.to_dict() if self._result else None, "turn": self._turn,
            "hole": self.hole_no, "last": [self.last_seat, self.last_kind], "dealer": self.dealer,
            "current": self.current, "drawn": self.drawn, "knocker": self.knocker,
            "final": list(self.final) if self.final is not None else None, "rebuilt": self.rebuilt,
        })
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Golf":
        g = cls(d["names"], d["options"])
        version, state, gauss = d["rng"]
        g.rng.setstate((version, tuple(state), gauss))
        for k in cls._LISTS:
            setattr(g, k, list(d[k]))
        for k in cls._GRIDS:
            setattr(g, k, [list(row) for row in d[k]])
        g._result = Result.from_dict(d["result"])
        g._turn, g.hole_no, g.dealer = d["turn"], d["hole"], d["dealer"]
        g.last_seat, g.last_kind = d["last"]
        g.current, g.drawn, g.knocker, g.rebuilt = d["current"], d["drawn"], d["knocker"], d["rebuilt"]
        g.final = list(d["final"]) if d["final"] is not None else None
        return g

    # -- the protocol ---------------------------------------------------------------------
    def to_move(self) -> set[int]:
        return set() if self._result is not None or self.current is None else {self.current}

    def locked(self, seat: int, pos: int) -> bool:
        """replace_unseen_once: a position not seen at the start that has been replaced already."""
        return self.once and self.replaced[seat][pos - 1] and not self.start_seen[seat][pos - 1]

    def replaceable(self, seat: int) -> list[int]:
        if not self.once:
            return list(self.positions)
        return [p for p in self.positions if not self.locked(seat, p)]

    def peekable(self, seat: int) -> list[int]:
        """Positions `seat` may PEEK at now (it must be their turn, before drawing)."""
        peek = self.options["peek"]
        if peek != "paid" and (not self.peeks_left[seat] or self.started[seat]):
            return []
        up, known = self.up[seat], self.known[seat]
        return [p for p in self.positions if not up[p - 1] and not known[p - 1]]

    # -- checking orders ------------------------------------------------------------------
    def check_order(self, seat: int, command) -> None:
        if self._result is not None:
            raise IllegalOrder(f"the game is over ({self._result.line})", rule="no orders after the end of the game")
        t = type(command)
        if t is Resign:
            if self.resigned[seat]:
                raise IllegalOrder("you have resigned already", rule="a player resigns once")
            return
        if t not in _PLAY_ORDERS or (t is DrawStockIf and command.flip is not None):
            self._refuse_foreign(seat, command)
        if self.resigned[seat]:
            raise IllegalOrder("you have resigned from this game", rule="resigned players take no turns")
        if t is Discard and self.last_seat == seat and self.last_kind == "take" and self.drawn is None:
            raise IllegalOrder("you took the top discard into your layout; it cannot go back on the pile (draw "
                               "from the stock, next turn, for a card you may discard)",
                               rule="a card taken from the discard pile must be used")
        if seat != self.current:
            self._refuse_out_of_turn(seat, command)
        if self.drawn is not None:
            if t is Keep:
                self._check_position(seat, command.pos, Keep)
            elif t is not Discard:
                self._refuse_while_drawn(command)
        elif t is DrawDiscard:
            self._check_position(seat, command.pos, DrawDiscard)
        elif t is DrawStockIf:
            self._check_position(seat, command.keep, lambda p: DrawStockIf(command.limit, p))
        elif t is Knock:
            self._check_knock()
        elif t is Peek:
            self._check_peek(seat, command.pos)
        elif t is not DrawStock:
            raise IllegalOrder(f"{command} needs a card drawn from the stock first",
                               rule="KEEP and DISCARD follow DRAW STOCK", hint="DRAW STOCK")

    def _refuse_foreign(self, seat: int, command) -> None:
        # Hints are built legal here (never tried out: a trial would check, and refuse, again).
        mine = seat == self.current and not self.resigned[seat]
        hint = self._hint(seat)
        if isinstance(command, DrawStockIf):
            keep = command.keep
            if mine and self.drawn is None and keep in self.positions and not self.locked(seat, keep):
                hint = str(DrawStockIf(command.limit, keep))
            raise IllegalOrder("ELSE FLIP is not in this game: a card you do not keep is discarded",
                               rule="golf orders", hint=hint)
        if isinstance(command, (Reveal, DiscardFlip)):
            if mine and isinstance(command, DiscardFlip) and self.drawn is not None:
                hint = "DISCARD"
            raise IllegalOrder(f"{command} is a golf-deck order, not in this game", rule="golf orders", hint=hint)
        raise IllegalOrder(f"{command} is not an order of Golf", rule="golf orders", hint=hint)

    def _hint(self, seat: int) -> str | None:
        order = self.default_orders(seat)
        return None if order is None else str(order)

    def _refuse_out_of_turn(self, seat: int, command) -> None:
        if self.current is None:
            raise IllegalOrder("nobody is to move", rule="play in turn")
        whose = self.names[self.current]
        if self.last_seat == seat:
            done = _DONE_AS.get(self.last_kind, self.last_kind)
            raise IllegalOrder(f"your turn ended with {done}; it is {whose}'s turn now",
                               rule="one action a turn")
        raise IllegalOrder(f"it is {whose}'s turn, not yours", rule="play in turn")

    def _refuse_while_drawn(self, command) -> None:
        keep = self.replaceable(self.current)
        hint = f"KEEP {keep[0]}" if keep else "DISCARD"
        if isinstance(command, Knock):
            raise IllegalOrder("you have drawn a card: a knock takes the whole turn instead of drawing",
                               rule="knock instead of drawing", hint=hint)
        if isinstance(command, Peek):
            raise IllegalOrder("look at your cards before you draw, not after", rule="peek before drawing", hint=hint)
        raise IllegalOrder(f"you have drawn {self.drawn} already: keep it or discard it",
                           rule="one draw a turn", hint=hint)

    def _check_position(self, seat: int, pos: int, remake) -> None:
        """`pos` names a card the order may take (`remake(p)` is the order at position p: the
        hint uses the first position that is allowed)."""
        if pos not in self.positions:
            shape = "1 2 / 3 4" if self.size == 4 else "1 2 3 / 4 5 6"
            raise IllegalOrder(f"there is no position {pos}: your layout is {shape}",
                               rule=f"positions are 1-{self.size}", hint=self._moved(seat, remake))
        if remake is not Peek and self.locked(seat, pos):
            open_ = " ".join(str(p) for p in self.replaceable(seat)) or "none"
            raise IllegalOrder(f"position {pos} was not seen at the start and has been replaced once already "
                               f"(positions you may still replace: {open_})",
                               rule="cards not seen at the start are replaced only once",
                               hint=self._moved(seat, remake))

    def _moved(self, seat: int, remake) -> str | None:
        allowed = self.peekable(seat) if remake is Peek else self.replaceable(seat)
        return str(remake(allowed[0])) if allowed else self._hint(seat)

    def _check_knock(self) -> None:
        if self.faceup:
            raise IllegalOrder("this game ends when a layout is all face up; nobody knocks",
                               rule="no knocking in the face-up ending", hint="DRAW STOCK")
        if self.knocker is not None:
            raise IllegalOrder(f"{self.names[self.knocker]} has knocked already; this is your last turn",
                               rule="one knock a hole", hint="DRAW STOCK")

    def _check_peek(self, seat: int, pos: int) -> None:
        peek = self.options["peek"]
        if peek not in ("paid", "any2", "one"):
            raise IllegalOrder("in this game you see your two nearest cards at the deal and may not look again",
                               rule="no looking at your cards during play", hint="DRAW STOCK")
        if peek != "paid" and (not self.peeks_left[seat] or self.started[seat]):
            raise IllegalOrder("your free looks are used up (they come before your first draw of the hole)",
                               rule="free looks at the start only", hint="DRAW STOCK")
        self._check_position(seat, pos, Peek)
        if self.up[seat][pos - 1] or self.known[seat][pos - 1]:
            unseen = self.peekable(seat)
            open_ = " ".join(str(p) for p in unseen) or "none"
            raise IllegalOrder(f"you know the card at {pos} already (unseen positions: {open_})",
                               rule="look only at unseen cards", hint=f"PEEK {unseen[0]}" if unseen else "DRAW STOCK")

    # -- playing orders -------------------------------------------------------------------
    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        t = type(command)
        if t is Resign:
            return self._resign(seat)
        if t is Peek:
            return self._peek(seat, command.pos)
        self.started[seat] = True
        self.peeks_left[seat] = 0
        if t is DrawStock:
            self._draw(seat, f"You drew {self.stock[-1]} from the stock")
        elif t is Keep:
            self._keep(seat, command.pos)
        elif t is Discard:
            self._throw(seat)
        elif t is DrawDiscard:
            card = self.discard.pop()
            self._replace(seat, command.pos, card, "took the top discard", "take", f"You took {card} from the discard")
        elif t is DrawStockIf:
            card = self._draw(seat)
            points, limit = self.points[card], command.limit
            if points <= limit:
                self._keep(seat, command.keep, f"You drew {card} ({points}): {points} <= {limit}, so you kept it")
            else:
                self._throw(seat, f"You drew {card} ({points}): {points} > {limit}, so you discarded it")
        else:
            self.knocker = seat
            self.events.append({"kind": "knock", "seat": seat})
            self._pass_turn(seat, "knock", f"{self.names[seat]} knocks", False,
                            "You knocked: everyone else has one more turn")

    def _draw(self, seat: int, own: str | None = None) -> str:
        card = self.drawn = self.stock.pop()
        self.events.append({"kind": "drawn", "seat": seat, "card": card, "own": own})
        return card

    def _keep(self, seat: int, pos: int, why: str = "") -> None:
        card, self.drawn = self.drawn, None
        self._replace(seat, pos, card, "drew from the stock", "keep", why or f"You kept {card}")

    def _throw(self, seat: int, why: str = "") -> None:
        card, self.drawn = self.drawn, None
        self.discard.append(card)
        self._pass_turn(seat, "discard", f"{self.names[seat]} drew {card} from the stock and discarded it",
                        card in self.jacks, why or f"You discarded {card}, the card you drew")

    def _replace(self, seat: int, pos: int, card: str, how: str, kind: str, own: str = "") -> None:
        i = pos - 1
        grid = self.grids[seat]
        old = grid[i]
        grid[i] = card
        self.known[seat][i] = True
        self.replaced[seat][i] = True
        if self.faceup:
            self.up[seat][i] = True
            placed, side = f"put {card} face up", "face up"
        else:
            placed, side = "put it face down", "face down"  # never name a face-down card in public
        self.discard.append(old)
        where = f"at {pos}, discarding {old}"
        mine = f"{own} and put it {side} {where}" if kind == "take" else f"{own} {side} {where}"
        self._pass_turn(seat, kind, f"{self.names[seat]} {how} and {placed} {where}", old in self.jacks, mine)

    def _peek(self, seat: int, pos: int) -> None:
        self.known[seat][pos - 1] = True
        text = f"{self.names[seat]} looked at the card at {pos}"
        own = f"You looked at the card at {pos}: {self.grids[seat][pos - 1]}"
        if self.options["peek"] == "paid":
            self.paid[seat] += 1
            text += " (1 point)"
            own += " (1 point)"
        else:
            self.peeks_left[seat] -= 1
            self.start_seen[seat][pos - 1] = True
        self.events.append({"kind": "peeked", "seat": seat, "positions": {pos: self.grids[seat][pos - 1]}})
        self.events.append({"kind": "played", "seat": seat, "text": text, "own": own, "move": True})

    def _pass_turn(self, seat: int, kind: str, text: str, jack: bool, own: str) -> None:
        self._turn += 1
        self.last_seat, self.last_kind = seat, kind
        over = False
        after = ""
        if not self.stock:
            if self.rebuilt or not self._rebuild():
                after = "; the stock is used up, so the hole ends"
                over = True
            else:
                after = "; the stock ran out and the discards under the top card were shuffled into a new one"
        if not over and self.final is None and (kind == "knock" or (self.faceup and False not in self.up[seat])):
            self.final = self._others_after(seat)
        skipped = nxt = None
        if not over and self.final is not None:
            if jack and self.final:
                skipped = self.final.pop(0)
            if self.final:
                nxt = self.final.pop(0)
            else:
                over = True
        elif not over:
            nxt = self._next_seat(seat)
            if jack:
                skipped, nxt = nxt, self._next_seat(nxt)
        if skipped is not None:
            after += f"; {self.names[skipped]} misses a turn"
        self.events.append({"kind": "played", "seat": seat, "text": text + after, "own": own + after, "move": True})
        self.current = nxt
        if over:
            self._end_hole()

    def _next_seat(self, seat: int) -> int:
        n, resigned = self.n, self.resigned
        s = (seat + 1) % n
        while resigned[s]:
            s = (s + 1) % n
        return s

    def _others_after(self, seat: int) -> list[int]:
        return [s for s in ((seat + k) % self.n for k in range(1, self.n)) if not self.resigned[s]]

    def _rebuild(self) -> bool:
        pile = self.discard[:-1]
        if not pile:
            return False
        self.discard = self.discard[-1:]
        self.rng.shuffle(pile)
        self.shuffles.append({"hole": self.hole_no, "kind": "rebuild", "order": list(pile)})
        self.stock = pile
        self.rebuilt = True
        return True

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self.events.append({"kind": "played", "seat": seat, "text": f"{self.names[seat]} resigns",
                            "own": "You resigned", "move": True})
        active = [s for s in range(self.n) if not self.resigned[s]]
        if len(active) == 1:
            self.current = None
            self._result = Result(f"{self.names[active[0]]} wins by resignation", (active[0],), tuple(self.totals))
            self.events.append({"kind": "game_end", "line": self._result.line})
            return
        if self.final is not None and seat in self.final:
            self.final.remove(seat)
        if self.current != seat:
            return
        if self.drawn is not None:
            self.discard.append(self.drawn)
            self.drawn = None
        self._turn += 1
        if self.final is None:
            self.current = self._next_seat(seat)
        elif self.final:
            self.current = self.final.pop(0)
        else:
            self.current = None
            self._end_hole()

    # -- holes ----------------------------------------------------------------------------
    def _start_hole(self, hole: int) -> None:
        n, size = self.n, self.size
        self.hole_no = hole
        self.dealer = (hole - 1) % n
        deck = standard_pack(self.packs, 2 * self.packs if self.options["jokers"] else 0)
        self.rng.shuffle(deck)
        self.shuffles.append({"hole": hole, "kind": "deal", "order": list(deck)})
        grids = [[""] * size for _ in range(n)]
        order = [(self.dealer + k) % n for k in range(1, n + 1)]  # from the dealer's left, one at a time
        for i in range(size):
            for s in order:
                grids[s][i] = deck.pop()
        self.grids = grids
        self.discard = [deck.pop()]
        self.stock = deck
        peek = self.options["peek"]
        near = NEAREST[size] if peek in ("near2", "paid") else ()
        self.up = [[False] * size for _ in range(n)]
        self.known = [[p in near for p in self.positions] for _ in range(n)]
        self.start_seen = [list(k) for k in self.known]
        self.replaced = [[False] * size for _ in range(n)]
        self.peeks_left = [FREE_PEEKS.get(peek, 0)] * n
        self.paid, self.started = [0] * n, [False] * n
        self.drawn = self.knocker = self.final = None
        self.rebuilt = False
        self.current = self._next_seat(self.dealer)
        self.events.append({"kind": "hole_start", "hole": hole, "dealer": self.dealer})
        for s in range(n):
            if near and not self.resigned[s]:
                self.events.append({"kind": "peeked", "seat": s, "positions": {p: grids[s][p - 1] for p in near}})

    def _end_hole(self) -> None:
        res = score_hole(self.grids, self.cols, self.options, self.knocker, self.paid, self.points)
        scores = res["scores"]
        for s in range(self.n):
            self.totals[s] += scores[s]
            self.up[s] = [True] * self.size
        grids = [list(g) for g in self.grids]
        self.holes.append({"hole": self.hole_no, "grids": grids, "scores": scores, "points": res["points"],
                           "cancelled": res["cancelled"], "knocker": self.knocker, "peeks": list(self.paid)})
        # `raw` is cards plus paid looks, before the knocker's penalty or bonus makes it `scores`.
        self.events.append({"kind": "hole_end", "hole": self.hole_no, "grids": grids, "points": res["points"],
                            "cancelled": res["cancelled"], "scores": scores, "totals": list(self.totals),
                            "knocker": self.knocker, "peeks": list(self.paid), "raw": res["raw"]})
        self.current = self.drawn = None
        active = [s for s in range(self.n) if not self.resigned[s]]
        target = self.options["target"]
        if target:
            over = any(self.totals[s] >= target for s in active)
        else:
            over = self.hole_no >= self.options["holes"]
        if not over:
            return self._start_hole(self.hole_no + 1)
        line, winners = share_the_win([self.names[s] for s in active], [self.totals[s] for s in active])
        self._result = Result(line, tuple(active[w] for w in winners), tuple(self.totals))
        self.events.append({"kind": "game_end", "line": line})

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        gm = seat is None
        grids = [list(g) if gm else [c if u else HIDDEN for c, u in zip(g, up)]
                 for g, up in zip(self.grids, self.up)]
        o = self.options
        v = {
            "type": self.TYPE, "names": list(self.names), "options": dict(o), "hole": self.hole_no,
            "holes": None if o["target"] else o["holes"], "target": o["target"] or None,
            # The same keys as the golfdeck view, so one set of mail templates serves both games.
            "dealer": self.dealer, "current": self.current, "to_move": sorted(self.to_move()), "phase": "play",
            "turn": self._turn, "knocker": self.knocker,
            "finished": [{"hole": h["hole"], "grids": [list(g) for g in h["grids"]], "scores": list(h["scores"])}
                         for h in self.holes],
            "final_turns": list(self.final or ()), "last_round": self.final is not None, "stock": len(self.stock),
            "discard": self.discard[-1] if self.discard else None, "totals": list(self.totals),
            "grids": grids, "face_up": [list(u) for u in self.up], "peeks_paid": list(self.paid),
            "drawing": self.drawn is not None, "resigned": list(self.resigned),
            "result": self._result.line if self._result else None,
        }
        if gm:
            v["seen"] = {s: self._seen(s) for s in range(self.n)}
            v["drawn"] = self.drawn
            v["stock_cards"], v["discard_pile"] = list(self.stock), list(self.discard)
            return v
        v["seen"] = self._seen(seat)
        v["drawn"] = self.drawn if seat == self.current else None
        v["replaceable"] = self.replaceable(seat)
        v["peekable"] = self.peekable(seat) if seat == self.current and self.drawn is None else []
        return v

    def spectator_view(self) -> dict:
        v = super().spectator_view()
        v["grids"] = [[c if u else HIDDEN for c, u in zip(g, up)] for g, up in zip(self.grids, self.up)]
        return v

    def _seen(self, seat: int) -> dict[int, str]:
        """The own face-down cards `seat` has seen: the GM reminds the player of them privately."""
        g, up, known = self.grids[seat], self.up[seat], self.known[seat]
        return {p: g[p - 1] for p in self.positions if known[p - 1] and not up[p - 1]}

    # -- the autoplay ---------------------------------------------------------------------
    def default_orders(self, seat: int):
        """A silent player's move: use free looks nearest first; take the discard or keep the
        drawn card where it lowers the layout as far as the player knows it (an unseen card
        counts as the pack's average); otherwise draw, or discard. Never knocks, never pays to
        look. None when `seat` is not to move."""
        if self._result is not None or seat != self.current:
            return None
        if self.drawn is not None:
            pos = self._best_spot(seat, self.drawn)
            return Keep(pos) if pos else Discard()
        if self.peeks_left[seat] and not self.started[seat]:
            unseen = self.peekable(seat)
            if unseen:
                return Peek(next(p for p in LOOK_ORDER[self.size] if p in unseen))
        pos = self._best_spot(seat, self.discard[-1])
        return DrawDiscard(pos) if pos else DrawStock()

    def orders_like(self, seat: int, word: str | None) -> list:
        free = self.replaceable(seat) or [1]
        looks = self.peekable(seat)[:1]
        return {"DRAW": [DrawStock()], "IF": [DrawStockIf(4, free[0])], "KEEP": [Keep(free[0])],
                "DISCARD": [Discard()], "KNOCK": [Knock()], "PEEK": [Peek(p) for p in looks]}.get(word or "", [])

    def _best_spot(self, seat: int, card: str) -> int | None:
        g, up, known = self.grids[seat], self.up[seat], self.known[seat]
        mine = [c if up[i] or known[i] else HIDDEN for i, c in enumerate(g)]
        return best_spot(mine, card, self.replaceable(seat), self.cols, self.guess, self.options["pairs"],
                         bool(self.options["one_eyed_jacks_wild"]))

def random_orders(state: Golf, seat: int, rng) -> object:
    """A uniformly chosen legal move for `seat`, the seat to move (bots, property tests,
    benchmarks): every position of a DRAW DISCARD, KEEP, conditional draw and PEEK counts as
    one move; a conditional draw's limit is uniform over the card values. RESIGN is never chosen."""
    if state._result is not None or seat != state.current:
        raise ValueError(f"seat {seat} has no move now")
    free = state.replaceable(seat) if state.once else state.positions
    k = len(free)
    if state.drawn is not None:
        pick = int(rng.random() * (k + 1))
        return Keep(free[pick]) if pick < k else Discard()
    looks = state.peekable(seat) if state.options["peek"] != "near2" else ()
    knock = 0 if state.faceup or state.knocker is not None else 1
    pick = int(rng.random() * (2 * k + 1 + knock + len(looks)))
    if pick < k:
        return DrawDiscard(free[pick])
    pick -= k
    if pick < k:
        return DrawStockIf(state.lo + int(rng.random() * (state.hi - state.lo + 1)), free[pick])
    pick -= k
    if pick == 0:
        return DrawStock()
    if pick == 1 and knock:
        return Knock()
    return Peek(looks[pick - 1 - knock])
