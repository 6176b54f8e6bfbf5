"""Values as the store keeps them: times as ISO text in UTC, rows as dicts."""
from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any, overload


@overload
def iso(dt: datetime) -> str: ...
@overload
def iso(dt: None) -> None: ...
@overload
def iso(dt: datetime | None) -> str | None: ...
def iso(dt: datetime | None) -> str | None:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def moment(text: str) -> datetime:
    """A time the store keeps (ISO text, never empty) as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def from_iso(text: str | None) -> datetime | None:
    """A time the store may lack (NULL, or empty) as an aware datetime, or None."""
    return moment(text) if text else None


def dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    """A cursor's rows as dicts, by column name."""
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]
