"""`format=flowed` (RFC 3676) both ways: the lines a player typed, before the client wrapped
them (`unflow`), and the GM's own text as a flowed part that a phone reflows (`flow`).

Thunderbird and Apple Mail send plain text flowed: a long line is cut at about 72 columns and
each cut is marked by a space at the end of the line (a soft break). Read as it comes, an order
with a long press after it becomes two lines, the second of them no command. Undone, a line that
ends in a space joins the next (`DelSp=yes`: that space was added by the client and goes too),
quoted lines join only within their own quote depth, and the space a client puts in front of a
line that begins with a space, `>` or `From ` (space-stuffing) comes off.

The work is one pass over the lines (linear); every line is kept, so nothing the player wrote
is lost even where a client flowed it wrongly.

The GM's text is wrapped by its templates at 76 columns. Written flowed, each break that the
wrapping made ends its line in a space (a soft break: DelSp=no, the space is the one between the
two words), so a small screen joins the lines and wraps them to its own width; every other
break stays: a table's rows, orders and examples set in, the heading of a block, a short line
written so on purpose, the end of a paragraph. Which breaks the wrapping made is told by the
lines alone (`wrapped`, which the HTML part asks too, and `preformatted`).
"""
from __future__ import annotations

import re

__all__ = ["ALIGNED", "flow", "preformatted", "unflow", "wrapped"]

_SIGNATURE = "-- "

# A table lines its cells up with runs of spaces between them; prose never has two spaces
# after a word (the templates' text is tidied of trailing spaces).
ALIGNED = re.compile(r"\S {2,}\S")
# Lines that the eye reads by their position: indented orders and examples, grid rows.
_INDENTED = re.compile(r"^ {2,}\S")
# Prose is wrapped at 72-76 columns (list items narrower, for their indent): a line was broken
# by the wrapping when the next line's first word would not have fitted within the narrowest of
# those; any other break was made on purpose.
_WRAP_WIDTH = 72
# A list item begins a line of its own: "- ", "* ", "(a) ", "1. ".
_ITEM = re.compile(r"^\s*(?:[-*] |\([a-z0-9]{1,2}\) |[0-9]{1,2}\. )")
# The widest line the templates' wrapping writes: a longer one was not broken by it.
_WIDEST = 76
# A line set in this far is an example, an order or a row: it stands on a line of its own.
_SET_IN = 4
# A line that begins with a label ("Rule: ...", "Problem (illegal): ...", "Seed commitment: ...")
# is a field of its own, never the rest of the line above it.
_LABEL = re.compile(r"^\s*[A-Z][a-z][\w'-]*(?: [\w'-]+){0,3}(?: \([^()]{1,20}\))?: ")
# Lines a reader takes for something else unless a space goes before them (RFC 3676 4.4).
_STUFFED = (" ", ">", "From ")


def preformatted(block: list[str]) -> bool:
    """Whether a block (lines with no blank one among them) is read by its lines' places: a
    table, or orders and examples set in, whose line breaks all stand."""
    return bool(_INDENTED.match(block[0])) or any(ALIGNED.search(line) for line in block)


def wrapped(line: str, following: str) -> bool:
    """Whether the break between two lines of a block of prose was made by the wrapping: the
    next line begins no list item, and its first word would not have fitted on this one."""
    return not _ITEM.match(following) and fills_line(line, following)


def fills_line(line: str, following: str) -> bool:
    """Whether the next line's first word would not have fitted on this one (the width rule of
    `wrapped`, whatever the next line begins with)."""
    word = following.split(None, 1)[0]
    return len(line.rstrip()) + 1 + len(word) > _WRAP_WIDTH


def flow(text: str) -> str:
    """`text` (LF line ends) as the body of a `format=flowed; delsp=no` part: each break the
    wrapping made is soft (the line ends in a space, and a list item's next line leaves its
    indent, which would stand in the middle of the joined line); every line ends in no other
    space; a line that begins with a space, `>` or `From ` is space-stuffed."""
    out: list[str] = []
    block: list[str] = []
    for line in [*text.split("\n"), ""]:
        if line.strip():
            block.append(line.rstrip())
            continue
        out += _flowed_block(block)
        block = []
        out.append("")
    return "\n".join(out[:-1])


def _flowed_block(block: list[str]) -> list[str]:
    if not block:
        return []
    soft = [False] * len(block)
    if not preformatted(block):
        start = block[0]  # the first line of the paragraph or list item the breaks join
        for n in range(len(block) - 1):
            if n and not soft[n - 1]:
                start = block[n]
            soft[n] = wrapped(block[n], block[n + 1]) and _continued(start, block[n], block[n + 1])
    out = []
    for n, line in enumerate(block):
        if n and soft[n - 1]:
            line = line.lstrip()
        if line.startswith(_STUFFED):
            line = " " + line
        out.append(line + " " if soft[n] else line)
    return out


def _continued(start: str, line: str, following: str) -> bool:
    """What the wrapping's breaks keep besides, in plain text: two lines no wider than the
    wrapping writes, the next one no field of its own (a label and a colon), and set in as far
    as the text of the list item the paragraph is, or else as far as this line, which is not
    set in as an example or an order is."""
    if max(len(line), len(following)) > _WIDEST or _LABEL.match(following):
        return False
    here, there = _indent(line), _indent(following)
    item = _ITEM.match(start)
    if item is not None and there == len(item.group(0)):
        return True
    return there == here < _SET_IN


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def unflow(text: str, delsp: bool = False) -> str:
    """The text of a `format=flowed` part as its lines were meant (RFC 3676 section 4)."""
    out: list[str] = []
    joining: tuple[int, list[str]] | None = None  # quote depth and pieces of a paragraph so far
    for raw in text.split("\n"):
        depth, line = _quote_depth(raw.rstrip("\r"))
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if joining is not None and joining[0] != depth:
            out.append(_quoted(joining[0], "".join(joining[1])))  # a wrongly flowed line ends here
            joining = None
        soft = line.endswith(" ") and line != _SIGNATURE
        if soft and delsp:
            line = line[:-1]
        if joining is None:
            joining = (depth, [line])
        else:
            joining[1].append(line)
        if not soft:
            out.append(_quoted(depth, "".join(joining[1])))
            joining = None
    if joining is not None:
        out.append(_quoted(joining[0], "".join(joining[1])))
    return "\n".join(out)


def _quote_depth(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    return depth, line[depth:]


def _quoted(depth: int, line: str) -> str:
    return f"{'>' * depth} {line}" if depth else line
