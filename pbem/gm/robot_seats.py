"""Robot seats at the GM's table (CONTRACT section 12): who they are, and their moves.

A player SPEC of `robot`, `robot:<level>` or `"<Name> <robot:<level>>"` makes a robot seat. Its
`Seat.robot` is its level; its address is only a handle, `robot-<n>` (n: the seat from 1, or
the league's own number for a league's robot player), that no mail ever goes to; its secret is
empty, so no mail can ever speak for it.

A robot moves in the same pass in which it comes to owe a move (`move`): the GM hands
`pbem.robots` the seat's view (`state.view(seat)`, what STATUS shows the seat), the game's
public options and the robot's own stream (`robot_generator(seed, seat, move index)`), reads
the order it returns with the game's own grammar, checks it like a player's, and plays it
through `Turns` like a player's order without a message: the other players hear of it as of
anyone's move. The event of each robot order names the robot's level, version and move index,
so that `pbem verify` can compute it again.
"""
from __future__ import annotations

import logging
import re

from pbem.errors import BadValue
from pbem.games.errors import BadOption, GameRefused
from pbem.mail.clean import clean
from pbem.robots import LEVELS, robot_types, version
from pbem.robots.door import order_for
from pbem.store import LogEvent, Seat
from pbem.gm import takeover
from pbem.gm.pacing import plays_by_toss, round_the_table

log = logging.getLogger("pbem")

__all__ = ["DEFAULT_LEVEL", "RobotSpecError", "allow_robots_only", "check_game_type", "free_handle", "handle_of",
           "is_robot_spec", "level_of", "move", "nmr_command", "read_spec", "robot_name", "seat_of_key", "told_apart"]

DEFAULT_LEVEL = "strong"
# The most robot orders one call plays (a whole robots-only hole is a few hundred): a bound, so
# that a game of robots that could go round for ever waits for the next pass instead.
MOVES_A_CALL = 2_000
_SPEC = re.compile(r"robot(?::([A-Za-z]+))?", re.IGNORECASE)
_NAMED = re.compile(r'\s*"?([^"<>]*?)"?\s*<\s*([^<>]*?)\s*>\s*')
# How a robot player travels from a SPEC to its seat: `robot:<level>`, or `robot-<n>:<level>`
# when a league gives its robot player a handle of its own.
_ADDRESS = re.compile(r"(robot(?:-[0-9]{1,4})?):(" + "|".join(LEVELS) + ")")


class RobotSpecError(BadValue):
    """A SPEC that asks for a robot in a way pbem cannot seat."""


def robot_name(level: str) -> str:
    return f"Robot ({level})"


# A robot SPEC is short: a longer one (a GM's mail may hold a very long line) is no robot's,
# and is never handed to the patterns below.
LONGEST_SPEC = 200
LONGEST_NAME = 60


def is_robot_spec(spec: str) -> bool:
    """Whether `spec` asks for a robot (rightly or not): `robot...` alone or in angle brackets."""
    if len(spec) > LONGEST_SPEC:
        return False
    m = _NAMED.fullmatch(spec)
    inner = (m.group(2) if m else spec).strip()
    return inner.lower() == "robot" or inner.lower().startswith("robot:")


def read_spec(spec: str) -> tuple[str, str] | None:
    """(name, `robot:<level>`) for a SPEC that names a robot, None for any other SPEC; a robot
    SPEC with an unknown level raises `RobotSpecError`."""
    if not is_robot_spec(spec):
        return None
    m = _NAMED.fullmatch(spec)
    name, inner = (m.group(1).strip(), m.group(2).strip()) if m else ("", spec.strip())
    found = _SPEC.fullmatch(inner)
    level = (found.group(1) or DEFAULT_LEVEL).lower() if found else ""
    if level not in LEVELS:
        raise RobotSpecError(f"{spec.strip()[:60]!r}: a robot's level is {' or '.join(LEVELS)} "
                             f"(robot, robot:easy, robot:strong, \"Caddie <robot:strong>\")")
    if any(ord(c) < 32 or ord(c) == 127 for c in name) or len(name) > LONGEST_NAME:
        raise RobotSpecError(f"a robot's name is one line of text of at most {LONGEST_NAME} characters")
    return (clean(name, LONGEST_NAME) or robot_name(level)), f"robot:{level}"


def level_of(address: str) -> str | None:
    """The level of a robot player's address as specs carry it (`robot:strong`), else None."""
    m = _ADDRESS.fullmatch(address)
    return m.group(2) if m else None


def handle_of(address: str, seat: int) -> str:
    """The robot seat's handle: the league's (`robot-<n>:...`), else `robot-<seat + 1>`."""
    m = _ADDRESS.fullmatch(address)
    return m.group(1) if m and m.group(1) != "robot" else f"robot-{seat + 1}"


def check_game_type(type_name: str) -> None:
    if type_name not in robot_types():
        raise RobotSpecError(f"no robot plays {type_name} yet")


def marks(level: str, game_type: str, index: int) -> dict:
    """What a robot order's event says of it (`pbem verify` reads it)."""
    return {"robot": level, "version": version(game_type), "move": index}


def robot_moves(events: list[dict], seat: int) -> int:
    """How many robot orders `seat` has played: the index of its next move's stream."""
    return sum(1 for ev in events if ev.get("seat") == seat and ev.get("robot")
               and ev["kind"] in (LogEvent.ORDERS, LogEvent.NMR))


