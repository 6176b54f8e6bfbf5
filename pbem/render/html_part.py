"""The HTML part of a mail, made from its text part and from nothing else.

Gmail, Apple Mail and Outlook show the HTML part when there is one, and many of them show a
text part in a proportional font, where a table of cards or holes falls apart. So a mail whose
text has a table gets an HTML part beside it: every block of the text, in order. Prose becomes
paragraphs that flow; a table (columns lined up by runs of spaces) becomes a real `<table>`,
its first row a heading when it names the columns; lines read by their position (an order to
copy, a course's picture) stay monospace. Being made from the text, it can never say less than
the text does (a separate template once left out the instructions).

All of it fits a phone, a window 390 px wide, without sideways scrolling (CONTRACT section 5):
table cells wrap, long words (a password, a seed commitment, an address) break where they must,
monospace blocks wrap too. The style is inline, since mail clients drop a `<style>` element.
"""
from __future__ import annotations

import html
from functools import lru_cache
import re

# Which breaks the templates' wrapping made, and what lines up as a table, is told as the flowed
# text part tells it: one rule for both parts.
from pbem.mail.flowed import ALIGNED as _ALIGNED, fills_line, wrapped

# The text of a line between its runs of two or more spaces.
_SEGMENT = re.compile(r"\S+(?: \S+)*")
# A table's first row names its columns when its cells are words like these ("Hole", "On time",
# "#", "7") and one of them heads a column of numbers.
_HEADING = re.compile(r"[A-Za-z#][A-Za-z0-9#]*(?: [A-Za-z0-9]+){0,2}|[0-9]+")
_NUMBER = re.compile(r"[-+]?[0-9]")
_COMMAND = re.compile(r"[A-Z]{2,}\b")
# An order as short as this keeps to one line beside its description; so may any cell as short
# as the other.
_SHORT_ORDER = 24
_SHORT_CELL = 12
# A word longer than this (an address, a long name) may break anywhere in a table's cell;
# shorter ones break only between them, if the table fits so.
_LONG_WORD = 16

# What a phone shows of a mail's width, in CSS pixels (390, less the margins around it), and
# how wide a character is on average, in ems (DejaVu Sans, the widest of the usual sans fonts).
_PHONE = 370
_CHAR_EM = 0.62
# A table's font size and each cell's padding either side (px): the first that fits.
_SIZES = ((13, 6), (12, 3), (11, 2))

_PAGE = ("font-family: sans-serif; font-size: 14px; line-height: 1.4; "
         "overflow-wrap: anywhere; word-break: break-word")
_MONO = "font-family: Menlo, Consolas, monospace"
_PRE = f"{_MONO}; font-size: 13px; margin: 0 0 1em 0; white-space: pre-wrap; overflow-wrap: anywhere"
_BLOCK = "margin: 0 0 1em 0"
_TABLE = "border-collapse: collapse; line-height: 1.3; margin: 0"
# Words in a table's cells break between them, not anywhere (a heading "Ra-ting", a name "Geor-ge").
_WHOLE_WORDS = "overflow-wrap: normal; word-break: normal"
_ANYWHERE = "overflow-wrap: anywhere; word-break: break-word"
_LINES = "border: 1px solid #ccc"
# Orders beside their descriptions, as the text sets them: no lines, a gap between.
_ORDER_CELL = "padding: 2px 12px 2px 0"


def has_table(text: str) -> bool:
    return any(_ALIGNED.search(line) for line in text.splitlines())


def html_part(text: str) -> str | None:
    """The HTML beside `text`, or None when the text has no table (then it reads well as it is)."""
    if not has_table(text):
        return None
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n'
            f'<body>\n<div style="{_PAGE}">\n' + "\n".join(map(_block, _blocks(text)))
            + "\n</div>\n</body></html>\n")


def _blocks(text: str) -> list[list[str]]:
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _block(block: list[str]) -> str:
    return _block_of(tuple(block))


