"""The store: games, seats, the event history, inbound mail and the outbox, in one SQLite file.

Every inbound message's raw bytes are written (and committed) before it is handled, and each is
handled at most once, keyed by its Message-ID. A handled message, the game's new state, its
events and the mail it causes are written in one transaction.

`Store` owns the connection, its transactions and the core's tables; it keeps the games, seats
and events itself, and hands the mail to its keepers, `store.inbound` (`pbem.store.inbound`) and
`store.outbox` (`pbem.store.outbox`). The rows of a layer above (leagues, open tables, calendars,
spectators) are kept by that layer, in tables it declares (`Tables`) and makes on first use.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable, Iterator

from pbem.store import schema
from pbem.store.file import StoreError, check_path, schema_of, store_error
from pbem.store.inbound import InboundMail
from pbem.store.outbox import Outbox
from pbem.store.schema import SCHEMA_VERSION, Tables
from pbem.store.statuses import GameStatus, InboundStatus, LogEvent, OutboxStatus
from pbem.store.values import dicts, from_iso, iso, moment

if TYPE_CHECKING:
    from sqlite_utils import Database


_GAME_COLUMNS = ("id", "type", "status", "turn", "state", "options", "course", "seed", "created", "deadline",
                 "deadline_every", "result", "paused", "paused_left", "reminded_turn", "seed_hex", "commitment")
_SEAT_COLUMNS = ("game_id", "seat", "name", "address", "secret", "timezone", "robot")
_SAVE_GAME = (f"UPDATE games SET {', '.join(f'{c} = :{c}' for c in _GAME_COLUMNS if c != 'id')} WHERE id = :id")


_dicts = dicts
INSTALL_KEY = "install"  # meta's row of the install id (`Store.install_id`)


@dataclass
class Seat:
    game_id: str
    seat: int
    name: str
    address: str
    secret: str
    timezone: str | None = None
    # A robot seat's level (`easy`, `strong`): pbem plays it, and its `address` is only a handle
    # (`robot-<n>`) that no mail ever goes to.
    robot: str | None = None


@dataclass
class GameRow:
    id: str
    type: str
    status: str
    turn: int
    state: dict
    options: dict
    course: str
    seed: int | None
    created: datetime
    deadline: datetime | None
    deadline_every: str | None
    result: str | None
    paused: int = 0                 # 1 while the GM has paused the game
    paused_left: int | None = None  # seconds of the turn that were left when it was paused
    reminded_turn: int | None = None  # the turn whose reminder has gone out
    seed_hex: str | None = None       # the seed's bytes; `seed` holds only an old game's integer
    commitment: str | None = None     # SHA-256 of the seed bytes, shown from the start

    @property
    def seed_value(self) -> bytes | int:
        """What the engine was seeded with: the seed bytes (an old game: its integer)."""
        if self.seed_hex:
            return bytes.fromhex(self.seed_hex)
        assert self.seed is not None  # a game holds its seed's bytes, or an old game its integer
        return self.seed


class Store:
    """The store (one SQLite file)."""
    def __init__(self, path: str | Path):
        path = Path(path)
        conn = None
        try:
            check_path(path)
            # Autocommit: every transaction is an explicit BEGIN IMMEDIATE (`transaction`), and a
            # lone write outside one (a mail marked sent, a message kept) commits by itself, one
            # statement where the module's own implicit BEGIN and COMMIT would make three.
            conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
            self.conn = conn
            self._open(path)
        except (OSError, sqlite3.Error, StoreError) as e:
            if conn is not None:
                conn.close()
            raise store_error(path, e) from None

    def _open(self, path: Path) -> None:
        self.conn.execute("PRAGMA busy_timeout = 30000")
        self._db: Database | None = None
        # The layers' tables known to be in the store (None: not read yet). Forgotten when a
        # transaction rolls back: the tables it made went with it.
        self._names: set[str] | None = None
        # The install id, once read (forgotten too when a transaction rolls back: it may have made it).
        self._install: str | None = None
        version = schema_of(self.conn, path, SCHEMA_VERSION)  # read before anything is written
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")
        # WAL with NORMAL sync survives a killed process intact (a power cut may lose the last
        # commits, never consistency), and spares an fsync per message.
        self.conn.execute("PRAGMA synchronous = NORMAL")
        if version is None:
            self._migrate()
        elif version != SCHEMA_VERSION:
            self._upgrade()
        self.inbound = InboundMail(self)
        self.outbox = Outbox(self)

    @property
    def db(self) -> Database:
        """sqlite-utils on the same connection, loaded when something is written or read by table
        (a cron pass that finds nothing to do never needs it)."""
        if self._db is None:
            import sqlite_utils  # noqa: PLC0415 - loaded only when asked for (see above)
            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def close(self) -> None:
        self.conn.close()

    def _migrate(self) -> None:
        with self.transaction():
            # Checked again under the write lock: a daemon and a command may start together.
            if self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
                return
            schema.create(self.db, self.conn)

    def _upgrade(self) -> None:
        """An older store: the core's columns and indexes it lacks (rows are left as they are)."""
        with self.transaction():
            schema.upgrade(self.conn)

    def with_tables(self, tables: Tables) -> sqlite3.Connection:
        """The connection, once the layer's `tables` are in the store: made (inside the caller's
        transaction, if any) the first time a store lacks any of them."""
        if self._names is None:
            self._names = schema.names_in(self.conn)
        if not tables.names <= self._names:
            with self.transaction():
                for sql in tables.statements:
                    self.conn.execute(sql)
            self._names |= tables.names
        return self.conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic unit; nested uses join the outer one (sqlite-utils savepoints)."""
        conn = self.conn
        try:
            if conn.in_transaction:
                with self.db.atomic():
                    yield
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except BaseException:
            self._names = self._install = None
            raise

    # -- meta -----------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value])

    def install_id(self) -> str:
        """This install's own random id (16 hex digits), made the first time it is asked for (in a
        store of an older pbem too) and kept: what tells this GM's calendar UIDs from those of
        another GM whose games have the same ids."""
        if self._install is None:
            found = self.meta(INSTALL_KEY)
            if found is None:
                with self.transaction():
                    # Two processes may both find none: the first one's id stands for both.
                    self.conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                                      [INSTALL_KEY, secrets.token_hex(8)])
                    found = self.meta(INSTALL_KEY)
            assert found is not None  # just written, by this process or another
            self._install = found
        return self._install

    def prune(self, now: datetime, days: int,
              fingerprint: Callable[[bytes], bytes] | None = None) -> tuple[int, int]:
        """Forget the raw bytes of mail handled or sent more than `days` ago: (inbound, outbox) rows.

        The rows stay (a retried copy is still known by its key) and so do the events every game
        is rebuilt from; mail not handled yet and failed mail keep their bytes. A sent mail keeps
        `fingerprint(raw)` in their place."""
        cutoff = iso(now - timedelta(days=days))
        with self.transaction():
            return self.inbound.forget_text(cutoff), self.outbox.forget_text(cutoff, fingerprint)

    # -- games and seats ------------------------------------------------------------------
    def game_exists(self, game_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchone() is not None

    # The hot paths (a message, a pass) speak SQL themselves: one statement each, where
    # sqlite-utils would first read the schema and wrap every write in a savepoint of its own.
    def add_game(self, row: GameRow, seats: list[Seat]) -> None:
        record = self._game_record(row)
        self.conn.execute(f"INSERT INTO games ({', '.join(_GAME_COLUMNS)}) VALUES "
                          f"({', '.join(':' + c for c in _GAME_COLUMNS)})", record)
        self.conn.executemany(f"INSERT INTO seats ({', '.join(_SEAT_COLUMNS)}) VALUES "
                              f"({', '.join(':' + c for c in _SEAT_COLUMNS)})", [seat.__dict__ for seat in seats])

    def save_game(self, row: GameRow) -> None:
        self.conn.execute(_SAVE_GAME, self._game_record(row))

    def game(self, game_id: str) -> GameRow | None:
        rows = _dicts(self.conn.execute("SELECT * FROM games WHERE id = ?", [game_id]))
        return self._game_row(rows[0]) if rows else None

    def games(self) -> list[GameRow]:
        return [self._game_row(r) for r in _dicts(self.conn.execute("SELECT * FROM games ORDER BY created, id"))]

    def games_like(self, pattern: str) -> list[GameRow]:
        """The games whose id matches a LIKE `pattern` (`\\` escapes), by creation."""
        return [self._game_row(r) for r in _dicts(self.conn.execute(
            "SELECT * FROM games WHERE id LIKE ? ESCAPE '\\' ORDER BY created, id", [pattern]))]

    def games_but_for_case(self, game_id: str) -> list[str]:
        """The ids of the games that are `game_id` but for its case."""
        return [row[0] for row in self.conn.execute("SELECT id FROM games WHERE lower(id) = lower(?) ORDER BY id",
                                                    [game_id])]

    def seats(self, game_id: str) -> list[Seat]:
        return [Seat(**r) for r in _dicts(self.conn.execute(
            f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE game_id = ? ORDER BY seat", [game_id]))]

    def seat_by_secret(self, secret: str) -> Seat | None:
        rows = _dicts(self.conn.execute(f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE lower(secret) = lower(?)",
                                        [secret]))
        return Seat(**rows[0]) if rows else None

    def seats_of(self, address: str) -> list[Seat]:
        return [Seat(**r) for r in _dicts(self.conn.execute(
            f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE address = ?", [address.lower()]))]

    def update_seat(self, seat: Seat) -> None:
        self.db.table("seats").update((seat.game_id, seat.seat), seat.__dict__)

    def due_games(self, now: datetime) -> list[str]:
        rows = self.conn.execute(
            "SELECT id FROM games WHERE status = ? AND NOT paused AND deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY deadline", [GameStatus.ACTIVE, iso(now)]).fetchall()
        return [r[0] for r in rows]

    def robot_games(self) -> list[str]:
        """Active games whose every seat is a robot: no mail and no deadline moves them on, so a
        game that one pass's bound on robot moves left unfinished waits for the next pass. A paused
        one too: a pause stops the clock, and orders are still taken and played."""
        rows = self.conn.execute(
            "SELECT id FROM games WHERE status = ? AND NOT EXISTS"
            " (SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.robot IS NULL) ORDER BY id",
            [GameStatus.ACTIVE]).fetchall()
        return [r[0] for r in rows]

    def next_deadline(self) -> datetime | None:
        """The next deadline of a game in play (for the daemon's sleep; reminders: `gm.reminders`)."""
        row = self.conn.execute("SELECT MIN(deadline) FROM games WHERE status = ? AND NOT paused"
                                " AND deadline IS NOT NULL", [GameStatus.ACTIVE]).fetchone()
        return moment(row[0]) if row and row[0] else None

    @staticmethod
    def _game_record(row: GameRow) -> dict:
        d = dict(row.__dict__)
        d["state"] = json.dumps(row.state, separators=(",", ":"))
        d["options"] = json.dumps(row.options)
        d["created"] = iso(row.created)
        d["deadline"] = iso(row.deadline)
        return d

    @staticmethod
    def _game_row(r: dict) -> GameRow:
        r = dict(r)
        r["state"] = json.loads(r["state"])
        r["options"] = json.loads(r["options"])
        r["created"] = from_iso(r["created"])
        r["deadline"] = from_iso(r["deadline"])
        return GameRow(**r)

    # -- events ---------------------------------------------------------------------------
    def add_event(self, game_id: str, at: datetime, kind: LogEvent | str, seat: int | None = None,
                  **data: object) -> int:
        """One event of the game's log; its kind a LogEvent (its word is taken too, and no other)."""
        row_id = self.conn.execute("INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
                                   [game_id, iso(at), LogEvent(kind), seat, json.dumps(data)]).lastrowid
        assert row_id is not None  # an INSERT's row has one
        return row_id

    def events(self, game_id: str, *, undone: bool = False) -> list[dict]:
        """The game's history in order: what stands (the events no rollback undid), or with
        `undone` every event, each with its `id` and the rollback that undid it (`undone`)."""
        out = []
        where = "game_id = ?" if undone else "game_id = ? AND undone IS NULL"
        for r_id, at, kind, seat, data, r_undone in self.conn.execute(
                f"SELECT id, at, kind, seat, data, undone FROM events WHERE {where} ORDER BY id", [game_id]):
            extra = {"id": r_id, "undone": r_undone} if undone else {}
            out.append({"at": at, "kind": kind, "seat": seat, **json.loads(data), **extra})
        return out

    def finished_at(self, game_id: str) -> str | None:
        """When the game last finished (its standing `finished` event), as ISO text."""
        row = self.conn.execute("SELECT at FROM events WHERE game_id = ? AND kind = ? AND undone IS NULL "
                                "ORDER BY id DESC LIMIT 1", [game_id, LogEvent.FINISHED]).fetchone()
        return row[0] if row else None

    def has_event(self, game_id: str, kind: LogEvent) -> bool:
        """Whether the game's standing history has an event of that kind."""
        return self.conn.execute("SELECT 1 FROM events WHERE game_id = ? AND kind = ? AND undone IS NULL LIMIT 1",
                                 [game_id, LogEvent(kind)]).fetchone() is not None

    def undo_events(self, game_id: str, event_ids: list[int], rollback_id: int) -> None:
        """Mark events as undone by a rollback (they stay in the history)."""
        self.conn.executemany("UPDATE events SET undone = ? WHERE game_id = ? AND id = ?",
                              [(rollback_id, game_id, i) for i in event_ids])


__all__ = ["SCHEMA_VERSION", "GameRow", "GameStatus", "InboundStatus", "LogEvent", "OutboxStatus", "Seat", "Store",
           "StoreError", "Tables", "from_iso", "iso", "moment"]
