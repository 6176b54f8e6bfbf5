"""The GM: one message, one transaction; one clock tick; the outbox handed to a transport."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

from ..faults import checkpoint
from ..games.base import TurnByTurn
from ..games.course import Course
from ..mail.inbound import parse
from ..store import Store
from . import admin, games
from .inbox import Inbox, Outcome, Policy
from .letters import Postman
from .turns import Turns

log = logging.getLogger("pbem")


class GM:
    def __init__(self, store: Store, *, gm_address: str, gm_name: str, clock: Callable[[], datetime],
                 default_deadline: str | None = None, default_nmr: str = "autoplay",
                 reminder_before: timedelta = timedelta(hours=12), admins: tuple[str, ...] = (),
                 gm_secret: str | None = None, messages_per_hour: int = 30):
        self.store = store
        self.gm_address = gm_address.lower()
        self.gm_name = gm_name
        self.clock = clock
        self.default_deadline = default_deadline
        self.default_nmr = default_nmr
        self.reminder_before = reminder_before
        self.policy = Policy({self.gm_address}, {a.lower() for a in admins}, gm_secret, messages_per_hour)

    def postman(self) -> Postman:
        return Postman(self.store, self.gm_address, self.gm_name, self.clock())

    def new_game(self, type_name: str, players: list[tuple[str, str]], course: Course, *,
                 options: dict | None = None, seed: int = 0, game_id: str | None = None,
                 deadline: str | None = None) -> str:
        options = dict(options or {})
        options.setdefault("nmr", self.default_nmr)
        postman = self.postman()
        with self.store.transaction():
            table = games.create(self.store, type_name=type_name, players=players, course=course,
                                 options=options, seed=seed, now=postman.now, game_id=game_id,
                                 deadline=deadline or self.default_deadline)
            postman.to_all("welcome", table, course=course)
            if isinstance(table.state, TurnByTurn):  # turn by turn: tell who moves first
                Turns(postman, table).announce(set(), actor=None, notes=[])
                games.save(self.store, table)
        log.info("game %s created: %s, %d players", table.id, type_name, len(players))
        return table.id

    def receive(self, raw: bytes) -> Outcome:
        """Keep the raw message, then handle it once. Safe to call again for the same message."""
        msg = parse(raw)
        now = self.clock()
        if not self.store.keep_inbound(msg.message_id, raw, now, msg.sender, msg.subject):
            if self.store.inbound_status(msg.message_id) != "new":
                log.info("message %s from %s: seen before, not handled again", msg.message_id, msg.sender)
                return Outcome("duplicate", "seen before")
        checkpoint("stored")
        return self._handle(msg)

    def recover(self) -> list[Outcome]:
        """Handle messages that were kept but not handled (a crash between the two)."""
        return [self._handle(parse(raw)) for _, raw in self.store.unhandled_inbound()]

    def _handle(self, msg) -> Outcome:
        postman = self.postman()
        with self.store.transaction():
            outcome = Inbox(postman, self.policy).handle(msg)
            self.store.mark_inbound(msg.message_id, outcome.status, postman.now, outcome.note, outcome.game_id)
        log.info("message %s from %s: %s (%s)", msg.message_id, msg.sender or "-", outcome.status, outcome.note)
        return outcome

    def tick(self) -> list[str]:
        """Move every game whose deadline has passed; returns what was done."""
        done = []
        now = self.clock()
        for game_id in self.store.due_games(now):
            postman = self.postman()
            with self.store.transaction():
                table = games.load(self.store, game_id)
                notes = Turns(postman, table).missed_deadline()
                if not notes:
                    table.next_deadline(now)
                games.save(self.store, table)
            log.info("game %s: deadline passed; %s", game_id, "; ".join(notes) or "nothing owed")
            done += notes
        for game_id in self.store.games_to_remind(now, self.reminder_before):
            postman = self.postman()
            with self.store.transaction():
                table = games.load(self.store, game_id)
                reminded = Turns(postman, table).remind()
                games.save(self.store, table)
            log.info("game %s: reminder for turn %s to %s", game_id, table.state.turn, ", ".join(reminded) or "nobody")
            done += [f"reminded {a}" for a in reminded]
        return done

    def report_failed_delivery(self, row: dict) -> None:
        """A mail the server refused for good: tell the GM's admins (never about their own mail)."""
        admins = sorted(a for a in self.policy.admins if a != row["recipient"])
        if not admins:
            return
        postman = self.postman()
        with self.store.transaction():
            for address in admins:
                postman.to_address("error", address, template="delivery_failed", game_id=row["game_id"],
                                   failed=row)

    def gm_command(self, line: str) -> str:
        """One GM command from the command line (the same as by mail)."""
        command = admin.parse(line)
        postman = self.postman()
        with self.store.transaction():
            done = admin.Admin(postman).run(command)
        log.info("GM command: %s", done)
        return done


__all__ = ["GM", "Outcome"]
