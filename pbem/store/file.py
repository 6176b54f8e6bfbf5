"""Whether the file that `store:` names can be pbem's store, and if not, why, in one line.

Everything here looks before anything is written: a folder, a file that is not SQLite, another
program's database or a newer pbem's store is refused and left exactly as it was.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from pbem.errors import PbemError


class StoreError(PbemError):
    """The `store` file cannot be pbem's store: one line that names the setting and the file.
    `temporary` when another process holds it (trying again later helps; mending nothing does)."""

    def __init__(self, problem: str, temporary: bool = False):
        super().__init__(problem)
        self.temporary = temporary


def check_path(path: Path) -> None:
    """The store's folder made if missing; StoreError when the path cannot hold a store."""
    if path.is_dir():
        raise StoreError(f"store: {path} is a folder; name a file in it, like {path / 'pbem.sqlite3'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError(f"store: cannot make the folder {path.parent} (a part of that path is a file)") from None
    except OSError as e:
        raise StoreError(f"store: cannot make the folder {path.parent} ({e.strerror or e})") from None
    # The first write would fail in the middle of some command: say so before any.
    for where in (path, path.parent):
        if where.exists() and not os.access(where, os.W_OK):
            raise StoreError(f"store: {where} is not writable by this user (pbem writes the store "
                             "and its -wal file beside it)")


def schema_of(conn: sqlite3.Connection, path: Path, newest: int) -> int | None:
    """The schema version of the store open on `conn`, None for an empty file; StoreError for a
    file that is some other program's, or a store of a pbem newer than `newest`."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "games" not in tables:
        if tables:  # another program's database: pbem must not write its tables into it
            raise StoreError(f"store: {path} is a SQLite file of another program (no games in it); "
                             "name a new file")
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if "meta" in tables else None
    if row is None or not str(row[0]).isdigit():
        raise StoreError(f"store: {path} is not a pbem store (it has no schema version); name a new file")
    if int(row[0]) > newest:
        raise StoreError(f"store: {path} was written by a newer pbem (schema {row[0]}; this one reads "
                         f"up to {newest}): run that version")
    return int(row[0])


def store_error(path: Path, error: Exception) -> StoreError:
    """Why the store cannot be opened, as the GM can mend it."""
    if isinstance(error, StoreError):
        return error
    text = str(error)
    if isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return StoreError(f"store: {path} is busy (another pbem holds it): {text}", temporary=True)
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return StoreError(f"store: {path} is not a SQLite file; name a new file, or move this one away")
    reason = error.strerror if isinstance(error, OSError) and error.strerror else text
    return StoreError(f"store: cannot open {path} ({reason})")