def move(turns) -> list[str]:
    """Every robot seat that owes a move makes it now, and the moves it leads to (a robot to play
    after a robot), until a player owes one or the game is over. Returns what was played."""
    table = turns.table
    robots = {seat.seat: seat for seat in table.seats if seat.robot}
    if table.row.status != "active":
        return []
    # A player's seat the strong robot plays since they missed too many deadlines (`takeover`).
    levels = {s: seat.robot for s, seat in robots.items()} | {s: takeover.LEVEL for s in
                                                               takeover.robot_played(turns.store, table)}
    robots |= {s: table.seats[s] for s in levels if s not in robots}
    if not robots:
        return []
    state = table.state
    events = turns.store.events(table.id)
    played: dict[int, int] = {s: robot_moves(events, s) for s in robots}
    done: list[str] = []
    tosses = turns.tosses if plays_by_toss(state) else None
    batch = tosses.batch if tosses is not None else False
    if tosses is not None:  # the holes the robots close are reported with the pass's others, once
        tosses.batch = True
    try:
        _play(turns, robots, levels, played, done)
    finally:
        if tosses is not None:
            tosses.batch = batch
    if tosses is not None and not batch:
        tosses.flush()
    return done


def _play(turns, robots: dict, levels: dict, played: dict[int, int], done: list[str]) -> None:
    table, state = turns.table, turns.table.state
    acted: int | None = None
    for _ in range(MOVES_A_CALL):
        owing = sorted(s for s in state.to_move() if s in robots) if state.result() is None else []
        if not owing:
            break
        seat = robots[owing[0]]
        if acted is not None and acted != seat.seat and round_the_table(state):
            turns.announce(actor=acted)
        command, mark = _command(state, table, seat, played[seat.seat], levels[seat.seat])
        turns.marks = mark
        try:
            done.append(turns.orders(seat, command, None))
        finally:
            turns.marks = {}
        played[seat.seat] += 1
        acted = seat.seat
        if plays_by_toss(state):  # a hole every seat has finished closes, and the next opens
            turns.tosses.settle()
    else:
        log.warning("game %s: robots made %d moves in one go; the rest wait for the next pass",
                    table.id, MOVES_A_CALL)
    if acted is not None and round_the_table(state):
        turns.announce(actor=acted)


def _command(state, table, seat: Seat, index: int, level: str | None = None):
    """(command, what its event says of it). A robot that fails must not stop the game (the
    message of the player who moved before it would fail with it): the seat plays the default
    order instead, the event says so, and the GM's log says why."""
    level = level or seat.robot
    assert level is not None  # a robot's own seat, or the level a missed deadline's robot plays at
    mark = marks(level, table.type, index)
    try:
        return order_for(state, table.type, seat.seat, level, table.row.options, bytes(table.row.seed_value),
                         index), mark
    except Exception as e:
        log.error("game %s: the robot in seat %d failed (%s: %s); it plays the default order", table.id,
                  seat.seat + 1, type(e).__name__, str(e)[:200])
        return state.default_orders(seat.seat), {**mark, "fallback": True}


def nmr_command(state, table, seat: int):
    """`nmr=robot`: the strong robot's move for a seat that missed its deadline, and what its
    event says of it."""
    events = table.store.events(table.id) if table.store is not None else []
    return _command(state, table, table.seats[seat], robot_moves(events, seat), DEFAULT_LEVEL)


def allow_robots_only(options: dict, players: list[tuple[str, str]]) -> None:
    """Takes `robots_only` out of a new game's options (the GM's, not the rules'), and refuses a
    game whose every seat is a robot unless it says `robots_only=true`."""
    value = options.pop("robots_only", False)
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise BadOption(f"option robots_only: expected one of true, false, got {str(value)[:40]!r}")
    if players and all(level_of(address) for _, address in players) and text != "true":
        raise GameRefused("every seat of this game is a robot: add --option robots_only=true to let robots "
                          "play a game among themselves")


def seat_of_key(seats: list[Seat], key: str) -> Seat | None:
    """The robot's seat that `key` names (`robot-<n>`, as `pbem show --json` keys it)."""
    m = re.fullmatch(r"robot-([0-9]{1,3})", key.strip().lower())  # ASCII digits only
    if not m:
        return None
    n = int(m.group(1)) - 1
    return next((s for s in seats if s.robot and s.seat == n), None)


def free_handle(seats: list[Seat], seat: int) -> str:
    """A handle for a seat handed to a robot: `robot-<seat + 1>`, unless another seat has it."""
    taken = {s.address for s in seats if s.seat != seat}
    handle, n = f"robot-{seat + 1}", len(seats)
    while handle in taken:
        n += 1
        handle = f"robot-{n}"
    return handle


def told_apart(names: list[str], levels: list[str | None]) -> list[str]:
    """Two robots of one level at a table would both be `Robot (strong)`: the second is
    `Robot (strong) 2`, the third `Robot (strong) 3` (a name the GM gave stays as given)."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for name, level in zip(names, levels):
        if level and name == robot_name(level) and name in seen:
            seen[name] += 1
            name = f"{name} {seen[name]}"
        elif level and name == robot_name(level):
            seen[name] = 1
        out.append(name)
    return out
