"""Perfect play in dice golf, computed exactly.

Before a toss, a hole is fully described by its flag (2-12), the total entered so far (always
below the flag) and the number of the toss about to be made (1-4). That is at most a few
hundred positions, so the expected hole score of every position is found exactly: a recursion
over the 36 equally likely tosses with `fractions.Fraction`, each position computed once.

`BEST` is the entry with the lowest expected hole score (ties go to the larger entry); `HIGH`
enters the largest value that fits, `LOW` the smallest. Only the rules of a single hole are
here; the engine (`dicegolf`) keeps the sheets.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

from pbem.errors import BadValue

SIDES = range(1, 7)
OUTCOMES = tuple((a, b) for a in SIDES for b in SIDES)  # the 36 equally likely tosses
ONE_OUTCOME = Fraction(1, len(OUTCOMES))
TOSSES = 4
FLAGS = tuple(range(2, 13))
# The hole score by the toss that reaches the flag; a hole not reached in four tosses scores FAILED.
HOLE_SCORES = {1: -2, 2: 0, 3: 1, 4: 2}
FAILED = 4
POLICIES = ("ASK", "BEST", "HIGH", "LOW")
CHOOSERS = POLICIES[1:]

Dice = tuple[int, int]


def completing_value(flag: int, total: int, toss: int, dice: Dice, lenient: bool = False) -> int | None:
    """The value that reaches the flag on this toss (the sum, or one die from the second toss
    on, or on the first too when `lenient`), else None. At most one value can: it is
    `flag - total`."""
    need = flag - total
    a, b = dice
    if a + b == need:
        return need
    if (toss > 1 or lenient) and (a == need or b == need):
        return need
    return None


def entries(flag: int, total: int, dice: Dice) -> tuple[int, ...]:
    """The distinct values (sum, first die, second die) that keep the total below the flag,
    smallest first; empty means the toss is entered as X."""
    a, b = dice
    return tuple(sorted({v for v in (a + b, a, b) if total + v < flag}))


def shown_value(choice, dice: Dice) -> int | None:
    """The value `choice` names for these dice: SUM, DIE1, DIE2 or a number they show."""
    a, b = dice
    named = {"SUM": a + b, "DIE1": a, "DIE2": b}
    if choice in named:
        return named[choice]
    return choice if type(choice) is int and choice in named.values() else None


def names_of(value: int | None, dice: Dice) -> list[str]:
    """How a player may name `value` for these dice: SUM, DIE1, DIE2 (those that show it; none
    for None, an X)."""
    a, b = dice
    return [name for name, shown in (("SUM", a + b), ("DIE1", a), ("DIE2", b)) if shown == value]


@cache
def expected(flag: int, total: int = 0, toss: int = 1, lenient: bool = False) -> Fraction:
    """The expected hole score under perfect play, before toss `toss` with `total` entered."""
    if toss > TOSSES:
        return Fraction(FAILED)
    acc = Fraction(0)
    for dice in OUTCOMES:
        acc += _toss_value(flag, total, toss, dice, lenient, "BEST")
    return acc * ONE_OUTCOME


@cache
def policy_expected(kind: str, flag: int, total: int = 0, toss: int = 1, lenient: bool = False) -> Fraction:
    """The expected hole score when every choice from here on is made by `kind` (BEST, HIGH,
    LOW)."""
    if kind == "BEST":
        return expected(flag, total, toss, lenient)
    if toss > TOSSES:
        return Fraction(FAILED)
    acc = Fraction(0)
    for dice in OUTCOMES:
        acc += _toss_value(flag, total, toss, dice, lenient, kind)
    return acc * ONE_OUTCOME


def _toss_value(flag: int, total: int, toss: int, dice: Dice, lenient: bool, kind: str) -> Fraction:
    """The expected hole score once `dice` have been tossed and `kind` chooses the entry."""
    if completing_value(flag, total, toss, dice, lenient) is not None:
        return Fraction(HOLE_SCORES[toss])
    if toss == TOSSES:
        return Fraction(FAILED)
    values = entries(flag, total, dice)
    if not values:
        return policy_expected(kind, flag, total, toss + 1, lenient)
    value = choose(kind, flag, total, toss, dice, lenient)
    assert value is not None  # there are entries, so every policy makes one
    return policy_expected(kind, flag, total + value, toss + 1, lenient)


def after_entry(flag: int, total: int, toss: int, value: int | None, lenient: bool = False) -> Fraction:
    """The expected hole score (perfect play afterwards) of entering `value` (None: X) on toss
    `toss` with `total` entered before it."""
    return expected(flag, total + (value or 0), toss + 1, lenient)


def entry_values(flag: int, total: int, toss: int, dice: Dice, lenient: bool = False) -> dict[int, Fraction]:
    """Each legal entry for this toss and its expected hole score, smallest entry first."""
    return {v: after_entry(flag, total, toss, v, lenient) for v in entries(flag, total, dice)}


def best_entry(flag: int, total: int, toss: int, dice: Dice, lenient: bool = False) -> int | None:
    """The entry with the lowest expected hole score (the larger one on a tie), None for X."""
    values = entry_values(flag, total, toss, dice, lenient)
    if not values:
        return None
    return min(values, key=lambda v: (values[v], -v))


def choose(kind: str, flag: int, total: int, toss: int, dice: Dice, lenient: bool = False) -> int | None:
    """The entry a policy makes: BEST, HIGH (largest that fits) or LOW (smallest); None for X."""
    if kind == "BEST":
        return best_entry(flag, total, toss, dice, lenient)
    values = entries(flag, total, dice)
    if not values:
        return None
    if kind == "HIGH":
        return values[-1]
    if kind == "LOW":
        return values[0]
    raise BadValue(f"no policy {kind!r}: one of {', '.join(CHOOSERS)}")


def coach(flag: int, total: int, toss: int, dice, entered: int | str | None, lenient: bool = False) -> dict:
    """A toss answered by hand, judged: the entry's expected hole score against the best's."""
    dice = tuple(dice)
    top = best_entry(flag, total, toss, dice, lenient)
    mine = after_entry(flag, total, toss, entered if isinstance(entered, int) else None, lenient)
    ideal = after_entry(flag, total, toss, top, lenient)
    return {"flag": flag, "total": total, "dice": list(dice), "entered": entered, "expected": mine,
            "best": top, "best_names": names_of(top, dice), "best_expected": ideal, "loss": mine - ideal}


@cache
def _distribution(kind: str, flag: int, total: int, toss: int, lenient: bool) -> tuple[tuple[int, Fraction], ...]:
    if toss > TOSSES:
        return ((FAILED, Fraction(1)),)
    out: dict[int, Fraction] = {}
    rest: tuple[tuple[int, Fraction], ...]
    for dice in OUTCOMES:
        if completing_value(flag, total, toss, dice, lenient) is not None:
            rest = ((HOLE_SCORES[toss], Fraction(1)),)
        elif toss == TOSSES:
            rest = ((FAILED, Fraction(1)),)
        else:
            value = choose(kind, flag, total, toss, dice, lenient) or 0
            rest = _distribution(kind, flag, total + value, toss + 1, lenient)
        for score, p in rest:
            out[score] = out.get(score, Fraction(0)) + p * ONE_OUTCOME
    return tuple(sorted(out.items()))


def score_distribution(flag: int, kind: str = "BEST", lenient: bool = False) -> dict[int, Fraction]:
    """The chance of each hole score (-2, 0, +1, +2, +4) on a fresh hole played by `kind`."""
    found = dict(_distribution(kind, flag, 0, 1, lenient))
    return {score: found.get(score, Fraction(0)) for score in (*HOLE_SCORES.values(), FAILED)}


def best_table(lenient: bool = False) -> list[dict]:
    """For every flag 2-12: the expected hole score under BEST (exact) and the chance of each
    hole score."""
    return [{"flag": f, "expected": expected(f, 0, 1, lenient), "chances": score_distribution(f, "BEST", lenient)}
            for f in FLAGS]


def signed(value, places: int = 2) -> str:
    """A score as players read it: `+0.42`, `-1.00`, `+0.00`."""
    return f"{float(value):+.{places}f}"


def best_table_text(lenient: bool = False) -> str:
    """The README table: each flag's expected hole score under BEST and how often each hole
    score comes up, in per cent (59 columns)."""
    labels = ("Hole-in-one", "Par", "+1", "+2", "Missed")
    lines = [_table_line("Flag", "Expected", labels), _table_line("----", "--------", ["-" * w for w in _WIDTHS])]
    for row in best_table(lenient):
        chances = row["chances"]
        cells = [f"{float(chances[s]) * 100:.1f}%" for s in (-2, 0, 1, 2, FAILED)]
        lines.append(_table_line(str(row["flag"]), signed(row["expected"], 3), cells))
    return "\n".join(lines)


_WIDTHS = (11, 6, 6, 6, 6)


def _table_line(flag: str, expected: str, cells) -> str:
    return f"{flag:>4}  {expected:>8}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cells, _WIDTHS))


def clear_cache() -> None:
    """Forget every computed position (the benchmark times a cold table)."""
    for cached in (expected, policy_expected, _distribution):
        cached.cache_clear()
