"""The YAML configuration: found, read, checked, and refused with one plain line per problem.

The sections are msgspec Structs. msgspec stops at the first error, so ``_section`` checks one
setting at a time and keeps going: every problem in the file is reported together.
"""
from __future__ import annotations

import json
import operator
import os
import re
from datetime import timedelta
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import msgspec.structs
import yaml
from msgspec import Meta, Struct, field

from pbem.clock import BadTime, parse_duration
from pbem.clock.schedule import MOST_REMINDERS
from pbem.errors import BadValue, PbemError

ENV_CONFIG = "PBEM_CONFIG"
DEFAULT_FILE = "pbem.yaml"
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_EMAIL = re.compile(r"^[^@\s<>()\[\],;:\"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$")


class ConfigError(PbemError):
    """The configuration cannot be used; ``problems`` has one line per problem."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


class BadSetting(BadValue):
    """One setting's value refused, in the words of its problem line (the key is added by `load`)."""


def _email(value: str) -> str:
    if not _EMAIL.match(value.strip()):
        raise BadSetting(f"expected an email address like gm@example.test, got {_show(value)}")
    return value.strip()


# A GM secret opens every game to whoever has it: short enough to guess, it is no lock at all.
SHORTEST_GM_SECRET = 16


def _gm_secret(value: str) -> str:
    if len(value.strip()) < SHORTEST_GM_SECRET:
        # Never the value itself: it is a password.
        got = len(value.strip())
        raise BadSetting(f"expected a password of at least {SHORTEST_GM_SECRET} characters, got "
                         f"{got} character{'' if got == 1 else 's'} (leave gm.secret out for no GM "
                         "commands by mail)")
    return value


def _duration(value: str) -> str:
    try:
        parse_duration(value)
    except BadTime:
        raise BadSetting(f"expected a duration like 48h, 3d or 90m, got {_show(value)}") from None
    return value


def _reminder_times(value: str) -> tuple[timedelta, ...]:
    words = [w.strip() for w in value.split(",")]
    if len(words) == 1 and words[0].lower() == "off":
        return ()
    times = tuple(sorted({parse_duration(w) for w in words}, reverse=True))
    if len(words) > MOST_REMINDERS:
        raise BadTime("too many")
    return times


def _reminders(value: str) -> str:
    try:
        _reminder_times(value)
    except BadTime:
        if "," not in value:
            raise BadSetting(f"expected a duration like 48h, 3d or 90m, or off, got {_show(value)}") from None
        raise BadSetting(f"expected a duration like 48h, 3d or 90m, up to {MOST_REMINDERS} of them with commas "
                         f"between (24h, 4h, 1h), or off, got {_show(value)}") from None
    return value


# In a field's type, a Meta is a bound that msgspec enforces; a function is a check run on the
# converted value, raising BadSetting with the words of the problem. Every Path is relative to
# the config file's folder.
Email = Annotated[str, _email]
GMSecret = Annotated[str, _gm_secret]
Duration = Annotated[str, _duration]
Reminders = Annotated[str, _reminders]
Port = Annotated[int, Meta(ge=1, le=65535)]
Positive = Annotated[float, Meta(gt=0)]
Count = Annotated[int, Meta(gt=0)]


class _Section(Struct, kw_only=True):
    """A group of settings; ``load`` fills it from the file, checking every value."""


class GMConfig(_Section):
    address: Email
    name: str = "Golf GM"
    # A person who runs this GM, for what no command does: named in every welcome, in HELP and
    # wherever a mail sends the reader to them (CONTRACT section 5). None: nobody has been named.
    contact: Email | None = None
    admins: list[Email] = []
    secret: GMSecret | None = None
    # `pbem export` writes the players' addresses only when this is true (a record may be published).
    export_addresses: bool = False


class LocalConfig(_Section):
    maildir: Path = Path("./mail")


class IMAPConfig(_Section):
    host: str = "127.0.0.1"
    port: Port = 993
    security: Literal["ssl", "starttls", "none"] = "ssl"
    username: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    processed_mailbox: str = "pbem-processed"
    idle: bool = True
    cafile: Path | None = None
    poll_seconds: Positive = 60.0


