"""The order language of MatchPlay Golf: one PLAY line and at most one SPECIAL line a turn.

    PLAY 4 3 5
    SPECIAL BLUE-1 HOLE 2

Tolerant of the way people type: any case, spaces inside the card name (`Blue -1`, `hole 5`),
commas between the cards, or the three cards written together (`PLAY 435`).
"""
from __future__ import annotations

import re

from pbem.games.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from pbem.games.matchplay.engine import Play, Special, rule, special_part
from pbem.orders.commands import Line, Order, UnknownCommand
from pbem.orders.numbers import is_digits, read_number

_PLAY = re.compile(r"^PLAY\b\s*(.*)$", re.I)
_SPECIAL = re.compile(r"^SPECIAL\b\s*(.*)$", re.I)
# ASCII digits only, and the spaces around `#` taken by one quantifier each (linear).
_SPECIAL_BODY = re.compile(r"^(BLUE|RED)\s*([+-])\s*1\s*(?:ON\s+)?HOLE\s*(?:#\s*)?([0-9]{1,2})$", re.I)
_CARD_GAPS = re.compile(r"[\s,;/]+")
# What can be made out of a SPECIAL line that cannot be read, to suggest the nearest legal one.
_COLOUR = re.compile(r"BLUE|RED", re.I)
_SIGN = re.compile(r"[+-]")
_HOLE = re.compile(r"HOLE\D{0,3}([0-9]{1,2})(?![0-9])", re.I)
_NUMBER = re.compile(r"(?<![0-9+-])([0-9]{1,2})(?![0-9])")
# The suggestions a parser makes without the game; the game's state replaces them (`suggest`).
PLAY_EXAMPLE = "PLAY 4 3 5"
SPECIAL_EXAMPLE = "SPECIAL BLUE-1 HOLE 2"
COMMANDS = "PLAY, SPECIAL, STATUS, HISTORY, HELP, PRESS, RESIGN and SET TIMEZONE"


def read_cards(text: str) -> list[int] | None:
    """The stroke cards of a PLAY line, or None when they are not all numbers (digits 0-9)."""
    tokens = [t for t in _CARD_GAPS.split(text) if t]
    if len(tokens) == 1 and is_digits(tokens[0]) and len(tokens[0]) > 1:
        tokens = list(tokens[0])  # "PLAY 435": one digit a card
    numbers = [read_number(t) for t in tokens]
    cards = [n for n in numbers if n is not None]
    if not cards or len(cards) < len(numbers):
        return None
    return cards


def read_special(text: str) -> Special | None:
    m = _SPECIAL_BODY.match(text.strip())
    if not m:
        return None
    return Special(f"{m.group(1).upper()}{m.group(2)}1", int(m.group(3)))


def guess_special(text: str) -> Special:
    """As much of a special as an unreadable SPECIAL line shows: its card in part (`RED`, `RED-`,
    `-` or nothing) and its hole (0 when none shows)."""
    colour, sign, hole = _COLOUR.search(text), _SIGN.search(text), _HOLE.search(text)
    numbers = _NUMBER.findall(text)
    card = (colour.group(0).upper() if colour else "") + (sign.group(0) if sign else "")
    return Special(card, int(hole.group(1) if hole else numbers[-1] if numbers else 0))


def grammar(lines: list[Line]) -> tuple[list[Order], list[OrderError]]:
    errors: list[OrderError] = []
    play_line: Line | None = None
    cards: list[int] | None = None
    specials: list[tuple[Special, Line]] = []
    wanted: list[Special] = []  # every special the message asks for, read or guessed
    for lineno, line in lines:
        if m := _PLAY.match(line):
            if play_line is not None:
                errors.append(AmbiguousOrder(
                    f"a second PLAY line (line {play_line[0]} has one already): which one is meant?",
                    line=line, lineno=lineno, hint="one PLAY line with the turn's three cards"))
                continue
            play_line = (lineno, line)
            cards = read_cards(m.group(1))
            if cards is None:
                errors.append(InvalidOrder(
                    "PLAY takes the turn's three stroke cards as numbers, in hole order",
                    line=line, lineno=lineno, hint=PLAY_EXAMPLE))
        elif m := _SPECIAL.match(line):
            special = read_special(m.group(1))
            if special is None:
                errors.append(InvalidOrder(
                    "SPECIAL takes a card (BLUE+1, BLUE-1, RED+1 or RED-1) and HOLE <number>",
                    line=line, lineno=lineno, hint=SPECIAL_EXAMPLE))
                wanted.append(guess_special(m.group(1)))
            else:
                specials.append((special, (lineno, line)))
                wanted.append(special)
        else:
            errors.append(UnknownCommand(f"not a MatchPlay order or command (those are {COMMANDS})",
                                         line=line, lineno=lineno, hint=PLAY_EXAMPLE))
    if play_line is None:
        for _special, (lineno, line) in specials:
            errors.append(IllegalOrder(
                "a SPECIAL goes with the turn's PLAY line, in the same message",
                rule=rule("i"), line=line, lineno=lineno, hint=f"{PLAY_EXAMPLE}\n{line}"))
    _suggest_from(errors, cards, wanted)
    if play_line is None or cards is None:
        return [], errors
    parts = {"cards": play_line}
    parts.update((special_part(n), line) for n, (_, line) in enumerate(specials))
    order = Order(Play(tuple(cards), tuple(s for s, _ in specials)),
                  [play_line] + [ln for _, ln in specials], parts)
    return [order], errors


def _suggest_from(errors: list[OrderError], cards: list[int] | None, wanted: list[Special]) -> None:
    """Every error of the message suggests one set of orders: the legal one most like all that
    could be read of it (a turn's orders are one set, so one correction serves every line)."""
    def suggest(state, seat: int) -> str | None:
        if state.result() is not None:
            return None
        return str(state.nearest_orders(seat, cards, wanted))
    for error in errors:
        error.suggest = suggest
