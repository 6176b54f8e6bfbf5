"""A game's public record, and checking one with nothing else (CONTRACT section 11).

`export_record` writes what anyone may see of a game: its type, options, course, the players'
names, the commitment to the secret seed, every accepted order in order (with its turn and
seat), the game's chance as it fell (each shuffled deck, each roll) and its public results, the
result line, and, once the game is over, the seed. No address and no secret of a seat.

`verify_record` checks such a record: the seed against the commitment, then a replay of every
order through the engine from the seed, comparing every deal and roll, the results and the
result line. It needs the record and the rules engines, nothing of the store.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.errors import PbemError
from pbem.games import game_type
from pbem.games.course import Course
from pbem.games.errors import BadOrderText
from pbem.games.rng import commitment, seed_from_int
from pbem.gm import games
from pbem.gm.pacing import round_the_table
from pbem.gm.rollback import cut_at, turns_before
from pbem.mail.clean import clean
from pbem.store import LogEvent
from pbem.robots import LEVELS, version
from pbem.robots.door import order_for

RECORD_VERSION = 1
# The events a replay needs, in order: what was played, and when a turn was resolved.
_PLAYED = (LogEvent.ORDERS, LogEvent.NMR, LogEvent.RESIGN)


class Difference(PbemError):
    """Where a record and its replay part (the first place only)."""


def export_record(store, game_id: str, with_addresses: bool = False) -> dict | None:
    table = games.load(store, game_id)
    if table is None:
        return None
    row, state = table.row, table.state
    over = row.status in ("finished", "abandoned")
    created = store.events(game_id)[0]
    open_turn = None if state.result() is not None else state.turn
    steps = []
    for ev in store.events(game_id, undone=True)[1:]:
        step = None
        if ev["kind"] in _PLAYED:
            # A turn still open keeps its orders secret (round the table, a move is public at once).
            if not over and ev["kind"] != LogEvent.RESIGN and ev.get("turn") == open_turn \
                    and not round_the_table(state):
                continue
            step = {"kind": ev["kind"], "seat": ev["seat"], "turn": ev.get("turn"), "order": ev["orders"]}
            if ev.get("robot"):  # a robot's order: which robot, and the index of its stream
                step["robot"] = {"level": ev["robot"], "version": ev.get("version"), "move": ev.get("move")}
                if ev.get("fallback"):
                    step["robot"]["fallback"] = True
        elif ev["kind"] == LogEvent.RESOLVED:
            step = {"kind": LogEvent.RESOLVED, "turn": ev.get("turn")}
        elif ev["kind"] == LogEvent.REPLACE:
            step = {"kind": LogEvent.REPLACE, "seat": ev["seat"], "name": ev["name"]} \
                | ({"robot": ev["robot"]} if ev.get("robot") else {})
        elif ev["kind"] == LogEvent.ROLLBACK:  # the GM went back to the start of a turn (CONTRACT 13)
            step = {"kind": LogEvent.ROLLBACK, "turn": ev["to_turn"]}
        if step is not None:
            if ev["undone"] is not None and step["kind"] != LogEvent.REPLACE:
                step["rolled_back"] = True  # played, then undone by a later rollback step
            steps.append(step)
    record = {
        "record": RECORD_VERSION, "id": row.id, "type": row.type, "options": row.options,
        "course": {"name": created["course"], "pars": created["pars"],
                   # A course file may carry extras for several games (dice golf's flags): the
                   # record keeps its own game's only.
                   "extras": {k: v for k, v in (created.get("extras") or {}).items() if k == row.type}},
        "players": list(created["names"]),
        "seed_commitment": row.commitment,
        "seed": (row.seed_hex if row.seed_hex else row.seed) if over else None,
        "steps": steps,
        "chance": games.chance_record(state) if over else None,
        "results": _results(state) if over else None,
        "result": row.result,
    }
    if over and record["seed"] is not None:
        # Each step carries a digest of what every player could see after it: an order changed
        # in the record then shows at that step, even one that ends the game the same way.
        for step, after in zip(steps, _public_digests(record)):
            step["after"] = after
    if with_addresses:
        record["addresses"] = [s.address for s in table.seats]
    return record


def _public_digests(record: dict) -> list[str]:
    digests: list[str] = []
    _replay(record, lambda number, state: digests.append(_digest(state)))
    return digests


def _digest(state) -> str:
    public = json.dumps(state.spectator_view(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(public.encode()).hexdigest()[:32]


def _results(state) -> Any:
    """The public results of a finished game, as JSON has them (keys as strings)."""
    return json.loads(json.dumps(state.spectator_view()))


def verify_record(record: dict, notes: list[str] | None = None) -> str | None:
    """The result line of a record that checks out (None: the game ended without one);
    `Difference` names the first thing that does not. The record may come from anyone: whatever
    is in it, the answer is a Difference, never a crash, and what it quotes of the record is cut
    short. Every robot order is computed again from its seat's view and stream (`RobotCheck`);
    what could not be rechecked (a robot of another version) is said in `notes`."""
    _check_shape(record)
    seed = _seed_bytes(record.get("seed"))
    try:
        digest = commitment(seed)
    except ValueError:
        raise Difference(f"the seed is {len(seed)} byte{'' if len(seed) == 1 else 's'}; a game's seed is at "
                         "least 16") from None
    if digest != str(record["seed_commitment"]).lower():
        raise Difference(f"the seed does not match the commitment: SHA-256 of the seed is {digest}, "
                         f"the record commits to {quoted(record['seed_commitment'])}")

    def check_step(number: int, state) -> None:
        after = record["steps"][number - 1].get("after")
        if after is not None and after != _digest(state):
            raise Difference(f"{_step_name(number, record['steps'][number - 1])}: the game after it is not "
                             "the one the record saw")
    robots = RobotCheck(record, seed)
    state = _replay(record, check_step, robots.check, robots.rewound)
    if notes is not None:
        notes += robots.notes()
    _compare("chance", state.chance_record(), record.get("chance"))
    _compare("results", _results(state), record.get("results"))
    result = state.result()
    line = f"Result: {result.line}" if result else None
    if line != record["result"]:
        raise Difference(f"the result line differs: the record says {_result_said(record['result'])}, "
                         f"the replay gives {_result_said(line)}")
    return line


def quoted(value, limit: int = 80) -> str:
    """A value of a record as its JSON text, one clean line cut to `limit`: a record may come
    from anyone, and what it says is shown as JSON says it (null, true, "text"), never raw."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "(a value too deep to show)"
    return clean(text, limit)