class SMTPConfig(_Section):
    host: str = "127.0.0.1"
    port: Port = 465
    security: Literal["ssl", "starttls", "none"] = "ssl"
    username: str = ""
    password: str = ""
    cafile: Path | None = None
    timeout: Positive = 30.0
    retry_seconds: Positive = 30.0  # first wait after a temporary failure; doubles up to 3 min


class GamesConfig(_Section):
    deadline: Duration = "72h"
    nmr: Literal["autoplay", "wait", "forfeit", "robot"] = "autoplay"
    # One duration, or up to three with commas (`24h, 4h, 1h`), or `off`: a player's own
    # SET REMINDERS stands for their games instead.
    reminder_before: Reminders = "12h"
    # After this many missed deadlines in a row a robot plays the seat (0: never), for a game
    # without its own option takeover_after.
    takeover_after: Annotated[int, Meta(ge=0, le=99)] = 0

    @property
    def deadline_delta(self) -> timedelta:
        return parse_duration(self.deadline)

    @property
    def reminder_times(self) -> tuple[timedelta, ...]:
        return _reminder_times(self.reminder_before)


class LimitsConfig(_Section):
    # Only mail that proved its seat (address and secret) counts against a player: past this many
    # in an hour the player's orders still count, but the GM answers nothing else until the flood
    # stops (one warning). Mail that did not authenticate counts against its From address.
    messages_per_hour: Count = 30
    # Answers to mail that did not authenticate, from all senders together, in an hour; past it
    # such mail is kept and not answered (a guard against guessing and backscatter).
    strangers_per_hour: Count = 60
    # Larger mail is kept but not read; its sender gets one short answer.
    max_message_bytes: Count = 1 << 20
    # The most command lines one message may carry.
    max_command_lines: Count = 100
    # The raw bytes of handled and sent mail are forgotten after this many days (0: kept forever).
    retention_days: Annotated[int, Meta(ge=0)] = 90


class AbsenceConfig(_Section):
    # Days of absence (SET ABSENCE, and the days AUTOABSENCE takes) each address has a calendar
    # year, counted in the player's time zone; a league's `absence_days` caps its own season too.
    days_per_year: Annotated[int, Meta(ge=0, le=366)] = 30


class LogConfig(_Section):
    file: Path | None = None     # one line per message handled; stderr when not set
    # None: info for `pbem run` and a log file, warnings alone for a command's stderr (-v: info).
    level: Literal["debug", "info", "warning"] | None = None


