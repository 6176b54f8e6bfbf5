"""The open tables' own mail: every one of kind `table`, its subject starting `[<table id>]`
(CONTRACT sections 5 and 13), written from the templates in `templates/table/`.

An answer to mail that proved nothing (a JOIN, a LIST) carries no text of the sender's: not
their name, not their words, so that a forged From gets its victim nothing of the forger's.
"""
from __future__ import annotations

from datetime import datetime

from pbem.clock import format_utc, parse_duration
from pbem.games import game_type, spec_for
from pbem.mail.clean import clean
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter
from pbem.render import render
from pbem.tables.book import OpenTable, TableSeat, open_tables, seats

KIND = MailKind.TABLE
# A name taken from a From line: one line, this long at most.
LONGEST_NAME = 60
# The most tables one LIST answer describes (an answer to a stranger stays short).
LISTED = 12


def seat_name(name: str | None, address: str) -> str:
    """A player's name from a From line, cleaned: one line of at most 60 characters, or the
    address's local part when there is none."""
    name = clean(name or "", LONGEST_NAME).strip('"').strip()
    return name or address.split("@")[0]


def describe(store, t: OpenTable, now: datetime) -> dict:
    """A table as its mail speaks of it (no address of anyone who sat down)."""
    taken = len(seats(store, t.id))
    # Past its start time only a `wait` table is still open for long (the next pass fills or
    # closes the others), so only its mail speaks of the time as past.
    waiting = bool(t.starts and t.starts <= now and t.fill == "wait")
    return {"id": t.id, "type": t.type, "title": game_type(t.type).TITLE, "seats": t.seats, "taken": taken,
            "free": max(t.seats - taken, 0), "min": t.min, "fill": t.fill, "status": t.status, "game": t.game,
            "starts": format_utc(t.starts) if t.starts else None, "past_start": waiting,
            "deadline": spoken(t.deadline),
            "course": (t.course.get("name") or "") if spec_for(t.type).uses_course else ""}


def spoken(duration: str | None) -> str | None:
    """A turn's time as a sentence says it: `48h` is "2 days", `90m` "1 hour 30 minutes"."""
    if not duration:
        return None
    total = int(parse_duration(duration).total_seconds()) // 60
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((days, "day"), (hours, "hour"),
                                                                  (minutes, "minute")) if n]
    return " ".join(parts) or duration


def listing(store, now: datetime, type_name: str | None = None) -> tuple[list[dict], int]:
    """The open tables a LIST answer describes, and how many more there are."""
    found = open_tables(store, type_name)
    return [describe(store, t, now) for t in found[:LISTED]], max(len(found) - LISTED, 0)


def write(postman, template: str, to_addr: str, *, table_id: str | None, answer=None, authenticated: bool = False,
          to_name: str = "", secret: str | None = None, game_id: str | None = None, **extra) -> None:
    """One table mail. `answer`: the message it answers (In-Reply-To); `authenticated`: that
    message proved its address, so its References may be carried on."""
    ctx = postman.context(None, None)
    ctx.update(extra, game_id=game_id, table_id=table_id)
    subject, text = render(template, "table", **ctx)
    prefix = f"[{table_id}] " if table_id else ""
    postman.post(Letter(kind=KIND, to_addr=to_addr, to_name=to_name, game_id=game_id, subject=prefix + subject,
                        text=text, secret=secret, in_reply_to=answer.message_id if answer is not None else None,
                        references=answer.references if answer is not None and authenticated else ()),
                 topic=f"table/{template}")


def to_seat(postman, seat: TableSeat, template: str, *, table_id: str, **extra) -> None:
    """News of a table to one who sat down at it (no answer to anything)."""
    write(postman, template, seat.address, table_id=table_id, to_name=seat.name, name=seat.name, **extra)


__all__ = ["KIND", "LISTED", "LONGEST_NAME", "describe", "listing", "seat_name", "to_seat", "write"]
