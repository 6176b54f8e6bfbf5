"""A league player away for some days (`SET ABSENCE <first> TO <last>`): the deadlines of their
league games that fall inside the absence move to its end, as do the deadlines set while it
lasts, up to the league's `absence_days` a season. Kept as league events, like every change.

The days are counted over every line of a message together (CONTRACT section 10), and a day
asked for twice counts once: ninety-nine ranges back to back are ninety-nine times the days, not
ninety-nine fresh allowances. A message is taken or refused whole, and answered once."""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, UTC

from pbem.clock.schedule import UnknownZone, format_deadline, zone
from pbem.games.errors import IllegalOrder
from pbem.gm import games
from pbem.mail.kinds import MailKind
from pbem.league import rows as league_rows
from pbem.league.plan import read_plan

_LEAGUE_GAME = re.compile(r"^(.+)-r[0-9]+-[0-9]+$")
# As for a GM's deadline: an absence that starts further off is a typing mistake, and the bound
# keeps every date pbem works out from one far inside the calendar.
FURTHEST = timedelta(days=366)
EXAMPLE_DAYS = 7
Span = tuple[date, date]


def rule(allowance: int | None) -> str:
    if allowance is None:
        return "an absence is for the games of a league in play"
    return (f"an absence is for the games of a league in play, at most {allowance} "
            f"day{'s' if allowance != 1 else ''} a season, counted over every line of a message")


def league_of(store, game_id: str) -> str | None:
    found = _LEAGUE_GAME.match(game_id)
    if found and league_rows.league(store, found.group(1)):
        return found.group(1)
    return None


def _span(first: date, last: date, zone_name: str | None = None) -> tuple[datetime, datetime]:
    """From the first day's midnight to the end of the last day, in the player's time zone
    (UTC when they have none), as UTC moments."""
    where = _zone_or_utc(zone_name)
    start = datetime.combine(first, time(0), tzinfo=where).astimezone(UTC)
    return start, datetime.combine(last + timedelta(days=1), time(0), tzinfo=where).astimezone(UTC)


def _zone_or_utc(zone_name: str | None):
    try:
        return zone(zone_name) if zone_name else UTC
    except UnknownZone:  # a zone the tz database no longer has: the day as UTC has it
        return UTC


def _taken(store, league_id: str, address: str | None = None) -> list[tuple[str, date, date, str | None]]:
    return [(ev["address"], date.fromisoformat(ev["first"]), date.fromisoformat(ev["last"]), ev.get("zone"))
            for ev in league_rows.league_events(store, league_id)
            if ev["kind"] == "absence" and (address is None or ev["address"] == address)]


def absences(store, league_id: str, address: str | None = None) -> list[tuple[str, datetime, datetime]]:
    """(address, start, end) of every absence of the league (of one address)."""
    return [(who, *_span(first, last, where)) for who, first, last, where in _taken(store, league_id, address)]


def player_zone(store, league_id: str, address: str, table=None) -> str | None:
    """The time zone a player's absence days are counted in: the one the player set in the game
    the absence was sent from (SET TIMEZONE, or the league file's, which the game took), else
    the league file's own for that address."""
    seat = table.seat_of(address) if table is not None else None
    if seat is not None and seat.timezone:
        return seat.timezone
    player = read_plan(dict(league_rows.known_league(store, league_id)["plan"], id=league_id)).player(address)
    return player.timezone if player is not None else None


def days_of(spans: list[Span]) -> int:
    """The days the spans cover, a day inside two of them counted once."""
    total, reach = 0, None
    for first, last in sorted(spans):
        if reach is not None and first <= reach:
            total += max((last - reach).days, 0)
            reach = max(reach, last)
        else:
            total += (last - first).days + 1
            reach = last
    return total


def _allowance(store, league_id: str) -> int:
    return read_plan(dict(league_rows.known_league(store, league_id)["plan"], id=league_id)).absence_days


