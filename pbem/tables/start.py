"""A table's start, and its end without a game.

When its last seat is taken, or at its start time (`--starts`) with at least `--min` players,
a table becomes a game, made through the GM as `pbem new-game` makes one (`open_game`: the usual
welcomes), on the table's own course, options and deadline. At the start time with fewer
players, `--fill` says what happens: `robots` gives the empty seats to robots, `wait` keeps the
table open until `--min` have sat down, `cancel` closes it. Whoever sat down hears of each.
"""
from __future__ import annotations

import logging
from datetime import datetime

from pbem.games.course import Course
from pbem.games.rng import new_seed
from pbem.gm import open_game
from pbem.gm.robot_seats import read_spec
from pbem.mail.clean import clean
from pbem.tables import book, letters
from pbem.tables.book import OpenTable, TableStatus

log = logging.getLogger("pbem")

# Why a table closed, in the words its mail uses.
BY_THE_GM = "gm"
TOO_FEW = "too few"


def course_of(t: OpenTable) -> Course:
    """The course the table was opened on (kept whole, so the table needs no file to start)."""
    c = t.course
    return Course(c["name"], tuple(c["pars"]), c.get("description") or "", extras=c.get("extras") or {})


def game_id_for(store, t: OpenTable) -> str:
    """The game's id: the table's own, or `<table id>-<n>` if a game has taken it meanwhile."""
    if not store.game_exists(t.id):
        return t.id
    base, n = t.id[:36], 2
    while store.game_exists(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def ready(store, t: OpenTable, now: datetime) -> bool:
    """Whether the table starts now, as the seats stand: every seat taken, or its start time
    past with at least `--min` players (a `wait` table that has reached its minimum)."""
    taken = len(book.seats(store, t.id))
    return taken >= t.seats or (t.starts is not None and t.starts <= now and taken >= t.min)


def start(postman, t: OpenTable, robots: int = 0, told: str | None = None) -> str:
    """The game, made now from the seats taken (and `robots` more seats, each a robot): all of
    it or nothing. Every player gets the game's welcome, then a word that the table has started
    (but `told`, the one whose answer says so)."""
    store = postman.store
    seated = book.seats(store, t.id)
    robot = read_spec("robot")
    assert robot is not None  # the SPEC `robot` is a robot's by definition
    players = [(s.name, s.address) for s in seated] + [robot] * robots
    game_id = game_id_for(store, t)
    with postman.savepoint():
        open_game(postman, t.type, players, course_of(t), options=dict(t.options), seed=new_seed(),
                  game_id=game_id, deadline=t.deadline)
        book.set_status(store, t.id, TableStatus.STARTED, postman.now, game=game_id)
        about = letters.describe(store, book.known_table(store, t.id), postman.now)
        for seat in seated:
            if seat.address != told:
                letters.to_seat(postman, seat, "started", table_id=t.id, t=about, game_id=game_id,
                                secret=game_secret(store, t.id, game_id, seat.address),
                                players=[s.name for s in seated], robots=robots)
    log.info("table %s: started as game %s with %d player(s)%s", t.id, game_id, len(seated),
             f" and {robots} robot(s)" if robots else "")
    return game_id


def game_secret(store, table_id: str, game_id: str, address: str) -> str | None:
    """The player's secret for the game the table became, for the Reply-To of the table's word
    that it started: a reply to that mail then reaches the game, as its subject `[<table id>]`
    names it. (A game that took another id gets none: its subject would name the wrong game.)"""
    if game_id != table_id:
        return None
    return next((s.secret for s in store.seats(game_id) if s.address == address and not s.robot), None)


def close(postman, t: OpenTable, why: str) -> list[str]:
    """The table closes without a game; everyone who sat down is told why."""
    store = postman.store
    seated = book.seats(store, t.id)
    about = letters.describe(store, t, postman.now)
    for seat in seated:
        letters.to_seat(postman, seat, "closed", table_id=t.id, t=about, why=why)
    book.set_status(store, t.id, TableStatus.CLOSED, postman.now)
    log.info("table %s: closed (%s); %d player(s) told", t.id, why, len(seated))
    return [f"table {t.id}: closed ({why})"]


def at_start_time(postman, t: OpenTable) -> list[str]:
    """What a table does when its start time has come."""
    taken = len(book.seats(postman.store, t.id))
    if taken >= t.min:
        return [f"table {t.id}: started as game {start(postman, t)}"]
    if t.fill == "robots" and taken:
        return [f"table {t.id}: started as game {start(postman, t, robots=t.seats - taken)} with robots"]
    if t.fill == "wait":
        return []
    return close(postman, t, TOO_FEW)


def tick(gm, now: datetime) -> list[str]:
    """The tables whose start time has come, each in its own transaction and barrier."""
    store = gm.store
    done: list[str] = []
    for due in book.due_tables(store, now):
        if due.fill == "wait" and len(book.seats(store, due.id)) < due.min:
            continue  # it waits for its minimum: a confirmation starts it
        try:
            with store.transaction():
                t = book.table(store, due.id)
                if t is not None and t.status == TableStatus.OPEN:
                    done += at_start_time(gm.postman(), t)
        except Exception as e:  # one table's trouble never stops the pass (the table stays open)
            log.error("table %s: start failed: %s: %s", due.id, type(e).__name__, clean(e, 300))
    return done


__all__ = ["BY_THE_GM", "TOO_FEW", "at_start_time", "close", "course_of", "game_id_for", "game_secret", "ready",
           "start", "tick"]
