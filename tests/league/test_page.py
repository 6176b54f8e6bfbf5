"""The standings page as a real browser renders it: headless Chromium reads the file, and the
tables in the DOM it dumps are compared, cell by cell, with the standings rows."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

from pbem.league.grid import results_grid
from pbem.league.page import standings_page
from pbem.league.pairings import schedule
from pbem.league.plan import read_plan
from pbem.league.records import GameRecord, Orders, Replacement
from pbem.league.standings import MATCH_COLUMNS, TABLE_COLUMNS, standings

BROWSER_SECONDS = 90
AMPERSAND = "Tom & Jerry <b>Bold</b>"
SCRIPT = '<script>document.title="owned"</script>'
LEAGUE_NAME = "Winter & Spring <League>"
MATCH_NAMES = (AMPERSAND, SCRIPT, "Cid", "Dee", "Eve")
TABLE_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
DEADLINE = "2026-12-23T18:00:00Z"
LINES = ("{} wins 4 and 3", "{} wins 2 up", "Match halved", "{} wins 1 up",
         "{} wins by resignation ({} resigned after 5 holes)")


def address(n: int) -> str:
    return f"player{n}@example.test"


def plan_of(names, **changes):
    data = {"id": "lg", "name": LEAGUE_NAME, "game": "matchplay",
            "start": "2026-12-07T18:00:00Z",
            "players": [{"name": name, "address": address(n)} for n, name in enumerate(names)]}
    return read_plan(data | changes)


# -- the browser and the DOM -----------------------------------------------------------------

@dataclass
class Cell:
    tag: str
    attrs: dict
    text: str


@dataclass
class Table:
    head: list[list[Cell]] = field(default_factory=list)
    body: list[list[Cell]] = field(default_factory=list)


class Dom(HTMLParser):
    """The tables by id, the text of every element by tag, and how many of each element."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: dict[str, Table] = {}
        self.counts: dict[str, int] = {}
        self.texts: dict[str, list[str]] = {}
        self.table: Table | None = None
        self.section = ""
        self.row: list[Cell] | None = None
        self.cell: tuple[str, dict, list[str]] | None = None
        self.open: list[tuple[str, list[str]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag in ("h1", "title", "p"):
            self.open.append((tag, []))
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("id", ""), Table())
        elif tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr":
            self.row = []
        elif tag in ("th", "td"):
            self.cell = (tag, attrs, [])

    def handle_endtag(self, tag):
        if self.open and self.open[-1][0] == tag:
            name, parts = self.open.pop()
            self.texts.setdefault(name, []).append(" ".join("".join(parts).split()))
        if tag in ("th", "td") and self.cell is not None and self.row is not None:
            name, attrs, parts = self.cell
            self.row.append(Cell(name, attrs, " ".join("".join(parts).split())))
            self.cell = None
        elif tag == "tr" and self.table is not None and self.row is not None:
            (self.table.head if self.section == "thead" else self.table.body).append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[2].append(data)
        for _, parts in self.open:
            parts.append(data)


def rendered(page: str, tmp_path: Path, chromium: str) -> Dom:
    """The DOM that headless Chromium (the `chromium` fixture: it marks the test integration)
    builds from the page, read back."""
    path = tmp_path / "standings.html"
    path.write_text(page, encoding="utf-8")
    profile = tmp_path / "profile"
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run", f"--user-data-dir={profile}", "--dump-dom", path.as_uri()]
    done = subprocess.run(command, capture_output=True, timeout=BROWSER_SECONDS,
                          env=os.environ | {"HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    dom = done.stdout.decode("utf-8")
    assert "<table" in dom, dom[:500]
    return Dom(dom)


# -- a season of hand-made games -------------------------------------------------------------

def match_season(plan, now: datetime) -> list[GameRecord]:
    """Every game of the rounds opened by ``now``: finished with results taken in turn from
    LINES, except the last game of the last open round, which is still being played."""
    games, n = [], 0
    opened = [one for one in schedule(plan) if one.number <= plan.round_at(now)]
    for one in opened:
        for pairing in one.games:
            seats = pairing.players
            if one is opened[-1] and pairing is one.games[-1]:
                games.append(GameRecord(pairing.game_id("lg"), one.number, "matchplay", seats,
                                        "active"))
                continue
            line = LINES[n % len(LINES)]
            winner = n % 2
            names = [plan.player(a).name for a in seats]
            text = line.format(names[winner], names[1 - winner])
            games.append(GameRecord(
                pairing.game_id("lg"), one.number, "matchplay", seats, "finished",
                f"Result: {text}", (0, 1) if "halved" in text else (winner,),
                orders={seats[0]: Orders(6, 6 - n % 4), seats[1]: Orders(6, 6)}))
            n += 1
    return games


def league_json(plan, games: list[GameRecord], now: datetime, rows: list[dict]) -> dict:
    """The ``pbem league show --json`` object of these games."""
    made = {g.id: g for g in games}
    rounds = []
    for one in schedule(plan):
        ids = [p.game_id("lg") for p in one.games]
        ended = all(i in made and made[i].status in ("finished", "abandoned") for i in ids)
        status = "waiting" if one.number > plan.round_at(now) else "closed" if ended else "open"
        rounds.append({
            "round": one.number, "opens": plan.opens(one.number).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "status": status, "byes": list(one.byes),
            "games": [{"id": i, "players": list(p.players),
                       "status": made[i].status if i in made else "waiting",
                       "result": made[i].result if i in made else None}
                      for i, p in zip(ids, one.games)]})
    return {"id": plan.id, "name": plan.name, "game": plan.game, "status": "active",
            "rounds": rounds, "standings": rows}


def in_play(plan, games: list[GameRecord]) -> list[dict]:
    return [{"id": g.id, "players": [plan.player(a).name for a in g.players],
             "status": g.status, "deadline": DEADLINE}
            for g in games if g.status == "active"]


def page_of(plan, games, now, **kwargs) -> tuple[list[dict], dict, list[dict]]:
    rows = [r.to_dict() for r in standings(plan, games, now=now, **kwargs)]
    grid = results_grid(plan, games, now=now, **kwargs).to_dict()
    current = in_play(plan, games)
    return rows, grid, current


# -- what the page must show -----------------------------------------------------------------

def shown(key: str, value) -> str:
    """How the page writes each standings figure, as a reader would check it."""
    if key == "on_time":
        return f"{round(value * 100)}%"
    if key == "holes_diff":
        return f"{value:+d}" if value else "0"
    if key == "points":
        return f"{value:g}"
    if key == "ordinal":  # the rating, one decimal; none before a first finished game
        return "" if value is None else f"{value:.1f}"
    return str(value)


def assert_standings(table: Table, rows: list[dict], keys: list[str]) -> None:
    assert [[c.attrs.get("data-key") for c in line] for line in table.head] == [keys]
    assert len(table.body) == len(rows)
    for line, row in zip(table.body, rows):
        assert [c.text for c in line] == [shown(k, row.get(k)) for k in keys], row["name"]
        read = {k: c.text for k, c in zip(keys, line)}
        # The figures read back as the numbers of the rows, not only as the same strings.
        assert int(read["rank"]) == row["rank"] and read["name"] == row["name"]
        assert int(read["played"]) == row["played"] and int(read["won"]) == row["won"]
        assert int(read["lost"]) == row["lost"]
        assert int(read["on_time"].rstrip("%")) == round(row["on_time"] * 100)
        if "points" in keys:
            assert float(read["points"]) == row["points"]
            assert int(read["holes_diff"]) == row["holes_diff"]
            assert int(read["halved"]) == row["halved"]
        else:
            assert float(read["total"]) == row["total"]


def assert_self_contained(page: str) -> None:
    lowered = page.lower()
    for reference in ("http://", "https://", "src=", "href=", "url(", "@import", "<script",
                      "<link", "<img", "<iframe"):
        assert reference not in lowered, reference


def test_the_browser_shows_the_match_standings_row_by_row_and_cell_by_cell(tmp_path, chromium):
    plan = plan_of(MATCH_NAMES)
    now = plan.opens(3) + timedelta(days=1)
    games = match_season(plan, now)
    rows, grid, current = page_of(plan, games, now)
    # The season must give the comparison something to catch.
    assert len({r["rank"] for r in rows}) > 2 and any(r["on_time"] < 1 for r in rows)
    assert any(r["holes_diff"] < 0 for r in rows) and any(r["halved"] for r in rows)
    league = league_json(plan, games, now, rows)
    page = standings_page(league, rows, grid, current, "2026-12-22T09:30:00Z")
    dom = rendered(page, tmp_path, chromium)

    assert_standings(dom.tables["standings"], rows, list(MATCH_COLUMNS))
    assert [c.text for c in dom.tables["standings"].head[0]][:3] == ["#", "Player", "P"]
    assert dom.texts["h1"] == [LEAGUE_NAME]
    assert "lg" in dom.texts["p"][0] and "2026-12-22T09:30:00Z" in dom.texts["p"][0]
    assert "round 3 of 5 in play" in dom.texts["p"][0]
    assert [[c.text for c in line] for line in dom.tables["current"].body] == [
        [g["id"], " v ".join(g["players"]), "active", DEADLINE] for g in current]
    bye = plan.player(schedule(plan)[2].byes[0]).name
    assert f"Sitting out: {bye}." in dom.texts["p"]


def test_the_results_grid_says_who_beat_whom_and_by_what(tmp_path, chromium):
    plan = plan_of(MATCH_NAMES)
    now = plan.opens(3) + timedelta(days=1)
    games = match_season(plan, now)
    rows, grid, current = page_of(plan, games, now)
    dom = rendered(standings_page(league_json(plan, games, now, rows), rows, grid, current,
                                  "now"), tmp_path, chromium)
    table = dom.tables["results"]
    order = [row["name"] for row in grid["rows"]]
    assert [c.text for c in table.head[0]] == ["Player"] + [str(n) for n in range(1, 6)]
    assert [line[0].text for line in table.body] == [f"{n}. {name}" for n, name in
                                                     enumerate(order, start=1)]

    def cell(one: str, other: str) -> str:
        return table.body[order.index(one)][1 + order.index(other)].text

    first, halved, playing = games[0], games[2], games[-1]
    one, two = (plan.player(a).name for a in first.players)
    assert (cell(one, two), cell(two, one)) == ("Won 4 and 3", "Lost 4 and 3")
    one, two = (plan.player(a).name for a in halved.players)
    assert (cell(one, two), cell(two, one)) == ("Halved", "Halved")
    one, two = (plan.player(a).name for a in playing.players)
    assert cell(one, two) == "Playing"
    later = schedule(plan)[4].games[0]
    one, two = (plan.player(a).name for a in later.players)
    assert cell(one, two) == "Round 5"
    assert all(cell(name, name) == "" for name in order)


def test_names_come_out_as_text_and_the_page_fetches_nothing(tmp_path, chromium):
    plan = plan_of(MATCH_NAMES)
    now = plan.opens(2)
    games = match_season(plan, now)
    rows, grid, current = page_of(plan, games, now)
    page = standings_page(league_json(plan, games, now, rows), rows, grid, current, "now")
    assert_self_contained(page)
    dom = rendered(page, tmp_path, chromium)
    # The browser built no element from a name: the names are text, whole.
    assert dom.counts.get("script", 0) == 0 and dom.counts.get("b", 0) == 0
    names = [line[1].text for line in dom.tables["standings"].body]
    assert sorted(names) == sorted(MATCH_NAMES)
    assert dom.texts["title"] == [f"{LEAGUE_NAME} \u2013 standings"]
    assert "Tom &amp; Jerry &lt;b&gt;Bold&lt;/b&gt;" in page


def test_addresses_stay_off_the_page_unless_asked_for(tmp_path, chromium):
    plan = plan_of(MATCH_NAMES)
    now = plan.opens(3) + timedelta(days=1)
    games = match_season(plan, now)
    rows, grid, current = page_of(plan, games, now)
    league = league_json(plan, games, now, rows)
    page = standings_page(league, rows, grid, current, "now")
    assert "example.test" not in page
    shown_page = standings_page(league, rows, grid, current, "now", show_addresses=True)
    dom = rendered(shown_page, tmp_path, chromium)
    keys = ["rank", "name", "address", *MATCH_COLUMNS[2:]]
    assert_standings(dom.tables["standings"], rows, keys)
    assert [line[2].text for line in dom.tables["standings"].body] == [r["address"] for r in rows]
    # Only the standings carry them: the grid and the games in play name the players.
    for table in ("results", "current"):
        assert all("example.test" not in c.text for line in dom.tables[table].body for c in line)


def test_a_note_column_says_who_took_a_row_over(tmp_path, chromium):
    plan = plan_of(("Ann", "Bob"))
    newcomer = Replacement(old=address(1), new="cy@example.test", name="Cy & Co", at=plan.start)
    game = schedule(plan)[0].games[0]
    seats = tuple("cy@example.test" if a == address(1) else a for a in game.players)
    winner = seats.index("cy@example.test")
    games = [GameRecord(game.game_id("lg"), 1, "matchplay", seats, "finished",
                        "Result: Cy & Co wins 3 and 2", (winner,))]
    now = plan.opens(1) + timedelta(days=3)
    rows, grid, current = page_of(plan, games, now, replacements=[newcomer])
    assert rows[0]["note"] == "took over from Bob in round 1"
    dom = rendered(standings_page(league_json(plan, games, now, rows), rows, grid, current,
                                  "now"), tmp_path, chromium)
    assert_standings(dom.tables["standings"], rows, [*MATCH_COLUMNS, "note"])
    assert dom.tables["standings"].body[0][-1].text == "took over from Bob in round 1"
    assert "season over: all 1 rounds played" in dom.texts["p"][0]
    assert dom.tables["current"].body == [] and "No games are in play." in dom.texts["p"]


def test_a_tables_league_shows_totals_and_each_round_of_each_player(tmp_path, chromium):
    plan = plan_of(TABLE_NAMES, game="dicegolf", table_size=3, rounds=2)
    scores = {"Ann": [10, 12], "Bob": [12, 10], "Cid": [11, 11], "Dee": [13, 9], "Eve": [9, 14]}
    games = []
    for one in schedule(plan):
        for pairing in one.games:
            seat_scores = tuple(scores[plan.player(a).name][one.number - 1] for a in pairing.players)
            games.append(GameRecord(
                pairing.game_id("lg"), one.number, "dicegolf", pairing.players, "finished",
                "...", tuple(i for i, s in enumerate(seat_scores) if s == min(seat_scores)),
                seat_scores, ended=plan.opens(one.number) + timedelta(days=1)))
    now = datetime(2027, 3, 1, tzinfo=UTC)
    rows, grid, current = page_of(plan, games, now)
    assert sorted(r["total"] for r in rows) == sorted(sum(s) for s in scores.values())
    dom = rendered(standings_page(league_json(plan, games, now, rows), rows, grid, current,
                                  "now"), tmp_path, chromium)
    assert_standings(dom.tables["standings"], rows, list(TABLE_COLUMNS))
    results = dom.tables["results"]
    assert [c.text for c in results.head[0]] == ["Player", "Round 1", "Round 2"]
    for line, row in zip(results.body, grid["rows"]):
        assert line[0].text == row["name"]
        for r, (seen, cell) in enumerate(zip(line[1:], row["cells"])):
            wanted = f"{scores[row['name']][r]} ({cell['outcome']}) with {', '.join(cell['against'])}"
            assert seen.text == wanted
