"""Spectators: anyone may watch a game, or every game of a league, by mail.

`OBSERVE <id>` and `UNOBSERVE <id>` need no secret, so they are answered as any mail that
proves no seat is (within `limits.strangers_per_hour`), and a request that cannot be answered
changes nothing: a flood of forged requests cannot sign up more addresses than it gets
answers. Every report and result of a watched game goes to its spectators too, written from
the engine's `spectator_view` (what every player may know, nothing more) with no Reply-To
secret, and each copy says how to stop them.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from types import SimpleNamespace

from ..clock import format_utc
from ..games import game_type
from ..games.base import TurnByTurn
from ..games.errors import IllegalOrder, InvalidOrder, OrderError
from ..mail.outbound import Letter
from ..orders import grammar_for
from ..orders.commands import SPECTATOR_COMMANDS, Observe, Order, UnknownCommand, first_word, read_body
from ..orders.text import LongLine, subject_game_id
from ..render import render
from ..schedule import format_deadline, stated_deadline
from ..store import Store

log = logging.getLogger("pbem")

# The mail of a game that its spectators get a copy of.
SPECTATOR_KINDS = ("report", "result")
# What a report or result is told beside the view that every player's copy shares; anything else
# a caller passes (a player's own tosses, notes written to one reader) stays out.
PUBLIC_EXTRAS = ("played", "resolved_turn", "hole_end", "holes")
# A league's games are `<league>-r<round>-<n>` (the longest prefix wins, as ids may hold dashes).
LEAGUE_GAME = re.compile(r"(.+)-r[0-9]+-[0-9]+")
ENDED = ("finished", "abandoned")
WORDS = ("OBSERVE", "UNOBSERVE")
RULE_KNOWN = "OBSERVE and UNOBSERVE name a game or a league of this GM by its id"
RULE_IN_PLAY = "only a game or a league still in play can be observed"


@dataclass(frozen=True)
class Watched:
    """A game or a league that an id names, as a spectator's mail speaks of it."""
    kind: str  # game | league
    id: str
    what: str  # "game m1 (MatchPlay Golf: George v Bill)"
    ended: str | None = None  # why there is nothing more to watch


@dataclass
class Request:
    """A message whose every command is OBSERVE or UNOBSERVE."""
    orders: list[Order]
    errors: list[OrderError]
    named: str | None  # the id the message names (GAME line or subject): a bare line's target


@dataclass
class Step:
    order: Order
    targets: list[Watched] = field(default_factory=list)
    target_id: str = ""


def league_of(store: Store, game_id: str) -> str | None:
    """The league a game belongs to, by its id, or None."""
    found = LEAGUE_GAME.fullmatch(game_id)
    return found.group(1) if found and store.league(found.group(1)) else None


def watched(store: Store, target_id: str) -> list[Watched]:
    """What `target_id` names here: a game, a league, both (ids of the two may meet), or nothing."""
    out = []
    row = store.game(target_id)
    if row is not None:
        names = [seat.name for seat in store.seats(target_id)]
        cast = " v ".join(names) if len(names) == 2 else ", ".join(names)
        over = f"game {target_id} is {row.status}" + (f" ({row.result})" if row.result else "")
        out.append(Watched("game", target_id, f"game {target_id} ({game_type(row.type).TITLE}: {cast})",
                           over if row.status in ENDED else None))
    league = store.league(target_id)
    if league is not None:
        over = f"league {target_id} is {league['status']}" if league["status"] != "active" else None
        out.append(Watched("league", target_id, f"league {target_id} ({league['name']})", over))
    return out


def read_request(store: Store, heading, subject: str) -> Request | None:
    """The message as a spectator's request, or None when it holds any other command. The lines
    are read with the grammar of the game it names, so that a player's order beside an OBSERVE
    reads as an order (and the mixture is refused on the player's side)."""
    if not any(first_word(ln)[0] in WORDS for _, ln in heading.body if not isinstance(ln, LongLine)):
        return None  # the common case, every player's mail: no second reading
    named = heading.game_id or subject_game_id(subject)
    row = store.game(named) if named else None
    orders, errors = read_body(heading.body, grammar_for(row.type) if row else None)
    if not orders or not all(isinstance(o.command, SPECTATOR_COMMANDS) for o in orders):
        return None
    for error in errors:
        if isinstance(error, UnknownCommand):  # not "name your game first": no game is wanted
            error.message = "not a command: a mail that observes holds only OBSERVE and UNOBSERVE lines"
            error.hint = None
    return Request(orders, heading.errors + errors, named)


