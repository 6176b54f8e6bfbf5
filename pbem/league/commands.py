"""`pbem league ...`: the league commands of the command line, over a `Season`."""
from __future__ import annotations

import json
from pathlib import Path

from ..clock import now
from .plan import LeagueError
from .season import Season


def league_command(app, action: str, target: str | None, *, as_json: bool = False, html: str | None = None) -> str:
    season = Season(app.gm)
    if action == "create":
        try:
            text = Path(target).read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"cannot read {target}: {e.strerror}") from None
        try:
            return season.create(text)
        except LeagueError as e:
            raise ValueError("; ".join(e.problems)) from None
    if action == "list":
        rows = [{"id": lg["id"], "name": lg["name"], "status": lg["status"], "opened": lg["opened"],
                 "reported": lg["reported"]} for lg in app.store.leagues()]
        if as_json:
            return json.dumps(rows, indent=2, ensure_ascii=False)
        return "\n".join(f"{r['id']:<20} {r['status']:<9} rounds open {r['opened']}, reported {r['reported']}  "
                         f"{r['name']}" for r in rows)
    if app.store.league(target) is None:
        known = ", ".join(lg["id"] for lg in app.store.leagues()) or "none yet"
        raise ValueError(f"there is no league {target!r} (leagues: {known})")
    moment = now()
    data = season.show(target, moment)
    if action == "show":
        return json.dumps(data, indent=2, ensure_ascii=False) if as_json else _show_text(data)
    if html:
        Path(html).write_text(_page(season, target, data, moment), encoding="utf-8")
    if as_json:
        return json.dumps(data["standings"], indent=2, ensure_ascii=False)
    return "" if html else _standings_text(season, target, data)


def _show_text(data: dict) -> str:
    lines = [f"League {data['id']}: {data['name']} ({data['game']}), {data['status']}"]
    for r in data["rounds"]:
        lines.append(f"Round {r['round']} ({r['status']}, opens {r['opens']})")
        for g in r["games"]:
            lines.append(f"  {g['id']:<24} {g['status']:<9} {', '.join(g['players'])}"
                         + (f"  {g['result']}" if g["result"] else ""))
        if r["byes"]:
            lines.append(f"  bye: {', '.join(r['byes'])}")
    return "\n".join(lines) + "\n\n" + _rows_text(data["standings"])


def _rows_text(rows: list[dict]) -> str:
    out = []
    for r in rows:
        out.append(f"{r['rank']:>3}  {r['name']:<24} played {r['played']:>2}  won {r['won']:>2}  halved "
                   f"{r['halved']:>2}  lost {r['lost']:>2}  points {r['points']:>4g}  holes {r['holes_diff']:>+3d}  "
                   f"total {r['total']:>4}  on time {r['on_time']:.0%}" + (f"  ({r['note']})" if r.get("note") else ""))
    return "\n".join(out)


def _standings_text(season: Season, league_id: str, data: dict) -> str:
    from ..render import environment
    from .standings import columns
    table = environment().get_template("league/_table.txt").module.table(data["standings"],
                                                                         columns(season.plan(league_id)))
    return f"{data['name']} ({league_id})\n\n" + "\n".join(line.rstrip() for line in str(table).splitlines())


def _page(season: Season, league_id: str, data: dict, moment) -> str:
    from .page import standings_page
    from .grid import results_grid
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
