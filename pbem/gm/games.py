"""A game as the GM holds it: the stored row, its seats, and the live engine state."""
from __future__ import annotations

import dataclasses
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from pbem.clock import parse_duration
from pbem.games import GameState, game_type, rng
from pbem.games.course import Course
from pbem.games.errors import GameRefused
from pbem.store import GameRow, LogEvent, Seat, Store
from pbem.gm import deadlines, robot_seats, takeover
from pbem.mail.clean import NAME_CHARS, clean, quoted


def rename(state: GameState, seat: int, name: str) -> None:
    """The engine names the seat's new player from now on (a replacement)."""
    state.names[seat] = name


def chance_record(state: GameState) -> list:
    """Every deal and roll of the game so far, as the engine records them."""
    return state.chance_record()


@dataclass
class Table:
    """One game, loaded: what the GM works on inside a transaction."""
    row: GameRow
    seats: list[Seat]
    state: GameState
    # The store the game came from: the rules that may move a deadline read it (`deadlines`).
    store: Store | None = field(default=None, repr=False, compare=False)
    # The players' seats that pbem's robot plays for them in this pass (a takeover, CONTRACT
    # section 14): such a seat owes its player nothing, so its mail may wait for a digest.
    robot_plays: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    # Whether a robot ever took a seat of this game over (None: not looked up yet). Most games
    # never see one: known once, their messages ask the log no more about it.
    ever_taken: bool | None = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def type(self) -> str:
        return self.row.type

    def seat_of(self, address: str) -> Seat | None:
        """The player's seat of that address (a robot's seat has no address to match)."""
        return next((s for s in self.seats if s.address == address.lower() and not s.robot), None)

    def seat_with_secret(self, secret: str | None) -> Seat | None:
        if not secret:
            return None
        return next((s for s in self.seats if s.secret.lower() == secret.lower()), None)

    def press_readers(self, seat: Seat) -> list[Seat]:
        """Who reads a press from `seat`: every other player but pbem's robots, which read no
        mail (a mail offers PRESS only to a player who has someone to send it to)."""
        return [other for other in self.seats if other.seat != seat.seat and not other.robot]

    def by_name(self, command):
        """An order that names a player by address (On Par's `TRAP ... ON bob@host`), as the
        engine reads it: the seat's name, or `#<seat>` when two players share that name."""
        who = getattr(command, "player", None)
        if not isinstance(who, str) or "@" not in who:
            return command
        seat = self.seat_of(who.strip())
        if seat is None:
            return command
        same = [s for s in self.seats if s.name.casefold() == seat.name.casefold()]
        return dataclasses.replace(command, player=seat.name if len(same) == 1 else f"#{seat.seat + 1}")

    def sync(self) -> None:
        """Copy what the engine knows into the stored row."""
        result = self.state.result()
        self.row.state = self.state.to_dict()
        self.row.turn = self.state.turn
        if self.row.status == "active" and result is not None:
            self.row.status = "finished"
            self.row.deadline = None
        self.row.result = f"Result: {result.line}" if result else None

    def next_deadline(self, now: datetime) -> None:
        """A new turn's deadline, settled before any mail states it. While the GM has paused
        the game the clock is stopped: the turn has its whole time left when it resumes."""
        row, every = self.row, self.row.deadline_every
        if row.status != "active" or not every or row.options.get("nmr") == "wait":
            row.deadline = None
            row.paused_left = None
            return
        span = parse_duration(every)
        if row.paused:
            row.paused_left = int(span.total_seconds())
        row.deadline = self.settled(now + span)

    def settled(self, moment: datetime | None) -> datetime | None:
        """`moment` as the rules of the layers above move it (a player's absence)."""
        return deadlines.settle(self.store, self.id, [s.address for s in self.seats], moment)


# Ids stand in subjects ("[cup1]"), mail headers and commands: plain characters only.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def new_secret() -> str:
    # 64 bits: at a million guesses an hour a guesser would need about two million years per
    # seat, and the GM answers far fewer than that (limits.strangers_per_hour).
    return secrets.token_hex(8)


def next_game_id(store: Store, type_name: str) -> str:
    n = 1
    while store.game_exists(f"{type_name}-{n}"):
        n += 1
    return f"{type_name}-{n}"