class Spectator:
    """One address's requests: checked all first, then applied all or none."""

    def __init__(self, store: Store, address: str, now):
        self.store = store
        self.address = address.lower()
        self.now = now

    def check(self, request: Request) -> tuple[list[Step], list[OrderError]]:
        steps, errors = [], list(request.errors)
        for order in request.orders:
            try:
                steps.append(self._step(order, request.named))
            except OrderError as e:
                errors.append(e)
        errors.sort(key=lambda e: e.lineno or 0)
        return steps, errors

    def _step(self, order: Order, named: str | None) -> Step:
        lineno, line = order.lines[0]
        command = order.command
        word = str(command).split()[0]
        target_id = command.target or named
        if target_id is None:
            raise InvalidOrder(f"{word} needs the id of a game or a league: {word} <id>", line=line, lineno=lineno,
                               rule=RULE_KNOWN)
        targets = watched(self.store, target_id)
        observing = isinstance(command, Observe)
        if not targets and (observing or target_id not in self.store.observed_by(self.address)):
            raise IllegalOrder(f"there is no game or league {target_id} here", line=line, lineno=lineno,
                               rule=RULE_KNOWN, hint=self._same_but_case(word, target_id))
        ended = [t.ended for t in targets if t.ended]
        if observing and ended and len(ended) == len(targets):
            raise IllegalOrder(f"{ended[0]}: there is nothing more to watch", line=line, lineno=lineno,
                               rule=RULE_IN_PLAY)
        return Step(order, [t for t in targets if not (observing and t.ended)], target_id)

    def _same_but_case(self, word: str, target_id: str) -> str | None:
        """`OBSERVE Cup` for a league `cup`: the id as it is, when only its case was wrong."""
        found = self.store.ids_but_for_case(target_id)
        return f"{word} {found[0]}" if found else None

    def apply(self, steps: list[Step]) -> list[dict]:
        """Do what the checked requests ask; what was done, as the answer tells it."""
        done = []
        for step in steps:
            if isinstance(step.order.command, Observe):
                for target in step.targets:
                    new = self.store.add_observer(target.id, self.address, self.now)
                    done.append({"verb": "observe", "id": target.id, "kind": target.kind, "what": target.what,
                                 "changed": new, "through": self._through(target)})
            else:
                done.append(self._stop(step))
        return done

    def _stop(self, step: Step) -> dict:
        stopped = self.store.remove_observer(step.target_id, self.address)
        what = " and ".join(t.what for t in step.targets) or step.target_id
        league = league_of(self.store, step.target_id)
        through = league if not stopped and league in self.store.observed_by(self.address) else None
        kind = " and ".join(t.kind for t in step.targets) or None  # None: an id that names nothing now
        return {"verb": "unobserve", "id": step.target_id, "kind": kind, "what": what, "changed": stopped,
                "through": through}

    def _through(self, target: Watched) -> str | None:
        """The league through which the address gets a game's mail already, if any."""
        league = league_of(self.store, target.id) if target.kind == "game" else None
        return league if league and league in self.store.observed_by(self.address) else None


# -- the copies ------------------------------------------------------------------------------
def copy_to_spectators(postman, kind: str, table, template: str | None, extra: dict) -> None:
    """One copy of a report or result for each address that watches the game or its league.

    The GM writes a report seat by seat (a card game's notes differ by reader), so the first
    letter of each report sends the copies and the others find them sent. A spectator's copy
    must never stop a game's mail: whatever goes wrong in it is logged and the pass goes on."""
    state = table.state
    # Notes of a turn-by-turn game are written to one reader ("You drew ..."): not for spectators.
    notes = [] if isinstance(state, TurnByTurn) else list(extra.get("notes") or [])
    public = {key: extra[key] for key in PUBLIC_EXTRAS if key in extra}
    key = (table.id, kind, template, state.turn, repr(sorted(public.items())), tuple(notes))
    if key in postman.spectated:
        return
    postman.spectated.add(key)
    _to_watchers(postman, table, kind, template or kind, table.type, dict(public, notes=notes, done=[]))


def notice_to_spectators(postman, table, notice: str) -> None:
    """The GM's word on a game that ends without a result (ABANDON) to everyone who watches it
    or its league: the game's own copies stop here, a league's go on with its other games."""
    _to_watchers(postman, table, "status", "spectator_notice", None, {"notice": notice})


def _watchers(store: Store, table) -> dict[str, list[dict]]:
    """Address -> what it watches that covers this game ([{id, kind}]), players left out (they
    have their own mail)."""
    league = league_of(store, table.id)
    rows = store.observers([table.id] + ([league] if league else []))
    players = {seat.address for seat in table.seats}
    watchers: dict[str, list[dict]] = {}
    for row in rows:
        if row["address"] not in players:
            watchers.setdefault(row["address"], []).append(
                {"id": row["target"], "kind": "game" if row["target"] == table.id else "league"})
    return watchers


def _to_watchers(postman, table, kind: str, template: str, game_type: str | None, extra: dict) -> None:
    for address, targets in _watchers(postman.store, table).items():
        try:
            ctx = spectator_context(postman, table, targets)
            ctx.update(extra)
            subject, text = render(template, game_type, **ctx)
            postman.post(Letter(kind=kind, to_addr=address, game_id=table.id, subject=f"[{table.id}] {subject}",
                                text=text))
        except Exception as e:  # noqa: BLE001 - a barrier: the players' mail goes on regardless
            log.error("game %s: %s mail to spectator %s failed: %s: %s", table.id, kind, address,
                      type(e).__name__, e)


def spectator_context(postman, table, targets: list[dict]) -> dict:
    """What a template may use in a spectator's copy: the public view, the players by name and
    seat only (never an address or a secret), and the game without its stored state."""
    row = table.row
    game = SimpleNamespace(id=row.id, type=row.type, status=row.status, options=dict(row.options),
                           course=row.course, turn=row.turn)
    seats = [SimpleNamespace(seat=s.seat, name=s.name) for s in table.seats]
    return {"gm_address": postman.gm_address, "gm_name": postman.gm_name, "now": format_utc(postman.now),
            "game": game, "title": type(table.state).TITLE, "seats": seats,
            "deadline": format_deadline(stated_deadline(row), None), "paused": bool(row.paused),
            "view": table.state.spectator_view(), "me": None, "spectator": {"targets": targets}}


__all__ = ["SPECTATOR_KINDS", "Request", "Spectator", "copy_to_spectators", "league_of", "notice_to_spectators",
           "read_request", "watched"]