def _result_said(line) -> str:
    return "no result line" if line is None else quoted(line, 120)


# What a replay reads of a record, and of what JSON kind each part must be.
_SHAPE = (("type", str, "a string"), ("players", list, "a list"), ("options", dict, "an object"),
          ("course", dict, "an object"), ("steps", list, "a list"))


def _check_shape(record: dict) -> None:
    for key in ("seed_commitment", "result"):
        if key not in record:
            raise Difference(f'the record has no "{key}"')
    for key, kind, named in _SHAPE:
        if key not in record:
            raise Difference(f'the record has no "{key}"')
        if not isinstance(record[key], kind):
            raise Difference(f'the record\'s "{key}" is not {named}')
    if not all(isinstance(name, str) for name in record["players"]):
        raise Difference("the record's players are not all names (strings)")
    course = record["course"]
    if not isinstance(course.get("name"), str) or not isinstance(course.get("pars"), list) \
            or not all(type(par) is int for par in course["pars"]):
        raise Difference("the record's course is not a name and a list of whole-number pars")
    if not isinstance(course.get("extras") or {}, dict):
        raise Difference("the record's course extras are not an object")
    for number, step in enumerate(record["steps"], start=1):
        if not isinstance(step, dict):
            raise Difference(f"step {number} is not an object")
    if record.get("seed") is None:
        raise Difference("the record has no seed: a game shows its seed only once it is over")


def _step_name(number: int, step: dict) -> str:
    """How a message names a step: its number, then what was played (cut short) and by which
    seat, or the kind of step and its turn."""
    order, seat = step.get("order"), step.get("seat")
    kind = step.get("kind")
    what = clean(order, 60) if isinstance(order, str) and order.strip() else \
        clean(kind, 20) if isinstance(kind, str) and kind.strip() else quoted(kind, 20)
    if "seat" in step:
        return f"step {number} ({what}, seat {seat if type(seat) is int else quoted(seat, 12)})"
    turn = step.get("turn")
    return f"step {number} ({what}" + (f", turn {turn})" if type(turn) is int else ")")


