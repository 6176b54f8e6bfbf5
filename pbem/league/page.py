"""The standings of a league as one web page (``pbem league standings LEAGUE --html FILE``).

The page is self-contained so that a GM can publish it anywhere, or mail it: its style is
inline, it has no script, and it fetches nothing (its Content-Security-Policy forbids it).
Every text on it is escaped, since player names come from the players. Addresses stay off it
unless asked for, because a published page would hand them to every crawler.
"""
from __future__ import annotations

from html import escape
from types import SimpleNamespace
from typing import Any
from collections.abc import Iterable

from pbem.games import game_type
from pbem.league.standings import columns

HEADINGS = {     # key: (column heading, what the legend says it means)
    "rank": ("#", ""),
    "name": ("Player", ""),
    "address": ("Address", ""),
    "played": ("P", "played"),
    "won": ("W", "won"),
    "halved": ("H", "halved"),
    "lost": ("L", "lost"),
    "points": ("Pts", "points (a win 1, a halved match \u00bd)"),
    "holes_diff": ("+/\u2212", "holes up or down over the matches"),
    "total": ("Total", "the game scores added up (lower is better)"),
    "on_time": ("On time", "orders in before the deadline"),
    "ordinal": ("Rating", "the rating ordinal for this game over every finished game here (mu \u2212 3 sigma)"),
    "note": ("Note", ""),
}
NO_DEADLINE = "\u2013"
NUMERIC = ("rank", "played", "won", "halved", "lost", "points", "holes_diff", "total", "on_time", "ordinal")

_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
_STYLE = """
:root { color-scheme: light dark; --line: #c9d3cc; --head: #e8efe9; --won: #d6f0d8;
  --lost: #f6dcdc; --halved: #f3edcf; --quiet: #667; }
@media (prefers-color-scheme: dark) { :root { --line: #3c4a41; --head: #25302a;
  --won: #1f4226; --lost: #4a2626; --halved: #45401f; --quiet: #9aa; } }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 1rem; max-width: 64rem; line-height: 1.4;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
.meta, .legend, .note, .empty, footer { color: var(--quiet); font-size: .875rem; }
.meta { margin: 0 0 1rem; }
code { font-size: .9em; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; max-width: 100%; }
table { border-collapse: collapse; font-size: .9375rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left;
  vertical-align: top; }
thead th { background: var(--head); white-space: nowrap; }
tbody th { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.who { min-width: 7rem; max-width: 14rem; overflow-wrap: anywhere; }
#results tbody th { position: sticky; left: 0; background: Canvas; }
#results td { min-width: 5.5rem; font-size: .875rem; }
#results td.self { background: var(--line); min-width: 2rem; }
.won { background: var(--won); }
.lost { background: var(--lost); }
.halved { background: var(--halved); }
.with { display: block; color: var(--quiet); font-size: .8125rem; }
abbr { text-decoration: none; }
@media (max-width: 40rem) { body { padding: .6rem; } table { font-size: .875rem; }
  th, td { padding: .25rem .35rem; } thead th { white-space: normal; }
  .who { min-width: 5.5rem; max-width: 9rem; } #results td { min-width: 4.5rem; } }
"""


def standings_page(league: dict, rows: list[dict], grid: dict, current: list[dict], now: str,
                   *, show_addresses: bool = False) -> str:
    """The page: ``league`` as ``pbem league show --json`` gives it, ``rows`` the standings
    rows (``Row.to_dict()``), ``grid`` the results grid (``ResultsGrid.to_dict()``),
    ``current`` the games in play as ``{"id", "players": [names], "status", "deadline"}``,
    and ``now`` when the page is written."""
    names = {row["address"]: row["name"] for row in rows}
    title = f"{league['name']} \u2013 standings"
    body = [
        f"<h1>{_e(league['name'])}</h1>",
        f'<p class="meta">{_meta(league, now)}</p>',
        "<h2>Standings</h2>",
        _standings(league["game"], rows, show_addresses),
        "<h2>Results</h2>",
        _results(grid),
        f"<h2>{_e(_current_heading(league))}</h2>",
        _current(current, _byes(league, names)),
        "<footer><p>Written by pbem, the play-by-email game master.</p></footer>",
    ]
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        *body,
        "</body>",
        "</html>",
        "",
    ])


