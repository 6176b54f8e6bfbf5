"""`pbem players`: one row per address that has had a seat here (robots are no one's address):
the name it last played under, its games finished and running, and how reliable it has been
over the last 365 days (`reliability`).

Absences left this year: the days of `absence.days_per_year` the address has not used in the
calendar year of `now`, in its own time zone (CONTRACT section 14, `pbem.absences`).
"""
from __future__ import annotations

from datetime import datetime

from pbem.absences.allowance import DEFAULT_DAYS_PER_YEAR, Allowance, today, zone_of
from pbem.ratings.reliability import figures, percent, reliability
from pbem.store import GameStatus, Store

_SEATS = ("SELECT s.address, s.name, g.status FROM seats s JOIN games g ON g.id = s.game_id "
          "WHERE s.robot IS NULL ORDER BY g.created, g.id")


def players(store: Store, now: datetime, days_per_year: int = DEFAULT_DAYS_PER_YEAR) -> list[dict]:
    """The rows of `pbem players --json`, by name then address."""
    rows: dict[str, dict] = {}
    for address, name, status in store.conn.execute(_SEATS):
        address = address.lower()
        row = rows.setdefault(address, {"name": name, "address": address, "played": 0, "running": 0})
        row["name"] = name  # the latest game's name for the address
        if status == GameStatus.FINISHED:
            row["played"] += 1
        elif status == GameStatus.ACTIVE:
            row["running"] += 1
    kept = reliability(store, now)
    out = [row | figures(kept.get(address)) | {"absences_left": _left(store, address, now, days_per_year)}
           for address, row in rows.items()]
    return sorted(out, key=lambda r: (r["name"].casefold(), r["address"]))


def players_text(rows: list[dict]) -> str:
    """The rows as an aligned table in 78 columns."""
    if not rows:
        return "Nobody has played here yet.\n"
    head = f"{'Name':<18} {'Address':<24} {'Played':>6} {'Running':>7} {'On time':>7} {'Owed':>4} {'Away':>5}"
    out = [head, "-" * len(head)]
    for r in rows:
        on_time = percent(r["on_time"]) if r["on_time"] is not None else "-"
        away = str(r["absences_left"]) if r["absences_left"] is not None else "-"
        out.append(f"{_short(r['name'], 18):<18} {_short(r['address'], 24):<24} {r['played']:>6} "
                   f"{r['running']:>7} {on_time:>7} {r['owed']:>4} {away:>5}")
    out += ["", "Played: games finished. Running: games on now. On time: the share of the",
            "deadlines of the last 365 days met (of Owed). Away: absence days left this",
            "year."]
    return "\n".join(out) + "\n"


def _left(store: Store, address: str, now: datetime, days_per_year: int) -> int:
    return Allowance(store, address, days_per_year).left_in(today(now, zone_of(store, address)).year)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "."


__all__ = ["players", "players_text"]