def _replay(record: dict, after_step, before_step=None, rewound=None):
    """The game replayed from the record's seed and steps; `after_step(number, state)` each step
    (and `before_step(number, state, step)` before it is played). A rollback step rebuilds the
    game from the steps that still stand (`rewound(steps standing)` hears of it)."""
    engine = _engine(record)
    state = _fresh(engine, record)
    standing: list[int] = []  # the steps played and not undone, by index
    undone: set[int] = set()
    for number, step in enumerate(record["steps"], start=1):
        if step.get("kind") == LogEvent.ROLLBACK:
            state = _roll_back(engine, record, number, step, standing, undone)
            if rewound is not None:
                rewound([record["steps"][i] for i in standing])
        else:
            if before_step is not None:
                before_step(number, state, step)
            _replay_step(engine, state, number, step)
            standing.append(number - 1)
        after_step(number, state)
    marked = {i for i, step in enumerate(record["steps"]) if step.get("rolled_back")}
    if marked != undone:
        wrong = min(marked ^ undone)
        said = "marks it rolled back, but no rollback undoes it" if wrong in marked else \
            "does not mark it rolled back, but a rollback undoes it"
        raise Difference(f"{_step_name(wrong + 1, record['steps'][wrong])}: the record {said}")
    return state


def _engine(record: dict):
    try:
        return game_type(record["type"])
    except KeyError:
        raise Difference(f"the record's game type {quoted(record['type'], 40)} is not one pbem knows") from None


def _fresh(engine, record: dict):
    course = record["course"]
    try:
        state = engine.new(list(record["players"]), dict(record["options"]), _seed_bytes(record["seed"]),
                           Course(course["name"], tuple(course["pars"]), extras=course.get("extras") or {}))
    except Exception as e:  # the engine refuses the players, options or course it is given
        raise Difference(f"the game cannot be set up from the record: {clean(e)}") from None
    _drain(state)
    return state


def _roll_back(engine, record: dict, number: int, step: dict, standing: list[int], undone: set[int]):
    """A rollback step: the steps from the start of its turn on are undone (as the GM computes
    it, `gm.rollback`), and the game is the one the steps left standing make."""
    steps = record["steps"]
    to_turn = step.get("turn")
    if type(to_turn) is not int:
        raise Difference(f"{_step_name(number, step)}: its turn {quoted(to_turn, 20)} is not a whole number")
    before = turns_before(engine, _fresh(engine, record), [steps[i] for i in standing],
                          lambda state, s: _replay_step(engine, state, number, s))
    cut = cut_at(before, to_turn)
    if cut is None:
        raise Difference(f"{_step_name(number, step)}: nothing stands from turn {to_turn} on to undo")
    gone = [i for i in standing[cut:] if steps[i].get("kind") != LogEvent.REPLACE]
    undone.update(gone)
    standing[:] = [i for i in standing if i not in undone]
    state = _fresh(engine, record)
    for i in standing:
        _replay_step(engine, state, i + 1, steps[i])
    return state


class RobotCheck:
    """Every robot order of a record computed again (CONTRACT section 12): from the seat's view
    just before it, the record's options and the robot's stream for that move (the game's seed,
    the seat and the index of the seat's robot move), through the same door the GM uses. A robot
    order made by another version of the robot is counted, not failed."""

    def __init__(self, record: dict, seed: bytes):
        self.record, self.seed = record, seed
        self.moves: dict[int, int] = {}      # robot moves seen, by seat
        self.other: dict[str, int] = {}      # robot versions this pbem does not play: moves each
        self.checked = 0

    def check(self, number: int, state, step: dict) -> None:
        info = step.get("robot")
        if info is None or step.get("kind") not in (LogEvent.ORDERS, LogEvent.NMR):
            return
        seat = step.get("seat")
        if not isinstance(info, dict) or info.get("level") not in LEVELS or type(seat) is not int \
                or not 0 <= seat < len(state.names):
            raise Difference(f"{_step_name(number, step)}: its robot is not described as pbem describes one")
        index = self.moves.get(seat, 0)
        self.moves[seat] = index + 1
        if info.get("move") != index:
            raise Difference(f"{_step_name(number, step)}: the record numbers this robot move "
                             f"{quoted(info.get('move'), 12)}, but it is the seat's move {index}")
        try:
            ours = version(self.record["type"])
        except KeyError:
            raise Difference(f"{_step_name(number, step)}: no robot of pbem's plays this game") from None
        if info.get("version") != ours:
            made = clean(info.get("version"), 40) if isinstance(info.get("version"), str) else "an unnamed version"
            self.other[made] = self.other.get(made, 0) + 1
            return
        if info.get("fallback"):  # the robot failed here: the GM played the seat's default order
            command = state.default_orders(seat)
        else:
            try:
                command = order_for(state, self.record["type"], seat, info["level"],
                                    dict(self.record["options"]), self.seed, index)
            except Exception:
                raise Difference(f"{_step_name(number, step)}: the robot ({info['level']}, {ours}) finds no "
                                 "order here from its seat's view and stream") from None
        if str(command) != step.get("order"):
            raise Difference(f"{_step_name(number, step)}: from its seat's view and its stream the robot "
                             f"({info['level']}, {ours}) plays {quoted(str(command), 60)} here, not "
                             f"{quoted(step.get('order'), 60)}")
        self.checked += 1

    def rewound(self, standing: list[dict]) -> None:
        """After a rollback a robot's next move takes the stream index after its moves that stand."""
        self.moves = {}
        for step in standing:
            if step.get("robot") is not None and step.get("kind") in (LogEvent.ORDERS, LogEvent.NMR):
                self.moves[step["seat"]] = self.moves.get(step["seat"], 0) + 1

    def notes(self) -> list[str]:
        said = [f"{self.checked} robot move{'' if self.checked == 1 else 's'} computed again and found the same"] \
            if self.checked else []
        return said + [f"{n} robot move{'' if n == 1 else 's'} made by robot version {made}, which this pbem "
                       f"does not play: not computed again" for made, n in sorted(self.other.items())]


