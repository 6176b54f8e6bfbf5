"""`pbem table open|list|close`: a table opened from checked input, the tables listed, a table
closed. Every mistake is a TableRefused (a ValueError) of one line (the command line exits 2 with
it).

Everything a table needs to become a game is settled when it opens (the deadline and the
missed-deadline rule from the configuration, the course itself), so that a table that fills
in the middle of a message needs nothing more.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.clock import BadTime, format_utc, parse_duration, parse_time
from pbem.errors import BadValue
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.games import game_type
from pbem.games.rng import seed_from_int
from pbem.gm.games import GAME_ID
from pbem.gm.observers import closed_option
from pbem.gm.robot_seats import allow_robots_only, check_game_type
from pbem.mail.clean import clean, quoted
from pbem.ratings.reliability import BadShare, read_share
from pbem.store import iso
from pbem.tables import book, start
from pbem.tables.book import OpenTable, TableStatus

FILLS = ("robots", "wait", "cancel")
FURTHEST = timedelta(days=366)


class TableRefused(BadValue):
    """`pbem table open|close` refused: what was given, and why, in one line."""


@dataclass
class Opening:
    """What `pbem table open` was given."""
    type: str
    seats: int | None
    min: int | None = None
    course: str | None = None
    options: dict = field(default_factory=dict)
    deadline: str | None = None
    starts: str | None = None
    fill: str | None = None
    id: str | None = None
    min_on_time: str | None = None   # a fraction (0.8) or a percentage (80%), as given


def open_table(gm, given: Opening, now: datetime) -> str:
    """The table, checked and kept; its id."""
    engine = game_type(given.type)
    seats, least = _seat_counts(engine, given)
    if given.starts is None and (given.min is not None or given.fill is not None):
        raise TableRefused(f"--{'min' if given.min is not None else 'fill'} needs --starts: a table without a "
                           "start time starts when every seat is taken")
    fill = given.fill or "wait"
    if fill not in FILLS:
        raise TableRefused(f"--fill: expected robots, wait or cancel, got {quoted(fill)}")
    if fill == "robots":
        check_game_type(engine.TYPE)
    course = load_course(given.course or DEFAULT_COURSE)
    options = _options(engine, given.options, gm.default_nmr, course, {seats, least})
    deadline = given.deadline or gm.default_deadline
    if deadline is not None:
        parse_duration(deadline)
    starts = _starts(given.starts, now) if given.starts is not None else None
    try:
        least_share = read_share(given.min_on_time) if given.min_on_time is not None else None
    except BadShare as e:
        raise TableRefused(f"--min-on-time: {e}") from None
    table_id = _table_id(gm.store, given.id)
    t = OpenTable(table_id, engine.TYPE, seats, least, {"name": course.name, "pars": list(course.pars),
                  "description": course.description, "extras": dict(course.extras)}, options, deadline, starts,
                  fill, TableStatus.OPEN, None, now)
    with gm.store.transaction():
        if book.id_taken(gm.store, table_id):  # checked again under the write lock
            raise TableRefused(f"the id {quoted(table_id)} is taken already")
        book.add_table(gm.store, t)
        if least_share is not None:
            book.set_min_on_time(gm.store, table_id, least_share)
    return table_id


def _seat_counts(engine, given: Opening) -> tuple[int, int]:
    span = str(engine.MIN_PLAYERS) if engine.MIN_PLAYERS == engine.MAX_PLAYERS else \
        f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS}"
    if given.seats is None:
        raise TableRefused(f"--seats is needed: how many players the table takes ({engine.TYPE}: {span})")
    if not engine.MIN_PLAYERS <= given.seats <= engine.MAX_PLAYERS:
        raise TableRefused(f"--seats {given.seats}: {engine.TITLE} takes {span} players")
    least = given.seats if given.min is None else given.min
    if not engine.MIN_PLAYERS <= least <= given.seats:
        raise TableRefused(f"--min {least}: at least {engine.MIN_PLAYERS} ({engine.TITLE}'s fewest players) and "
                           f"at most --seats ({given.seats})")
    return given.seats, least


def _options(engine, given: dict, default_nmr: str, course, sizes: set[int]) -> dict:
    """The game's options as checked now (the GM's own, spectators and robots_only, too): the
    rules deal a trial game of each size the table may start with (engines are pure), so that
    an option the rules refuse is refused now, not when the table fills."""
    options = dict(given)
    options.setdefault("nmr", default_nmr)
    rules = dict(options)
    closed_option(rules)
    allow_robots_only(rules, [])
    engine.check_options(rules)
    for n in sorted(sizes):
        engine.new([f"Player {i + 1}" for i in range(n)], dict(rules), seed_from_int(0), course)
    return options


def _starts(text: str, now: datetime) -> datetime:
    try:
        moment = parse_time(text)
    except BadTime:
        try:
            moment = now + parse_duration(text)
        except BadTime as e:
            if text.strip()[:1].isdigit() and not any(ch in text for ch in ":T"):  # a duration, wrongly
                raise TableRefused(f"--starts: {e}") from None
            raise TableRefused(f"--starts: expected an ISO 8601 time (UTC unless it says otherwise) or a duration "
                               f"from now like 3d, got {quoted(text, 40)}") from None
    if moment <= now:
        raise TableRefused(f"--starts {text}: that is already past (it is {format_utc(now)} now)")
    if moment > now + FURTHEST:
        raise TableRefused(f"--starts {text}: more than a year ahead")
    return moment


def _table_id(store, wanted: str | None) -> str:
    if wanted is None:
        return book.next_id(store)
    if not GAME_ID.fullmatch(wanted):
        raise TableRefused(f"--id {quoted(wanted)}: an id is letters, digits, - and _ (at most 40)")
    if book.table(store, wanted) is not None:
        raise TableRefused(f"--id {wanted}: a table with that id exists already")
    if store.game_exists(wanted):
        raise TableRefused(f"--id {wanted}: a game with that id exists already")
    return wanted


def rows(store, now: datetime) -> list[dict]:
    """Every table as `pbem table list --json` gives it (CONTRACT section 13), open ones first."""
    out = []
    for t in book.tables(store):
        joined = [{"name": s.name, "address": s.address} for s in book.seats(store, t.id)]
        out.append({"id": t.id, "type": t.type, "seats": t.seats, "joined": joined,
                    "pending": book.pending(store, t.id, now) if t.status == TableStatus.OPEN else 0,
                    "starts": iso(t.starts), "fill": t.fill, "status": t.status, "game": t.game})
    return out


def close_table(gm, table_id: str) -> str:
    """Close an open table; everyone who sat down is told."""
    t = book.table(gm.store, table_id)
    if t is None:
        known = [row.id for row in book.tables(gm.store)]
        listed = ", ".join(known[:8]) + (" ..." if len(known) > 8 else "") if known else "none yet"
        raise TableRefused(f"there is no table {quoted(table_id)} (tables: {listed})")
    if t.status == TableStatus.STARTED:
        raise TableRefused(f"table {t.id} has started already as game {t.game}: "
                           f"`pbem gm ABANDON {t.game}` ends the game")
    if t.status == TableStatus.CLOSED:
        raise TableRefused(f"table {t.id} is closed already")
    postman = gm.postman()
    with gm.store.transaction():
        told = len(book.seats(gm.store, t.id))
        start.close(postman, t, start.BY_THE_GM)
    return f"table {t.id} closed; {told} player{'s' if told != 1 else ''} told"


def rows_text(rows: list[dict]) -> str:
    """`pbem table list`: a line each, the players who joined on the line below."""
    if not rows:
        return "no tables (pbem table open TYPE --seats N opens one)"
    lines = []
    for r in rows:
        taken = len(r["joined"])
        if r["status"] == TableStatus.OPEN:
            when = f"starts {r['starts']}, fill {r['fill']}" if r["starts"] else "starts when full"
            state = f"open     {taken}/{r['seats']} seats, {r['pending']} pending, {when}"
        elif r["status"] == TableStatus.STARTED:
            state = f"started  {taken}/{r['seats']} seats, now game {r['game']}"
        else:
            state = f"closed   {taken}/{r['seats']} seats, no game"
        lines.append(f"{r['id']:<20} {r['type']:<10} {state}")
        if r["joined"]:
            lines.append("    " + ", ".join(f"{clean(j['name'], 40)} <{j['address']}>" for j in r["joined"]))
    return "\n".join(lines)


__all__ = ["FILLS", "Opening", "TableRefused", "close_table", "open_table", "rows", "rows_text"]
