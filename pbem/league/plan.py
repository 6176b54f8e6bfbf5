"""The league file read and checked: the season's fixed facts as one frozen ``LeaguePlan``.

Pure apart from reading the shipped course templates: no store, no mail, no clock. Every
problem in the file is reported together, one line each naming the key and what would be
right, as ``pbem.config`` does for the configuration.
"""
from __future__ import annotations

import dataclasses
import email.utils
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, UTC
from types import MappingProxyType
from typing import Any, Literal
from collections.abc import Hashable, Mapping

import yaml

from pbem.clock import format_duration, parse_duration, parse_time
from pbem.errors import BadValue, PbemError
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.games import game_type
from pbem.games.base import COMMON_OPTIONS
from pbem.games.registry import types
from pbem.gm import robot_seats
from pbem.robots import robot_types
from pbem.mail.clean import NAME_CHARS, base_address, clean, given_name
from pbem.ratings.reliability import BadShare, read_share
from pbem.clock.schedule import canonical_zone

LEAGUE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
GAME_ID_LENGTH = 40          # what the GM accepts as a game id
FORMATS = ("round-robin", "tables")
WITHDRAWN = ("forfeit", "void", "robot")   # robot: a robot (strong) plays the leaver's games left
BYES = ("none", "robot")                    # robot: an odd round robin's bye is a match against a robot
DEFAULT_ROUND_LENGTH = "7d"
DEFAULT_ABSENCE_DAYS = 14
DEFAULT_TABLE_SIZE = 4
MOST_PLAYERS = 100           # past this a league file is a mistake, and pairing it is slow
MOST_ROUNDS = 100
KEYS = ("id", "name", "game", "options", "course", "courses", "players", "start",
        "round_length", "deadline", "format", "table_size", "rounds", "absence_days",
        "withdrawn", "bye", "spectators", "min_on_time")
PLAYER_KEYS = ("name", "address", "timezone")
# A robot's league handle: never an address, so no mail can ever go to it.
ROBOT_HANDLE = re.compile(r"robot-[0-9]{1,4}")
_EMAIL = re.compile(r"^[^@\s<>()\[\],;:\"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$")
_EXAMPLE_START = "2026-12-07T18:00:00Z"
SHOWN_CHARS = 60             # of a wrong value, quoted in its problem


def is_robot(address: str | None) -> bool:
    """Whether a league address is a robot's handle (``robot-<k>``) rather than a mailbox."""
    if not address:
        return False
    return ROBOT_HANDLE.fullmatch(address.strip().lower()) is not None


