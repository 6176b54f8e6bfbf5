"""On Par's course as players read it in mail: a table of its cards and a strip of its spaces.

The strip draws every space as one character (the tee `0`, a plain space `.`, a hazard `#`, the
Pond `~`, the Target's space `T`, The Green `=` and the hole `O`), with each card between bars,
and the balls marked under it by seat number; the table says what each card is and where every
ball lies. A hole of par 5 has at most 35 spaces, so both fit 78 columns with any names.
"""
from __future__ import annotations

NAME_CHARS = 12
_MARKS = {"plain": ".", "Green": "=", "Pond": "~"}


def _mark(card: str) -> str:
    return _MARKS.get(card, "#")


def _strip(spans: list[dict], hole: int) -> tuple[str, dict[int, int]]:
    """The strip and the column of each space in it."""
    line, column = "  0|", {0: 2}
    for span in spans:
        for space in range(span["first"], span["last"] + 1):
            column[space] = len(line)
            if space == hole:
                line += "O"
            elif span["card"] == "Target" and space == span.get("target"):
                line += "T"
            else:
                line += _mark(span["card"])
        line += "|"
    return line, column


def _markers(balls: list[dict], column: dict[int, int]) -> str:
    """The row under the strip: each ball's seat number under its space, `*` where several lie."""
    row = [" "] * (max(column.values()) + 2)
    for seat, ball in enumerate(balls):
        col = column.get(ball["space"])
        if col is not None:
            row[col] = str(seat + 1) if row[col] == " " else "*"
    return "".join(row).rstrip()


def _what(span: dict) -> str:
    card = span["card"]
    if card == "Green":
        return f"The Green, the hole on {span['last']}"
    if card == "plain":
        return "plain"
    rule = {"Target": f", land on {span.get('target')}", "Dog Leg": f", stop at {span['last']}",
            "Pond": f", back to {span['first'] - 1}"}.get(card, "")
    return f"{card} (hazard{rule})"


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "~"


def _where(seat: int, view: dict) -> str:
    ball = view["balls"][seat]
    strokes = ball["strokes"]
    return f"{seat + 1} {_short(view['names'][seat])} on {ball['space']}, {strokes} stroke{'s' if strokes != 1 else ''}"


def course_picture(view: dict) -> str:
    """The hole in play: the strip with the balls, then the table of cards."""
    spans, balls = view["spans"], view["balls"]
    strip, column = _strip(spans, view["hole_space"])
    lines = [strip, _markers(balls, column), ""]
    lines.append(f"  {'Card':<7}{'Spaces':<8}{'What':<29}Balls")
    rows = [("Tee", "0", "the tee", 0, 0)]
    for n, span in enumerate(spans, start=1):
        label = "Green" if span["card"] == "Green" else str(n)
        rows.append((label, f"{span['first']}-{span['last']}", _what(span), span["first"], span["last"]))
    for label, spaces, what, first, last in rows:
        here = [_where(s, view) for s, ball in enumerate(balls) if first <= ball["space"] <= last]
        lines.append(f"  {label:<7}{spaces:<8}{what:<29}{here[0] if here else ''}".rstrip())
        lines += [" " * 46 + more for more in here[1:]]
    return "\n".join(line.rstrip() for line in lines)
