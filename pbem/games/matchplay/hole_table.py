"""MatchPlay's hole table as players read it in a report, a status, a history and the result.

One line per hole played: its number and par, each player's column (the stroke card, the
specials that changed it and the score they made, F for a forfeit), who won it and the match
after it. Laid out for 78 columns: a cell is at most 20 wide ("4 BLUE+1 RED-1 = 4 F") and a
name in the table at most 8 (the engine's `table_names`), so "Won by" and "Match" fit beside
the two cells. Written here rather than in the template because every report draws it for
each reader, and a Jinja loop of this shape costs several times the Python.
"""
from __future__ import annotations


def score_cell(row: dict, seat: int) -> str:
    """A special shows beside the score it changed: the player's own BLUE, the opponent's RED."""
    changes = ([card for card in row["specials"][seat] if card.startswith("BLUE")]
               + [card for card in row["specials"][1 - seat] if card.startswith("RED")])
    cell = str(row["cards"][seat])
    if changes:
        cell += f" {' '.join(changes)} = {row['scores'][seat]}"
    if row["forfeits"][seat]:
        cell += " F"
    return cell


def lead_text(lead: int, tags: list[str]) -> str:
    if lead == 0:
        return "all square"
    return f"{tags[0]} {lead} up" if lead > 0 else f"{tags[1]} {-lead} up"


def hole_lines(rows: list[dict], tags: list[str]) -> str:
    """The table's heading and a line per row (no line ends in the padding's spaces: the
    renderer strips them)."""
    cells = [(score_cell(row, 0), score_cell(row, 1)) for row in rows]
    widths = [max([len(tags[s])] + [len(cell[s]) for cell in cells]) for s in (0, 1)]
    won_width = max(len(tags[0]), len(tags[1]), 6)
    lines = [f"Hole Par  {tags[0].ljust(widths[0])}  {tags[1].ljust(widths[1])}  "
             f"{'Won by'.ljust(won_width)}  Match"]
    for row, cell in zip(rows, cells):
        won = tags[row["winner"]] if row["winner"] is not None else "halved"
        lines.append(f"{str(row['hole']).rjust(4)} {str(row['par']).rjust(3)}  {cell[0].ljust(widths[0])}  "
                     f"{cell[1].ljust(widths[1])}  {won.ljust(won_width)}  {lead_text(row['lead'], tags)}")
    return "\n".join(lines)