# A pass writes the same table to every seat of a game (a turn's holes, a hole's grids), and
# the reading of a table's columns is the costliest step of a mail: each block's HTML is
# remembered for the pass, by its lines (the reading is a pure function of them).
@lru_cache(maxsize=512)
def _block_of(block: tuple[str, ...]) -> str:
    parts = _parts(list(block))
    if len(parts) == 1 and not parts[0][0]:
        return "<p>" + _prose(parts[0][1]) + "</p>"
    out = []
    for n, (rows, lines) in enumerate(parts):
        if rows:
            out.append(_table(lines) or f'<pre style="{_PRE}">' + html.escape("\n".join(lines)) + "</pre>")
        else:  # a heading over rows: the break keeps them apart when the HTML is read as text
            out.append(_prose(lines) + ("<br>" if n + 1 < len(parts) else ""))
    return f'<div style="{_BLOCK}">' + "\n".join(out) + "</div>"


def _parts(block: list[str]) -> list[tuple[bool, list[str]]]:
    """The block's runs of prose lines and of rows, in order: (whether rows, lines). A row has
    its cells apart, or is indented at the head of the block or under another row; indented
    lines under prose go on with it (a list under its heading, the lines of a list item or a
    note under its first). A lone row amid prose ("Stock: 33 cards" far right of the discard) is
    prose too."""
    parts: list[tuple[bool, list[str]]] = []
    for line in block:
        row = bool(_ALIGNED.search(line)) or (_indent(line) >= 2 and (not parts or parts[-1][0]))
        if parts and parts[-1][0] == row:
            parts[-1][1].append(line)
        else:
            parts.append((row, [line]))
    merged: list[tuple[bool, list[str]]] = []
    for row, lines in parts:
        if row and len(lines) == 1 and _indent(lines[0]) < 2:
            row = False
        if merged and not row and not merged[-1][0]:
            merged[-1][1].extend(lines)
        else:
            merged.append((row, list(lines)))
    return merged


def _prose(block: list[str]) -> str:
    """Lines that wrapping broke flow again; a break made on purpose (a short line: a greeting,
    a name; or a new list item) stays a break. A wide gap in a line stays wide."""
    items: list[list[str]] = []
    for n, line in enumerate(block):
        if not items or not wrapped(block[n - 1], line):
            items.append([])
        items[-1].append(re.sub(" {2,}", lambda gap: "&nbsp;" * (len(gap[0]) - 1) + " ",
                                html.escape(line.strip())))
    return "<br>\n".join(" ".join(item) for item in items)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# -- tables ------------------------------------------------------------------------------------

