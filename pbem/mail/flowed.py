"""Undoing `format=flowed` (RFC 3676): the lines a player typed, before the client wrapped them.

Thunderbird and Apple Mail send plain text flowed: a long line is cut at about 72 columns and
each cut is marked by a space at the end of the line (a soft break). Read as it comes, an order
with a long press after it becomes two lines, the second of them no command. Undone, a line that
ends in a space joins the next (`DelSp=yes`: that space was added by the client and goes too),
quoted lines join only within their own quote depth, and the space a client puts in front of a
line that begins with a space, `>` or `From ` (space-stuffing) comes off.

The work is one pass over the lines (linear); every line is kept, so nothing the player wrote
is lost even where a client flowed it wrongly.
"""
from __future__ import annotations

__all__ = ["unflow"]

_SIGNATURE = "-- "


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
