"""The mail the GM writes about a game, each from its template, queued in the outbox.

Every letter to a player is rendered from that player's own view of the game
(`state.view(seat)`), so nothing a player may not know can reach a template; a spectator's copy
of a report or result from `state.spectator_view()` (see `observers`).
"""
from __future__ import annotations

import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from collections.abc import Iterator

from pbem.clock import format_utc
from pbem.clock.schedule import clock_stopped, format_deadline, stated_deadline, time_left
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import DIGEST_KINDS, MailKind
from pbem.mail.outbound import Letter, compose, short_subject
from pbem.render.html_part import html_part
from pbem.render import render
from pbem.store import Seat, Store
from pbem.gm import layers
from pbem.gm.answers import one_answer
from pbem.gm.games import Table
from pbem.gm.observers import SPECTATOR_KINDS, copy_to_spectators



@dataclass
class Postman:
    store: Store
    gm_address: str
    gm_name: str
    now: datetime
    # The answers already written to each message, by kind and topic (the template): one message
    # gets at most one answer of each (a time zone set and orders played beside it are two), and a
    # hushed message (its sender past the hourly limit) none at all.
    answered: set = field(default_factory=set)
    hushed: set = field(default_factory=set)
    spectated: set = field(default_factory=set)  # the reports already copied to spectators
    closing: set = field(default_factory=set)  # the games whose turn the GM is closing now (PROCESS)
    admins: frozenset = frozenset()  # the GM's admin addresses: their HELP lists the GM's commands
    gm_contact: str | None = None  # `gm.contact`: a person who runs this GM, named in the mail
    # While a message is handled (`answering`), the mail it causes, in the order written.
    held: list | None = None
    # What a layer above keeps while this postman works (read once when first needed).
    memo: dict = field(default_factory=dict)

    def hush(self, msg: Inbound) -> None:
        self.hushed.add(msg.message_id)

    @contextmanager
    def answering(self, msg: Inbound) -> Iterator[None]:
        """One message, one answer: the answers it earns go out as one mail (see `answers`), where
        the first of them was written; the rest of its mail as written. Nothing, if it fails."""
        self.held = []
        try:
            yield
            held = self.held
        finally:
            self.held = None
        answers: dict[str, list] = {}
        for letter, topic in held:
            if letter.in_reply_to == msg.message_id:
                answers.setdefault(letter.to_addr, []).append((letter, topic))
        for letter, _topic in held:
            if letter.in_reply_to != msg.message_id:
                self._send(letter)
            elif letter.to_addr in answers:
                self._send(one_answer(answers.pop(letter.to_addr), self.gm_name, self.gm_address))

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """All or nothing: a store savepoint that takes back the mail written inside it too,
        the mail still held (`answering`) as well as the queued."""
        held, kept = self.held, len(self.held) if self.held is not None else 0
        answered, spectated = set(self.answered), set(self.spectated)
        try:
            with self.store.transaction():
                yield
        except BaseException:
            if held is not None:
                del held[kept:]
            self.answered, self.spectated = answered, spectated
            raise

    def post(self, letter: Letter, topic: str | None = None) -> None:
        if letter.in_reply_to is not None:
            key = (letter.in_reply_to, letter.kind, topic or letter.kind)
            if letter.in_reply_to in self.hushed or key in self.answered:
                return
            self.answered.add(key)
        if self.held is not None:
            self.held.append((letter, topic or letter.kind))
            return
        self._send(letter)

    def _send(self, letter: Letter) -> None:
        if layers.hold(self, letter):  # kept for the reader's digest, in this same transaction
            return
        # Each of a player's mails carries a later Date than the one before, so that mail clients
        # (which sort by Date, to the second) show a pass's mails in the order they were written.
        last = self.store.outbox.last_mail_at(letter.to_addr, self.now)
        dated = self.now if last is None or last < self.now else last + timedelta(seconds=1)
        if letter.html is None:
            letter.html = html_part(letter.text)
        letter.subject = short_subject(letter.subject)
        mail = compose(letter, gm_address=self.gm_address, gm_name=self.gm_name, now=dated)
        self.store.outbox.queue(now=dated, game_id=letter.game_id, kind=letter.kind, recipient=letter.to_addr,
                                message_id=mail.message_id, raw=mail.raw)

    def context(self, table: Table | None, seat: Seat | None) -> dict:
        ctx: dict = {"gm_address": self.gm_address, "gm_name": self.gm_name, "gm_contact": self.gm_contact,
                     "now": format_utc(self.now)}
        if table is not None:
            state = table.state
            row = table.row
            # A paused game's stored deadline is stale: its mail states the time left instead.
            ctx.update(
                game=row, title=type(state).TITLE, seats=table.seats,
                deadline=format_deadline(stated_deadline(row), seat.timezone if seat else None),
                paused=bool(row.paused) and row.status == "active", left=time_left(row),
                # The time left is the turn's only once the row has caught up with the engine.
                paused_note=clock_stopped(row, bool(state.to_move()) and state.turn == row.turn),
                forfeit_when="before the GM closed the turn" if table.id in self.closing else "by the deadline",
                view=state.view(seat.seat) if seat else None,
            )
        ctx["me"] = seat
        # The player's seat that pbem's robot plays for them (a takeover): their mail asks no move.
        ctx["robot_plays"] = bool(table is not None and seat is not None and seat.seat in table.robot_plays)
        ctx["can_press"] = bool(table is not None and seat is not None and table.press_readers(seat))
        return ctx

    # A letter's kind is a MailKind: given its word (`"ack"`), the letters below take the member.
    def to_seat(self, kind: MailKind | str, table: Table, seat: Seat, *, answer: Inbound | None = None,
                template: str | None = None, asks: bool = False, **extra) -> None:
        """`asks`: the letter asks something of its reader whatever the game waits for (it goes
        at once, never into a digest)."""
        kind = MailKind(kind)
        if seat.robot:  # a robot has no address: nothing is written to it (its spectators' copy is)
            if kind in SPECTATOR_KINDS:
                copy_to_spectators(self, kind, table, template, extra)
            return
        ctx = self.context(table, seat)
        ctx.update(extra)
        subject, text = render(template or kind, table.type, **ctx)
        text = _with_clock(text, ctx.get("paused_note"), self.gm_name) + _robots(kind, table, seat) \
            + _fairness(kind, table.row)
        # A report, result or notice of a game in which the reader owes nothing now (or whose seat
        # the robot plays for them) asks nothing of them: it may wait for their digest (CONTRACT
        # section 14), unless it carries calendar parts.
        parts = layers.attachment(self, kind, template, table, seat, ctx.get("deadline") is not None)
        owes = seat.seat in table.state.to_move() and seat.seat not in table.robot_plays
        waits = kind in DIGEST_KINDS and answer is None and not parts and not asks and not owes
        self.post(Letter(kind=kind, to_addr=seat.address, to_name=seat.name, game_id=table.id,
                         subject=f"[{table.id}] {subject}", text=text, secret=seat.secret,
                         in_reply_to=answer.message_id if answer else None,
                         references=answer.references if answer else (), digest=waits, **parts),
                  topic=template or kind)
        if kind in SPECTATOR_KINDS:  # reports go seat by seat; their spectators get one copy
            copy_to_spectators(self, kind, table, template, extra)

    def status_text(self, table: Table, seat: Seat) -> str:
        """The body of the STATUS mail `seat` would get now (its own view of the game), for a
        mail that must show the game as it stands (a rollback's notice)."""
        ctx = self.context(table, seat)
        return render("status", table.type, **ctx)[1]

    def to_all(self, kind: MailKind | str, table: Table, **extra) -> None:
        for seat in table.seats:
            self.to_seat(kind, table, seat, **extra)

    def to_address(self, kind: MailKind | str, address: str, *, template: str, game_id: str | None = None,
                   **extra) -> None:
        """A notice to someone who is no player (the GM's admins)."""
        kind = MailKind(kind)
        ctx = self.context(None, None)
        ctx.update(extra)
        subject, text = render(template, None, **ctx)
        prefix = f"[{game_id}] " if game_id else ""
        self.post(Letter(kind=kind, to_addr=address, game_id=game_id, subject=prefix + subject, text=text))

    def to_sender(self, kind: MailKind | str, msg: Inbound, *, table: Table | None = None, seat: Seat | None = None,
                  template: str | None = None, **extra) -> None:
        """An answer to whoever wrote, who may be no player at all (no secret in the Reply-To then)."""
        kind = MailKind(kind)
        ctx = self.context(table, seat)
        ctx["admin"] = msg.sender in self.admins  # the answer goes to that address, whoever forged it
        ctx.update(extra)
        subject, text = render(template or kind, table.type if table else None, **ctx)
        if seat is not None:
            text = _with_clock(text, ctx.get("paused_note"), self.gm_name)
        prefix = f"[{table.id}] " if table else ""
        # The name is the seat's, never the one the sender wrote: an answer to a forged From must
        # carry no text of the forger's choosing.
        self.post(Letter(kind=kind, to_addr=msg.sender, to_name=seat.name if seat else "",
                         game_id=table.id if table else None,
                         subject=prefix + subject, text=text, secret=seat.secret if seat else None,
                         in_reply_to=msg.message_id, references=msg.references if seat else ()),
                  topic=template or kind)


