"""The rules: each hole's pin stands 100 to 190 yards away (drawn from the game's seed); both
players choose a club at once, club n carries 90 + 10n yards; the nearer ball wins the hole."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.base import NMR_OPTION, GameState, Resign, Result
from pbem.games.errors import IllegalOrder
from pbem.games.events import GameEvent, told
from pbem.games.rng import game_generator

HOLES, CLUBS = 3, range(1, 10)
RULE_CLUB = "a club is a number from 1 to 9"


@dataclass(frozen=True)
class Club:
    n: int

    def __str__(self) -> str:
        return f"CLUB {self.n}"


def carry(club: int) -> int:
    return 90 + 10 * club


class PinGame(GameState):
    TYPE, TITLE, MIN_PLAYERS, MAX_PLAYERS = "pingame", "Closest to the Pin", 2, 2
    OPTIONS = {"nmr": NMR_OPTION}
    PUBLIC_VIEW = ("names", "hole", "pin", "holes", "won", "result", "ordered")

    def __init__(self, names, options, pins, holes=(), pending=(None, None), result=None):
        self.names, self.options, self.pins = list(names), dict(options), list(pins)
        self.holes, self.pending, self._result = list(holes), list(pending), result
        self.n, self.resigned = 2, [False, False]

    @classmethod
    def new(cls, names, options, seed, course):
        draw = game_generator(seed)
        return cls(names, cls.options_with_defaults(options), [draw.between(10, 19) * 10 for _ in range(HOLES)])

    def to_dict(self) -> dict:
        return {"names": self.names, "options": self.options, "pins": self.pins, "holes": self.holes,
                "pending": self.pending, "result": self._result.to_dict() if self._result else None}

    @classmethod
    def from_dict(cls, d: dict) -> PinGame:
        return cls(d["names"], d["options"], d["pins"], d["holes"], d["pending"], Result.from_dict(d["result"]))

    @classmethod
    def command_from_text(cls, text: str):
        return Resign() if text == "RESIGN" else Club(int(text.split()[1]))

    @property
    def turn(self) -> int:
        return len(self.holes) + 1

    def turn_holes(self) -> tuple[int, ...]:
        return (self.turn,)

    def to_move(self) -> set[int]:
        return set() if self._result else {s for s in (0, 1) if self.pending[s] is None}

    def legal_orders(self, seat: int) -> list[str]:
        return [str(Club(n)) for n in CLUBS] if seat in self.to_move() else []

    def check(self, seat: int, command) -> None:
        self.refuse_out_of_play(seat, command, seat_rule="two seats", resigned_rule="a resignation stands")
        if type(command) is Club and command.n not in CLUBS:
            raise IllegalOrder(f"there is no club {command.n}", rule=RULE_CLUB, hint=str(self.default_orders(seat)))

    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        if type(command) is Resign:
            self.resigned[seat] = True
            self._result = Result(f"{self.names[1 - seat]} wins by resignation", (1 - seat,), tuple(self.scores()))
        else:
            self.pending[seat] = command.n

    def ready(self) -> bool:
        return self._result is None and None not in self.pending

    def resolve(self) -> list[dict]:
        pin, misses = self.pins[len(self.holes)], [abs(carry(c) - self.pins[len(self.holes)]) for c in self.pending]
        winner = None if misses[0] == misses[1] else misses.index(min(misses))
        self.holes.append({"hole": self.turn, "pin": pin, "clubs": self.pending, "winner": winner})
        self.pending = [None, None]
        if len(self.holes) == HOLES:
            won = self.scores()
            best = [s for s in (0, 1) if won[s] == max(won)]
            line = "Halved" if len(best) == 2 else f"{self.names[best[0]]} wins"
            self._result = Result(f"{line} {won[0]}-{won[1]}", tuple(best), tuple(won))
        return [dict(self.holes[-1], kind="hole")]

    def view(self, seat: int | None) -> dict:
        v = {"names": self.names, "hole": self.turn, "holes": self.holes, "won": self.scores(),
             "pin": self.pins[len(self.holes)] if len(self.holes) < HOLES else None,
             "result": self._result.line if self._result else None, "ordered": [p is not None for p in self.pending]}
        v["seats"] = {s: {"club": self.pending[s]} for s in ((0, 1) if seat is None else (seat,))}
        if seat is not None:  # the record: each hole played (clubs shown once both are in), the result
            record = [{"kind": GameEvent.HOLE_END, **hole} for hole in self.holes]
            record += [{"kind": GameEvent.GAME_END, "line": self._result.line}] if self._result else []
            v["events"] = told(record, seat)
        return v

    def default_orders(self, seat: int) -> Club:
        pin = self.pins[len(self.holes)]
        return min((Club(n) for n in CLUBS), key=lambda club: abs(carry(club.n) - pin))

    def chance_record(self) -> list:
        return list(self.pins)

    def result(self) -> Result | None:
        return self._result

    def scores(self) -> list[int]:
        return [sum(1 for h in self.holes if h["winner"] == s) for s in (0, 1)]