def _table(lines: list[str]) -> str | None:
    """The rows as a `<table>`, or None when they have no two columns (then they stay
    monospace): a heading row if the first names the columns, numbers on the right where the
    text sets them so, in the largest font that fits a phone with its words whole (and short
    cells on one line, if that costs a pixel at most), orders in monospace."""
    read = _cells(lines)
    if read is None:
        return None
    rows, places, across = read
    columns = len(rows[0])
    heading = len(rows) > 1 and _names_columns(rows)
    # Orders and their examples: indented four spaces, each row's first cell a command.
    orders = min(map(_indent, lines)) >= 4 and not heading and all(_COMMAND.match(row[0]) for row in rows)
    right = [_right_aligned([row[k] for row in rows[1 if heading else 0:]], [p[k] for p in places])
             for k in range(columns)]
    long = [[max(map(len, cell.split()), default=0) > _LONG_WORD for cell in cells] for cells in rows]
    whole = [[orders and k == 0 and len(cell) <= _SHORT_ORDER for k, cell in enumerate(cells)] for cells in rows]
    short = [[one or (k < columns - 1 and len(cell) <= _SHORT_CELL) for k, (cell, one) in enumerate(zip(cells, ones))]
             for cells, ones in zip(rows, whole)]
    fits, fits_short = _sizes(rows, whole, long, across), _sizes(rows, short, long, across)
    if fits_short and (not fits or fits_short[0][0] + 1 >= fits[0][0]):
        fits, whole = fits_short, short
    elif not fits:  # no size keeps every word whole: words break anywhere, nothing stays on one line
        whole = [[False] * columns for _ in rows]
    size, pad = fits[0] if fits else _SIZES[-1]
    style = _ORDER_CELL if orders else f"padding: 2px {pad}px; {_LINES}"
    out = [f'<table cellspacing="0" style="{_TABLE}; font-size: {size}px' + (f'; {_WHOLE_WORDS}">' if fits else '">')]
    for r, cells in enumerate(rows):
        tag = "th" if heading and r == 0 else "td"
        if r in across:
            out.append(f'<tr valign="top"><td colspan="{columns}" style="{style}'
                       + (f"; {_ANYWHERE}" if long[r][0] and fits else "") + f'">{html.escape(cells[0])}</td></tr>')
            continue
        out.append('<tr valign="top">' + " ".join(
            f"<{tag}" + (' align="right"' if right[k] else ' align="left"' if tag == "th" else "")
            + (" nowrap" if whole[r][k] else "") + f' style="{style}'
            + (f"; {_MONO}" if orders and k == 0 else "") + (f"; {_ANYWHERE}" if long[r][k] and fits else "")
            + f'">{html.escape(cell).replace(chr(10), "<br>")}</{tag}>'
            for k, cell in enumerate(cells)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _cells(lines: list[str]) -> tuple[list[list[str]], list[list[tuple[int, int] | None]], set[int]] | None:
    """The rows' cells (their text, "\n" where a line of its own began), where each stood in its
    line (start, end) when it stood in its column, and the rows of one cell across all columns;
    None when the lines have no two columns. A line of one piece, indented past the rows, goes
    on in the row above (a wrapped description, a second ball on the tee); a row whose first
    cell runs into the next column (a long order) gives each of its pieces to the column where
    it starts, and a row of one piece that runs across the columns (a hole's scores under its
    moves) spans them all."""
    base = min(map(_indent, lines))
    main = {n: m for m, n in enumerate(n for n, line in enumerate(lines)
                                       if n == 0 or _indent(line) == base or len(_SEGMENT.findall(line)) > 1)}
    spans, overflow = _columns([lines[n] for n in main])
    if len(spans) < 2:
        return None
    rows: list[list[str]] = []
    places: list[list[tuple[int, int] | None]] = []
    across: set[int] = set()
    for n, line in enumerate(lines):
        if n not in main:
            cells = rows[-1]
            column = max(_column(spans, _indent(line)), max((k for k, c in enumerate(cells) if c), default=0))
            glue = " " if fills_line(lines[n - 1], line) else "\n"
            cells[column] += (glue if cells[column] else "") + line.strip()
            places[-1][column] = None  # a cell of two lines decides nothing of its column's alignment
            continue
        cells = [""] * len(spans)
        where: list[tuple[int, int] | None] = [None] * len(spans)
        if main[n] in overflow and len(_SEGMENT.findall(line)) == 1:
            cells[0] = line.strip()
            across.add(len(rows))
        elif main[n] in overflow:
            for piece in _SEGMENT.finditer(line):
                k = _column(spans, piece.start())
                cells[k] = (cells[k] + " " if cells[k] else "") + piece[0]
        else:
            for k, (start, end) in enumerate(spans):
                found = _SEGMENT.search(line, start, end)
                if found:
                    cells[k] = " ".join(line[start:end].split())
                    where[k] = (found.start(), len(line[:end].rstrip()))
        rows.append(cells)
        places.append(where)
    return rows, places, across


def _sizes(rows: list[list[str]], whole: list[list[bool]], long: list[list[bool]],
           across: set[int]) -> list[tuple[int, int]]:
    """The font sizes and paddings (`_SIZES`, largest first) at which the table fits a phone
    with its words whole, and the cells of `whole` on one line; a long word (`long`) may break."""
    narrowest = [max((len(row[k]) if whole[r][k] else max(map(len, row[k].split()), default=0)
                      for r, row in enumerate(rows) if not long[r][k] and r not in across), default=0)
                 for k in range(len(rows[0]))]
    return [(size, pad) for size, pad in _SIZES
            if sum(narrowest) * size * _CHAR_EM + len(narrowest) * (2 * pad + 1) <= _PHONE]


def _columns(lines: list[str]) -> tuple[list[tuple[int, int]], set[int]]:
    """Where the columns of `lines` stand, (start, end) each, from the runs of spaces that every
    line has in the same place; and the lines left out of the count because each crossed such a
    run alone (a long order in the first column running into the second, a line of scores
    under a table of moves): a third of them at most."""
    filled = [[c != " " for c in line] for line in lines]
    count = [0] * max(map(len, lines))
    for row in filled:
        for p, f in enumerate(row):
            count[p] += f
    overflow: set[int] = set()
    for n in range(1, len(lines)):  # never the first: it may head the columns
        if len(overflow) >= max(1, len(lines) // 3):
            break
        without = [c - (p < len(filled[n]) and filled[n][p]) for p, c in enumerate(count)]
        if _gap_count(without) > _gap_count(count):
            overflow.add(n)
            count = without
    return _spans([line for n, line in enumerate(lines) if n not in overflow]), overflow


def _gap_count(count: list[int]) -> int:
    """How many runs of two or more empty places lie between filled ones."""
    text = "".join("x" if c else " " for c in count).strip()
    return len(re.findall(" {2,}", text))


def _spans(lines: list[str]) -> list[tuple[int, int]]:
    width = max(map(len, lines))
    padded = [line.ljust(width + 1) for line in lines]
    blank = [all(line[p] == " " for line in padded) for p in range(width)]
    first = blank.index(False)
    starts, ends = [first], []
    p = first
    while p < width:
        if not blank[p]:
            p += 1
            continue
        q = p
        while blank[q + 1]:
            q += 1
        if q > p or _one_wide_gap(padded, p):
            ends.append(p)
            starts.append(q + 1)
        p = q + 1
    ends.append(width)
    return list(zip(starts, ends))


def _one_wide_gap(lines: list[str], p: int) -> bool:
    """A column of single spaces parts two columns when it lies between two words of the first
    line alone (a heading: "Hole Par") and another line has something under each."""
    first = lines[0]
    if any(line[p - 1] != " " and line[p + 1] != " " for line in lines[1:]) or " " in (first[p - 1], first[p + 1]):
        return False
    left = first.rfind(" ", 0, p - 1) + 1
    right = first.find(" ", p + 1)
    return any(line[left:p].strip() and line[p + 1:right].strip() for line in lines[1:])


def _column(spans: list[tuple[int, int]], at: int) -> int:
    return max((k for k, (start, _) in enumerate(spans) if start <= at), default=0)


def _names_columns(rows: list[list[str]]) -> bool:
    """Whether the first row heads the columns: its cells are plain words, and one of them
    stands over a column of numbers."""
    first = rows[0]
    if not all(_HEADING.fullmatch(cell) for cell in first if cell):
        return False
    return any(cell and not cell[0].isdigit() and any(_NUMBER.match(row[k]) for row in rows[1:])
               for k, cell in enumerate(first))


def _right_aligned(cells: list[str], places: list[tuple[int, int] | None]) -> bool:
    """A column whose cells end where the others end, and start in different places or are
    numbers (a column of single digits)."""
    known = [p for p in places if p is not None]
    return (len(known) > 1 and len({end for _, end in known}) == 1
            and (len({start for start, _ in known}) > 1 or any(_NUMBER.match(cell) for cell in cells)))
