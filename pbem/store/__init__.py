"""The store: games, seats, the event history, inbound mail and the outbox, in one SQLite file.

Every inbound message's raw bytes are written (and committed) before it is handled, and each is
handled at most once, keyed by its Message-ID. A handled message, the game's new state, its
events and the mail it causes are written in one transaction.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterator

from pbem.store.above import AboveRows
from pbem.store.file import StoreError, check_path, schema_of, store_error
from pbem.store.mail import MailRows
from pbem.store.values import dicts, from_iso, iso

SCHEMA_VERSION = 11
# Columns added after the first release, each with its type: an older store gains them on open.
_ADDED_COLUMNS = {
    "inbound": {"message_id": "TEXT", "auth": "TEXT", "size": "INTEGER", "attempts": "INTEGER"},
    # The secret seed's bytes (hex: an INTEGER column would turn "0001" into 1) and its SHA-256.
    "games": {"seed_hex": "TEXT", "commitment": "TEXT"},
    # What is kept of a sent mail's words once its text is forgotten (orders.original).
    "outbox": {"fingerprint": "BLOB"},
    # A seat pbem plays itself: the robot's level (CONTRACT section 12), NULL for a player.
    "seats": {"robot": "TEXT"},
    # A game event a rollback undid: the id of the rollback's own event (NULL: it stands).
    "events": {"undone": "INTEGER"},
}
_INDEXES = (
    # An address whose mail bounced for good, and why (the admins are told once per address).
    "CREATE TABLE IF NOT EXISTS bounces (address TEXT PRIMARY KEY, at TEXT, diagnostic TEXT, game_id TEXT)",
    "CREATE INDEX IF NOT EXISTS inbound_sender ON inbound (sender, received)",
    "CREATE INDEX IF NOT EXISTS inbound_auth ON inbound (auth, received)",
    "CREATE INDEX IF NOT EXISTS inbound_handled ON inbound (handled)",
    "CREATE INDEX IF NOT EXISTS outbox_message_id ON outbox (message_id)",
    "CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox (recipient, id)",
    # Leagues: the plan as its file gave it (checked), how many rounds are open and how many
    # have had their standings mailed; and what happens in a season besides its games
    # (absences, replacements, withdrawals, observers), in order.
    "CREATE TABLE IF NOT EXISTS leagues (id TEXT PRIMARY KEY, name TEXT, plan TEXT, created TEXT, "
    "status TEXT, opened INTEGER, reported INTEGER)",
    "CREATE TABLE IF NOT EXISTS league_events (id INTEGER PRIMARY KEY, league_id TEXT, at TEXT, kind TEXT, "
    "data TEXT)",
    "CREATE INDEX IF NOT EXISTS league_events_league ON league_events (league_id, id)",
    # A league player's own token, in the Reply-To of the league's mail to them (its welcome
    # before any game has a secret): league mail in reply to it is taken from that address.
    "CREATE TABLE IF NOT EXISTS league_tokens (token TEXT PRIMARY KEY, league_id TEXT, address TEXT, "
    "UNIQUE (league_id, address))",
    # Spectators: who watches a game or a whole league (`target` is its id), since when.
    "CREATE TABLE IF NOT EXISTS observers (target TEXT, address TEXT, since TEXT, PRIMARY KEY (target, address))",
    "CREATE INDEX IF NOT EXISTS observers_address ON observers (address)",
    # An OBSERVE waits for its confirmation: the one-time token its answer's Reply-To carries,
    # who asked and for what (the ids, JSON), until when it may be answered.
    "CREATE TABLE IF NOT EXISTS observe_requests (token TEXT PRIMARY KEY, address TEXT, targets TEXT, "
    "asked TEXT, expires TEXT)",
    "CREATE INDEX IF NOT EXISTS observe_requests_address ON observe_requests (address, asked)",
    # A spectator's own token, in the Reply-To of every mail it gets: UNOBSERVE with it is taken
    # from any address.
    "CREATE TABLE IF NOT EXISTS spectators (address TEXT PRIMARY KEY, token TEXT UNIQUE, since TEXT)",
    # Games and leagues the GM made private (spectators=false).
    "CREATE TABLE IF NOT EXISTS closed_to_spectators (target TEXT PRIMARY KEY, since TEXT)",
    # Wrong GM passwords by mail (from an admin's address), and whether one raised the alarm.
    "CREATE TABLE IF NOT EXISTS gm_password_misses (id INTEGER PRIMARY KEY, at TEXT, sender TEXT, alarm INTEGER)",
    "CREATE INDEX IF NOT EXISTS gm_password_misses_at ON gm_password_misses (at)",
    # Open tables (CONTRACT section 13): what the GM opened, who sat down, and the JOINs that
    # wait for their confirmation (a one-time token, until it expires).
    "CREATE TABLE IF NOT EXISTS open_tables (id TEXT PRIMARY KEY, type TEXT, seats INTEGER, min INTEGER, "
    "course TEXT, options TEXT, deadline TEXT, starts TEXT, fill TEXT, status TEXT, game TEXT, created TEXT, "
    "closed TEXT)",
    "CREATE INDEX IF NOT EXISTS open_tables_status ON open_tables (status, starts)",
    "CREATE TABLE IF NOT EXISTS table_seats (table_id TEXT, address TEXT, name TEXT, token TEXT UNIQUE, "
    "joined TEXT, PRIMARY KEY (table_id, address))",
    "CREATE TABLE IF NOT EXISTS table_requests (token TEXT PRIMARY KEY, table_id TEXT, address TEXT, name TEXT, "
    "asked TEXT, expires TEXT, used TEXT)",
    "CREATE INDEX IF NOT EXISTS table_requests_address ON table_requests (address, asked)",
    # Calendars: each deadline event's time as last stated and its SEQUENCE (by UID), and the
    # players who asked for a calendar part in their mail (SET CALENDAR ON).
    "CREATE TABLE IF NOT EXISTS calendar_events (uid TEXT PRIMARY KEY, at TEXT, sequence INTEGER)",
    "CREATE TABLE IF NOT EXISTS calendar_players (address TEXT PRIMARY KEY, since TEXT)",
)


_GAME_COLUMNS = ("id", "type", "status", "turn", "state", "options", "course", "seed", "created", "deadline",
                 "deadline_every", "result", "paused", "paused_left", "reminded_turn", "seed_hex", "commitment")
_SEAT_COLUMNS = ("game_id", "seat", "name", "address", "secret", "timezone", "robot")
_SAVE_GAME = (f"UPDATE games SET {', '.join(f'{c} = :{c}' for c in _GAME_COLUMNS if c != 'id')} WHERE id = :id")


_dicts = dicts


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
    seed: int
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
    def seed_value(self):
        """What the engine was seeded with: the seed bytes (an old game: its integer)."""
        return bytes.fromhex(self.seed_hex) if self.seed_hex else self.seed


class Store(MailRows, AboveRows):
    """The store (one SQLite file); its mail rows and the layers' rows are in `pbem.store.mail` and
    `pbem.store.above`."""
    def __init__(self, path: str | Path):
        path = Path(path)
        self.conn = None
        try:
            self._open(path)
        except (OSError, sqlite3.Error, StoreError) as e:
            if self.conn is not None:
                self.conn.close()
            raise store_error(path, e) from None

    def _open(self, path: Path) -> None:
        check_path(path)
        # Autocommit: every transaction is an explicit BEGIN IMMEDIATE (`transaction`), and a
        # lone write outside one (a mail marked sent, a message kept) commits by itself, one
        # statement where the module's own implicit BEGIN and COMMIT would make three.
        self.conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
        self._dated: dict[str, datetime] = {}  # the dates of the mail this store queued, by recipient
        self._latest: datetime | None = None  # the latest date of any mail in the outbox, once read
        self.conn.execute("PRAGMA busy_timeout = 30000")
        self._db = None
        schema = schema_of(self.conn, path, SCHEMA_VERSION)  # read before anything is written
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")
        # WAL with NORMAL sync survives a killed process intact (a power cut may lose the last
        # commits, never consistency), and spares an fsync per message.
        self.conn.execute("PRAGMA synchronous = NORMAL")
        if schema is None:
            self._migrate()
        elif schema != SCHEMA_VERSION:
            self._upgrade()

    @property
    def db(self):
        """sqlite-utils on the same connection, loaded when something is written or read by table
        (a cron pass that finds nothing to do never needs it)."""
        if self._db is None:
            import sqlite_utils
            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def close(self) -> None:
        self.conn.close()

    def _migrate(self) -> None:
        with self.transaction():
            # Checked again under the write lock: a daemon and a command may start together.
            if self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
                return
            self.db["games"].create({
                "id": str, "type": str, "status": str, "turn": int, "state": str, "options": str,
                "course": str, "seed": int, "created": str, "deadline": str, "deadline_every": str,
                "result": str, "paused": int, "paused_left": int, "reminded_turn": int, "seed_hex": str,
                "commitment": str},
                pk="id", not_null={"type", "status", "state"})
            self.db["seats"].create({
                "game_id": str, "seat": int, "name": str, "address": str, "secret": str, "timezone": str,
                "robot": str},
                pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
            self.db["seats"].create_index(["address"])
            self.db["seats"].create_index(["secret"])
            self.db["events"].create({
                "id": int, "game_id": str, "at": str, "kind": str, "seat": int, "data": str, "undone": int},
                pk="id", foreign_keys=[("game_id", "games", "id")])
            self.db["events"].create_index(["game_id", "id"])
            self.db["inbound"].create({
                "key": str, "received": str, "raw": bytes, "sender": str, "subject": str,
                "status": str, "note": str, "game_id": str, "handled": str, "message_id": str, "auth": str,
                "size": int, "attempts": int}, pk="key")
            self.db["inbound"].create_index(["status"])
            self.db["outbox"].create({
                "id": int, "created": str, "game_id": str, "kind": str, "recipient": str,
                "message_id": str, "raw": bytes, "status": str, "attempts": int, "next_try": str,
                "sent": str, "error": str, "fingerprint": bytes}, pk="id")
            self.db["outbox"].create_index(["status", "id"])
            self.db["senders"].create({"address": str, "warned": str}, pk="address")
            self.db["meta"].insert({"key": "schema", "value": str(SCHEMA_VERSION)}, pk="key")
            for sql in _INDEXES:
                self.conn.execute(sql)

    def _upgrade(self) -> None:
        """An older store: the columns and indexes it lacks (rows are left as they are)."""
        with self.transaction():
            for table, columns in _ADDED_COLUMNS.items():
                have = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
                for name, kind in columns.items():
                    if name not in have:
                        self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            for sql in _INDEXES:
                self.conn.execute(sql)
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", [str(SCHEMA_VERSION)])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic unit; nested uses join the outer one (sqlite-utils savepoints)."""
        conn = self.conn
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
        self.db["seats"].update((seat.game_id, seat.seat), seat.__dict__)

    def due_games(self, now: datetime) -> list[str]:
        rows = self.conn.execute(
            "SELECT id FROM games WHERE status = 'active' AND NOT paused AND deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY deadline", [iso(now)]).fetchall()
        return [r[0] for r in rows]

    def robot_games(self) -> list[str]:
        """Active games whose every seat is a robot: no mail and no deadline moves them on, so a
        game that one pass's bound on robot moves left unfinished waits for the next pass. A paused
        one too: a pause stops the clock, and orders are still taken and played."""
        rows = self.conn.execute(
            "SELECT id FROM games WHERE status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.robot IS NULL) ORDER BY id").fetchall()
        return [r[0] for r in rows]

    def games_to_remind(self, now: datetime, before: timedelta) -> list[str]:
        """Active games whose deadline is within `before` and whose turn has had no reminder."""
        rows = self.conn.execute(
            "SELECT id FROM games WHERE status = 'active' AND NOT paused AND deadline IS NOT NULL"
            " AND deadline > ? AND deadline <= ? AND (reminded_turn IS NULL OR reminded_turn != turn)",
            [iso(now), iso(now + before)]).fetchall()
        return [r[0] for r in rows]

    def next_wakeup(self, before: timedelta) -> datetime | None:
        """The next moment a deadline or a reminder falls due (for the daemon's sleep)."""
        moments = []
        for deadline, reminded, turn in self.conn.execute(
                "SELECT deadline, reminded_turn, turn FROM games"
                " WHERE status = 'active' AND NOT paused AND deadline IS NOT NULL"):
            moments.append(from_iso(deadline))
            if reminded != turn:
                moments.append(from_iso(deadline) - before)
        return min(moments) if moments else None

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
    def add_event(self, game_id: str, at: datetime, kind: str, seat: int | None = None, **data) -> int:
        return self.conn.execute("INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
                                 [game_id, iso(at), kind, seat, json.dumps(data)]).lastrowid

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
        row = self.conn.execute("SELECT at FROM events WHERE game_id = ? AND kind = 'finished' AND undone IS NULL "
                                "ORDER BY id DESC LIMIT 1", [game_id]).fetchone()
        return row[0] if row else None

    def undo_events(self, game_id: str, event_ids: list[int], rollback_id: int) -> None:
        """Mark events as undone by a rollback (they stay in the history)."""
        self.conn.executemany("UPDATE events SET undone = ? WHERE game_id = ? AND id = ?",
                              [(rollback_id, game_id, i) for i in event_ids])