def create(store: Store, *, type_name: str, players: list[tuple[str, str]], course: Course,
           options: dict, seed: bytes, now: datetime, game_id: str | None, deadline: str | None,
           zones: dict[str, str] | None = None) -> Table:
    engine = game_type(type_name)
    engine.check_options(options)
    if not engine.MIN_PLAYERS <= len(players) <= engine.MAX_PLAYERS:
        span = (str(engine.MIN_PLAYERS) if engine.MIN_PLAYERS == engine.MAX_PLAYERS
                else f"{engine.MIN_PLAYERS}-{engine.MAX_PLAYERS}")
        raise GameRefused(f"{engine.TITLE} takes {span} players, got {len(players)}")
    levels = [robot_seats.level_of(a) for _, a in players]
    if any(levels):
        robot_seats.check_game_type(type_name)
    addresses = [robot_seats.handle_of(a, i) if levels[i] else a.lower() for i, (_, a) in enumerate(players)]
    if len(set(addresses)) != len(addresses):
        raise GameRefused("each player needs an address of their own")
    game_id = game_id or next_game_id(store, type_name)
    if not GAME_ID.fullmatch(game_id):
        raise GameRefused(f"a game id is letters, digits, - and _ (at most 40), got {quoted(game_id)}")
    if store.game_exists(game_id):
        raise GameRefused(f"a game with id {quoted(game_id)} exists already")
    # The GM's names (--player, a league file) are cleaned as a mail's are: they reach headers,
    # reports and calendars, which take no control character.
    names = [clean(name, NAME_CHARS) or (robot_seats.robot_name(level) if level else address.split("@")[0])
             for (name, address), level in zip(players, levels)]
    names = robot_seats.told_apart(names, levels)
    # Options that name players by address (On Par's handicaps) reach the engine by seat.
    options = engine.seat_options(options, names, addresses)
    state = engine.new(names, options, seed, course)
    if deadline is not None:
        parse_duration(deadline)
    # The seed stays secret until the end; its commitment is public from the start (CONTRACT 11).
    row = GameRow(id=game_id, type=type_name, status="active", turn=state.turn, state=state.to_dict(),
                  options=dict(state.options), course=course.name,
                  seed=None,  # only an old game holds an integer: a new one keeps its bytes
                  seed_hex=seed.hex(), commitment=rng.commitment(seed),
                  created=now, deadline=None, deadline_every=deadline, result=None)
    # A robot seat's secret is empty: no mail can ever speak for it.
    # A player's time zone given with the game (a league file's `timezone:`), as SET TIMEZONE sets it.
    zones = {a.lower(): z for a, z in (zones or {}).items()}
    seats = [Seat(game_id, i, names[i], addresses[i], "" if levels[i] else new_secret(), robot=levels[i],
                  timezone=None if levels[i] else zones.get(addresses[i]))
             for i in range(len(players))]
    table = Table(row, seats, state, store)
    table.next_deadline(now)
    store.add_game(row, seats)
    store.add_event(game_id, now, LogEvent.CREATED, names=names, addresses=addresses, options=row.options,
                    commitment=row.commitment, course=course.name, pars=list(course.pars),
                    extras=dict(course.extras or {}))
    return table


def load(store: Store, game_id: str) -> Table | None:
    row = store.game(game_id)
    if row is None:
        return None
    state = game_type(row.type).from_dict(row.state)
    table = Table(row, store.seats(game_id), state, store)
    table.robot_plays = frozenset(takeover.robot_played(store, table))
    return table


def save(store: Store, table: Table) -> None:
    table.sync()
    store.save_game(table.row)


def course_of(store: Store, game_id: str) -> Course:
    """The course the game was created on (its creation event records it whole)."""
    created = store.events(game_id)[0]
    return Course(created["course"], tuple(created["pars"]), extras=created.get("extras") or {})


def seed_bytes(seed: bytes | int) -> bytes:
    """The bytes an engine is seeded with: an old game's integer N stands for
    `rng.seed_from_int(N)`, what the engines have always made of it."""
    return rng.seed_from_int(seed) if isinstance(seed, int) else bytes(seed)


def fresh(store: Store, game_id: str, created: dict | None = None) -> GameState:
    """The game as it was created, before any order (`created`: its first event, when read)."""
    created = created or store.events(game_id)[0]
    row = store.game(game_id)
    assert row is not None  # a loaded table's game (a rollback's), and no game is ever deleted
    engine = game_type(row.type)
    seed = row.seed_value if "seed" not in created else created["seed"]
    state = engine.new(created["names"], created["options"], seed_bytes(seed), course_of(store, game_id))
    state.drain_events()  # the GM reads a turn-by-turn game's events as they come; so does the replay
    return state


def replay(store: Store, game_id: str) -> GameState:
    """Rebuild a game's state from its events alone (the history is the source of truth); the
    events a rollback undid are not played."""
    events = store.events(game_id)
    row = store.game(game_id)
    assert row is not None  # a loaded table's game (a rollback's), and no game is ever deleted
    engine = game_type(row.type)
    state = fresh(store, game_id, events[0])
    for ev in events[1:]:
        play_event(engine, state, ev)
    return state


def play_event(engine, state: GameState, ev: dict) -> None:
    """One event of the history played on `state` (what does not move a game changes nothing)."""
    if ev["kind"] in (LogEvent.ORDERS, LogEvent.NMR, LogEvent.RESIGN):
        state.apply(ev["seat"], engine.command_from_text(ev["orders"]))
    elif ev["kind"] == LogEvent.RESOLVED:
        state.resolve()
    elif ev["kind"] == LogEvent.REPLACE:  # a new player in the seat: the engine names them from now on
        rename(state, ev["seat"], ev["name"])
        return
    else:
        return
    state.drain_events()
