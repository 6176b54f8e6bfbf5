"""The order language of the card-grid golf games (CONTRACT section 7), one order a line:

    REVEAL 1 4                      DRAW DISCARD 3          DRAW STOCK
    KEEP 2      DISCARD FLIP 5      DISCARD                 KNOCK        PEEK 2
    DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 5      (or ELSE DISCARD; the IF part may be the next line)

Any case, extra spaces, `#` before a position, `FLIP 5` for `DISCARD FLIP 5`.
"""
from __future__ import annotations

import re

from pbem.games.cards.orders import Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek, Reveal
from pbem.games.errors import InvalidOrder, OrderError
from pbem.orders.commands import Line, Order, UnknownCommand, first_word

# A position: ASCII digits only (`\d` would take any script's, `int` then reads what the player
# never saw), two at most. The patterns stay linear: no two quantifiers may take the same
# characters, so the spaces before a `#` belong to the word in front and those after it to `#`.
_N = r"(?:#\s*)?(-?[0-9]{1,2})"
_IF = rf"IF\s*(<=|<)\s*(-?[0-9]{{1,2}})\s+KEEP\s+{_N}\s+ELSE\s+(?:(?:DISCARD\s+)?FLIP\s+{_N}|(DISCARD))"
_FORMS = [
    (re.compile(rf"^REVEAL\s+{_N}\s*(?:(?:,|AND)\s*)?{_N}$", re.I), lambda m: Reveal(int(m[1]), int(m[2]))),
    (re.compile(rf"^DRAW\s+(?:FROM\s+)?(?:THE\s+)?DISCARD\s+(?:INTO\s+|TO\s+)?{_N}$", re.I),
     lambda m: DrawDiscard(int(m[1]))),
    (re.compile(rf"^DRAW\s+(?:FROM\s+)?(?:THE\s+)?STOCK\s+{_IF}$", re.I), lambda m: _conditional(m)),
    (re.compile(r"^DRAW\s+(?:FROM\s+)?(?:THE\s+)?STOCK$", re.I), lambda m: DrawStock()),
    (re.compile(rf"^KEEP\s+(?:IN\s+)?{_N}$", re.I), lambda m: Keep(int(m[1]))),
    (re.compile(rf"^(?:DISCARD\s+(?:AND\s+)?)?FLIP\s+{_N}$", re.I), lambda m: DiscardFlip(int(m[1]))),
    (re.compile(r"^DISCARD$", re.I), lambda m: Discard()),
    (re.compile(r"^KNOCK$", re.I), lambda m: Knock()),
    (re.compile(rf"^PEEK\s+(?:AT\s+)?{_N}$", re.I), lambda m: Peek(int(m[1]))),
]
_IF_ALONE = re.compile(rf"^{_IF}$", re.I)
_WORDS = ("REVEAL", "DRAW", "KEEP", "DISCARD", "FLIP", "KNOCK", "PEEK", "IF")
EXAMPLES = {"REVEAL": "REVEAL 1 4", "DRAW": "DRAW STOCK", "KEEP": "KEEP 2",
            "DISCARD": "DISCARD", "FLIP": "DISCARD FLIP 5",
            "KNOCK": "KNOCK", "PEEK": "PEEK 2", "IF": "DRAW STOCK IF <= 4 KEEP 2 ELSE FLIP 5"}


def _conditional(m: re.Match) -> DrawStockIf:
    below, limit, keep, flip, discard = m[1] == "<", m[2], m[3], m[4], m[5]
    # Card values are whole numbers: "< 5" keeps what "<= 4" keeps (the canonical form).
    return DrawStockIf(int(limit) - below, int(keep), None if discard else int(flip))


def read(line: str):
    for pattern, build in _FORMS:
        m = pattern.match(line)
        if m:
            return build(m)
    return None


def grammar(lines: list[Line]) -> tuple[list[Order], list[OrderError]]:
    orders: list[Order] = []
    errors: list[OrderError] = []
    for lineno, line in lines:
        m = _IF_ALONE.match(line)
        if m and orders and isinstance(orders[-1].command, DrawStock):
            # `DRAW STOCK` with its condition on the next line: one order.
            orders[-1] = Order(_conditional(m), orders[-1].lines + [(lineno, line)])
            continue
        command = read(line)
        if command is not None:
            orders.append(Order(command, [(lineno, line)]))
            continue
        word = first_word(line)[0]
        # The example shows how the order is written; once the game is known, `suggest` puts in
        # its place an order of that kind that is legal there and then (or the GM's own choice).
        if word in _WORDS:
            errors.append(InvalidOrder(f"{word} is not written this way", line=line, lineno=lineno,
                                       hint=EXAMPLES[word], suggest=_suggest(word)))
        else:
            errors.append(UnknownCommand("not an order of this game or a command", line=line, lineno=lineno,
                                         hint="DRAW STOCK", suggest=_suggest(None)))
    return orders, errors


def _suggest(word: str | None):
    return lambda state, seat: state.suggestion(seat, word)
