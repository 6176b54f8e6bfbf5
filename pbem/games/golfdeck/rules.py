"""The refusals of golf with the golf deck (`golfdeck`): every rule an order can break, each
with a message that says why and, where one helps, a hint that is a legal order now.

`GolfDeckRules` is the checking half of `golfdeck.GolfDeck`: it reads the game's state and
changes nothing. `apply` plays the common orders that are plainly legal without it and asks it
about everything else.
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Final

from mypy_extensions import mypyc_attr, trait

from pbem.games import base
from pbem.games.base import Resign
from pbem.games.cards.orders import Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek, Reveal
from pbem.games.errors import IllegalOrder

GRID: Final = 6  # cards in a grid: two rows of three
MOST_PLAYERS: Final = 4

_OURS = frozenset({Reveal, DrawDiscard, DrawStock, Keep, DiscardFlip, DrawStockIf, Resign})
_GOLF_ONLY = {Discard: "DISCARD", Knock: "KNOCK", Peek: "PEEK"}

RULE_OVER = base.RULE_OVER
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


@trait
@mypyc_attr(allow_interpreted_subclasses=True)  # as the game's class is
class GolfDeckRules:
    """`check_order` and its helpers; the state and `default_orders` are the game's.

    A trait (for mypyc, which compiles the card engines when the optional build is made; a plain
    mixin otherwise): it follows `TurnByTurn` in the game's bases, and the game names its
    `check_order`."""

    # What it reads of the game's state.
    names: list[str]
    hole_no: int
    revealing: bool
    reveals: list[tuple[int, int] | None]
    current: int
    drawn: str | None
    grid: list[list[str]]
    up: list[list[bool]]

    # The game's own (`golfdeck.GolfDeck`, a `base.TurnByTurn`). Methods, not stubs under
    # TYPE_CHECKING: mypyc compiles this class as a trait, which must declare what it calls; the
    # game's class lists `TurnByTurn` first, so these never run.
    def refuse_out_of_play(self, seat: int, command, *, seat_rule: str, resigned_rule: str) -> None:
        raise NotImplementedError

    def to_move(self) -> AbstractSet[int]:
        raise NotImplementedError

    def default_orders(self, seat: int) -> object:
        raise NotImplementedError

    def check_order(self, seat: int, command) -> None:
        self.refuse_out_of_play(seat, command, seat_rule=RULE_TURN, resigned_rule=RULE_RESIGNED)
        t = type(command)
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

    def _foreign(self, seat: int, command) -> None:
        word = _GOLF_ONLY.get(type(command))
        what = f"{word} is an order of the classic card game (golf)" if word else f"{command} is not an order"
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
