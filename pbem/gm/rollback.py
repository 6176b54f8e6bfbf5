"""ROLLBACK <game> [TO <turn>]: the game back at the start of a turn (CONTRACT section 13).

The history is the source of truth (`games.replay`), so a rollback writes no state of its own:
it marks the events of the turns it undoes (orders, default orders, resignations, resolutions,
the moves they made, a finish) as undone by its own `rollback` event, and the game is replayed
from what stands. The chance comes from the seed and the orders, so the same deals and dice come
back: a rolled back game plays on exactly as a game that never had those turns. The undone
events stay in the history, marked; GM commands, press and replacements are not undone (they
are things that happened, not moves of the game).
"""
from __future__ import annotations

from pbem.games import game_type, spec_for
from pbem.games.errors import IllegalOrder, InvalidOrder
from pbem.mail.kinds import MailKind
from pbem.store import LogEvent
from pbem.gm import games, layers
from pbem.gm.observers import notice_to_spectators
from pbem.gm.pacing import plays_by_toss, round_the_table
from pbem.gm.turns import Turns

# The events that move a game, and those that only tell what a move did (they go with it).
MOVING = (LogEvent.ORDERS, LogEvent.NMR, LogEvent.RESIGN, LogEvent.RESOLVED)
TOLD = (LogEvent.MOVE, LogEvent.FINISHED)
RULE = "a rollback goes back to the start of a turn that has been played"


def turns_before(engine, state, steps: list[dict], apply) -> list[int | None]:
    """For each step, the game's turn just before it, when it moves the game (else None):
    `apply(state, step)` plays one step on `state`, a fresh game."""
    out = []
    for step in steps:
        moving = step.get("kind") in MOVING
        out.append(state.turn if moving else None)
        apply(state, step)
    return out


def cut_at(before: list[int | None], to_turn: int) -> int | None:
    """The first moving step at or after the start of `to_turn`, or None when nothing is."""
    return next((i for i, turn in enumerate(before) if turn is not None and turn >= to_turn), None)


def default_turn(before: list[int | None], now_turn: int, finished: bool) -> int | None:
    """What a bare ROLLBACK undoes: the last turn played; for a finished game, the one that
    finished it."""
    played = [turn for turn in before if turn is not None]
    if not played:
        return None
    if finished:
        return played[-1]
    done = [turn for turn in played if turn < now_turn]
    return done[-1] if done else None


def roll_back(postman, table, to_turn: int | None, line: str) -> str:
    """Undo the turns from `to_turn` on (None: the last one played), inside the caller's
    transaction; every player and spectator is told. Returns what was done."""
    store, now = postman.store, postman.now
    events = store.events(table.id, undone=True)
    live = [ev for ev in events if ev["undone"] is None]
    engine = game_type(table.type)
    before = turns_before(engine, games.fresh(store, table.id, live[0]), live[1:],
                          lambda state, ev: games.play_event(engine, state, ev))
    finished = table.row.status == "finished"
    if to_turn is None:
        to_turn = default_turn(before, table.state.turn, finished)
        if to_turn is None:
            raise IllegalOrder(f"nothing has been played in game {table.id} yet", rule=RULE, line=line)
    first = next((turn for turn in before if turn is not None), None)
    cut = cut_at(before, to_turn)
    played = sorted({turn for turn in before if turn is not None})
    if played and to_turn < played[0]:
        raise IllegalOrder(f"game {table.id} has no turn {to_turn}: its turns count from {played[0]}, and "
                           f"ROLLBACK {table.id} TO {played[0]} undoes every one of them",
                           rule=RULE, line=line, hint=f"ROLLBACK {table.id} TO {played[0]}")
    if cut is None or first is None or to_turn < first:
        span = f"turns {played[0]} to {played[-1]}" if played else "no turn yet"
        raise IllegalOrder(f"game {table.id} has nothing to undo from turn {to_turn} on (played: {span})",
                           rule=RULE, line=line,
                           hint=f"ROLLBACK {table.id} TO {played[-1]}" if played else None)
    # A robot's takeover goes with the missed deadlines that made it (CONTRACT section 14); a
    # player's return stays, as the player did write.
    undone = [ev for ev in live[1 + cut:] if ev["kind"] in MOVING + TOLD + (LogEvent.TAKEOVER,)]
    from_turn = table.state.turn
    result = table.row.result
    mark = store.add_event(table.id, now, LogEvent.ROLLBACK, None, to_turn=to_turn, from_turn=from_turn,
                           undone=len(undone), result=result)
    store.undo_events(table.id, [ev["id"] for ev in undone], mark)
    table.state = games.replay(store, table.id)
    row = table.row
    if finished:
        row.status = "active"
    table.sync()
    row.reminded_turn = None
    table.next_deadline(now)
    last = max(t for t in before if t is not None)
    _tell(postman, table, to_turn, last, result)
    layers.tell("rolled_back", store, postman, table, to_turn)
    _go_on(postman, table)
    withdrawn = f"; the result ({result}) withdrawn, the game in play again" if finished else ""
    return (f"{table.id} rolled back to the start of turn {to_turn}: {len(undone)} event(s) of "
            f"{_turns(to_turn, last)} undone{withdrawn}")


def _turns(first: int, last: int) -> str:
    return f"turn {first}" if first == last else f"turns {first} to {last}"


def _tell(postman, table, to_turn: int, last: int, result: str | None) -> None:
    """Each player: what was undone, then the game as it stands for them (their STATUS), what
    they owe and by when. Spectators: what they may know (no hand, no secret order)."""
    said = [f"The GM has rolled game {table.id} back to the start of turn {to_turn}: what was played in "
            f"{_turns(to_turn, last)} is undone. It stays in the game's history, marked as rolled back."]
    if result:
        said.append(f"The result ({result.removeprefix('Result: ')}) is withdrawn: the game is in play again.")
    chance = spec_for(table.type).chance  # what of chance a player sees come back
    if chance:
        said.append(f"Nothing is drawn again: the same {chance} come back in the same order, whatever "
                    "is played now.")
    for seat in table.seats:
        standing = postman.status_text(table, seat)
        postman.to_seat(MailKind.NOTICE, table, seat, template="rollback", notice=" ".join(said), standing=standing)
    spectators = f"the GM has rolled it back to the start of turn {to_turn}; what was played from then on " \
                 "is undone" + (", and its result is withdrawn." if result else ".")
    notice_to_spectators(postman, table, spectators, last=False, kind=MailKind.NOTICE)


def _go_on(postman, table) -> None:
    """A turn that needs nobody's orders is played at once, as when the game began."""
    state = table.state
    if round_the_table(state):
        return
    turns = Turns(postman, table)
    if plays_by_toss(state):
        if state.ready():
            turns.tosses.settle()
    elif state.ready():
        turns.resolve_if_ready()


def read_target(game_id: str, rest: str, lineno: int | None = None) -> int | None:
    """`TO <turn>` (or nothing) after ROLLBACK <game>."""
    words = rest.split()
    if not words:
        return None
    if len(words) == 2 and words[0].upper() == "TO" and words[1].isascii() and words[1].isdigit() \
            and len(words[1]) <= 6:
        return int(words[1])
    raise InvalidOrder("ROLLBACK takes a game id and, after it, TO and a turn number",
                       line=f"ROLLBACK {game_id} {rest}"[:120], lineno=lineno,
                       hint=f"ROLLBACK {game_id} TO 2")


__all__ = ["MOVING", "TOLD", "cut_at", "default_turn", "read_target", "roll_back", "turns_before"]