class Config(_Section):
    gm: GMConfig
    store: Path = Path("./pbem.sqlite3")
    transport: Literal["local", "imap"] = "local"
    local: LocalConfig = field(default_factory=LocalConfig)
    imap: IMAPConfig = field(default_factory=IMAPConfig)
    smtp: SMTPConfig = field(default_factory=SMTPConfig)
    games: GamesConfig = field(default_factory=GamesConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    absence: AbsenceConfig = field(default_factory=AbsenceConfig)
    log: LogConfig = field(default_factory=LogConfig)
    config_dir: Path = Path(".")


def find_path(explicit: str | None) -> Path:
    """``--config FILE``, else ``$PBEM_CONFIG``, else ``pbem.yaml`` in the current folder."""
    if explicit:
        return Path(explicit).expanduser()
    from_env = os.environ.get(ENV_CONFIG, "").strip()
    if from_env:
        return Path(from_env).expanduser()
    return Path.cwd() / DEFAULT_FILE


def load(path: Path) -> Config:
    """Read and check the file; every problem found is reported together in one ConfigError."""
    path = Path(path)
    data = _read_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError([f"top level: expected a mapping of keys (gm:, store:, transport: ...), "
                           f"got {_show(data)}"])
    problems: list[str] = []
    data = _substitute(data, (), problems)
    unset = {line.split(":", 1)[0] for line in problems}
    if "config_dir" in data:
        problems.append("config_dir: unknown key")
        del data["config_dir"]
    for section in ("gm", "local", "imap", "smtp", "games", "limits", "absence", "log"):
        if data.get(section, None) is None:
            data[section] = {}  # an empty section (``imap:`` alone) means all its defaults
    folder = Path(os.path.abspath(path)).parent
    data["config_dir"] = folder
    found: list[str] = []
    config = _section(Config, data, (), folder, found)
    problems += [line for line in found if line.split(":", 1)[0] not in unset]
    problems += _cross_checks(data)
    if problems or config is None:
        raise ConfigError(problems)
    return config


def local_defaults(folder: Path, gm_address: str = "gm@example.test") -> Config:
    """A working local-transport configuration rooted in ``folder`` (for ``pbem demo``)."""
    folder = Path(os.path.abspath(folder))
    data = {"gm": {"address": gm_address}, "transport": "local", "config_dir": folder}
    problems: list[str] = []
    config = _section(Config, data, (), folder, problems)
    if problems or config is None:
        raise ConfigError(problems)
    return config


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError([f"{path}: config file not found"]) from None
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: config file is not UTF-8 text"]) from None
    except OSError as err:
        raise ConfigError([f"{path}: cannot read config file: {err.strerror or err}"]) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = getattr(err, "problem", None) or "cannot be parsed"
        raise ConfigError([f"{path}: YAML syntax error{where}: {what}"]) from None


def _substitute(value: Any, loc: tuple, problems: list[str]) -> Any:
    """Replace ``${NAME}`` in every string value by the environment variable NAME."""
    if isinstance(value, dict):
        return {k: _substitute(v, loc + (k,), problems) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, loc + (i,), problems) for i, v in enumerate(value)]
    if not isinstance(value, str):
        return value

    def one(match: re.Match) -> str:
        name = match.group(1)
        if name not in os.environ:
            problems.append(f"{_dotted(loc)}: environment variable {name} is not set")
            return match.group(0)
        return os.environ[name]

    return _ENV_REF.sub(one, value)


def _cross_checks(data: dict) -> list[str]:
    return _contact_check(data.get("gm")) + _imap_checks(data)


def _contact_check(gm: Any) -> list[str]:
    """gm.contact is a person's address: mail to the GM's own (with a +tag or without) is read by pbem."""
    contact, address = (gm.get("contact"), gm.get("address")) if isinstance(gm, dict) else (None, None)
    if not (isinstance(contact, str) and isinstance(address, str)):
        return []
    local, _, domain = contact.strip().lower().partition("@")
    if f"{local.split('+', 1)[0]}@{domain}" != address.strip().lower():
        return []
    return [f"gm.contact: expected the address of a person who runs this GM, got gm.address itself "
            f"({_show(contact)}), whose mail pbem reads"]


def _imap_checks(data: dict) -> list[str]:
    transport = data.get("transport")
    if not isinstance(transport, str) or transport.strip().lower() != "imap":
        return []
    problems = []
    for section in ("imap", "smtp"):
        settings = data.get(section)
        host = settings.get("host") if isinstance(settings, dict) else None
        if isinstance(settings, dict) and isinstance(host, str) and not host.strip():
            problems.append(f"{section}.host: required when transport is imap")
    return problems


def _is_section(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Struct)


def _section(cls: type, data: dict, loc: tuple, base: Path, problems: list[str]) -> Any:
    """``data`` as a ``cls``, or None after adding one line to ``problems`` per problem.

    Each known key is converted on its own; a missing one takes its default, which is checked
    too (so default paths are resolved); keys the section does not know are reported.
    """
    start, values = len(problems), {}
    fields = msgspec.structs.fields(cls)
    for info in fields:
        if info.name in data:
            value = data[info.name]
        elif info.required:
            problems.append(f"{_dotted(loc + (info.name,))}: required")
            continue
        elif _is_section(info.type):
            value = {}
        else:
            value = info.default_factory() if info.default is msgspec.NODEFAULT else info.default
        values[info.name] = _value(value, info.type, loc + (info.name,), base, problems)
    known = {info.name for info in fields}
    problems += [f"{_dotted(loc + (key,))}: unknown key" for key in data if key not in known]
    return cls(**values) if len(problems) == start else None


