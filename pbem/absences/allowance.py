"""How many days of absence an address has used and has left, and the check of a message's
absence lines against them.

A day is a date in the player's time zone; a day asked for twice (or inside two absences, or
taken by AUTOABSENCE inside an absence) counts once. The allowance is per address and calendar
year (`absence.days_per_year`): an absence over New Year counts its days in each year. A league
(`absence_days` in its file) caps the days that fall inside its own season as well, for every
address that plays in it. Every line of a message counts with the lines above it, and the first
line past a limit is refused with what the lines after it ask for (CONTRACT sections 10, 14)."""
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple

from pbem.clock.schedule import UnknownZone, zone
from pbem.games.errors import IllegalOrder
from pbem.league import rows as league_rows
from pbem.league.plan import read_plan
from pbem.orders.commands import SetAbsence
from pbem.store import GameStatus
from pbem.absences import rows

DAY = timedelta(days=1)
# As for a GM's deadline: an absence that starts further off is a typing mistake, and the bound
# keeps every date pbem works out from one far inside the calendar.
FURTHEST = timedelta(days=366)
EXAMPLE_DAYS = 7
DEFAULT_DAYS_PER_YEAR = 30


class Cap(NamedTuple):
    """A league's season limit on an address's days away: the days of the absences asked for
    since the league was made (`since`, ISO) count, as they always did for a league."""
    league: str
    allowance: int
    since: str


def where(zone_name: str | None):
    try:
        return zone(zone_name) if zone_name else UTC
    except UnknownZone:  # a zone the tz database no longer has: the day as UTC has it
        return UTC


def today(now: datetime, zone_name: str | None) -> date:
    return now.astimezone(where(zone_name)).date()


def moments(span: rows.Span) -> tuple[datetime, datetime]:
    """From the first day's midnight to the end of the last day in the span's zone (or when SET
    ABSENCE OFF ended it, if sooner), as UTC moments."""
    tz = where(span.zone)
    start = datetime.combine(span.first, time(0), tzinfo=tz).astimezone(UTC)
    end = datetime.combine(span.last + DAY, time(0), tzinfo=tz).astimezone(UTC)
    if span.ended:
        end = min(end, datetime.fromisoformat(span.ended).astimezone(UTC))
    return start, end


def days(first: date, last: date) -> set[date]:
    return {first + timedelta(days=i) for i in range((last - first).days + 1)}


def taken(spans: list[rows.Span]) -> set[date]:
    out: set[date] = set()
    for span in spans:
        out |= days(span.first, span.last)
    return out


def zone_of(store, address: str, table=None) -> str | None:
    """The zone an address's days are counted in: the one its seat in this game has (SET
    TIMEZONE, or the league file's), else the one of its latest game that has one, else its
    league's, else none (UTC)."""
    seat = table.seat_of(address) if table is not None else None
    if seat is not None and seat.timezone:
        return seat.timezone
    zones = [s.timezone for s in store.seats_of(address) if s.timezone]
    if zones:
        return zones[-1]
    for league in league_rows.leagues(store):
        player = _plan(league).player(address)
        if player is not None and player.timezone:
            return player.timezone
    return None


def _plan(league: league_rows.League):
    return read_plan(dict(league["plan"], id=league["id"]))


def caps(store, address: str) -> list[Cap]:
    """The seasons of the leagues in play that `address` plays in (a row of the league's file, or
    a seat in one of its games), each with its `absence_days`."""
    address = address.lower()
    out = []
    for league in league_rows.leagues(store, "active"):
        plan = _plan(league)
        plays = plan.player(address) is not None or any(
            s.address == address for g in league_rows.league_games(store, league["id"]) for s in store.seats(g.id))
        if plays:
            out.append(Cap(league["id"], plan.absence_days, league["created"]))
    return out


def active_games(store, address: str) -> list[str]:
    """The ids of the games in play that `address` has a seat in, oldest first."""
    seen = dict.fromkeys(s.game_id for s in store.seats_of(address))
    return [g for g in seen if (row := store.game(g)) is not None and row.status == GameStatus.ACTIVE]


class Allowance:
    """What one address has used and has left, counted as the module's text says."""

    def __init__(self, store, address: str, per_year: int):
        self.per_year = per_year
        self._store, self._address = store, address
        self._mine = rows.spans(store, [address])
        self.used = taken(self._mine)
        self._caps: list[Cap] | None = None
        self._season: dict[str, set[date]] = {}

    @property
    def caps(self) -> list[Cap]:
        """The leagues' seasons, looked up only when asked (the year's count needs none)."""
        if self._caps is None:
            self._caps = caps(self._store, self._address)
            self._season = {cap.league: taken([s for s in self._mine if s.at >= cap.since]) for cap in self._caps}
        return self._caps

    def left_in(self, year: int, more: set[date] | None = None) -> int:
        return self.per_year - sum(1 for d in self.used | (more or set()) if d.year == year)

    def left_in_season(self, cap: Cap, more: set[date] | None = None) -> int:
        return cap.allowance - len(self._season[cap.league] | (more or set()))  # `cap` is one of `caps`

    def short(self, more: set[date]) -> tuple[str, int] | None:
        """The first limit that `more` days would pass, as (where, days left there before them),
        or None when they fit."""
        for year in sorted({d.year for d in more}):
            if self.left_in(year, more) < 0:
                return f"in {year}", self.left_in(year)
        for cap in self.caps:
            if self.left_in_season(cap, more) < 0:
                return f"this season (league {cap.league})", self.left_in_season(cap)
        return None

    def seasons(self) -> list[dict]:
        return [{"league": cap.league, "left": self.left_in_season(cap)} for cap in self.caps]


