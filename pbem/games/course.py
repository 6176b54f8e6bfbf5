"""A golf course as the games see it: a name and the par of every hole.

Pure: reading course templates from disk is ``pbem.gm.courses``'s job.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping

from pbem.errors import BadValue
from pbem.games.base import written

VALID_PARS = (3, 4, 5)
EXAMPLE_PARS = "443 544 354 445 345 434"
_IGNORED = " ,\t"


class BadCourse(BadValue):
    """A course that cannot be made or played as asked: a par string or a template that does not
    read, a hole it does not have, a number of holes the game is not played over."""


def _empty_extras() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Course:
    name: str
    pars: tuple[int, ...]
    description: str = ""
    # Per-game settings that only one game reads (dice golf flags, ...); not part of the hash.
    extras: Mapping[str, Any] = field(default_factory=_empty_extras, hash=False)

    def __post_init__(self) -> None:
        pars = tuple(self.pars)
        if not pars:
            raise BadCourse(f"course {self.name}: a course needs at least one hole")
        for hole, par in enumerate(pars, start=1):
            if isinstance(par, bool) or not isinstance(par, int) or par not in VALID_PARS:
                raise BadCourse(f"course {self.name}: hole {hole} has par {written(par)}; "
                                "every par must be 3, 4 or 5")
        object.__setattr__(self, "pars", pars)
        object.__setattr__(self, "extras", MappingProxyType(dict(self.extras)))

    @property
    def holes(self) -> int:
        return len(self.pars)

    @property
    def total_par(self) -> int:
        return sum(self.pars)

    def par(self, hole: int) -> int:
        """The par of ``hole``, counted from 1 as players count them."""
        if not 1 <= hole <= self.holes:
            raise BadCourse(f"course {self.name} has no hole {hole} (holes 1-{self.holes})")
        return self.pars[hole - 1]

    def count(self, par: int) -> int:
        """How many holes have this par."""
        return self.pars.count(par)

    def pars_string(self) -> str:
        """The pars in groups of three holes: ``443 544 354 445 345 434``."""
        return _grouped("".join(str(p) for p in self.pars))

    @classmethod
    def from_pars_string(cls, text: str, name: str | None = None) -> Course:
        """A course from digits such as ``443 544 354 445 345 434`` (spaces and commas ignored)."""
        digits = "".join(ch for ch in text if ch not in _IGNORED)
        if not digits:
            raise BadCourse(f"a par string needs at least one digit 3, 4 or 5, "
                            f"e.g. {EXAMPLE_PARS}")
        for hole, ch in enumerate(digits, start=1):
            if not ch.isdigit() or not ch.isascii():
                raise BadCourse(f"par string {written(text)}: {written(ch)} is not a par; write one digit "
                                f"3, 4 or 5 per hole, e.g. {EXAMPLE_PARS}")
            if int(ch) not in VALID_PARS:
                raise BadCourse(f"par string {written(text)}: hole {hole} has par {ch}; "
                                "every par must be 3, 4 or 5")
        pars = tuple(int(ch) for ch in digits)
        return cls(name=name if name is not None else "custom", pars=pars)


def _grouped(digits: str) -> str:
    return " ".join(digits[i:i + 3] for i in range(0, len(digits), 3))


def check_holes(course: Course, n: int = 18) -> None:
    """Refuse a course whose number of holes is not ``n``."""
    if course.holes != n:
        raise BadCourse(f"course {course.name} has {course.holes} holes; "
                        f"this game is played over {n}")
