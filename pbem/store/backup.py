"""A copy of the store taken while passes run: SQLite's online backup, in one read transaction.

In WAL mode a reader sees the store as it stood when its transaction began and holds no writer
back, so the copy is one committed moment of the store even while a pass writes. The copy is
written beside its target under a temporary name and renamed into place once it is whole and
checked: an interrupted backup leaves no half copy, and a copy replaced (`force`) is replaced
only by a whole one.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from pbem.store.schema import SCHEMA_VERSION
from pbem.store.file import StoreError, schema_of, store_error


@dataclass(frozen=True)
class Copied:
    games: int
    size: int  # bytes


def back_up(source: Path, target: Path, force: bool = False) -> Copied:
    """Copy the store at `source` to `target`. StoreError (temporary when the store is busy) for
    anything that stops it; the store itself is only read."""
    if not source.is_file():
        raise StoreError(f"store: {source} does not exist: there is nothing to back up yet")
    if target.is_dir():
        raise StoreError(f"{target} is a folder; name a file in it, like {target / 'pbem-backup.sqlite3'}")
    if target.exists() and _same(source, target):
        raise StoreError(f"{target} is the store itself; name another file")
    own = source.resolve()
    if target.resolve() in {own.with_name(own.name + side) for side in ("-wal", "-shm", "-journal", ".lock")}:
        raise StoreError(f"{target} is one of the store's own files; name another file")
    if target.exists() and not force:
        raise StoreError(f"{target} exists; name a new file, or add --force to replace it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot make the folder {target.parent} ({e.strerror or e})") from None
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        copied = _copy(source, part)
        os.replace(part, target)
        _sync_folder(target.parent)
        return copied
    except StoreError:
        raise
    except (OSError, sqlite3.Error) as e:
        if isinstance(e, sqlite3.OperationalError) and ("locked" in str(e) or "busy" in str(e)):
            raise store_error(source, e) from None
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StoreError(f"cannot write {target} ({reason})") from None
    finally:
        part.unlink(missing_ok=True)


def _copy(source: Path, part: Path) -> Copied:
    part.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(str(source), timeout=30, isolation_level=None)
    except sqlite3.Error as e:
        raise store_error(source, e) from None
    try:
        try:
            src.execute("PRAGMA busy_timeout = 30000")
            # Another program's file, or a newer pbem's store, is not copied as this one's.
            if schema_of(src, source, SCHEMA_VERSION) is None:
                raise StoreError(f"store: {source} is empty: there is nothing to back up yet")
        except sqlite3.Error as e:
            raise store_error(source, e) from None
        dst = sqlite3.connect(str(part), isolation_level=None)
        try:
            # All pages in one step: one read transaction, so one committed moment, and a write
            # by a pass meanwhile does not restart the copy (as it would between steps).
            src.backup(dst, pages=-1)
            # The copy is one self-contained file (no -wal beside it); the store puts it back in
            # WAL mode when it opens it.
            dst.execute("PRAGMA journal_mode = DELETE")
            problems = [row[0] for row in dst.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"the copy of {source} does not check out: {problems[0]}")
            games = dst.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            dst.close()
    finally:
        src.close()
    with open(part, "rb+") as fh:
        os.fsync(fh.fileno())
    return Copied(games, part.stat().st_size)


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _sync_folder(folder: Path) -> None:
    """The rename itself made durable (a power cut after the command has said 'done')."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
