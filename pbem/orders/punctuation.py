"""Ordinary punctuation around a command, taken off before the command is read.

People write orders as they write sentences: `Play: 3, 5, 4.`, `Special: blue -1 on hole 2.`,
`Join: friday.` A command line loses the colon after its command word (or after `SET <what>`),
the commas between its values, a full stop (or `!`, `?`) at its end and the `on` before `HOLE`,
and then reads as `PLAY 3 5 4`. A press and a password keep their text as written: only the
colon after the word goes.
Lines that begin with no command word are left as they are (they are chatter, or wrong, and an
error mail quotes them as the player wrote them).

Every pattern is anchored or scans the line once (lines come bounded and normalised).
"""
from __future__ import annotations

import re

__all__ = ["tidy"]

_I = re.IGNORECASE
# The command word (or SET and what it sets) and a colon after it: "Play:", "SET ABSENCE :".
_COLON = re.compile(r"^(SET [A-Za-z]+|[A-Za-z]+) ?: ?", _I)
_FIRST = re.compile(r"^[A-Za-z]+")
_COMMAS = re.compile(r" ?, ?")
_ON_HOLE = re.compile(r"\bON (HOLE)\b", _I)
_SPACES = re.compile(r" {2,}")


def _as_written(word: str, rest: str) -> bool:
    """Whether what follows the command word is the player's own text: a press, or a password
    (a GM's may hold any punctuation; a bare `PASS.` is On Par's order)."""
    return word in ("PRESS", "PASSWORD", "SECRET") or (word == "PASS" and bool(rest.strip(" .!?:")))


def tidy(line: str, words: frozenset[str]) -> str:
    """The line without the punctuation around its command (see the module's text); `words`
    are the command words in capitals. A line of no command is returned as it is."""
    first = _FIRST.match(line)
    if first is None or first.group(0).upper() not in words:
        return line
    line = _COLON.sub(lambda m: f"{m.group(1)} ", line, count=1).rstrip()
    if _as_written(first.group(0).upper(), line[first.end():]):
        return line
    line = _COMMAS.sub(" ", line)
    line = line.rstrip(".!?").rstrip()  # not a pattern anchored at the end: a run of dots is no quadratic
    line = _ON_HOLE.sub(r"\1", line)
    return _SPACES.sub(" ", line).strip()
