"""The store: games, seats, the event history, inbound mail and the outbox, in one SQLite file.

Every inbound message's raw bytes are written (and committed) before it is handled, and each is
handled at most once, keyed by its Message-ID. A handled message, the game's new state, its
events and the mail it causes are written in one transaction.
"""
from __future__ import annotations

import json
import re
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator

from .store_file import StoreError, check_path, schema_of, store_error

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


def _dicts(cursor) -> list[dict]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def iso(dt: datetime | None) -> str | None:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def from_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


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


class Store:
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

    # -- senders (flood control) -----------------------------------------------------------
    def recent_from(self, sender: str, since: datetime, *, authenticated: bool) -> int:
        """Messages from `sender` since then: those that proved to be the seat's owner, or the others."""
        if authenticated:
            sql = "SELECT count(*) FROM inbound WHERE auth = ? AND received >= ?"
        else:
            sql = "SELECT count(*) FROM inbound WHERE sender = ? AND received >= ? AND auth IS NULL"
        return self.conn.execute(sql, [sender, iso(since)]).fetchone()[0]

    def flood(self, sender: str, since: datetime, *, authenticated: bool) -> tuple[int, bool]:
        """`recent_from` and `warned` of one sender, read in one statement (asked of every message)."""
        mine = "auth = ? AND received >= ?" if authenticated else "sender = ? AND received >= ? AND auth IS NULL"
        count, warned = self.conn.execute(
            f"SELECT (SELECT count(*) FROM inbound WHERE {mine}), "
            "EXISTS (SELECT 1 FROM senders WHERE address = ? AND warned IS NOT NULL)",
            [sender, iso(since), sender]).fetchone()
        return count, bool(warned)

    def strangers_answered(self, since: datetime) -> int:
        """Answers given since then to mail that did not authenticate (from anyone)."""
        return self.conn.execute(
            "SELECT count(*) FROM inbound WHERE handled >= ? AND auth IS NULL"
            " AND status IN ('handled', 'refused', 'failed')",
            [iso(since)]).fetchone()[0]

    def warned(self, sender: str) -> bool:
        return self.conn.execute("SELECT 1 FROM senders WHERE address = ? AND warned IS NOT NULL",
                                 [sender]).fetchone() is not None

    def set_warned(self, sender: str, now: datetime | None) -> None:
        self.db["senders"].upsert({"address": sender, "warned": iso(now)}, pk="address")

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

    # -- calendars --------------------------------------------------------------------------
    def set_calendar(self, address: str, on: bool, now: datetime) -> None:
        if on:
            self.conn.execute("INSERT OR IGNORE INTO calendar_players (address, since) VALUES (?, ?)",
                              [address, iso(now)])
        else:
            self.conn.execute("DELETE FROM calendar_players WHERE address = ?", [address])

    def calendar_players(self) -> frozenset:
        return frozenset(r[0] for r in self.conn.execute("SELECT address FROM calendar_players"))

    # -- open tables ------------------------------------------------------------------------
    def has_open_tables(self) -> bool:
        return self.conn.execute("SELECT 1 FROM open_tables WHERE status = 'open' LIMIT 1").fetchone() is not None

    # -- leagues --------------------------------------------------------------------------
    def add_league(self, league_id: str, name: str, plan: dict, now: datetime) -> None:
        self.conn.execute("INSERT INTO leagues (id, name, plan, created, status, opened, reported) "
                          "VALUES (?, ?, ?, ?, 'active', 0, 0)", [league_id, name, json.dumps(plan), iso(now)])

    def league(self, league_id: str) -> dict | None:
        row = self.conn.execute("SELECT id, name, plan, created, status, opened, reported FROM leagues "
                                "WHERE id = ?", [league_id]).fetchone()
        return _league(row) if row else None

    def leagues(self, status: str | None = None) -> list[dict]:
        rows = self.conn.execute("SELECT id, name, plan, created, status, opened, reported FROM leagues "
                                 "WHERE ? IS NULL OR status = ? ORDER BY created, id", [status, status])
        return [_league(row) for row in rows]

    def update_league(self, league_id: str, **values) -> None:
        for key, value in values.items():
            if key not in ("status", "opened", "reported"):
                raise ValueError(f"no league column {key}")
            self.conn.execute(f"UPDATE leagues SET {key} = ? WHERE id = ?", [value, league_id])

    def add_league_event(self, league_id: str, now: datetime, kind: str, **data) -> None:
        self.conn.execute("INSERT INTO league_events (league_id, at, kind, data) VALUES (?, ?, ?, ?)",
                          [league_id, iso(now), kind, json.dumps(data)])

    def league_events(self, league_id: str) -> list[dict]:
        rows = self.conn.execute("SELECT at, kind, data FROM league_events WHERE league_id = ? ORDER BY id",
                                 [league_id])
        return [{"at": at, "kind": kind, **json.loads(data)} for at, kind, data in rows]

    def league_games(self, league_id: str) -> list[GameRow]:
        pattern = league_id.replace("_", "\\_") + "-r%"
        exact = re.compile(re.escape(league_id) + r"-r[0-9]+-[0-9]+")
        return [self._game_row(r) for r in self.db["games"].rows_where(
            "id LIKE ? ESCAPE '\\'", [pattern], order_by="created, id") if exact.fullmatch(r["id"])]

    # -- observers (spectators of a game or a league) -----------------------------------------
    def add_observer(self, target: str, address: str, now: datetime) -> bool:
        """`address` watches `target` from now on; False when it did already."""
        return self.conn.execute("INSERT OR IGNORE INTO observers (target, address, since) VALUES (?, ?, ?)",
                                 [target, address.lower(), iso(now)]).rowcount == 1

    def remove_observer(self, target: str, address: str) -> bool:
        """`address` watches `target` no more; False when it did not."""
        return self.conn.execute("DELETE FROM observers WHERE target = ? AND address = ?",
                                 [target, address.lower()]).rowcount == 1

    def observers(self, targets: list[str]) -> list[dict]:
        """Who watches any of `targets`: {target, address, since}, by address, then target."""
        if not targets:
            return []
        marks = ",".join("?" * len(targets))
        rows = self.conn.execute(f"SELECT target, address, since FROM observers WHERE target IN ({marks})"
                                 " ORDER BY address, target", list(targets))
        return [{"target": t, "address": a, "since": s} for t, a, s in rows]

    def ids_but_for_case(self, target: str) -> list[str]:
        """The ids of games and leagues that are `target` but for its case."""
        rows = self.conn.execute("SELECT id FROM games WHERE lower(id) = lower(?) UNION "
                                 "SELECT id FROM leagues WHERE lower(id) = lower(?) ORDER BY id", [target, target])
        return [row[0] for row in rows]

    def observed_by(self, address: str) -> list[str]:
        """The ids that `address` watches."""
        rows = self.conn.execute("SELECT target FROM observers WHERE address = ? ORDER BY target", [address.lower()])
        return [row[0] for row in rows]

    def add_observe_request(self, token: str, address: str, targets: list[str], now: datetime,
                            expires: datetime, kept: timedelta) -> None:
        """An OBSERVE that waits for its confirmation. Requests expired longer ago than `kept`
        go (one that expired more lately is kept to say so to a late answer)."""
        self.conn.execute("DELETE FROM observe_requests WHERE expires < ?", [iso(now - kept)])
        self.conn.execute("INSERT INTO observe_requests (token, address, targets, asked, expires) "
                          "VALUES (?, ?, ?, ?, ?)", [token.lower(), address.lower(), json.dumps(targets),
                                                     iso(now), iso(expires)])

    def observe_request(self, token: str | None) -> dict | None:
        """The OBSERVE waiting for the confirmation that carries `token`, or None."""
        if not token:
            return None
        row = self.conn.execute("SELECT token, address, targets, asked, expires FROM observe_requests "
                                "WHERE token = ?", [token.lower()]).fetchone()
        if row is None:
            return None
        return {"token": row[0], "address": row[1], "targets": json.loads(row[2]), "asked": from_iso(row[3]),
                "expires": from_iso(row[4])}

    def drop_observe_request(self, token: str) -> None:
        self.conn.execute("DELETE FROM observe_requests WHERE token = ?", [token.lower()])

    def observe_asked(self, address: str, targets: list[str], since: datetime, now: datetime) -> bool:
        """Whether `address` was asked to confirm watching just these targets since then (and
        may still answer)."""
        rows = self.conn.execute("SELECT targets FROM observe_requests WHERE address = ? AND asked >= ? "
                                 "AND expires > ?", [address.lower(), iso(since), iso(now)])
        return any(sorted(json.loads(row[0])) == sorted(targets) for row in rows)

    def spectator_token(self, address: str, new_token: str, now: datetime) -> str:
        """The spectator's token (`new_token` becomes it if it has none yet)."""
        self.conn.execute("INSERT OR IGNORE INTO spectators (address, token, since) VALUES (?, ?, ?)",
                          [address.lower(), new_token.lower(), iso(now)])
        return self.conn.execute("SELECT token FROM spectators WHERE address = ?", [address.lower()]).fetchone()[0]

    def spectator_by_token(self, token: str | None) -> str | None:
        """The address whose spectator token this is, or None."""
        if not token:
            return None
        row = self.conn.execute("SELECT address FROM spectators WHERE token = ?", [token.lower()]).fetchone()
        return row[0] if row else None

    def close_to_spectators(self, target: str, now: datetime) -> None:
        self.conn.execute("INSERT OR IGNORE INTO closed_to_spectators (target, since) VALUES (?, ?)",
                          [target, iso(now)])

    def closed_to_spectators(self, target: str) -> bool:
        return self.conn.execute("SELECT 1 FROM closed_to_spectators WHERE target = ?",
                                 [target]).fetchone() is not None
    # -- the GM's password by mail ------------------------------------------------------------
    def add_gm_password_miss(self, sender: str, now: datetime, alarm: bool = False) -> None:
        self.conn.execute("INSERT INTO gm_password_misses (at, sender, alarm) VALUES (?, ?, ?)",
                          [iso(now), sender, int(alarm)])

    def gm_password_misses(self, since: datetime) -> list[dict]:
        """The wrong GM passwords since then, oldest first: {at, sender, alarm}."""
        rows = self.conn.execute("SELECT at, sender, alarm FROM gm_password_misses WHERE at >= ? ORDER BY at, id",
                                 [iso(since)])
        return [{"at": from_iso(at), "sender": sender, "alarm": bool(alarm)} for at, sender, alarm in rows]

    # -- inbound mail ---------------------------------------------------------------------
    def keep_inbound(self, key: str, raw: bytes, now: datetime, sender: str = "", subject: str = "",
                     message_id: str | None = None) -> bool:
        """Store the raw message (committed at once). False when this key was seen before."""
        kept = self.conn.execute("INSERT OR IGNORE INTO inbound (key, received, raw, sender, subject, status, "
                                 "message_id, size, attempts) VALUES (?, ?, ?, ?, ?, 'new', ?, ?, 0)",
                                 [key, iso(now), raw, sender, subject, message_id, len(raw)])
        return kept.rowcount == 1

    def inbound_status(self, key: str) -> str | None:
        row = self.conn.execute("SELECT status FROM inbound WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def unhandled_inbound(self) -> list[tuple[str, bytes]]:
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT key, raw FROM inbound WHERE status = 'new' ORDER BY received, rowid").fetchall()]

    def attempt_inbound(self, key: str) -> int:
        """Count one more try at handling a kept message; returns the tries so far."""
        with self.transaction():
            self.conn.execute("UPDATE inbound SET attempts = coalesce(attempts, 0) + 1 WHERE key = ?", [key])
            return self.conn.execute("SELECT attempts FROM inbound WHERE key = ?", [key]).fetchone()[0]

    def mark_inbound(self, key: str, status: str, now: datetime, note: str = "", game_id: str | None = None,
                     auth: str | None = None) -> None:
        self.conn.execute("UPDATE inbound SET status = ?, note = ?, game_id = ?, handled = ?, auth = ? WHERE key = ?",
                          [status, note, game_id, iso(now), auth, key])

    def inbound_rows(self, status: str = "failed") -> list[dict]:
        """Kept inbound mail of one status (without the raw bytes), oldest first; `id` is the row id."""
        cur = self.conn.execute(
            "SELECT rowid AS id, key, received, handled, sender, subject, status, note, game_id, size, attempts"
            " FROM inbound WHERE status = ? ORDER BY received, rowid", [status])
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def inbound_by_id(self, row_id: int) -> dict | None:
        cur = self.conn.execute("SELECT rowid AS id, key, raw, status FROM inbound WHERE rowid = ?", [row_id])
        row = cur.fetchone()
        return dict(zip([c[0] for c in cur.description], row)) if row else None

    def prune(self, now: datetime, days: int,
              fingerprint: Callable[[bytes], bytes] | None = None) -> tuple[int, int]:
        """Forget the raw bytes of mail handled or sent more than `days` ago: (inbound, outbox) rows.

        The rows stay (a retried copy is still known by its key) and so do the events every game
        is rebuilt from; mail not handled yet and failed mail keep their bytes. A sent mail keeps
        `fingerprint(raw)` in their place."""
        cutoff = iso(now - timedelta(days=days))
        with self.transaction():
            inbound = self.conn.execute(
                "UPDATE inbound SET raw = NULL WHERE handled < ? AND status IN ('handled', 'refused', 'ignored')"
                " AND raw IS NOT NULL", [cutoff]).rowcount
            if fingerprint is not None:  # a reply to the mail is still read against it
                rows = self.conn.execute("SELECT id, raw FROM outbox WHERE status = 'sent' AND sent < ?"
                                         " AND raw IS NOT NULL", [cutoff]).fetchall()
                self.conn.executemany("UPDATE outbox SET fingerprint = ? WHERE id = ?",
                                      [(fingerprint(raw), row_id) for row_id, raw in rows])
            outbox = self.conn.execute(
                "UPDATE outbox SET raw = NULL WHERE status = 'sent' AND sent < ? AND raw IS NOT NULL",
                [cutoff]).rowcount
        return inbound, outbox

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value])

    # -- outbox ---------------------------------------------------------------------------
    def queue(self, *, now: datetime, game_id: str | None, kind: str, recipient: str, message_id: str,
              raw: bytes) -> None:
        self.conn.execute("INSERT INTO outbox (created, game_id, kind, recipient, message_id, raw, status, attempts) "
                          "VALUES (?, ?, ?, ?, ?, ?, 'queued', 0)", [iso(now), game_id, kind, recipient, message_id, raw])
        dated = from_iso(iso(now))  # as the column keeps it, to the second
        self._dated[recipient] = dated
        self._latest = dated if self._latest is None or dated > self._latest else self._latest

    def queued(self, now: datetime | None = None) -> list[dict]:
        sql = "SELECT * FROM outbox WHERE status = 'queued'"
        args: list = []
        if now is not None:
            sql += " AND (next_try IS NULL OR next_try <= ?)"
            args.append(iso(now))
        cur = self.conn.execute(sql + " ORDER BY id", args)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def next_outbox_try(self) -> datetime | None:
        row = self.conn.execute("SELECT min(coalesce(next_try, created)) FROM outbox WHERE status = 'queued'").fetchone()
        return from_iso(row[0]) if row and row[0] else None

    def mark_sent(self, outbox_id: int, now: datetime) -> None:
        self.conn.execute("UPDATE outbox SET status = 'sent', sent = ? WHERE id = ?", [iso(now), outbox_id])

    def mark_failed(self, outbox_id: int, error: str, *, permanent: bool, next_try: datetime | None = None) -> None:
        with self.transaction():
            row = self.db["outbox"].get(outbox_id)
            self.db["outbox"].update(outbox_id, {
                "status": "failed" if permanent else "queued", "error": error,
                "attempts": (row["attempts"] or 0) + 1, "next_try": iso(next_try)})

    def last_mail_at(self, recipient: str, now: datetime | None = None) -> datetime | None:
        """When the GM's latest mail to `recipient` was dated. With `now`: None also when no mail
        of the outbox is dated at `now` or later (its latest date, read once, is earlier), so the
        question costs a statement only where the answer matters; a mail this store dated is
        remembered. (Another process's mail dated ahead of the clock may then share a second.)"""
        if recipient in self._dated:
            return self._dated[recipient]
        if now is not None:
            if self._latest is None:
                row = self.conn.execute("SELECT max(created) FROM outbox").fetchone()
                self._latest = from_iso(row[0]) if row and row[0] else datetime.min.replace(tzinfo=timezone.utc)
            if self._latest < now:
                return None
        row = self.conn.execute("SELECT created FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1",
                                [recipient]).fetchone()
        return from_iso(row[0]) if row else None

    def note_error(self, outbox_id: int, error: str) -> None:
        """Why a mail still waits, without counting a try (the settings, not the mail, are wrong)."""
        with self.transaction():
            self.conn.execute("UPDATE outbox SET error = ?, next_try = NULL WHERE id = ?", [error, outbox_id])

    def outbox_rows(self, statuses: tuple[str, ...] = ("queued", "failed", "bounced")) -> list[dict]:
        """Mail waiting, refused or bounced (without the raw bytes), oldest first."""
        marks = ",".join("?" * len(statuses))
        cur = self.conn.execute(
            "SELECT id, created, game_id, kind, recipient, message_id, status, attempts, next_try, error"
            f" FROM outbox WHERE status IN ({marks}) ORDER BY id", list(statuses))
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row)) for row in cur.fetchall()]

    def requeue(self, outbox_id: int | None = None) -> int:
        """Failed mail queued again (one, or all of it), due at once; returns how many."""
        with self.transaction():
            sql = "UPDATE outbox SET status = 'queued', attempts = 0, next_try = NULL WHERE status = 'failed'"
            args: list = []
            if outbox_id is not None:
                sql += " AND id = ?"
                args.append(outbox_id)
            return self.conn.execute(sql, args).rowcount

    def mark_bounced(self, message_id: str | None, recipient: str | None, diagnostic: str,
                     now: datetime) -> tuple[dict | None, bool]:
        """The sent mail a bounce speaks of, marked bounced, and whether its address is newly
        known to bounce. Only a report that names the Message-ID of a mail the GM sent counts:
        anyone can forge a bounce, but only the mail's recipient knows its Message-ID."""
        row = None
        if message_id:
            row = self.conn.execute("SELECT id FROM outbox WHERE message_id = ? AND status IN ('sent', 'bounced')",
                                    [message_id]).fetchone()
        if row is None:
            return None, False
        self.conn.execute("UPDATE outbox SET status = 'bounced', error = ? WHERE id = ?", [diagnostic, row[0]])
        cur = self.conn.execute("SELECT id, game_id, kind, recipient, message_id FROM outbox WHERE id = ?", [row[0]])
        mail = dict(zip([c[0] for c in cur.description], cur.fetchone()))
        new = self.conn.execute("SELECT 1 FROM bounces WHERE address = ?", [mail["recipient"]]).fetchone() is None
        self.conn.execute("INSERT OR REPLACE INTO bounces (address, at, diagnostic, game_id) VALUES (?, ?, ?, ?)",
                          [mail["recipient"], iso(now), diagnostic, mail["game_id"]])
        return mail, new

    def bounces(self, addresses: list[str]) -> dict[str, dict]:
        """address -> {at, diagnostic} for those of `addresses` whose mail bounced for good."""
        out = {}
        for address in addresses:
            row = self.conn.execute("SELECT at, diagnostic FROM bounces WHERE address = ?", [address]).fetchone()
            if row:
                out[address] = {"at": row[0], "diagnostic": row[1]}
        return out

    def is_own_mail(self, message_ids: tuple[str, ...]) -> bool:
        """Whether any of these Message-IDs is one of the GM's own mails."""
        ids = list(message_ids)[:20]
        if not ids:
            return False
        marks = ",".join("?" * len(ids))
        return self.conn.execute(f"SELECT 1 FROM outbox WHERE message_id IN ({marks}) LIMIT 1", ids).fetchone() \
            is not None

    def originals(self, message_ids: tuple[str, ...], most: int) -> list[tuple[bytes | None, bytes | None, str]]:
        """(raw, fingerprint, created) of the GM's own mails among these Message-IDs, newest first."""
        ids = list(dict.fromkeys(message_ids))[-20:]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return self.conn.execute(f"SELECT raw, fingerprint, created FROM outbox WHERE message_id IN ({marks})"
                                 " ORDER BY id DESC LIMIT ?", [*ids, most]).fetchall()

    def sent_mail(self, game_id: str | None = None) -> list[dict]:
        """Every mail the GM wrote, oldest first (tests read these)."""
        where, args = ("game_id = ?", [game_id]) if game_id else (None, None)
        return list(self.db["outbox"].rows_where(where, args, order_by="id"))


def _league(row) -> dict:
    league_id, name, plan, created, status, opened, reported = row
    return {"id": league_id, "name": name, "plan": json.loads(plan), "created": created, "status": status,
            "opened": opened or 0, "reported": reported or 0}