class LeagueError(PbemError):
    """The league file cannot be used; ``problems`` has one line per problem."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class LeaguePlayer:
    """A player of the league file. A robot player (``robot`` its level) has no address: its
    ``address`` is the league's handle for it, ``robot-<k>`` (k counting the file's robot
    players from 1), which its seats keep and no mail ever goes to."""
    name: str
    address: str
    timezone: str | None = None
    robot: str | None = None

    def spec(self) -> str:
        """``Name <address>``, as ``--player`` and the league file write a player."""
        if self.robot:
            return f"{self.name} <robot:{self.robot}>"
        return email.utils.formataddr((self.name, self.address))

    def to_dict(self) -> dict:
        # A robot is written as the file writes it; reading it back numbers it the same again.
        out = {"name": self.name, "address": f"robot:{self.robot}" if self.robot else self.address}
        if self.timezone:
            out["timezone"] = self.timezone
        return out


@dataclass(frozen=True)
class LeaguePlan:
    """What the league file fixes for the whole season. Times are aware UTC datetimes."""
    name: str
    game: str
    players: tuple[LeaguePlayer, ...]
    start: datetime
    format: str
    rounds: int
    table_size: int
    min_table: int               # the fewest players the game can be played by
    id: str | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    courses: tuple[str, ...] = (DEFAULT_COURSE,)
    round_length: timedelta = timedelta(days=7)
    deadline: str | None = None  # a duration as written; None: the GM's configured default
    absence_days: int = DEFAULT_ABSENCE_DAYS
    withdrawn: str = "forfeit"
    bye: str = "none"            # robot: the bye of an odd round robin is a match against a robot
    spectators: bool = True      # false: OBSERVE of the league or its games is refused
    min_on_time: float | None = None  # the least share of deadlines met `league create` takes

    @property
    def addresses(self) -> tuple[str, ...]:
        return tuple(p.address for p in self.players)

    @property
    def robots(self) -> dict[str, str]:
        """The league file's robot players: handle -> level."""
        return {p.address: p.robot for p in self.players if p.robot}

    def player(self, address: str) -> LeaguePlayer | None:
        wanted = address.strip().lower()
        return next((p for p in self.players if p.address == wanted), None)

    def opens(self, round_no: int) -> datetime:
        """When round ``round_no`` (from 1) opens."""
        return self.start + (round_no - 1) * self.round_length

    @property
    def ends(self) -> datetime:
        """When the last round's week is up (a match that runs long may go on past it)."""
        return self.opens(self.rounds) + self.round_length

    def round_at(self, moment: datetime) -> int:
        """The last round opened at ``moment`` (0 before the start, at most ``rounds``)."""
        if moment < self.start:
            return 0
        return min(self.rounds, (moment - self.start) // self.round_length + 1)

    def course_for(self, round_no: int) -> str:
        """The course of round ``round_no``: the courses take turns, round by round."""
        return self.courses[(round_no - 1) % len(self.courses)]

    def to_dict(self) -> dict:
        """The plan as a league file would write it; ``read_plan`` reads it back the same."""
        out: dict[str, Any] = {} if self.id is None else {"id": self.id}
        out |= {"name": self.name, "game": self.game, "options": dict(self.options)}
        out |= {"course": self.courses[0]} if len(self.courses) == 1 else {"courses": list(self.courses)}
        out["players"] = [p.to_dict() for p in self.players]
        out |= {"start": self.start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "round_length": format_duration(self.round_length).replace(" ", ""),
                "format": self.format, "table_size": self.table_size, "rounds": self.rounds,
                "absence_days": self.absence_days, "withdrawn": self.withdrawn, "bye": self.bye,
                "spectators": self.spectators}
        if self.deadline is not None:
            out["deadline"] = self.deadline
        if self.min_on_time is not None:
            out["min_on_time"] = self.min_on_time
        return out


def read_plan(source: str | Mapping, *, gm_address: str | None = None) -> LeaguePlan:
    """The league file (YAML text, or what YAML gave) as a checked plan; LeagueError lists
    every problem, ValueError says in one line why text YAML cannot read at all was not read.
    ``gm_address``, when given, may not be a player's."""
    twice: list[str] = []
    data = _parse(source, twice) if isinstance(source, str) else source
    if not isinstance(data, Mapping):
        raise LeagueError([f"top level: expected a mapping of keys ({', '.join(KEYS[:4])} ...), "
                           f"got {_show(data)}"])
    reader = _Reader({str(k).strip().lower(): v for k, v in data.items()}, gm_address)
    reader.problems += twice
    plan = reader.plan()
    if reader.problems or plan is None:
        raise LeagueError(reader.problems)
    return plan


class _Loader(yaml.SafeLoader):
    """YAML as safe_load reads it, but a key written twice in one mapping is noted (plain YAML
    keeps the last silently, and the GM would never learn which one was used)."""

    twice: list[str]  # given by `_parse`, which reads the problems it notes with the rest

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        seen: dict[str | None, int] = {}
        for key_node, _ in node.value:
            key = str(key_node.value).strip().lower() if isinstance(key_node, yaml.ScalarNode) else None
            line = key_node.start_mark.line + 1
            if key is not None and key in seen:
                self.twice.append(f"{key}: written twice (lines {seen[key]} and {line}); write it once")
            seen.setdefault(key, line)
        return super().construct_mapping(node, deep=deep)


def _parse(text: str, twice: list[str]) -> Any:
    try:
        loader = _Loader(text)  # the reader checks every character as it is made
    except yaml.reader.ReaderError as err:
        raise BadValue(_unreadable(text, err)) from None
    loader.twice = twice
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = getattr(err, "problem", None) or "cannot be parsed"
        raise LeagueError([f"league file: YAML syntax error{where}: {what}"]) from None
    finally:
        loader.dispose()
    return data


def _unreadable(text: str, err: yaml.reader.ReaderError) -> str:
    """One line for a character YAML reads nowhere (a raw control byte): where it is, and what
    to do; the file's other problems cannot be read past it."""
    before = text[: err.position]
    line, column = before.count("\n") + 1, err.position - (before.rfind("\n") + 1) + 1
    code = err.character if isinstance(err.character, int) else ord(err.character)  # a byte, or a character
    return (f"league file: line {line}, column {column} holds the control character U+{code:04X}, which "
            "YAML does not allow anywhere: delete it; no league was created")


class _Reader:
    """Reads one key at a time, keeping every problem; ``plan`` puts the pieces together."""

    def __init__(self, data: dict, gm_address: str | None):
        self.data = data
        self.gm_address = gm_address
        self.problems: list[str] = []

    def problem(self, key: str, words: str) -> None:
        self.problems.append(f"{key}: {words}")

    def plan(self) -> LeaguePlan | None:
        for key in self.data:
            if key not in KEYS:
                self.problem(key, f"unknown key; a league file knows {', '.join(KEYS)}")
        engine = self.engine()
        league_id, name = self.league_id(), self.text("name", required=True)
        name = name and clean(name)  # shown in subjects and calendars: no control character
        options = self.options(engine)
        courses = self.courses()
        players = self.players()
        start = self.start()
        round_length = self.duration("round_length", DEFAULT_ROUND_LENGTH)
        deadline = self.duration("deadline", None)
        absence = self.whole("absence_days", DEFAULT_ABSENCE_DAYS, 0, 366)
        withdrawn = self.choice("withdrawn", WITHDRAWN, "forfeit")
        bye = self.choice("bye", BYES, "none")
        spectators = self.data.get("spectators", True)
        least = self.share("min_on_time")
        if not isinstance(spectators, bool):
            self.problem("spectators", f"expected true or false, got {_show(spectators)}")
        if engine is None or players is None:
            self.choice("format", FORMATS, None)
            self.whole("table_size", None, 1, MOST_PLAYERS)
            self.whole("rounds", None, 1, MOST_ROUNDS)
            return None
        fmt, size, rounds = self.shape(engine, len(players))
        if courses is not None:
            # With the options as given when they are right, or the game's own when not, so
            # that a course the game refuses is named now, beside the options' problems.
            self.fits_course(engine, options or {}, courses, size if fmt is not None else 0)
        if fmt is not None and size and rounds:
            self.fits_game_ids(league_id, fmt, size, rounds, len(players))
        self.robots(engine, players, withdrawn, bye, fmt)
        if self.problems:
            return None
        # A reader gives None only after noting a problem, and there is none.
        assert name is not None and options is not None and courses is not None and start is not None \
            and round_length is not None and absence is not None and withdrawn is not None \
            and bye is not None and fmt is not None
        return LeaguePlan(
            id=league_id, name=name, game=engine.TYPE, options=MappingProxyType(options),
            courses=courses, players=players, start=start, round_length=round_length,
            deadline=self.data["deadline"].strip() if deadline is not None else None, format=fmt, table_size=size,
            rounds=rounds, min_table=engine.MIN_PLAYERS, absence_days=absence,
            withdrawn=withdrawn, bye=bye, spectators=spectators, min_on_time=least)

    # -- single keys -------------------------------------------------------------------------

    def text(self, key: str, required: bool = False, default: str | None = None) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                self.problem(key, "required")
            return default
        if not isinstance(value, (str, int, float)) or isinstance(value, bool) \
                or not str(value).strip():
            self.problem(key, f"expected text, got {_show(value)}")
            return default
        value = str(value).strip()
        if any(ord(ch) < 32 for ch in value):
            self.problem(key, "expected one line of text")
            return default
        return value

    def league_id(self) -> str | None:
        value = self.text("id")
        if value is not None and not LEAGUE_ID.fullmatch(value):
            self.problem("id", f"expected letters, digits, - and _ (at most 40), like winter, "
                         f"got {_show(value)}; or leave id out to number the league")
            return None
        return value

    def engine(self):
        value = self.text("game", required=True)
        if value is None:
            return None
        try:
            return game_type(value)
        except KeyError:
            known = ", ".join(types())
            self.problem("game", f"unknown game type {_show(value)}; expected one of {known}")
            return None

    def options(self, engine) -> dict | None:
        value = self.data.get("options")
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.problem("options", f"expected a mapping of option: value, got {_show(value)}")
            return None
        given = {str(k).strip().lower(): v for k, v in value.items()}
        if engine is None:
            return None
        start = len(self.problems)
        for key, option in given.items():   # one at a time, so that every wrong one is named
            if key not in engine.OPTIONS and key not in COMMON_OPTIONS:  # takeover_after: every game's
                known = ", ".join(sorted({**engine.OPTIONS, **COMMON_OPTIONS}))
                self.problem(f"options.{key}", f"unknown option for {engine.TYPE}; known: {known}")
                continue
            try:
                engine.check_options({key: option})
                # Some engines check a value only when a game starts: start one, on paper.
                engine.new(_stand_ins(engine.MIN_PLAYERS), {key: option}, 0,
                           load_course(DEFAULT_COURSE))
            except ValueError as err:
                if f"option {key}" in str(err):
                    self.problems.append(_option_problem(str(err)))
        if len(self.problems) > start:
            return None
        try:
            engine.check_options(given)
        except ValueError as err:
            self.problems.append(_option_problem(str(err)))
            return None
        every = engine.options_with_defaults(given)
        return {key: every[key] for key in given}

    def courses(self) -> tuple[str, ...] | None:
        one, many = self.data.get("course"), self.data.get("courses")
        if one is not None and many is not None:
            self.problem("courses", "give course (one for every round) or courses (a rotation), "
                         "not both")
            return None
        if many is None:
            spec = self.text("course", default=DEFAULT_COURSE)
            return self.course("course", spec) if spec is not None else None
        if not isinstance(many, list) or not many:
            self.problem("courses", f"expected a list of course names like [parkland, links], "
                         f"got {_show(many)}")
            return None
        specs = [self.course(f"courses[{i}]", str(spec)) for i, spec in enumerate(many)]
        read = [s for s in specs if s is not None]
        return None if len(read) < len(specs) else tuple(s[0] for s in read)

    def course(self, key: str, spec: str) -> tuple[str] | None:
        try:
            load_course(spec)
        except ValueError as err:
            self.problem(key, str(err))
            return None
        return (spec.strip(),)

    def players(self) -> tuple[LeaguePlayer, ...] | None:
        value = self.data.get("players")
        if not isinstance(value, list) or not value:
            self.problem("players", f"expected a list of players like - George <george@example.test>, "
                         f"got {_show(value)}")
            return None
        if len(value) > MOST_PLAYERS:
            self.problem("players", f"at most {MOST_PLAYERS} players, got {len(value)}")
            return None
        start = len(self.problems)
        found = [_player(self, f"players[{i}]", item) for i, item in enumerate(value)]
        found = _number_robots(found)
        self.unique(found)
        # A player is None only after a problem noted, so none is left out of a plan.
        return tuple(p for p in found if p is not None) if len(self.problems) == start else None

    def unique(self, players: list[LeaguePlayer | None]) -> None:
        seen: dict[str, int] = {}
        gm = base_address(self.gm_address) if self.gm_address else None
        for i, player in enumerate(players):
            if player is None:
                continue
            mailbox = base_address(player.address)
            if mailbox == gm:
                self.problem(f"players[{i}].address",
                             f"{player.address} is the GM's own address: a player needs their own")
            elif mailbox in seen:
                self.problem(f"players[{i}].address",
                             f"{player.address} is the mailbox of players[{seen[mailbox]}] already: "
                             "each player needs an address of their own")
            seen.setdefault(mailbox, i)

    def start(self) -> datetime | None:
        value = self.data.get("start")
        if value is None:
            self.problem("start", f"required: when round 1 opens, like {_EXAMPLE_START}")
            return None
        if isinstance(value, datetime):
            return _utc(value)
        if isinstance(value, date):
            return datetime(value.year, value.month, value.day, tzinfo=UTC)
        try:
            return parse_time(str(value))
        except ValueError:
            self.problem("start", f"expected an ISO 8601 time like {_EXAMPLE_START}, got {_show(value)}")
            return None

    def duration(self, key: str, default: str | None) -> timedelta | None:
        value = self.data.get(key)
        if value is None:
            return None if default is None else parse_duration(default)
        try:
            return parse_duration(value if isinstance(value, str) else "")
        except ValueError:
            self.problem(key, f"expected a duration like 7d, 48h or 90m, got {_show(value)}")
            return None

    def whole(self, key: str, default: int | None, low: int, high: int) -> int | None:
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.problem(key, f"expected a whole number from {low} to {high}, got {_show(value)}")
            return None
        return value

    def share(self, key: str) -> float | None:
        """A least share of deadlines met: a fraction (0.8) or a percentage (80%)."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.problem(key, f"expected a fraction from 0 to 1 (like 0.8) or a percentage (like 80%), "
                         f"got {_show(value)}")
            return None
        try:
            return read_share(value)
        except BadShare as e:
            self.problem(key, str(e))
            return None

    def choice(self, key: str, names: tuple[str, ...], default: str | None) -> str | None:
        value = self.data.get(key)
        if value is None:
            return default
        folded = value.strip().lower() if isinstance(value, str) else value
        if folded not in names:
            self.problem(key, f"expected one of {', '.join(names)}, got {_show(value)}")
            return None
        return folded

    # -- keys that depend on each other ------------------------------------------------------

    def robots(self, engine, players: tuple[LeaguePlayer, ...], withdrawn: str | None, bye: str | None,
               fmt: str | None) -> None:
        """Robots only where the game has one, and never a league of robots alone."""
        playable = engine.TYPE in robot_types()
        known = ", ".join(robot_types())
        for i, player in enumerate(players):
            if player.robot and not playable:
                self.problem(f"players[{i}]", f"no robot plays {engine.TYPE} yet (robots play {known}); "
                             "list a player by mail instead")
        if players and all(p.robot for p in players):
            self.problem("players", "every player is a robot: a league needs at least one player by mail")
        if withdrawn == "robot" and not playable:
            self.problem("withdrawn", f"no robot plays {engine.TYPE} yet (robots play {known}); "
                         "expected forfeit or void")
        if bye == "robot":
            if fmt is not None and fmt != "round-robin":
                self.problem("bye", "a robot takes the bye of a round robin only; leave bye out with "
                             "format tables")
            elif not playable:
                self.problem("bye", f"no robot plays {engine.TYPE} yet (robots play {known}); leave bye out")

    def shape(self, engine, count: int) -> tuple[str | None, int, int]:
        """The format, the table size and the number of rounds, checked against the game and
        the number of players."""
        default = "round-robin" if engine.MIN_PLAYERS <= 2 <= engine.MAX_PLAYERS == 2 else "tables"
        fmt = self.choice("format", FORMATS, default)
        if fmt == "round-robin":
            return self.round_robin(engine, count)
        if fmt == "tables":
            return self.tables(engine, count)
        return None, 0, 0

    def round_robin(self, engine, count: int) -> tuple[str | None, int, int]:
        if engine.MAX_PLAYERS != 2 or engine.MIN_PLAYERS > 2:
            self.problem("format", f"round-robin is for two-player games such as matchplay; "
                         f"{engine.TYPE} is played in tables (format: tables)")
            return None, 0, 0
        rounds = count - 1 if count % 2 == 0 else count
        if count < 2:
            self.problem("players", f"a round robin needs at least 2 players, got {count}")
        size = self.whole("table_size", 2, 1, GAME_ID_LENGTH)
        if size is not None and size != 2:
            self.problem("table_size", "a round robin plays matches of 2; leave table_size out")
        given = self.whole("rounds", rounds, 1, MOST_ROUNDS)
        if given is not None and given != rounds:
            self.problem("rounds", f"a round robin of {count} players has {rounds} rounds; "
                         "leave rounds out")
        return "round-robin", 2, rounds

    def tables(self, engine, count: int) -> tuple[str | None, int, int]:
        low, high = engine.MIN_PLAYERS, engine.MAX_PLAYERS
        size = self.whole("table_size", min(DEFAULT_TABLE_SIZE, high), 1, MOST_PLAYERS)
        if size is not None and not low <= size <= high:
            span = str(low) if low == high else f"{low} to {high}"
            self.problem("table_size", f"{engine.TITLE or engine.TYPE} is played by {span} "
                         f"players; expected table_size from {low} to {high}, got {size}")
        if count < low:
            self.problem("players", f"{engine.TITLE or engine.TYPE} needs at least {low} players, "
                         f"got {count}")
        rounds = self.whole("rounds", None, 1, MOST_ROUNDS)
        if rounds is None and "rounds" not in self.data:
            self.problem("rounds", f"required with format tables: how many rounds the season has "
                         f"(a whole number from 1 to {MOST_ROUNDS})")
        return "tables", size or 0, rounds or 0

    def fits_course(self, engine, options: dict, courses: tuple[str, ...], size: int) -> None:
        """Each course is tried on a game of a table's size, so a course the game refuses (a
        nine-hole course for an 18-hole game) is found now rather than in round 3."""
        names = _stand_ins(min(max(size, engine.MIN_PLAYERS), engine.MAX_PLAYERS))
        many = "courses" in self.data
        for i, spec in enumerate(courses):
            try:
                engine.new(names, dict(options), 0, load_course(spec))
            except ValueError as err:
                if str(err).startswith("option"):
                    self.problems.append(_option_problem(str(err)))
                    return
                self.problem(f"courses[{i}]" if many else "course", str(err))

    def fits_game_ids(self, league_id: str | None, fmt: str, size: int, rounds: int,
                      count: int) -> None:
        if league_id is None:
            return
        games = count // 2 if fmt == "round-robin" else -(-count // size)
        longest = f"{league_id}-r{rounds}-{games}"
        if len(longest) > GAME_ID_LENGTH:
            room = len(league_id) - (len(longest) - GAME_ID_LENGTH)
            self.problem("id", f"at most {room} characters here, so that game ids like "
                         f"{longest} fit in {GAME_ID_LENGTH}")


def _player(reader: _Reader, key: str, item: Any) -> LeaguePlayer | None:
    if isinstance(item, str):
        if robot_seats.is_robot_spec(item):
            return _robot(reader, key, item)
        return _player_spec(reader, key, item)
    if not isinstance(item, Mapping):
        reader.problem(key, f'expected "Name <address>" or a mapping with name, address and '
                       f"timezone, got {_show(item)}")
        return None
    item = {str(k).strip().lower(): v for k, v in item.items()}
    for extra in (k for k in item if k not in PLAYER_KEYS):
        reader.problem(f"{key}.{extra}", f"unknown key; a player has {', '.join(PLAYER_KEYS)}")
    robot = None
    address: str | None
    if isinstance(item.get("address"), str) and robot_seats.is_robot_spec(item["address"]):
        robot = _robot(reader, f"{key}.address", item["address"].strip())
        address = robot.address if robot is not None else None
    else:
        address = _address(reader, f"{key}.address", item.get("address"))
    name = item.get("name")
    # Cleaned as a name from mail is (control characters out); one with nothing left is no name.
    name = clean(name, NAME_CHARS) if isinstance(name, (str, int)) and not isinstance(name, bool) else name
    bad_name = name is not None and (not isinstance(name, str) or not name)
    if bad_name:
        reader.problem(f"{key}.name", f"expected one line of text, got {_show(item.get('name'))}")
    zone = _zone(reader, f"{key}.timezone", item.get("timezone"))
    if address is None or zone is False or bad_name:
        return None
    if robot is not None:
        return dataclasses.replace(robot, name=name) if name is not None else robot
    return LeaguePlayer(name if name is not None else address.split("@")[0], address, zone or None)


def _robot(reader: _Reader, key: str, spec: str) -> LeaguePlayer | None:
    """A robot player (``robot``, ``robot:easy``, ``"Caddie <robot:strong>"``); its address is
    ``robot`` until ``_number_robots`` gives it the league's handle."""
    try:
        read = robot_seats.read_spec(spec)
    except robot_seats.RobotSpecError as err:
        reader.problem(key, str(err))
        return None
    assert read is not None  # the callers pass a robot's spec only, which read_spec reads or refuses
    name, address = read
    return LeaguePlayer(name, "robot", robot=robot_seats.level_of(address))