def rule(per_year: int, cap: Cap | None = None) -> str:
    if cap is not None:
        return (f"league {cap.league} allows at most {cap.allowance} day{'s' if cap.allowance != 1 else ''} of "
                f"absence a season, counted over every line of a message")
    return (f"an absence moves the deadlines of every game you play, at most {per_year} "
            f"day{'s' if per_year != 1 else ''} a calendar year in your time zone, counted over every line of "
            f"a message (a day asked for twice counts once)")


def _refused(line: tuple[int, str], message: str, why: str, hint: str | None) -> IllegalOrder:
    lineno, text = line
    return IllegalOrder(message, rule=why, line=text, lineno=lineno, hint=hint)


def example(first: date, left: int) -> str | None:
    """A line that would be taken: from `first`, a week or what is left of the days."""
    if left <= 0:
        return None
    return f"SET ABSENCE {first.isoformat()} TO {(first + timedelta(days=min(EXAMPLE_DAYS, left) - 1)).isoformat()}"


def check(store, address: str, lines: list, now: datetime, zone_name: str | None, per_year: int) -> list[IllegalOrder]:
    """The errors of a message's absence lines, `(command, (lineno, text))` in the message's
    order (SET ABSENCE OFF and SET AUTOABSENCE are always taken)."""
    asked = [(c, line) for c, line in lines if isinstance(c, SetAbsence)]
    if not asked:
        return []
    allowance = Allowance(store, address, per_year)
    day = today(now, zone_name)
    errors: list[IllegalOrder] = []
    more: set[date] = set()
    above = 0
    for i, (command, line) in enumerate(asked):
        hint = example(day, allowance.left_in(day.year, more))
        if command.last < day:
            errors.append(_refused(line, f"that absence is over already (it is {day.isoformat()} where you are)",
                                   rule(per_year), hint))
            continue
        if command.first > day + FURTHEST:
            errors.append(_refused(line, f"an absence may start a year ahead at most (by "
                                         f"{(day + FURTHEST).isoformat()})", rule(per_year), hint))
            continue
        if command.last > command.first + FURTHEST:  # longer than any year's days: not counted day by day
            whole = (command.last - command.first).days + 1
            errors.append(_refused(line, f"that is {whole:,} days away, more than a year, and you have "
                                         f"{allowance.left_in(day.year, more)} days of absence left in {day.year}",
                                   rule(per_year), hint))
            break
        wanted = days(command.first, command.last)
        short = allowance.short(more | wanted)
        if short is not None:
            errors.append(_too_many(allowance, command, line, day, more, above, asked[i + 1:], short))
            break
        more |= wanted
        above += 1
    return errors


def _too_many(allowance: Allowance, command: SetAbsence, line, day: date, more: set[date], above: int, after: list,
              short: tuple[str, int]) -> IllegalOrder:
    place, _ = short
    cap = next((c for c in allowance.caps if place.endswith(f"(league {c.league})")), None)
    year = None if cap is not None else int(place.split()[-1])
    left = allowance.left_in_season(cap, more) if cap is not None else allowance.left_in(year or day.year, more)
    wanted = days(command.first, command.last)
    new = len(wanted - more - allowance.used)
    whole = len(wanted)
    counted = "" if new == whole else f" ({new:,} of them not counted yet)"
    in_year = sum(1 for d in wanted if d.year == year) if year is not None else whole
    if in_year != whole and not counted:
        counted = f" ({in_year:,} of them in {year})"
    since = f"after the line{'s' if above != 1 else ''} above it " if above else ""
    message = (f"that is {whole:,} day{'s' if whole != 1 else ''} away{counted}, and {since}you have {left} "
               f"day{'s' if left != 1 else ''} of absence left {place}")
    if after:
        later = set(wanted)
        for c, _ in after:
            later |= days(c.first, c.last)
        message += (f"; this line and the {len(after)} more after it ask for {len(later - more - allowance.used):,} "
                    f"days")
    first = max(command.first, day)
    hint = f"SET ABSENCE {first.isoformat()} TO {(first + timedelta(days=left - 1)).isoformat()}" if left > 0 else None
    return _refused(line, message, rule(allowance.per_year, cap), hint)


def later(deadline: datetime, spans: list[tuple[datetime, datetime]]) -> datetime:
    """A deadline that falls inside an absence moves to its end (and past any absence it meets there)."""
    for _ in range(len(spans) + 1):
        inside = [end for start, end in spans if start <= deadline < end]
        if not inside:
            return deadline
        deadline = max(inside)
    return deadline


__all__ = ["Allowance", "Cap", "DAY", "DEFAULT_DAYS_PER_YEAR", "active_games", "caps", "check", "days", "example",
           "later", "moments", "rule", "taken", "today", "where", "zone_of"]
