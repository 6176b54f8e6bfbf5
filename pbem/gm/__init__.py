"""The GM: one message, one transaction; one clock tick; the outbox handed to a transport."""
from __future__ import annotations

import logging
import traceback
from pathlib import Path
from datetime import datetime, timedelta
from collections.abc import Callable

from pbem.clock import format_utc
from pbem.clock import reminders as reminder_times
from pbem.store.faults import checkpoint
from pbem.games.course import Course
from pbem.games.errors import GameRefused
from pbem.games.rng import seed_from_int
from pbem.mail.clean import base_address, clean
from pbem.mail.inbound import MAX_MESSAGE_BYTES, Inbound, parse
from pbem.mail.kinds import MailKind
from pbem.mail.screen import screen
from pbem.store import Store
from pbem.gm import admin, games, layers, observers, reminders, robot_seats, spectators, takeover
from pbem.gm.games import Table
from pbem.gm.inbox import Inbox, Outcome, Policy
from pbem.gm.letters import Postman
from pbem.gm.pacing import plays_by_toss, round_the_table
from pbem.gm.turns import Turns

log = logging.getLogger("pbem")
# A kept message that was being handled when the process died is tried this often again.
RECOVERY_ATTEMPTS = 3


def open_game(postman: Postman, type_name: str, players: list[tuple[str, str]], course: Course, *,
              options: dict, seed: bytes | int, game_id: str | None, deadline: str | None,
              zones: dict[str, str] | None = None) -> str:
    """A new game, inside the caller's transaction: created, every player welcomed, and the
    first move announced (or made, by a robot). The GM's `new_game` and the layers above (an
    open table that fills in the middle of a message) both come here."""
    options = dict(options)
    closed = observers.closed_option(options)  # the GM's, not the rules': never the engine's
    robot_seats.allow_robots_only(options, players)
    if isinstance(seed, int):  # an open seed (tests, the demo): its bytes as the README says
        seed = seed_from_int(seed)
    for _, address in players:
        if robot_seats.level_of(address) is None and base_address(address) == base_address(postman.gm_address):
            raise GameRefused(f"{address} is the GM's own address: a player needs an address of their own")
    table = games.create(postman.store, type_name=type_name, players=players, course=course,
                         options=options, seed=seed, now=postman.now, game_id=game_id, deadline=deadline,
                         zones=zones)
    if closed:
        spectators.close_to_spectators(postman.store, table.id, postman.now)
    postman.to_all(MailKind.WELCOME, table, course=course)
    if round_the_table(table.state):  # turn by turn: tell who moves first
        Turns(postman, table).announce(set())
    elif plays_by_toss(table.state):  # each welcome told its player their first tosses
        table.state.drain_events()
        if table.state.ready():  # nobody had a choice on the first hole
            Turns(postman, table).tosses.settle()
    robot_seats.move(Turns(postman, table))  # a robot that owes the first move makes it
    games.save(postman.store, table)
    return table.id


def inbound_key(msg: Inbound) -> str:
    """What makes a message the same message: its Message-ID and who sent it (a stranger cannot
    shadow a player's mail by reusing its Message-ID)."""
    return f"{msg.message_id} {msg.sender}" if msg.sender else msg.message_id