def _seed_bytes(seed) -> bytes:
    if type(seed) is int:  # a game seeded the old way, by a whole number
        try:
            return seed_from_int(seed)
        except ValueError:
            raise Difference(f"the seed {quoted(seed, 50)} is out of range: a seed number is from 0 "
                             "to 2**128 - 1") from None
    if not isinstance(seed, str):
        raise Difference(f"the seed {quoted(seed, 40)} is neither hex digits nor a whole number") from None
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise Difference(f"the seed {quoted(seed, 40)} is not hex") from None


def _replay_step(engine, state, number: int, step: dict) -> None:
    kind = step.get("kind")
    seat = step.get("seat")
    if kind in (*_PLAYED, LogEvent.REPLACE) and (type(seat) is not int or not 0 <= seat < len(state.names)):
        raise Difference(f"{_step_name(number, step)}: there is no such seat in this game")
    if kind in _PLAYED and not isinstance(step.get("order"), str):
        raise Difference(f"{_step_name(number, step)}: its order is not text")
    if kind == LogEvent.REPLACE and not isinstance(step.get("name"), str):
        raise Difference(f"{_step_name(number, step)}: the new player's name {quoted(step.get('name'), 40)} "
                         "is not text")
    try:
        if kind in _PLAYED:
            command = engine.command_from_text(step["order"])
            if str(command) != step["order"]:  # one order, one text: as the GM stored it
                raise BadOrderText(f"the order is not written as pbem writes it ({quoted(str(command), 60)})")
            if kind == LogEvent.ORDERS:  # a player's order must be legal; the GM's own (nmr) are by its rules
                state.check(step["seat"], command)
            state.apply(step["seat"], command)
        elif kind == LogEvent.RESOLVED:
            state.resolve()
        elif kind == LogEvent.REPLACE:
            state.names[step["seat"]] = step["name"]
        else:
            raise Difference(f"step {number} is of no known kind: {quoted(kind, 40)}")
    except Difference:
        raise
    except Exception as e:  # an order the rules refuse, or one that does not read
        raise Difference(f"{_step_name(number, step)} does not replay: {clean(e)}") from None
    _drain(state)


def _drain(state) -> None:
    drain = getattr(state, "drain_events", None)
    if drain:
        drain()


def _compare(what: str, replayed, recorded, path: str = "") -> None:
    """The first place where two JSON values differ, named by its path."""
    if isinstance(replayed, dict) and isinstance(recorded, dict):
        for key in sorted(set(replayed) | set(recorded), key=str):
            if key not in recorded or key not in replayed:
                raise Difference(f"{what}{path}: {quoted(key, 60)} is only in the "
                                 f"{'replay' if key in replayed else 'record'}")
            _compare(what, replayed[key], recorded[key], f"{path}.{clean(key, 60)}")
        return
    if isinstance(replayed, list) and isinstance(recorded, list):
        for i, (a, b) in enumerate(zip(replayed, recorded)):
            _compare(what, a, b, f"{path}[{i}]")
        if len(replayed) != len(recorded):
            raise Difference(f"{what}{path}: the replay has {len(replayed)} items, the record {len(recorded)}")
        return
    if replayed != recorded:
        raise Difference(f"{what}{path} differs: the record says {quoted(recorded, 160)}, "
                         f"the replay gives {quoted(replayed, 160)}")