def days_left(store, league_id: str, address: str) -> int:
    spans = [(first, last) for _, first, last, _ in _taken(store, league_id, address)]
    return _allowance(store, league_id) - days_of(spans)


def check(store, game_id: str, address: str, command, now: datetime, line: tuple[int, str]):
    """The error for one absence line that cannot be taken (None: it can)."""
    wrong = check_all(store, game_id, address, [(command, line)], now)
    return wrong[0] if wrong else None


def check_all(store, game_id: str, address: str, lines: list, now: datetime) -> list[IllegalOrder]:
    """The errors of a message's absence lines, `(command, (lineno, text))` in the message's
    order, counted together: the first line past the season's days is refused, and what the
    lines after it ask for is said there rather than line by line."""
    if not lines:
        return []
    league_id = league_of(store, game_id)
    if league_id is None:
        return [_refused(lines[0], f"game {game_id} is in no league: an absence moves the deadlines of "
                                   f"league games{_others(lines)}", rule(None), None)]
    return check_league(store, league_id, address, lines, now)


def _others(lines: list) -> str:
    return f" (nor can the other {len(lines) - 1} SET ABSENCE lines)" if len(lines) > 1 else ""


def check_league(store, league_id: str, address: str, lines: list, now: datetime) -> list[IllegalOrder]:
    """`check_all` for a league named by its own mail (a reply to its welcome): the same count."""
    others = _others(lines)
    league, allowance = league_rows.known_league(store, league_id), _allowance(store, league_id)
    if league["status"] != "active":
        return [_refused(lines[0], f"league {league_id} is {league['status']}: there is no deadline of it "
                                   f"left to move{others}", rule(allowance), None)]
    taken = [(first, last) for _, first, last, _ in _taken(store, league_id, address)]
    errors, above = [], 0
    for i, (command, line) in enumerate(lines):
        left = allowance - days_of(taken)
        wrong = _dates(command, line, now, left, allowance)
        if wrong:
            errors.append(wrong)
            continue
        if days_of(taken + [(command.first, command.last)]) > allowance:
            errors.append(_too_many(command, line, now, taken, above, lines[i + 1:], allowance))
            break
        taken.append((command.first, command.last))
        above += 1
    return errors


def _refused(line: tuple[int, str], message: str, why: str, hint: str | None) -> IllegalOrder:
    lineno, text = line
    return IllegalOrder(message, rule=why, line=text, lineno=lineno, hint=hint)


def example(now: datetime, left: int) -> str | None:
    """A line that would be taken now: from today, a week or what is left of the days."""
    if left <= 0:
        return None
    today = now.date()
    return f"SET ABSENCE {today.isoformat()} TO {(today + timedelta(days=min(EXAMPLE_DAYS, left) - 1)).isoformat()}"


def _dates(command, line, now: datetime, left: int, allowance: int) -> IllegalOrder | None:
    """Dates that no deadline can be moved by: an absence over already, or one too far ahead."""
    today = now.date()
    if command.last < today:
        return _refused(line, f"that absence is over already (it is {today.isoformat()} now)", rule(allowance),
                        example(now, left))
    if command.first > today + FURTHEST:
        return _refused(line, f"an absence may start a year ahead at most (by "
                              f"{(today + FURTHEST).isoformat()})", rule(allowance), example(now, left))
    return None


def _too_many(command, line, now: datetime, taken: list[Span], above: int, after: list,
              allowance: int) -> IllegalOrder:
    left = allowance - days_of(taken)
    days = days_of(taken + [(command.first, command.last)]) - days_of(taken)
    whole = (command.last - command.first).days + 1
    counted = "" if days == whole else f" ({days:,} of them not counted yet)"
    since = f"after the line{'s' if above != 1 else ''} above it " if above else ""
    message = (f"that is {whole:,} day{'s' if whole != 1 else ''} away{counted}, and {since}you have {left} "
               f"day{'s' if left != 1 else ''} of absence left this season")
    if after:
        asked = days_of(taken + [(command.first, command.last)] + [(c.first, c.last) for c, _ in after])
        message += (f"; this line and the {len(after)} more after it ask for {asked - days_of(taken):,} "
                    f"days")
    first = max(command.first, now.date())
    hint = f"SET ABSENCE {first.isoformat()} TO {(first + timedelta(days=left - 1)).isoformat()}" if left > 0 else None
    return _refused(line, message, rule(allowance), hint)


