"""`pbem league ...`: the league commands of the command line, over a `Season`."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from pbem.clock import now
from pbem.league import rows as league_rows
from pbem.league.grid import results_grid
from pbem.league.page import standings_page
from pbem.league.plan import LeagueError
from pbem.league.season import LeagueRefused, Season
from pbem.league.standings import columns
from pbem.mail.clean import quoted
from pbem.render import environment


def league_command(app, action: str, target: str | None, *, as_json: bool = False, html: str | None = None) -> str:
    season = Season(app.gm)
    if action == "list":
        rows = [{"id": lg["id"], "name": lg["name"], "status": lg["status"], "opened": lg["opened"],
                 "reported": lg["reported"]} for lg in league_rows.leagues(app.store)]
        if as_json:
            return json.dumps(rows, indent=2, ensure_ascii=False)
        return "\n".join(f"{r['id']:<20} {r['status']:<9} rounds open {r['opened']}, reported {r['reported']}  "
                         f"{r['name']}" for r in rows)
    if target is None:  # `pbem league` asks for it before it gets here
        raise LeagueRefused(f"league {action} needs {'a league file' if action == 'create' else 'a league id'}")
    if action == "create":
        try:
            text = Path(target).read_text(encoding="utf-8")
        except OSError as e:
            raise LeagueRefused(f"cannot read {target}: {e.strerror}") from None
        try:
            return season.create(text)
        except LeagueError as e:
            raise LeagueRefused(problems_text(target, e.problems)) from None
    if league_rows.league(app.store, target) is None:
        known = ", ".join(lg["id"] for lg in league_rows.leagues(app.store)) or "none yet"
        raise LeagueRefused(f"there is no league {quoted(target)} (leagues: {known})")
    moment = now()
    data = season.show(target, moment)
    if action == "show":
        return json.dumps(data, indent=2, ensure_ascii=False) if as_json else _show_text(season, target, data)
    if html:
        Path(html).write_text(_page(season, target, data, moment), encoding="utf-8")
    if as_json:
        return json.dumps(data["standings"], indent=2, ensure_ascii=False)
    return "" if html else _standings_text(season, target, data)


def problems_text(path: str, problems: list[str]) -> str:
    """Every problem of a league file, one a line, each naming its key; the last line says
    nothing was made (and so never ends in a quoted value)."""
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return "\n".join([f"{path}: {count}, one a line:", *problems,
                      "No league was created; correct the file and run league create again."])


def _show_text(season: Season, league_id: str, data: dict) -> str:
    lines = [f"League {data['id']}: {data['name']} ({data['game']}), {data['status']}"]
    for r in data["rounds"]:
        lines.append(f"Round {r['round']} ({_round_state(r)})")
        for g in r["games"]:
            lines.append(f"  {g['id']:<24} {g['status']:<9} {', '.join(g['players'])}"
                         + (f"  {g['result']}" if g["result"] else ""))
        if r["byes"]:
            lines.append(f"  bye: {', '.join(r['byes'])}")
    return "\n".join(lines) + "\n\n" + _table_text(season, league_id, data["standings"])


def _round_state(r: dict) -> str:
    """A round as its state stands: to open, open since, or over (it opened then)."""
    when = datetime.strptime(r["opens"], "%Y-%m-%dT%H:%M:%SZ").strftime("%Y-%m-%d %H:%M UTC")
    if r["status"] == "waiting":
        return f"waiting, opens {when}"
    if r["status"] == "open":
        return f"open since {when}"
    return f"closed, every game over; it opened {when}"


def _standings_text(season: Season, league_id: str, data: dict) -> str:
    return f"{data['name']} ({league_id})\n\n" + _table_text(season, league_id, data["standings"])


def _table_text(season: Season, league_id: str, rows: list[dict]) -> str:
    """The standings as the mail shows them: the columns of the league's game."""
    table = environment().get_template("league/_table.txt").module.table(rows, columns(season.plan(league_id)))
    return "\n".join(line.rstrip() for line in str(table).splitlines())


def _page(season: Season, league_id: str, data: dict, moment) -> str:
    plan = season.plan(league_id)
    records = season.records(league_id)
    replaced, withdrawn = season.changes(league_id)
    grid = results_grid(plan, records, now=moment, replacements=replaced, withdrawals=withdrawn)
    current = []
    open_rounds = [r for r in data["rounds"] if r["status"] == "open"]
    for r in open_rounds[-1:]:
        for g in r["games"]:
            row = season.store.game(g["id"])
            current.append({"id": g["id"], "players": [s.name for s in season.store.seats(g["id"])],
                            "status": g["status"],
                            "deadline": row.deadline.strftime("%Y-%m-%d %H:%M UTC") if row and row.deadline else None})
    return standings_page(data, data["standings"], grid.to_dict(), current, moment.strftime("%Y-%m-%d %H:%M UTC"))
