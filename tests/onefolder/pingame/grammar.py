"""The order, one line a turn:

    CLUB 5  (club n, from 1 to 9, carries 90 + 10n yards)
"""
from __future__ import annotations

import re

from pbem.games.errors import InvalidOrder
from pbem.orders.commands import Order, UnknownCommand, first_word
from pingame.engine import Club

_CLUB = re.compile(r"^CLUB\s+([1-9])$", re.IGNORECASE)


def grammar(lines):
    orders, errors = [], []
    for lineno, line in lines:
        found = _CLUB.match(line.strip())
        if found and not orders:
            orders.append(Order(Club(int(found.group(1))), [(lineno, line)]))
        elif first_word(line)[0] == "CLUB":
            errors.append(InvalidOrder("one CLUB line, with a club from 1 to 9", line=line, lineno=lineno,
                                       hint="CLUB 5"))
        else:
            errors.append(UnknownCommand("not an order of Closest to the Pin (CLUB <1-9>)", line=line,
                                         lineno=lineno, hint="CLUB 5"))
    return orders, errors