def _number_robots(players: list[LeaguePlayer | None]) -> list[LeaguePlayer | None]:
    """Each robot player's league handle: ``robot-1``, ``robot-2`` ... in the file's order."""
    out, k = [], 0
    for player in players:
        if player is not None and player.robot:
            k += 1
            player = dataclasses.replace(player, address=f"robot-{k}")
        out.append(player)
    return out


def _player_spec(reader: _Reader, key: str, spec: str) -> LeaguePlayer | None:
    if len(email.utils.getaddresses([spec])) > 1:
        reader.problem(key, f"one player a line, got {_show(spec)}")
        return None
    name, written = email.utils.parseaddr(spec)
    address = _address(reader, key, written or spec, shown=spec)
    if address is None:
        return None
    return LeaguePlayer(given_name(name, address), address)


def _address(reader: _Reader, key: str, value: Any, shown: Any = None) -> str | None:
    if not isinstance(value, str) or not _EMAIL.match(value.strip()):
        wanted = ('"Name <address>" like "George <george@example.test>"' if shown is not None
                  else "an address like george@example.test")
        reader.problem(key, f"expected {wanted}, got {_show(shown if shown is not None else value)}")
        return None
    return value.strip().lower()


def _zone(reader: _Reader, key: str, value: Any) -> str | None | Literal[False]:
    """The tz database name; None when not given; False after a problem."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return canonical_zone(value.strip())
        except ValueError:
            pass
    reader.problem(key, f"unknown time zone {_show(value)}: use a name like Europe/Paris, "
                   "America/New_York or UTC")
    return False


def _stand_ins(count: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(count)]


def _option_problem(message: str) -> str:
    """``option holes: expected ...`` from an engine as ``options.holes: expected ...``."""
    head, sep, rest = message.partition(": ")
    if sep and head.startswith("option ") and " " not in head[7:]:
        return f"options.{head[7:]}: {rest}"
    return f"options: {message}"


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _show(value: Any) -> str:
    """A value from the file as the GM wrote it, for 'got ...'."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # One problem, one line: a line break in the value is shown as \n; a long value is cut
        # where the quote closes, and says how much more there was.
        shown = "".join(ch if ord(ch) >= 32 else f"\\x{ord(ch):02x}" for ch in value.replace("\n", "\\n"))
        more = f" (and {len(shown) - SHOWN_CHARS} more characters)" if len(shown) > SHOWN_CHARS else ""
        return '"' + shown[:SHOWN_CHARS].replace('"', '\\"') + '"' + more
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return str(value)
