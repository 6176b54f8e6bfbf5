"""Reliability (CONTRACT section 14): per address, the deadlines owed and those met over every
game, league or not, in the last 365 days; `on_time` as a league's standings count it (section
10), and counted by the one function both use (`count`).

A deadline owed is a turn (or a move) a seat owed orders for: orders sent for it count as owed
and met (once a turn, however often they were changed); orders the GM played for a silent seat
(`nmr`) as owed only. A seat's record goes to whoever held it then: the address it was created
with until the first `replace`, then the address that replace names (the holder now, for the
last one of an old log that names none; nobody, for a robot). Worked out afresh from the log
each time, as the ratings are: one query over the events of every game.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.errors import BadValue
from pbem.store import LogEvent, Store, iso

WINDOW = timedelta(days=365)
_ROBOT_HANDLE = re.compile(r"robot-\d+")


class BadShare(BadValue):
    """A least share of deadlines met (`--min-on-time`, `min_on_time:`) that cannot be read."""


@dataclass(frozen=True)
class Orders:
    """A player's orders in one game (or in all): how many were owed, how many came in time."""
    owed: int = 0
    on_time: int = 0

    def __add__(self, other: Orders) -> Orders:
        return Orders(self.owed + other.owed, self.on_time + other.on_time)

    @property
    def share(self) -> float | None:
        """The share met, 0..1; None with nothing owed."""
        return self.on_time / self.owed if self.owed else None


@dataclass
class Count:
    """One game's log, counted: the orders of each holding of a seat, `(seat, stint)`, stint 0
    the seat's first holder and each `replace` of the seat the next; `created` the addresses
    the game began with; `holders` the address a replace names (None: a robot, or not named)."""
    orders: dict[tuple[int, int], Orders] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    holders: dict[tuple[int, int], str | None] = field(default_factory=dict)
    stints: dict[int, int] = field(default_factory=dict)

    def by_seat(self) -> dict[int, Orders]:
        out: dict[int, Orders] = {}
        for (seat, _), orders in self.orders.items():
            out[seat] = out.get(seat, Orders()) + orders
        return out


def count(events: Iterable[dict], *, since: str | None = None, until: str | None = None) -> Count:
    """One pass over a game's standing events (as `Store.events` gives them). `since` and
    `until` (ISO text as the store keeps it) bound the deadlines counted; replacements count
    whenever they were. A turn's orders count once a seat, to the holder who sent them first."""
    return count_steps(((ev["at"], ev["kind"], ev.get("seat"), ev.get("turn"), ev.get("address"),
                         ev.get("robot"), ev.get("addresses")) for ev in events), since=since, until=until)


# What `count_steps` reads of an event: at, kind, seat, turn, address, robot, addresses.
Step = tuple[str, str, int | None, object, str | None, str | None, list | None]


def count_steps(steps: Iterable[Step], *, since: str | None = None, until: str | None = None) -> Count:
    """`count` of events as plain tuples (`Step`), which a query of every game gives at less cost."""
    out = Count()
    tally: dict[tuple[int, int], list[int]] = {}
    sent: dict[int, set] = {}
    stints = out.stints
    for at, kind, seat, turn, address, robot, addresses in steps:
        if kind == LogEvent.CREATED:
            out.created = [str(a).strip().lower() for a in addresses or ()]
            continue
        if seat is None:
            continue
        if kind == LogEvent.REPLACE:
            stint = stints[seat] = stints.get(seat, 0) + 1
            out.holders[(seat, stint)] = None if robot else (str(address).lower() if address else None)
            continue
        if (kind != LogEvent.ORDERS and kind != LogEvent.NMR) or (since is not None and at < since) \
                or (until is not None and at > until):
            continue
        key = (seat, stints.get(seat, 0))
        counts = tally.get(key)
        if counts is None:
            counts = tally[key] = [0, 0]
        if kind == LogEvent.NMR:
            counts[0] += 1
            continue
        turns = sent.get(seat)
        if turns is None:
            turns = sent[seat] = set()
        mark = (turn, 0) if turn is not None else (None, len(turns))
        if mark not in turns:
            turns.add(mark)
            counts[0] += 1
            counts[1] += 1
    out.orders = {key: Orders(owed, met) for key, (owed, met) in tally.items()}
    return out


