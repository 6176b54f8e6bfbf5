"""Spectators: anyone may watch a game, or every game of a league, by mail, once they confirm.

`OBSERVE <id>` needs no secret, so it is answered as any mail that proves no seat is (within
`limits.strangers_per_hour`), and the answer only asks: its Reply-To carries a one-time token,
and nothing more is sent until a reply from the same address brings that token back (CONTRACT
section 10). So one forged OBSERVE makes one mail at most, and never a spectator. Every mail a
spectator gets then carries the spectator's own token in its Reply-To, and `UNOBSERVE` is taken
with that token from any address, or without it from the spectator's own. Every report and
result of a watched game goes to its spectators too, written from the engine's
`spectator_view` (what every player may know, nothing more), and each copy says how to stop
them. A game made with `spectators=false`, or a league whose file says so, takes none.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import timedelta
from types import SimpleNamespace

from pbem.clock import format_utc
from pbem.games import game_type, spec_for
from pbem.games.errors import BadOption, IllegalOrder, InvalidOrder, OrderError
from pbem.mail.clean import clean, quoted
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter, plus_address
from pbem.orders.commands import SPECTATOR_COMMANDS, Observe, Order, UnknownCommand, first_word, read_body
from pbem.orders.text import LongLine, subject_game_id
from pbem.render import render
from pbem.clock.schedule import format_deadline, stated_deadline
from pbem.store import Store
from pbem.gm import layers, spectators
from pbem.gm.games import new_secret
from pbem.gm.pacing import round_the_table

log = logging.getLogger("pbem")

# The mail of a game that its spectators get a copy of.
SPECTATOR_KINDS = (MailKind.REPORT, MailKind.RESULT)
# What a report or result is told beside the view that every player's copy shares; anything else
# a caller passes (a player's own tosses, notes written to one reader) stays out.
PUBLIC_EXTRAS = ("played", "resolved_turn", "hole_end", "holes")
# A league's games are `<league>-r<round>-<n>` (the longest prefix wins, as ids may hold dashes).
LEAGUE_GAME = re.compile(r"(.+)-r[0-9]+-[0-9]+")
ENDED = ("finished", "abandoned")
WORDS = ("OBSERVE", "UNOBSERVE")
RULE_KNOWN = "OBSERVE and UNOBSERVE name a game or a league of this GM by its id"
RULE_IN_PLAY = "only a game or a league still in play can be observed"
RULE_CLOSED = "a game or a league made with spectators=false takes no spectators"
# How long the answer to an OBSERVE may be confirmed (as an open table's token), how long an
# expired request is kept to say so to a late answer, and how soon the same request from the
# same address is asked again (a forger repeating a victim's OBSERVE gets one mail through).
CONFIRM_FOR = timedelta(days=7)
KEPT_EXPIRED = timedelta(days=30)
ASKED_AGAIN = timedelta(hours=1)


@dataclass(frozen=True)
class Watched:
    """A game or a league that an id names, as a spectator's mail speaks of it."""
    kind: str  # game | league
    id: str
    what: str  # "game m1 (MatchPlay Golf: George v Bill)"
    ended: str | None = None  # why there is nothing more to watch
    closed: bool = False  # made with spectators=false (a league's games with their league)


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


@dataclass
class Applied:
    """What a request did now (`done`, as the answer tells it) and the OBSERVEs that wait for
    the address to confirm (`wanted`: what each names)."""
    done: list[dict] = field(default_factory=list)
    wanted: list[Watched] = field(default_factory=list)


def closed_option(options: dict) -> bool:
    """Takes `spectators` out of a new game's options (it is the GM's, not the rules'): whether
    the game is closed to spectators. A ValueError names a value that is neither."""
    value = options.pop("spectators", True)
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise BadOption(f"option spectators: expected one of true, false, got {quoted(value, 40)}")
    return text == "false"


def spectator_token(store: Store, address: str, now) -> str:
    """The token in the Reply-To of every mail a spectator gets (made with the first one)."""
    return spectators.spectator_token(store, address, new_secret(), now)


def unchanged(store: Store, verb: str, target_id: str) -> dict:
    """An id the answer speaks of though nothing was done to it (`gone`: it cannot be watched
    now; `declined`: the address said no), named as fully as it still can be."""
    found = watched(store, target_id)
    return {"verb": verb, "id": target_id, "kind": found[0].kind if len(found) == 1 else None,
            "what": " and ".join(t.what for t in found) or target_id, "changed": False, "through": None}


