"""Values as the store keeps them: times as ISO text in UTC, rows as dicts."""
from __future__ import annotations

from datetime import datetime


def iso(dt: datetime | None) -> str | None:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def from_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def dicts(cursor) -> list[dict]:
    """A cursor's rows as dicts, by column name."""
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]
