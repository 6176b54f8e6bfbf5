"""`pbem calendar GAME|LEAGUE`: the deadlines of one game, or of every game of a league with the
openings of its rounds still to come. Apart from the calendars themselves, which the GM's mail
uses and which know nothing of leagues."""
from __future__ import annotations

from datetime import datetime

from pbem.calendars import calendar, openings, owed
from pbem.gm import games
from pbem.league import rows
from pbem.league.plan import read_plan
from pbem.store import GameStatus


def for_target(store, target: str, address: str | None, now: datetime, gm_address: str) -> str | None:
    """`pbem calendar GAME|LEAGUE [--player ADDRESS]`: the calendar, or None when `target`
    names neither."""
    address = address.strip().lower() if address else None
    table = games.load(store, target)
    if table is not None:
        return calendar(store, owed(table, gm_address, address), now)
    league = rows.league(store, target)
    if league is None:
        return None
    plan = read_plan(dict(league["plan"], id=target))
    entries = [] if league["status"] != "active" else openings(target, plan, gm_address, now)
    for row in rows.league_games(store, target):
        if row.status == GameStatus.ACTIVE:
            entries += owed(games.load(store, row.id), gm_address, address)
    return calendar(store, sorted(entries, key=lambda e: (e.start, e.uid)), now)


def known(store) -> list[str]:
    """The ids `pbem calendar` takes: every game's, then every league's."""
    return [row.id for row in store.games()] + [league["id"] for league in rows.leagues(store)]


__all__ = ["for_target", "known"]
