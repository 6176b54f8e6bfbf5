"""The order language of On Par (CONTRACT section 9), one order a line, one a message:

    SHOT D5 D4        PLAY POWER        TRAP SANDTRAP ON Bob        DISCARD I3        PASS

Any case and spacing. Cards may be split by commas or `+` (`SHOT D5, D4`), a club's letter may
stand apart from its number (`D 5`), and skill shots and traps may be written as the rules name
them (`PLAY HIGH FADE`, `TRAP SAND TRAP ON Bob`). `PLAY` also takes a shot's cards (`PLAY D5 D4`)
or a trap with its victim, and `SHOT POWER` is the Power Shot. A trap's victim is a name, or
`#<seat number>`. One order a message: the next turn's card is drawn only after it. Whether
the cards are in hand and the shot is allowed is the engine's business; only a word that is no
card of On Par is refused here.
"""
from __future__ import annotations

import re

from pbem.games.onpar import course as oc
from pbem.games.errors import AmbiguousOrder, InvalidOrder, OrderError
from pbem.games.onpar.orders import DiscardCard, Pass, PlaySkill, Shot, Trap
from pbem.orders.commands import Line, Order, UnknownCommand, first_word

_ALIASES = {
    "POWER": "POWER", "POWERSHOT": "POWER", "FADE": "FADE", "HIGHFADE": "FADE", "SLICE": "SLICE",
    "LIGHTWIND": "LIGHTWIND", "TREES": "TREES", "TREE": "TREES", "HEAVYWIND": "HEAVYWIND",
    "SANDTRAP": "SANDTRAP", "WATERTRAP": "WATERTRAP", "RAINSTORM": "RAINSTORM",
    "SUDDENRAINSTORM": "RAINSTORM",
}
# Separators between cards; a club letter apart from its number is joined to it. The patterns
# are linear: no two quantifiers compete for the same characters.
# Lines reach these patterns with single spaces only.
_SEPARATORS = re.compile(r" ?[,+] ?| (?:AND )?", re.I)
_LOOSE_CODE = re.compile(r"\b([DIWP]) ([0-9])\b", re.I)
_TRAP = re.compile(r"^(?:TRAP|PLAY) (.+?) ON (\S.*)$", re.I)
_WORDS = ("SHOT", "PLAY", "TRAP", "DISCARD", "PASS")
EXAMPLES = {"SHOT": "SHOT D5 D4", "PLAY": "PLAY POWER", "TRAP": "TRAP SANDTRAP ON <player>",
            "DISCARD": "DISCARD I3", "PASS": "PASS"}
CARDS = "D4-D7, I2-I5, W1-W3, P1-P4, POWER, FADE, SLICE, " + ", ".join(oc.TRAPS)


def card_code(word: str) -> str | None:
    """The code of a card as a player may write it (`d5`, `High Fade`, `sand-trap`), or None."""
    squeezed = re.sub(r"[\s_-]+", "", word).upper()
    if squeezed in oc.DISTANCE_CODES:
        return squeezed
    return _ALIASES.get(squeezed)


def _cards(text: str) -> tuple[list[str], list[str]]:
    """(the codes of the cards in `text`, the words that are no card)."""
    text = _LOOSE_CODE.sub(r"\1\2", text)
    whole = card_code(text)
    if whole is not None:  # a skill shot or trap written in words: "HIGH FADE"
        return [whole], []
    codes: list[str] = []
    wrong: list[str] = []
    for word in _SEPARATORS.split(text):
        if word:
            code = card_code(word)
            (codes if code else wrong).append(code or word)
    return codes, wrong


def read(line: str):
    """The order on `line`, or an InvalidOrder saying what is wrong, or None (no order of ours)."""
    line = " ".join(line.split())
    word, rest = first_word(line)
    if word == "PASS" and not rest:
        return Pass()
    if word in ("TRAP", "PLAY") and (m := _TRAP.match(line)):
        return _trap(m[1], m[2])
    if word == "TRAP":
        return InvalidOrder("a trap names the player it is played on: TRAP <trap> ON <player>")
    if word in ("SHOT", "PLAY", "DISCARD") and rest:
        codes, wrong = _cards(rest)
        if wrong:
            return InvalidOrder(f"there is no card {wrong[0]} in On Par (the cards: {CARDS})")
        if word == "PLAY" and len(codes) == 1 and codes[0] in oc.TRAPS:
            return InvalidOrder("a trap names the player it is played on: TRAP <trap> ON <player>")
        if word == "DISCARD":
            return DiscardCard(codes[0]) if len(codes) == 1 else InvalidOrder("DISCARD takes one card")
        if len(codes) == 1 and codes[0] in oc.SKILL_SHOTS:
            return PlaySkill(codes[0])
        return Shot(tuple(codes))
    if word in _WORDS:
        return InvalidOrder(f"{word} is written {EXAMPLES[word]}")
    return None


def _trap(card: str, player: str):
    codes, wrong = _cards(card)
    if wrong or len(codes) != 1:
        return InvalidOrder(f"{card.strip()} is no trap (the traps: {', '.join(oc.TRAPS)})")
    return Trap(codes[0], " ".join(player.split()))


def grammar(lines: list[Line]) -> tuple[list[Order], list[OrderError]]:
    orders: list[Order] = []
    errors: list[OrderError] = []
    for lineno, line in lines:
        found = read(line)
        word = first_word(line)[0]
        if isinstance(found, OrderError):
            found.line, found.lineno = line, lineno
            found.hint, found.suggest = EXAMPLES.get(word, "SHOT D5"), _suggest(word if word in _WORDS else None)
            errors.append(found)
        elif found is None:
            errors.append(UnknownCommand("not an order of On Par or a command", line=line, lineno=lineno,
                                         hint=EXAMPLES["SHOT"], suggest=_suggest(None)))
        elif orders:
            first = orders[0].lines[0][0]
            errors.append(AmbiguousOrder(f"a second order (line {first} has one already): one order a turn, "
                                         "and the next turn's card is drawn after it", line=line, lineno=lineno,
                                         hint=str(orders[0].command), suggest=_suggest_first(orders[0].command)))
        else:
            orders.append(Order(found, [(lineno, line)]))
    return orders, errors


def _suggest(word: str | None):
    return lambda state, seat: state.suggestion(seat, word)


def _suggest_first(first):
    """The first of two orders where it is legal as it stands, else the GM's own choice."""
    def suggest(state, seat: int) -> str | None:
        if seat in state.to_move() and state.accepts(seat, str(first)):
            return str(first)
        return state.suggestion(seat)
    return suggest
