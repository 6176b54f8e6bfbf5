"""The YAML configuration: found, read, checked, and refused with one plain line per problem."""
from __future__ import annotations

import json
import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field,
                      ValidationError, ValidationInfo)

from pbem.clock import parse_duration

ENV_CONFIG = "PBEM_CONFIG"
DEFAULT_FILE = "pbem.yaml"
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_EMAIL = re.compile(r"^[^@\s<>()\[\],;:\"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$")


class ConfigError(Exception):
    """The configuration cannot be used; ``problems`` has one line per problem."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


def _resolve(value: Path, info: ValidationInfo) -> Path:
    # Relative to the config file's folder, which ``load`` passes in as validation context.
    base = (info.context or {}).get("base")
    value = value.expanduser()
    if base is None or value.is_absolute():
        return value
    return Path(os.path.normpath(Path(base) / value))


def _email(value: str) -> str:
    if not _EMAIL.match(value.strip()):
        raise ValueError(f"expected an email address like gm@example.test, got {_show(value)}")
    return value.strip()


def _duration(value: str) -> str:
    try:
        parse_duration(value)
    except ValueError:
        raise ValueError(f"expected a duration like 48h, 3d or 90m, got {_show(value)}") from None
    return value


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


RelPath = Annotated[Path, AfterValidator(_resolve)]
Email = Annotated[str, AfterValidator(_email)]
Duration = Annotated[str, AfterValidator(_duration)]
Port = Annotated[int, Field(ge=1, le=65535)]


def _choice(*names: str) -> Any:
    """One of ``names``, in any case (an unknown value is reported as the user wrote it)."""
    def fold(value: Any) -> Any:
        return _lower(value) if _lower(value) in names else value
    return Annotated[Literal[names], BeforeValidator(fold)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True, coerce_numbers_to_str=True)


class GMConfig(_Section):
    address: Email
    name: str = "Golf GM"
    admins: list[Email] = []
    secret: str | None = None


class LocalConfig(_Section):
    maildir: RelPath = Path("./mail")


class IMAPConfig(_Section):
    host: str = "127.0.0.1"
    port: Port = 993
    security: _choice("ssl", "none") = "ssl"
    username: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    processed_mailbox: str = "pbem-processed"
    idle: bool = True
    cafile: RelPath | None = None
    poll_seconds: float = Field(60, gt=0)


class SMTPConfig(_Section):
    host: str = "127.0.0.1"
    port: Port = 465
    security: _choice("ssl", "starttls", "none") = "ssl"
    username: str = ""
    password: str = ""
    cafile: RelPath | None = None
    timeout: float = Field(30, gt=0)
    retry_seconds: float = Field(30, gt=0)  # first wait after a temporary failure; doubles up to 1 h


class GamesConfig(_Section):
    deadline: Duration = "72h"
    nmr: _choice("autoplay", "wait", "forfeit") = "autoplay"
    reminder_before: Duration = "12h"

    @property
    def deadline_delta(self) -> timedelta:
        return parse_duration(self.deadline)

    @property
    def reminder_delta(self) -> timedelta:
        return parse_duration(self.reminder_before)


class LimitsConfig(_Section):
    # A sender past this many messages in an hour gets one warning, then no answer until the
    # flood stops (the messages are still kept).
    messages_per_hour: int = Field(30, gt=0)


class LogConfig(_Section):
    file: RelPath | None = None     # one line per message handled; stderr when not set
    level: _choice("debug", "info", "warning") = "info"


class Config(_Section):
    gm: GMConfig
    store: RelPath = Path("./pbem.sqlite3")
    transport: _choice("local", "imap") = "local"
    local: LocalConfig = Field(default_factory=dict)
    imap: IMAPConfig = Field(default_factory=dict)
    smtp: SMTPConfig = Field(default_factory=dict)
    games: GamesConfig = Field(default_factory=dict)
    limits: LimitsConfig = Field(default_factory=dict)
    log: LogConfig = Field(default_factory=dict)
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
    for section in ("gm", "local", "imap", "smtp", "games"):
        if data.get(section, None) is None:
            data[section] = {}  # an empty section (``imap:`` alone) means all its defaults
    folder = Path(os.path.abspath(path)).parent
    data["config_dir"] = folder
    config = None
    try:
        config = Config.model_validate(data, context={"base": folder})
    except ValidationError as err:
        problems += [line for line in (_describe(e) for e in err.errors())
                     if line.split(":", 1)[0] not in unset]
    problems += _cross_checks(data)
    if problems or config is None:
        raise ConfigError(problems)
    return config


def local_defaults(folder: Path, gm_address: str = "gm@example.test") -> Config:
    """A working local-transport configuration rooted in ``folder`` (for ``pbem demo``)."""
    folder = Path(os.path.abspath(folder))
    data = {"gm": {"address": gm_address}, "transport": "local", "config_dir": folder}
    return Config.model_validate(data, context={"base": folder})


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
    if _lower(data.get("transport")) != "imap":
        return []
    problems = []
    for section in ("imap", "smtp"):
        settings = data.get(section)
        host = settings.get("host") if isinstance(settings, dict) else None
        if isinstance(settings, dict) and isinstance(host, str) and not host.strip():
            problems.append(f"{section}.host: required when transport is imap")
    return problems


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


_EXPECTED = {
    "int_parsing": "an integer", "int_type": "an integer", "int_from_float": "an integer",
    "float_parsing": "a number", "float_type": "a number",
    "bool_parsing": "true or false", "bool_type": "true or false",
    "string_type": "text", "path_type": "a file path",
    "list_type": "a list", "model_type": "a mapping of keys", "dict_type": "a mapping of keys",
    "model_attributes_type": "a mapping of keys",
}


def _describe(error: dict) -> str:
    """One pydantic error as a plain line: ``smtp.port: expected an integer, got "abc"``."""
    key = _dotted(tuple(error["loc"]))
    kind, ctx, got = error["type"], error.get("ctx") or {}, _show(error.get("input"))
    if kind == "missing":
        return f"{key}: required"
    if kind == "extra_forbidden":
        return f"{key}: unknown key"
    if kind == "literal_error":
        choices = ", ".join(re.findall(r"'([^']*)'", str(ctx.get("expected", ""))))
        return f"{key}: expected one of {choices}, got {got}"
    if kind == "value_error" and "error" in ctx:
        return f"{key}: {ctx['error']}"
    if kind in _EXPECTED:
        return f"{key}: expected {_EXPECTED[kind]}, got {got}"
    bounds = {"greater_than": "above", "greater_than_equal": "at least",
              "less_than": "below", "less_than_equal": "at most"}
    if kind in bounds:
        limit = next(iter(ctx.values()), "")
        limit = f"{limit:g}" if isinstance(limit, float) else limit
        return f"{key}: expected a number {bounds[kind]} {limit}, got {got}"
    return f"{key}: {error['msg']}, got {got}"