class GM:
    def __init__(self, store: Store, *, gm_address: str, gm_name: str, clock: Callable[[], datetime],
                 gm_contact: str | None = None,
                 default_deadline: str | None = None, default_nmr: str = "autoplay",
                 reminder_before: tuple[timedelta, ...] = (timedelta(hours=12),), takeover_after: int = 0,
                 admins: tuple[str, ...] = (),
                 gm_secret: str | None = None, messages_per_hour: int = 30, strangers_per_hour: int = 60,
                 max_command_lines: int = 100, max_message_bytes: int = MAX_MESSAGE_BYTES):
        self.store = store
        self.gm_address = gm_address.lower()
        self.gm_name = gm_name
        self.gm_contact = gm_contact
        self.clock = clock
        self.default_deadline = default_deadline
        self.default_nmr = default_nmr
        self.reminder_before = reminder_before  # the reminders of a player who set none (SET REMINDERS)
        self.takeover_after = takeover_after    # for a game without its own option takeover_after
        self.policy = Policy({self.gm_address}, {a.lower() for a in admins}, gm_secret, messages_per_hour,
                             strangers_per_hour, max_command_lines, max_message_bytes)

    def postman(self) -> Postman:
        return Postman(self.store, self.gm_address, self.gm_name, self.clock(), admins=frozenset(self.policy.admins),
                       gm_contact=self.gm_contact)

    def new_game(self, type_name: str, players: list[tuple[str, str]], course: Course, *,
                 options: dict | None = None, seed: bytes | int = 0, game_id: str | None = None,
                 deadline: str | None = None, zones: dict[str, str] | None = None) -> str:
        options = dict(options or {})
        options.setdefault("nmr", self.default_nmr)
        with self.store.transaction():
            game_id = open_game(self.postman(), type_name, players, course, options=options, seed=seed,
                                game_id=game_id, deadline=deadline or self.default_deadline, zones=zones)
        log.info("game %s created: %s, %d players", game_id, type_name, len(players))
        return game_id

    def receive(self, raw: bytes) -> Outcome:
        """Keep the raw message, then handle it once. Safe to call again for the same message."""
        msg = self.parse(raw)
        key = inbound_key(msg)
        if not self.store.inbound.keep(key, raw, self.clock(), msg.sender, msg.subject, msg.message_id):
            if self.store.inbound.status(key) != "new":
                log.info("message %s from %s: seen before, not handled again", msg.message_id, msg.sender or "-")
                return Outcome("duplicate", "seen before")
        checkpoint("stored")
        return self._handle(msg, key)

    def parse(self, raw: bytes) -> Inbound:
        return parse(raw, self.policy.max_message_bytes)

    def recover(self) -> list[Outcome]:
        """Handle messages that were kept but not handled (a crash between the two). One that
        has been tried this often without an end (it kills the process) is set aside as failed."""
        outcomes = []
        for key, raw in self.store.inbound.unhandled():
            msg = self.parse(raw)
            if self.store.inbound.attempt(key) > RECOVERY_ATTEMPTS:
                outcomes.append(self._failed(msg, key, f"no end after {RECOVERY_ATTEMPTS} tries"))
            else:
                outcomes.append(self._handle(msg, key))
        return outcomes

    def retry(self, row_id: int) -> Outcome:
        """Handle a kept message again (`pbem inbox retry ID`), whatever became of it before."""
        row = self.store.inbound.by_id(row_id)
        if row is None:
            raise KeyError(f"no kept message {row_id}")
        if row["raw"] is None:
            raise KeyError(f"message {row_id} was handled long ago and its text is no longer kept")
        with self.store.transaction():
            self.store.inbound.mark(row["key"], "new", self.clock(), "retried by the GM")
        return self._handle(self.parse(row["raw"]), row["key"], answer_failure=False)

    def _handle(self, msg: Inbound, key: str, answer_failure: bool = True) -> Outcome:
        """One message inside its own barrier: whatever goes wrong, the pass goes on."""
        postman = self.postman()
        inbox = Inbox(postman, self.policy)
        try:
            with self.store.transaction():
                checkpoint("handling")
                outcome = inbox.handle(msg)
                self.store.inbound.mark(key, outcome.status, postman.now, clean(outcome.note, 500),
                                        outcome.game_id, outcome.auth, outcome.step)
        except Exception as e:  # the transaction took back the message's every effect
            return self._failed(msg, key, f"{type(e).__name__}: {clean(e, 300)}", answer=answer_failure,
                                error=e, step=inbox.step)
        log.info("message %s from %s: %s (%s) by step %s", msg.message_id, msg.sender or "-",
                 outcome.status, clean(outcome.note, 300), outcome.step)
        return outcome

    def _failed(self, msg: Inbound, key: str, reason: str, answer: bool = True,
                error: Exception | None = None, step: str | None = None) -> Outcome:
        """Kept, marked failed (`pbem inbox` lists it, with the inbox's `step` it failed at, if
        one was at work), and its sender told once, plainly."""
        log.error("message %s from %s: failed: %s (%skept; pbem inbox lists it)", msg.message_id,
                  msg.sender or "-", reason, f"at step {step}; " if step else "")
        if error is not None:  # where it went wrong, never what (the message may hold mail text)
            where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}"
                               for f in reversed(traceback.extract_tb(error.__traceback__)))
            log.debug("message %s: raised at %s", msg.message_id, where)
        postman = self.postman()
        try:
            with self.store.transaction():
                if answer and msg.sender and not screen(msg, {self.gm_address}) \
                        and self.store.inbound.strangers_answered(postman.now - timedelta(hours=1)) \
                        < self.policy.strangers_per_hour:
                    postman.to_sender(MailKind.ERROR, msg, template="unreadable")
                self.store.inbound.mark(key, "failed", postman.now, reason, step=step)
        except Exception as e:  # even the answer failed: the row still says failed
            log.error("message %s: could not answer the failure: %s", msg.message_id, clean(e, 200))
            with self.store.transaction():
                self.store.inbound.mark(key, "failed", postman.now, reason, step=step)
        return Outcome("failed", reason, step=step or "")

    def tick(self) -> list[str]:
        """Move every game whose deadline has passed, and every game of robots only; returns what
        was done. Each game inside its own barrier: one that fails is logged and left as it was,
        and the others go on."""
        done = []
        now = self.clock()
        for game_id in self.store.due_games(now):
            done += self._guarded(game_id, "deadline", self._deadline, now)
        for game_id in reminder_times.games_due(self.store, now, self.reminder_before):
            done += self._guarded(game_id, "reminder", self._remind, now)
        for game_id in self.store.robot_games():
            done += self._guarded(game_id, "robots", self._robots, now)
        return done

    def _guarded(self, game_id: str, what: str, step, now) -> list[str]:
        try:
            return step(game_id, now)
        except Exception as e:
            log.error("game %s: %s failed: %s: %s", game_id, what, type(e).__name__, clean(e, 300))
            return []

    def _load(self, game_id: str) -> Table:
        table = games.load(self.store, game_id)
        assert table is not None  # the store named the game (`tick`), and no game is ever deleted
        return table

    def _deadline(self, game_id: str, now) -> list[str]:
        postman = self.postman()
        with self.store.transaction():
            table = self._load(game_id)
            # A wait game has a deadline only when the GM set one: it acts, once (README).
            once = table.row.options.get("nmr") == "wait"
            moved = layers.missed(self.store, postman, table, now)  # AUTOABSENCE: a day more instead
            if moved is not None:
                games.save(self.store, table)
                log.info("game %s: deadline passed; moved a day to %s (autoabsence)", game_id, format_utc(moved))
                return [f"deadline moved to {format_utc(moved)} (autoabsence)"]
            # The seats the robot plays from this pass on: their players' reports of it ask nothing.
            table.robot_plays = takeover.taking(table, self.store, self.takeover_after)
            turns = Turns(postman, table)
            tosses = turns.tosses if plays_by_toss(table.state) else None
            if tosses is not None:  # the deadline's holes and the robots' after it: one report
                tosses.batch = True
            notes = turns.missed_deadline(forced=once)
            if not notes or once:
                table.next_deadline(now)
            notes += takeover.after_deadline(turns, self.takeover_after)  # the robot plays from the next move
            notes += robot_seats.move(turns)
            if tosses is not None:
                tosses.batch = False
                tosses.flush()
            games.save(self.store, table)
        log.info("game %s: deadline passed; %s", game_id, "; ".join(notes) or "nothing owed")
        return notes

    def _robots(self, game_id: str, now) -> list[str]:
        """A game of robots only goes on where the last pass's bound stopped it (as many moves
        again at most: `robot_seats.MOVES_A_CALL`)."""
        postman = self.postman()
        with self.store.transaction():
            table = self._load(game_id)
            notes = robot_seats.move(Turns(postman, table))
            if notes:
                games.save(self.store, table)
        if notes:
            log.info("game %s: robots played %d order(s)", game_id, len(notes))
        return notes

    def _remind(self, game_id: str, now) -> list[str]:
        postman = self.postman()
        with self.store.transaction():
            table = self._load(game_id)
            reminded = reminders.remind(postman, table, self.reminder_before,
                                        takeover.robot_played(self.store, table))
        if reminded:
            log.info("game %s: reminder for turn %s to %s", game_id, table.state.turn, ", ".join(reminded))
        return [f"reminded {a}" for a in reminded]

    def report_failed_delivery(self, row: dict) -> None:
        """A mail the server refused for good: tell the GM's admins (never about their own mail)."""
        admins = sorted(a for a in self.policy.admins if a != row["recipient"])
        if not admins:
            return
        postman = self.postman()
        with self.store.transaction():
            for address in admins:
                postman.to_address(MailKind.ERROR, address, template="delivery_failed", game_id=row["game_id"],
                                   failed=row)

    def gm_command(self, line: str) -> str:
        """One GM command from the command line (the same as by mail)."""
        command = admin.parse(line)
        postman = self.postman()
        with self.store.transaction():
            done = admin.Admin(postman).run(command)
        log.info("GM command: %s", done)
        return done


__all__ = ["GM", "Outcome", "open_game"]
