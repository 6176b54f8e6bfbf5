"""A league player away for some days (`SET ABSENCE <first> TO <last>`): the deadlines of their
league games that fall inside the absence move to its end, as do the deadlines set while it
lasts, up to the league's `absence_days` a season. Kept as league events, like every change."""
from __future__ import annotations

import re
from datetime import datetime, time, timedelta, timezone

from ..games.errors import IllegalOrder

_LEAGUE_GAME = re.compile(r"^(.+)-r[0-9]+-[0-9]+$")
RULE = "an absence is for the games of a league, within the league's absence days"


def league_of(store, game_id: str) -> str | None:
    found = _LEAGUE_GAME.match(game_id)
    if found and store.league(found.group(1)):
        return found.group(1)
    return None


def _span(first, last) -> tuple[datetime, datetime]:
    start = datetime.combine(first, time(0), tzinfo=timezone.utc)
    return start, datetime.combine(last, time(0), tzinfo=timezone.utc) + timedelta(days=1)


def absences(store, league_id: str, address: str | None = None) -> list[tuple[str, datetime, datetime]]:
    """(address, start, end) of every absence of the league (of one address)."""
    from datetime import date
    out = []
    for ev in store.league_events(league_id):
        if ev["kind"] == "absence" and (address is None or ev["address"] == address):
            out.append((ev["address"], *_span(date.fromisoformat(ev["first"]), date.fromisoformat(ev["last"]))))
    return out


def days_left(store, league_id: str, address: str) -> int:
    from .season import Season  # noqa: F401  (the plan is read the same way)
    from .plan import read_plan
    league = store.league(league_id)
    plan = read_plan(dict(league["plan"], id=league_id))
    used = sum((end - start).days for _, start, end in absences(store, league_id, address))
    return plan.absence_days - used


def check(store, game_id: str, address: str, command, now: datetime, line: tuple[int, str]):
    """The error for an absence that cannot be taken (None: it can)."""
    lineno, text = line
    league_id = league_of(store, game_id)
    if league_id is None:
        return IllegalOrder(f"game {game_id} is in no league: an absence moves the deadlines of league games",
                            rule=RULE, line=text, lineno=lineno)
    start, end = _span(command.first, command.last)
    if end <= now:
        return IllegalOrder(f"that absence is over already (it is {now:%Y-%m-%d} now)", rule=RULE,
                            line=text, lineno=lineno,
                            hint=f"SET ABSENCE {now:%Y-%m-%d} TO {(now + timedelta(days=6)):%Y-%m-%d}")
    left = days_left(store, league_id, address)
    days = (end - start).days
    if days > left:
        hint = None
        if left > 0:
            hint = f"SET ABSENCE {command.first.isoformat()} TO {(command.first + timedelta(days=left - 1)).isoformat()}"
        return IllegalOrder(f"that is {days} days away, and you have {left} day{'s' if left != 1 else ''} of "
                            f"absence left this season", rule=RULE, line=text, lineno=lineno, hint=hint)
    return None


def take(store, postman, table, seat, command, answer=None) -> str:
    """Record the absence and move the deadlines of the player's league games inside it."""
    from ..gm import games
    league_id = league_of(store, table.id)
    store.add_league_event(league_id, postman.now, "absence", address=seat.address,
                           first=command.first.isoformat(), last=command.last.isoformat())
    start, end = _span(command.first, command.last)
    moved = []
    for row in store.league_games(league_id):
        if row.status != "active" or row.deadline is None or not start <= row.deadline < end:
            continue
        other = table if row.id == table.id else games.load(store, row.id)
        if other.seat_of(seat.address) is None:
            continue
        other.row.deadline, other.row.reminded_turn = end, None
        games.save(store, other)
        moved.append(row.id)
    left = days_left(store, league_id, seat.address)
    postman.to_seat("ack", table, seat, answer=answer, template="absence", first=command.first.isoformat(),
                    last=command.last.isoformat(), until=end.strftime("%Y-%m-%d %H:%M UTC"), moved=moved,
                    left=left, league=league_id)
    return f"absence {command.first} to {command.last}: {len(moved)} deadline(s) moved"


def later(deadline: datetime, spans: list[tuple[datetime, datetime]]) -> datetime:
    """A deadline that falls inside an absence moves to its end (and past any absence it meets there)."""
    for _ in range(len(spans) + 1):
        inside = [end for start, end in spans if start <= deadline < end]
        if not inside:
            return deadline
        deadline = max(inside)
    return deadline
