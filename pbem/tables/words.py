"""What a message says to the open tables: JOIN, LEAVE or LIST, read from its command lines.

Every message is asked whether it is the tables' (a player's orders too), so the first question
is a pure text check: the first command line's first word, or the token in the address written
to (`is_table_token`); the store is read only after that.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.gm.games import GAME_ID
from pbem.orders.commands import first_word
from pbem.orders.text import LongLine
from pbem.tables.book import is_table_token

WORDS = ("JOIN", "LEAVE", "LIST")
ONE_COMMAND = "a mail about the tables holds one command: JOIN <table>, LEAVE <table> or LIST"


@dataclass
class Command:
    verb: str                 # JOIN | LEAVE | LIST
    target: str | None        # the table id or game type it names (a plain id), or None
    lineno: int
    bad_target: bool = False  # it named something that can be no id (never quoted back)


@dataclass
class Reading:
    command: Command | None                       # None: the first line is no table command
    problems: list[str] = field(default_factory=list)


def first_verb(lines: list) -> str:
    """The first command line's first word, in capitals ("" for none or a line too long)."""
    if not lines or isinstance(lines[0][1], LongLine):
        return ""
    return first_word(lines[0][1])[0]


def read(lines: list) -> Reading:
    """The message's one table command, and what is wrong with the message as a table mail
    (in the GM's own words: the message's text is never quoted, its From may be forged)."""
    verb = first_verb(lines)
    if verb not in WORDS:
        return Reading(None)
    lineno, line = lines[0]
    _, rest = first_word(line)
    words = rest.split()
    problems = []
    command = Command(verb, None, lineno)
    if len(words) > 1:
        problems.append(f"Line {lineno}: {verb} takes one word after it, the table's id"
                        + (" or a game type." if verb == "JOIN" else "."))
    elif words and verb == "LIST" and not GAME_ID.fullmatch(words[0]):
        problems.append(f"Line {lineno}: LIST takes a game type after it, or nothing.")
    elif words:
        command.target = words[0] if GAME_ID.fullmatch(words[0]) else None
        command.bad_target = command.target is None
    if command.bad_target:
        problems.append(f"Line {lineno}: that is no table id (ids are letters, digits, - and _).")
    if len(lines) > 1:
        others = ", ".join(str(n) for n, _ in lines[1:6]) + (" ..." if len(lines) > 6 else "")
        problems.append(f"Line{'s' if len(lines) > 2 else ''} {others}: {ONE_COMMAND}, and nothing else.")
    return Reading(command, problems)


__all__ = ["ONE_COMMAND", "WORDS", "Command", "Reading", "first_verb", "is_table_token", "read"]