def holder(counted: Count, seat: int, stint: int, now_holding: str | None) -> str | None:
    """The address that held `seat` in `stint`, or None (a robot, or a holder the log does not
    name). `now_holding`: the seat's address now, None when a robot plays it."""
    last = stint == counted.stints.get(seat, 0)
    if stint == 0:
        found = counted.created[seat] if seat < len(counted.created) else None
        if found is None and last:
            found = now_holding
    else:
        found = counted.holders.get((seat, stint))
        if found is None and last and (seat, stint) in counted.holders and now_holding is not None:
            found = now_holding  # an old log's replace, which named no address: the holder now
    if last and now_holding is None:
        return None
    return None if found is None or _ROBOT_HANDLE.fullmatch(found) else found


# Only what counting reads: a turn of orders, who a replace or the creation names.
_EVENTS = ("SELECT e.game_id, e.at, e.kind, e.seat, json_extract(e.data, '$.turn'), "
           "CASE WHEN e.kind = ? THEN json_extract(e.data, '$.address') END, "
           "CASE WHEN e.kind = ? THEN json_extract(e.data, '$.robot') END, "
           "CASE WHEN e.kind = ? THEN json_extract(e.data, '$.addresses') END FROM events e "
           "WHERE e.undone IS NULL AND ((e.kind IN (?, ?) AND e.at >= ? AND e.at <= ?) OR e.kind IN (?, ?)) "
           "ORDER BY e.game_id, e.id")


def reliability(store: Store, now: datetime) -> dict[str, Orders]:
    """Every address's deadlines owed and met over the `WINDOW` before `now`, over every game."""
    since, until = iso(now - WINDOW), iso(now)
    holding: dict[tuple[str, int], str | None] = {}
    for game_id, seat, address, robot in store.conn.execute("SELECT game_id, seat, address, robot FROM seats"):
        holding[(game_id, seat)] = None if robot else address.lower()
    out: dict[str, Orders] = {}

    def add(game_id: str, events: list[Step]) -> None:
        counted = count_steps(events, since=since, until=until)
        for (seat, stint), orders in counted.orders.items():
            address = holder(counted, seat, stint, holding.get((game_id, seat)))
            if address is not None:
                out[address] = out.get(address, Orders()) + orders

    game: str | None = None
    events: list[Step] = []
    rows = store.conn.execute(_EVENTS, [LogEvent.REPLACE, LogEvent.REPLACE, LogEvent.CREATED, LogEvent.ORDERS,
                                        LogEvent.NMR, since, until, LogEvent.CREATED, LogEvent.REPLACE])
    for game_id, at, kind, seat, turn, address, robot, addresses in rows:
        if game_id != game:
            if game is not None:
                add(game, events)
            game, events = game_id, []
        events.append((at, kind, seat, turn, address, robot, json.loads(addresses) if addresses else None))
    if game is not None:
        add(game, events)
    return out


def figures(orders: Orders | None) -> dict:
    """The keys a row shows: `on_time` (0..1, or None with nothing owed) and `owed`."""
    orders = orders or Orders()
    return {"on_time": orders.share, "owed": orders.owed}


def read_share(text: object) -> float:
    """A least share of deadlines met: a fraction from 0 to 1 (`0.8`), or a percentage (`80%`)."""
    words = str(text).strip()
    try:
        value = float(words[:-1]) / 100 if words.endswith("%") else float(words)
    except ValueError:
        raise BadShare(f"expected a fraction from 0 to 1 (like 0.8) or a percentage (like 80%), "
                       f"got {words[:40]!r}") from None
    if not 0 <= value <= 1:
        raise BadShare(f"expected a fraction from 0 to 1 (like 0.8) or a percentage up to 100% "
                       f"(like 80%), got {words[:40]!r}")
    return value


def below(orders: Orders | None, least: float | None) -> bool:
    """Whether a record falls short of `least`; nothing owed yet never does."""
    share = (orders or Orders()).share
    return least is not None and share is not None and share < least


def percent(share: float) -> str:
    """`92%` (never rounded up to 100% while one was missed, nor down to 0% while one was met)."""
    whole = round(share * 100)
    if whole == 100 and share < 1:
        whole = 99
    if whole == 0 and share > 0:
        whole = 1
    return f"{whole}%"


__all__ = ["WINDOW", "BadShare", "Count", "Orders", "Step", "below", "count", "count_steps", "figures", "holder",
           "percent", "read_share", "reliability"]