def take(store, postman, table, seat, commands, answer=None) -> str:
    """Record the absences of one message (checked by `check_all`) and move the deadlines of the
    player's league games inside them; one acknowledgement for them all."""
    commands = list(commands) if isinstance(commands, (list, tuple)) else [commands]
    league_id = league_of(store, table.id)
    assert league_id is not None  # check_all refused the absences of a game in no league
    answered = record(store, postman.now, league_id, seat.address, commands, table, postman)
    postman.to_seat(MailKind.ACK, table, seat, answer=answer, template="absence", **answered)
    return said(commands, answered)


def record(store, now: datetime, league_id: str, address: str, commands: list, table=None, postman=None) -> dict:
    """Record the absences of one message (checked) and move the deadlines of the address's
    league games inside them (`table`: a game already loaded, saved with the rest); the other
    players of each game moved get a notice with the new deadline (by `postman`); what the
    acknowledgement says."""
    where = player_zone(store, league_id, address, table)
    for command in commands:
        league_rows.add_league_event(store, league_id, now, "absence", address=address,
                                     first=command.first.isoformat(), last=command.last.isoformat(), zone=where)
    spans = [_span(c.first, c.last, where) for c in commands]
    moved = []
    for row in league_rows.league_games(store, league_id):
        if row.status != "active" or row.deadline is None:
            continue
        until = later(row.deadline, spans)
        if until == row.deadline:
            continue
        other = table if table is not None and row.id == table.id else games.load(store, row.id)
        assert other is not None  # league_games lists the games the store keeps
        if other.seat_of(address) is None:
            continue
        other.row.deadline, other.row.reminded_turn = until, None
        games.save(store, other)
        moved.append(row.id)
        absent = other.seat_of(address)
        if postman is not None and absent is not None:
            for seat in other.seats:
                if seat is not absent:
                    postman.to_seat(MailKind.NOTICE, other, seat, template="absence_moved", absent=absent.name)
    away = [{"first": c.first.isoformat(), "last": c.last.isoformat(),
             "until": format_deadline(end, where)} for c, (_, end) in zip(commands, spans)]
    return {"spans": away, "moved": moved, "left": days_left(store, league_id, address), "league": league_id}


def said(commands: list, answered: dict) -> str:
    """The pass's note of absences taken."""
    return f"absence {', '.join(f'{c.first} to {c.last}' for c in commands)}: {len(answered['moved'])} " \
           "deadline(s) moved"


def later(deadline: datetime, spans: list[tuple[datetime, datetime]]) -> datetime:
    """A deadline that falls inside an absence moves to its end (and past any absence it meets there)."""
    for _ in range(len(spans) + 1):
        inside = [end for start, end in spans if start <= deadline < end]
        if not inside:
            return deadline
        deadline = max(inside)
    return deadline


# The GM settles every deadline it sets by this rule (registered from above, in `app`), so that
# the mail stating a deadline states the moved one.
DEADLINE_WHY = "it falls inside a player's absence (SET ABSENCE), which moves it to the absence's end"


def keep_away(store, game_id: str, addresses: frozenset, deadline: datetime) -> datetime:
    """A deadline of a league game inside a seated player's absence moves to the absence's end."""
    league_id = league_of(store, game_id)
    if league_id is None:
        return deadline
    return later(deadline, [(start, end) for a, start, end in absences(store, league_id) if a in addresses])