def league_of(store: Store, game_id: str) -> str | None:
    """The league a game belongs to, by its id, or None (the league layer knows its own ids)."""
    found = LEAGUE_GAME.fullmatch(game_id)
    return found.group(1) if found and layers.watchable(store, found.group(1)) is not None else None


def _league_closed(store: Store, game_id: str) -> bool:
    """Whether the game's league, by its id, takes no spectators."""
    found = LEAGUE_GAME.fullmatch(game_id)
    league = layers.watchable(store, found.group(1)) if found else None
    return league is not None and league.closed


def watched(store: Store, target_id: str) -> list[Watched]:
    """What `target_id` names here: a game, a league, both (ids of the two may meet), or nothing."""
    out = []
    row = store.game(target_id)
    if row is not None:
        names = [seat.name for seat in store.seats(target_id)]
        cast = " v ".join(names) if len(names) == 2 else ", ".join(names)
        over: str | None = f"game {target_id} is {row.status}" + (f" ({row.result})" if row.result else "")
        closed = spectators.closed_to_spectators(store, target_id) or _league_closed(store, target_id)
        out.append(Watched("game", target_id, f"game {target_id} ({game_type(row.type).TITLE}: {cast})",
                           over if row.status in ENDED else None, closed))
    above = layers.watchable(store, target_id)
    if above is not None:
        over = f"{above.kind} {target_id} is {above.status}" if above.status != "active" else None
        out.append(Watched(above.kind, target_id, f"{above.kind} {target_id} ({above.name})", over, above.closed))
    return out


def _ids_but_for_case(store: Store, target_id: str) -> list[str]:
    """The ids of games and leagues (the layers' own) that are `target_id` but for its case."""
    ids = set(store.games_but_for_case(target_id))
    for layer in layers.above():
        ids.update(layer.ids_but_for_case(store, target_id))
    return sorted(ids)


def read_request(store: Store, heading, subject: str) -> Request | None:
    """The message as a spectator's request, or None when it holds any other command. The lines
    are read with the grammar of the game it names, so that a player's order beside an OBSERVE
    reads as an order (and the mixture is refused on the player's side)."""
    if not any(first_word(ln)[0] in WORDS for _, ln in heading.body if not isinstance(ln, LongLine)):
        return None  # the common case, every player's mail: no second reading
    named = heading.game_id or subject_game_id(subject)
    row = store.game(named) if named else None
    orders, errors = read_body(heading.body, spec_for(row.type).grammar if row else None)
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
        assert isinstance(command, SPECTATOR_COMMANDS)  # a request holds nothing else (`read_request`)
        word = str(command).split()[0]
        target_id = command.target or named
        if target_id is None:
            raise InvalidOrder(f"{word} needs the id of a game or a league: {word} <id>", line=line, lineno=lineno,
                               rule=RULE_KNOWN)
        targets = watched(self.store, target_id)
        observing = isinstance(command, Observe)
        if not targets and (observing or target_id not in spectators.observed_by(self.store, self.address)):
            raise IllegalOrder(f"there is no game or league {target_id} here", line=line, lineno=lineno,
                               rule=RULE_KNOWN, hint=self._same_but_case(word, target_id))
        if observing and targets and all(t.closed or t.ended for t in targets):
            closed = [t for t in targets if t.closed]
            if closed:
                raise IllegalOrder(f"{closed[0].kind} {target_id} takes no spectators: its GM made it private",
                                   line=line, lineno=lineno, rule=RULE_CLOSED)
            raise IllegalOrder(f"{targets[0].ended}: there is nothing more to watch", line=line, lineno=lineno,
                               rule=RULE_IN_PLAY)
        return Step(order, [t for t in targets if not (observing and (t.ended or t.closed))], target_id)

    def _same_but_case(self, word: str, target_id: str) -> str | None:
        """`OBSERVE Cup` for a league `cup`: the id as it is, when only its case was wrong."""
        found = _ids_but_for_case(self.store, target_id)
        return f"{word} {found[0]}" if found else None

    def apply(self, steps: list[Step]) -> Applied:
        """Stop what UNOBSERVE asks now; an OBSERVE of what the address watches already is told
        so, any other waits for the address to confirm."""
        applied = Applied()
        for step in steps:
            if not isinstance(step.order.command, Observe):
                applied.done.append(self._stop(step))
                continue
            watching = spectators.observed_by(self.store, self.address)  # as the lines before left it
            for target in step.targets:
                if target.id in watching:
                    applied.done.append(self._watching(target, new=False))
                elif target not in applied.wanted:
                    applied.wanted.append(target)
        return applied

    def confirm(self, target_ids: list[str]) -> list[dict]:
        """The confirmed OBSERVEs, each as it stands now (a game may have ended, or a league
        closed, since the question was asked)."""
        done = []
        for target_id in target_ids:
            targets = [t for t in watched(self.store, target_id) if not (t.ended or t.closed)]
            for target in targets:
                new = spectators.add_observer(self.store, target.id, self.address, self.now)
                done.append(self._watching(target, new=new))
            if not targets:
                done.append(unchanged(self.store, "gone", target_id))
        return done

    def _watching(self, target: Watched, new: bool) -> dict:
        return {"verb": "observe", "id": target.id, "kind": target.kind, "what": target.what, "changed": new,
                "through": self._through(target)}

    def _stop(self, step: Step) -> dict:
        stopped = spectators.remove_observer(self.store, step.target_id, self.address)
        what = " and ".join(t.what for t in step.targets) or step.target_id
        league = league_of(self.store, step.target_id)
        through = league if not stopped and league in spectators.observed_by(self.store, self.address) else None
        kind = " and ".join(t.kind for t in step.targets) or None  # None: an id that names nothing now
        return {"verb": "unobserve", "id": step.target_id, "kind": kind, "what": what, "changed": stopped,
                "through": through}

    def _through(self, target: Watched) -> str | None:
        """The league through which the address gets a game's mail already, if any."""
        league = league_of(self.store, target.id) if target.kind == "game" else None
        return league if league and league in spectators.observed_by(self.store, self.address) else None