def _with_clock(text: str, note: str | None, gm_name: str) -> str:
    """Every mail of a paused game says so: `note` where the mail does not say it already,
    above the signature (or at the end of a mail without one)."""
    if not note or " ".join(note.split()) in " ".join(text.split()):
        return text
    lines = text.rstrip("\n").split("\n")
    signed = len(lines) > 1 and lines[-1].startswith(gm_name)
    head, tail = (lines[:-1], lines[-1:]) if signed else (lines, [])
    while head and not head[-1].strip():
        head.pop()
    told = textwrap.fill(note, 76, break_long_words=False, break_on_hyphens=False).split("\n")
    return "\n".join(head + ([""] if head else []) + told + ([""] + tail if tail else [])) + "\n"


def _robots(kind: MailKind, table: Table, reader: Seat) -> str:
    """A welcome says which seats pbem's robots play, and how (CONTRACT section 12)."""
    robots = [(seat, seat.robot) for seat in table.seats if seat.robot and seat.seat != reader.seat]
    if kind != MailKind.WELCOME or not robots:
        return ""
    names = [f"{seat.name} ({robot})" if robot not in seat.name else seat.name for seat, robot in robots]
    who = names[0] + " is a robot" if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] + \
        " are robots"
    # Where nobody but robots would read a press, the mail offers none (`can_press`).
    press = " (a press goes to the human players only)" if table.press_readers(reader) else ""
    return "\n" + textwrap.fill(
        f"{who}: pbem plays {'it' if len(names) == 1 else 'them'} itself, from what that seat may see and "
        "nothing more, and a robot moves as soon as a move is its to make: it never keeps you waiting. "
        f"Its moves reach you as anyone's do; it reads no mail{press}.",
        76, break_long_words=False, break_on_hyphens=False) + "\n"


def _fairness(kind: MailKind, row) -> str:
    """CONTRACT section 11: the commitment to the secret seed in every welcome, the seed itself
    in the result. (The commitment line is the one line of mail wider than 78 columns: the
    contract gives it whole, so that a program can find it.)"""
    if kind == MailKind.WELCOME and row.commitment:
        return ("\nEvery shuffle and roll of this game comes from one secret seed, fixed now and\n"
                "mailed with the result (`pbem verify` checks the game with it). Its SHA-256:\n"
                "Seed commitment: " + row.commitment + "\n")
    if kind == MailKind.RESULT and row.seed_hex:
        return ("\nThe secret seed of this game, whose SHA-256 the welcome mail gave; every\n"
                "shuffle and roll can be checked from it:\n"
                "Seed: " + row.seed_hex + "\n")
    return ""