def _value(value: Any, kind: Any, loc: tuple, base: Path, problems: list[str]) -> Any:
    """One setting as ``kind`` (a section, a list, or a single value); problems are added."""
    if isinstance(kind, UnionType) or get_origin(kind) is Union:  # ``X | None``
        if value is None and NoneType in get_args(kind):
            return None
        kind = next(option for option in get_args(kind) if option is not NoneType)
    if _is_section(kind):
        if isinstance(value, dict):
            return _section(kind, value, loc, base, problems)
        problems.append(f"{_dotted(loc)}: expected a mapping of keys, got {_show(value)}")
    elif get_origin(kind) is list:
        if isinstance(value, list):
            (item,) = get_args(kind)
            return [_value(v, item, loc + (i,), base, problems) for i, v in enumerate(value)]
        problems.append(f"{_dotted(loc)}: expected a list, got {_show(value)}")
    else:
        try:
            return _scalar(value, kind, base)
        except ValueError as err:
            problems.append(f"{_dotted(loc)}: {err}")
    return None


_EXPECTED = {int: "an integer", float: "a number", bool: "true or false", str: "text"}
_BOUNDS = (("gt", "above", operator.gt), ("ge", "at least", operator.ge),
           ("lt", "below", operator.lt), ("le", "at most", operator.le))
_BOOL_WORDS = {word: True for word in ("true", "t", "yes", "y", "on", "1")} | {
    word: False for word in ("false", "f", "no", "n", "off", "0")}


def _scalar(value: Any, kind: Any, base: Path) -> Any:
    """A single value converted by msgspec, then given the checks in its type."""
    plain, extras = (get_args(kind)[0], get_args(kind)[1:]) if get_origin(kind) is Annotated \
        else (kind, ())
    if get_origin(plain) is Literal:
        return _choice(value, get_args(plain))
    if plain is Path:
        if not isinstance(value, (str, Path)):
            raise BadSetting(f"expected a file path, got {_show(value)}")
        return _resolve(Path(value), base)
    try:
        result = msgspec.convert(_lax(value, plain), kind, strict=False)
    except msgspec.ValidationError:
        raise BadSetting(_mismatch(value, plain, extras)) from None
    for check in extras:
        if not isinstance(check, Meta):
            result = check(result)
    return result


def _lax(value: Any, plain: type) -> Any:
    """What YAML or ``${ENV}`` gives, eased toward ``plain``: ``password: 12345`` is text."""
    if plain is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if plain is bool and isinstance(value, str):
        return _BOOL_WORDS.get(value.strip().lower(), value)
    if plain in (int, float) and isinstance(value, str):
        return value.strip()
    return value


def _mismatch(value: Any, plain: type, extras: tuple) -> str:
    """Why msgspec refused ``value``: the wrong kind of value, or one out of its bounds."""
    wanted = f"expected {_EXPECTED.get(plain, plain.__name__)}, got {_show(value)}"
    if plain not in (int, float):  # only numbers have bounds
        return wanted
    try:
        number: float = msgspec.convert(_lax(value, plain), plain, strict=False)
    except msgspec.ValidationError:
        return wanted
    for meta in (extra for extra in extras if isinstance(extra, Meta)):
        for name, words, holds in _BOUNDS:
            limit = getattr(meta, name)
            if limit is not None and not holds(number, limit):
                return f"expected a number {words} {limit}, got {_show(value)}"
    return wanted


def _choice(value: Any, names: tuple) -> str:
    """One of ``names``, in any case (an unknown value is reported as the user wrote it)."""
    folded = value.strip().lower() if isinstance(value, str) else value
    if folded not in names:
        raise BadSetting(f"expected one of {', '.join(names)}, got {_show(value)}")
    return folded


def _resolve(value: Path, base: Path) -> Path:
    """Relative to the config file's folder."""
    value = value.expanduser()
    if value.is_absolute():
        return value
    return Path(os.path.normpath(base / value))


def _dotted(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "top level"


def _show(value: Any) -> str:
    """A value from the file as the user wrote it, for 'got ...'."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return str(value)