# -- the answers -----------------------------------------------------------------------------
def ask_to_confirm(postman, msg, address: str, applied: Applied) -> None:
    """The one mail an OBSERVE gets: what it asks, and a Reply-To whose one-time token makes
    the subscription when the address answers it (what UNOBSERVE stopped is told beside)."""
    token, until = new_secret(), postman.now + CONFIRM_FOR
    spectators.add_observe_request(postman.store, token, address, [t.id for t in applied.wanted], postman.now,
                                   until, KEPT_EXPIRED)
    _answer(postman, msg, address, token, done=applied.done,
            confirm={"wanted": applied.wanted, "until": format_utc(until)})


def tell(postman, msg, address: str, done: list[dict]) -> None:
    """What a request did, to the spectator it was for; while the address watches anything,
    the Reply-To carries its spectator token (a reply with UNOBSERVE just works)."""
    watching = spectators.observed_by(postman.store, address)
    _answer(postman, msg, address, spectator_token(postman.store, address, postman.now) if watching else None,
            done=done, confirm=None)


def _answer(postman, msg, address: str, secret: str | None, **extra) -> None:
    ctx = postman.context(None, None)
    ctx.update(extra)
    subject, text = render("observing", None, **ctx)
    postman.post(Letter(kind=MailKind.ACK, to_addr=address, subject=subject, text=text, secret=secret,
                        in_reply_to=msg.message_id), topic="observing")


def declines(lines) -> bool:
    """Whether an answer to the question says no (an UNOBSERVE line) rather than yes."""
    return any(first_word(line)[0] == "UNOBSERVE" for _, line in lines if not isinstance(line, LongLine))


# -- the copies ------------------------------------------------------------------------------
def copy_to_spectators(postman, kind: MailKind, table, template: str | None, extra: dict) -> None:
    """One copy of a report or result for each address that watches the game or its league.

    The GM writes a report seat by seat (a card game's notes differ by reader), so the first
    letter of each report sends the copies and the others find them sent. A spectator's copy
    must never stop a game's mail: whatever goes wrong in it is logged and the pass goes on."""
    state = table.state
    # Notes of a turn-by-turn game are written to one reader ("You drew ..."): not for spectators.
    notes = [] if round_the_table(state) else list(extra.get("notes") or [])
    public = {key: extra[key] for key in PUBLIC_EXTRAS if key in extra}
    key = (table.id, kind, template, state.turn, repr(sorted(public.items())), tuple(notes))
    if key in postman.spectated:
        return
    postman.spectated.add(key)
    _to_watchers(postman, table, kind, template or kind, table.type, dict(public, notes=notes, done=[]))


