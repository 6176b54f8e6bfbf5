"""The options of classic Golf (`golf`) and the refusals of its orders: every rule an order can
break, each with a message that says why and, where one helps, a hint that is a legal order now.

`GolfRules` is the checking half of `golf.Golf`: it reads the game's state and changes nothing.
`apply` plays the common turns that are plainly legal without it and asks it about the rest.
"""
from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from pbem.games.base import NMR_OPTION, Option, Resign, Result, written
from pbem.games.cards.orders import Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek, Reveal
from pbem.games.errors import BadOption, IllegalOrder

_ON = (False, True)
_PLAY_ORDERS = frozenset((DrawDiscard, DrawStock, DrawStockIf, Keep, Discard, Knock, Peek))
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


def whole_option(options: dict, key: str, least: int, most: int | None = None) -> int:
    try:
        value = int(options[key])
    except (TypeError, ValueError):
        raise BadOption(f"option {key}: expected a whole number, got {written(options[key])}") from None
    if value < least:
        raise BadOption(f"option {key}: expected at least {least}, got {value}")
    if most is not None and value > most:
        raise BadOption(f"option {key}: at most {most}, got {value}")
    return value


@trait
@mypyc_attr(allow_interpreted_subclasses=True)  # as the game's class is
class GolfRules:
    """`check_order` and its helpers; the state, `replaceable`, `peekable` and
    `default_orders` are the game's.

    A trait (for mypyc, which compiles the card engines when the optional build is made; a plain
    mixin otherwise): it follows `TurnByTurn` in the game's bases, and the game names its
    `check_order`."""

    # What it reads of the game's state.
    _result: Result | None
    names: list[str]
    options: dict
    resigned: list[bool]
    last_seat: int | None
    last_kind: str | None
    current: int | None
    drawn: str | None
    knocker: int | None
    size: int
    positions: tuple[int, ...]
    faceup: bool
    peeks_left: list[int]
    started: list[bool]
    up: list[list[bool]]
    known: list[list[bool]]

    # The game's own (`golf.Golf`). Methods, not stubs under TYPE_CHECKING: mypyc compiles this
    # class as a trait, which must declare what it calls; the game's own methods win.
    def locked(self, seat: int, pos: int) -> bool:
        raise NotImplementedError

    def replaceable(self, seat: int) -> list[int]:
        raise NotImplementedError

    def peekable(self, seat: int) -> list[int]:
        raise NotImplementedError

    def default_orders(self, seat: int) -> object:
        raise NotImplementedError

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
                self._refuse_while_drawn(seat, command)
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
        if self.last_seat == seat and self.last_kind is not None:  # (they are set together)
            done = _DONE_AS.get(self.last_kind, self.last_kind)
            raise IllegalOrder(f"your turn ended with {done}; it is {whose}'s turn now",
                               rule="one action a turn")
        raise IllegalOrder(f"it is {whose}'s turn, not yours", rule="play in turn")

    def _refuse_while_drawn(self, seat: int, command) -> None:
        """`seat` is the one to move, who has drawn."""
        keep = self.replaceable(seat)
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
