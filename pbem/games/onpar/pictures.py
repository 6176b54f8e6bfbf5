"""On Par's course as players read it in mail: a table of its cards and a strip of its spaces.

The strip draws every space as one character (the tee `0`, a plain space `.`, a hazard `#`, the
Pond `~`, the Target's space `T`, The Green `=` and the hole `O`), with each card between bars,
and the balls marked under it by seat number; the table says what each card is and where every
ball lies. A hole of par 5 has at most 35 spaces, so both fit 78 columns with any names.
"""
from __future__ import annotations

WIDTH = 78
BALLS_AT = 46  # the column of the table's Balls
_MARKS = {"plain": ".", "Green": "=", "Pond": "~"}
# What each character of the strip is, in the order the key lists them.
_KEY = (("0", "tee"), (".", "plain"), ("#", "hazard"), ("~", "Pond"), ("T", "Target's space"),
        ("=", "Green"), ("O", "hole"))


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


def _key(strip: str, names: list[str]) -> list[str]:
    """The strip's key: the characters it shows, then whose ball each number is (names whole)."""
    marks = ", ".join(f"{mark} {what}" for mark, what in _KEY if mark in strip[3:] or mark == "0")
    balls = ", ".join(f"{n} {name}" for n, name in enumerate(names, start=1))
    return _wrapped(f"Key: {marks}; balls below: {balls} (* two or more on one space).", "  ")


def _wrapped(text: str, indent: str) -> list[str]:
    lines, line = [], indent
    for word in text.split(" "):
        if len(line) + len(word) + (line != indent) > WIDTH - 2 and line != indent:
            lines.append(line)
            line = indent + "  "
        line += (" " if line.strip() else "") + word
    return lines + [line]


def _where(seat: int, view: dict) -> str:
    """`3 Robot (strong) on 12, 2 strokes`: the name cut (the key above has it whole) only when
    the line would pass 78 columns."""
    ball = view["balls"][seat]
    strokes = ball["strokes"]
    rest = f" on {ball['space']}, {strokes} stroke{'s' if strokes != 1 else ''}"
    room = WIDTH - BALLS_AT - len(f"{seat + 1} ") - len(rest)
    name = view["names"][seat]
    if len(name) > room:
        name = name[: max(room - 1, 1)] + "~"
    return f"{seat + 1} {name}{rest}"


def course_picture(view: dict) -> str:
    """The hole in play: the strip with the balls, then the table of cards."""
    spans, balls = view["spans"], view["balls"]
    strip, column = _strip(spans, view["hole_space"])
    lines = [strip, _markers(balls, column), *_key(strip, view["names"]), ""]
    lines.append(f"  {'Card':<7}{'Spaces':<8}{'What':<29}Balls")
    rows = [("Tee", "0", "the tee", 0, 0)]
    for n, span in enumerate(spans, start=1):
        label = "Green" if span["card"] == "Green" else str(n)
        rows.append((label, f"{span['first']}-{span['last']}", _what(span), span["first"], span["last"]))
    for label, spaces, what, first, last in rows:
        here = [_where(s, view) for s, ball in enumerate(balls) if first <= ball["space"] <= last]
        lines.append(f"  {label:<7}{spaces:<8}{what:<29}{here[0] if here else ''}".rstrip())
        lines += [" " * BALLS_AT + more for more in here[1:]]
    return "\n".join(line.rstrip() for line in lines)