def notice_to_spectators(postman, table, notice: str, last: bool = True,
                          kind: MailKind = MailKind.STATUS) -> None:
    """The GM's word on a game to everyone who watches it or its league: one that ends without
    a result (ABANDON; `last`: the game's own copies stop here, a league's go on with its other
    games), or one that goes on (a rollback)."""
    _to_watchers(postman, table, kind, "spectator_notice", None, {"notice": notice, "last": last})


def _watchers(store: Store, table) -> dict[str, list[dict]]:
    """Address -> what it watches that covers this game ([{id, kind}]), players left out (they
    have their own mail)."""
    league = league_of(store, table.id)
    rows = spectators.observers(store, [table.id] + ([league] if league else []))
    players = {seat.address for seat in table.seats}
    watchers: dict[str, list[dict]] = {}
    for row in rows:
        if row["address"] not in players:
            watchers.setdefault(row["address"], []).append(
                {"id": row["target"], "kind": "game" if row["target"] == table.id else "league"})
    return watchers


def _to_watchers(postman, table, kind: MailKind, template: str, game_type: str | None, extra: dict) -> None:
    for address, targets in _watchers(postman.store, table).items():
        try:
            ctx = spectator_context(postman, table, targets)
            ctx.update(extra)
            subject, text = render(template, game_type, **ctx)
            token = spectator_token(postman.store, address, postman.now)
            # Watched as a game and through its league both, the copy is the game's own.
            watched = next((t for t in targets if t["kind"] == "game"), targets[0])
            postman.post(Letter(kind=kind, to_addr=address, game_id=table.id, subject=f"[{table.id}] {subject}",
                                text=text, secret=token, digest=True,  # a spectator's mail asks nothing
                                extra_headers=list_headers(postman.gm_address, token, watched["id"], watched["kind"])))
        except Exception as e:  # noqa: BLE001 - a barrier: the players' mail goes on regardless
            log.error("game %s: %s mail to spectator %s failed: %s: %s", table.id, kind, clean(address, 100),
                      type(e).__name__, clean(e, 200))


def list_headers(gm_address: str, token: str, target_id: str, kind: str) -> dict[str, str]:
    """What a mail that a spectator follows says of the following (RFC 2919, RFC 2369): which
    it is (`List-Id`: the game or the league watched), and how to stop it (`List-Unsubscribe`):
    a mailto whose address carries the spectator's token and whose subject is the UNOBSERVE, so
    that a mail program's button, which mails it as it is with no text, needs nothing else.
    (`List-Unsubscribe-Post` is for an https address: there is none here.)"""
    domain = gm_address.partition("@")[2] or "localhost"
    return {"List-Id": f"Spectators of {kind} {target_id} <{target_id}.{kind}.{domain}>",
            "List-Unsubscribe": f"<mailto:{plus_address(gm_address, token)}?subject=UNOBSERVE%20{target_id}>"}


def spectator_context(postman, table, targets: list[dict]) -> dict:
    """What a template may use in a spectator's copy: the public view, the players by name and
    seat only (never an address or a secret), and the game without its stored state."""
    row = table.row
    game = SimpleNamespace(id=row.id, type=row.type, status=row.status, options=dict(row.options),
                           course=row.course, turn=row.turn)
    seats = [SimpleNamespace(seat=s.seat, name=s.name) for s in table.seats]
    return {"gm_address": postman.gm_address, "gm_name": postman.gm_name, "gm_contact": postman.gm_contact,
            "now": format_utc(postman.now),
            "game": game, "title": type(table.state).TITLE, "seats": seats,
            "deadline": format_deadline(stated_deadline(row), None), "paused": bool(row.paused),
            "view": table.state.spectator_view(), "me": None, "spectator": {"targets": targets}}


__all__ = ["CONFIRM_FOR", "SPECTATOR_KINDS", "Applied", "Request", "Spectator", "ask_to_confirm", "closed_option",
           "copy_to_spectators", "declines", "league_of", "list_headers", "notice_to_spectators", "read_request",
           "spectator_token", "tell", "watched"]