# -- the heading ---------------------------------------------------------------------------

def _meta(league: dict, now: str) -> str:
    parts = [f"{_e(_game_title(league['game']))} league <code>{_e(league['id'])}</code>"]
    season = _season(league.get("rounds") or [])
    if season:
        parts.append(_e(season))
    parts.append(f"written {_e(now)}")
    return " \u00b7 ".join(parts)


def _game_title(game: str) -> str:
    try:
        return game_type(game).TITLE or game
    except KeyError:
        return game


def _season(rounds: list[dict]) -> str:
    """Where the season stands: the rounds in play, or the next to open, or that it is over."""
    if not rounds:
        return ""
    count = len(rounds)
    playing = [r["round"] for r in rounds if r.get("status") == "open"]
    waiting = [r for r in rounds if r.get("status") == "waiting"]
    if playing:
        return f"round {_and(playing)} of {count} in play"
    if waiting:
        return f"round {waiting[0]['round']} of {count} opens {waiting[0].get('opens') or 'later'}"
    return f"season over: all {count} rounds played"


def _current_heading(league: dict) -> str:
    playing = [r["round"] for r in league.get("rounds") or [] if r.get("status") == "open"]
    return f"Games of round {_and(playing)}" if playing else "Games in play"


def _and(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- the standings -------------------------------------------------------------------------

def _standings(game: str, rows: list[dict], show_addresses: bool) -> str:
    keys = list(columns(SimpleNamespace(game=game)))   # columns() reads only the game type
    if show_addresses:
        keys.insert(keys.index("name") + 1, "address")
    if any(row.get("note") for row in rows):
        keys.append("note")
    head = "".join(_heading(key) for key in keys)
    body = "\n".join("<tr>" + "".join(_standings_cell(key, row) for key in keys) + "</tr>"
                     for row in rows)
    legend = "; ".join(f"{HEADINGS[k][0]}: {HEADINGS[k][1]}" for k in keys if HEADINGS[k][1])
    return "\n".join([
        '<div class="scroll"><table id="standings">',
        f"<thead><tr>{head}</tr></thead>",
        f"<tbody>\n{body}\n</tbody>",
        "</table></div>",
        f'<p class="legend">{_e(legend)}. Players level on every count share a rank.</p>',
    ])


def _heading(key: str) -> str:
    label, meaning = HEADINGS[key]
    css = ' class="num"' if key in NUMERIC else ""
    shown = f'<abbr title="{_e(meaning)}">{_e(label)}</abbr>' if meaning else _e(label)
    return f'<th scope="col" data-key="{key}"{css}>{shown}</th>'


def _standings_cell(key: str, row: dict) -> str:
    value = row.get(key)
    if key == "name":
        return f'<th scope="row" class="who">{_e(value)}</th>'
    if key in ("address", "note"):
        return f'<td class="note">{_e(value or "")}</td>'
    return f'<td class="num">{_e(_figure(key, value))}</td>'


def _figure(key: str, value: Any) -> str:
    """A number of the standings as the page writes it: ``1.5``, ``+4``, ``75%``."""
    if value is None:
        return ""
    if key == "on_time":
        return f"{round(value * 100)}%"
    if key == "holes_diff":
        return f"{value:+d}" if value else "0"
    if key == "ordinal":
        return f"{value:.1f}"
    return f"{value:g}" if isinstance(value, float) else str(value)


# -- the results grid ----------------------------------------------------------------------

def _results(grid: dict) -> str:
    matches = grid["kind"] == "matches"
    if matches:
        head = '<th scope="col">Player</th>' + "".join(
            f'<th scope="col"><abbr title="{_e(name)}">{n}</abbr></th>'
            for n, name in enumerate(grid["columns"], start=1))
        told = ("Read across: each row's match against the player numbered at the top of the "
                "column (the numbers are the rows, in standings order).")
    else:
        head = '<th scope="col">Player</th>' + "".join(
            f'<th scope="col">{_e(column)}</th>' for column in grid["columns"])
        told = "Each player's score in each round, and who was at the table with them."
    lines = []
    for n, row in enumerate(grid["rows"], start=1):
        number = f"{n}. " if matches else ""
        cells = "".join(_grid_cell(cell, matches) for cell in row["cells"])
        lines.append(f'<tr><th scope="row" class="who">{number}{_e(row["name"])}</th>{cells}</tr>')
    return "\n".join([
        '<div class="scroll"><table id="results">',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>\n" + "\n".join(lines) + "\n</tbody>",
        "</table></div>",
        f'<p class="legend">{_e(told)}</p>',
    ])


def _grid_cell(cell: dict | None, matches: bool) -> str:
    if cell is None:
        return '<td class="self"></td>' if matches else "<td>\u2013</td>"
    outcome = cell["outcome"]
    text = _match_result(cell) if matches else _table_result(cell)
    with_whom = ""
    if not matches and cell.get("against"):
        with_whom = f' <span class="with">with {_e(", ".join(cell["against"]))}</span>'
    title = f' title="{_e(cell["game"])}"' if cell.get("game") else ""
    return f'<td class="{_e(outcome)}"{title}>{_e(text)}{with_whom}</td>'


def _match_result(cell: dict) -> str:
    outcome, detail = cell["outcome"], cell.get("detail") or ""
    if outcome in ("won", "lost"):
        return f"{outcome.capitalize()} {detail}".strip()
    return _unplayed(cell) if outcome != "halved" else "Halved"


def _table_result(cell: dict) -> str:
    outcome, detail = cell["outcome"], cell.get("detail") or ""
    if outcome in ("won", "lost"):
        return f"{detail} ({outcome})" if detail else outcome.capitalize()
    return _unplayed(cell)


def _unplayed(cell: dict) -> str:
    outcome = cell["outcome"]
    if outcome == "pending":
        if cell.get("game"):
            return "Playing"
        return f"Round {cell['round']}" if cell.get("round") else "To play"
    return {"bye": "Bye", "void": "Void"}.get(outcome, outcome.capitalize())


# -- the games in play ---------------------------------------------------------------------

def _byes(league: dict, names: dict[str, str]) -> list[str]:
    """The names of those sitting out the rounds in play; an address that is no row's now
    is left out rather than shown."""
    out = []
    for one in league.get("rounds") or []:
        if one.get("status") == "open":
            out += [names[a] for a in one.get("byes") or [] if a in names]
    return out


def _current(games: list[dict], byes: Iterable[str]) -> str:
    lines = [
        "<tr>"
        f"<td><code>{_e(game['id'])}</code></td>"
        f'<td class="who">{_e(_players(game.get("players") or []))}</td>'
        f"<td>{_e(game.get('status') or '')}</td>"
        f"<td>{_e(game.get('deadline') or NO_DEADLINE)}</td>"
        "</tr>"
        for game in games]
    out = [
        '<div class="scroll"><table id="current">',
        '<thead><tr><th scope="col">Game</th><th scope="col">Players</th>'
        '<th scope="col">Status</th><th scope="col">Deadline</th></tr></thead>',
        "<tbody>\n" + "\n".join(lines) + "\n</tbody>",
        "</table></div>",
    ]
    if not games:
        out.append('<p class="empty">No games are in play.</p>')
    byes = list(byes)
    if byes:
        out.append(f'<p class="note">Sitting out: {_e(", ".join(byes))}.</p>')
    return "\n".join(out)


def _players(names: list[str]) -> str:
    return " v ".join(names) if len(names) == 2 else ", ".join(names)


def _e(value: Any) -> str:
    return escape(str(value), quote=True)
