"""Players sign up by mail: JOIN, the answer that confirms it, LEAVE and LIST (CONTRACT 13).

A JOIN needs no secret, so it proves nothing: it is answered as any mail that proves no seat is
(within `limits.strangers_per_hour`), and the answer only asks. Its Reply-To carries a one-time
token, and the seat is taken only when a reply from the same address brings that token back,
within 7 days. So a forged JOIN makes one mail at most, and never a seat; the same JOIN again
within the hour makes none. Once seated, the player's mail carries the seat's own token, and
LEAVE is taken with it, from the seat's address. Answers to unproven mail quote none of it.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from pbem.clock import format_utc
from pbem.games import game_type
from pbem.gm.games import GAME_ID
from pbem.gm.inbox import Outcome
from pbem.mail.clean import base_address, clean
from pbem.orders.text import subject_game_id
from pbem.ratings.reliability import WINDOW, Orders, below, percent, reliability
from pbem.tables import book, letters, start, words
from pbem.store import InboundStatus
from pbem.tables.book import OpenTable, Request, TableSeat, TableStatus

log = logging.getLogger("pbem")

# How long a JOIN's question may be answered, and how soon the same address is asked again.
CONFIRM_FOR = timedelta(days=7)
ASKED_AGAIN = timedelta(hours=1)
LIST_HINT = "Send a mail with the line LIST to get the open tables, then JOIN <table>."
# An id that names nothing is not quoted back: it is the sender's text, and the From may be forged.
UNKNOWN = "There is no table with that id here, and no game of that name."


class Desk:
    """One message to the open tables, answered."""

    def __init__(self, door, msg):
        self.door = door
        self.msg = msg
        self.postman = door.postman
        self.store = self.postman.store
        self.now = self.postman.now

    # -- what the message is --------------------------------------------------------------------
    def answer(self, lines: list, token: str | None) -> Outcome:
        if token is not None:
            request = book.request(self.store, token)
            if request is not None:
                return self.confirm(request, lines)
            seat = book.seat_by_token(self.store, token)
            if seat is not None:
                return self.from_seat(seat, lines)
            if words.first_verb(lines) not in words.WORDS:
                return self.refuse("table token unknown", ["This mail went to a reply address that is not in "
                                   "use here (an old one, or mistyped). Nothing was changed."], hint=LIST_HINT)
        reading = words.read(lines)
        command = reading.command
        # No command is no table mail (`TablesLayer.mail` passes only mail whose first word is one).
        if reading.problems or command is None:
            return self.refuse("table command refused", reading.problems, hint=_what_is_right())
        if command.verb == "JOIN":
            return self.join(command)
        if command.verb == "LIST":
            return self.listing(command)
        return self.leave_unproven(command)

    def _named(self, command: words.Command) -> str | None:
        """The table a command names: its own word, else the `[id]` of the subject (a reply)."""
        tag = subject_game_id(self.msg.subject)
        return command.target or (tag if tag and GAME_ID.fullmatch(tag) else None)

    def _find(self, target: str) -> tuple[OpenTable | None, str]:
        """The table `target` names (an id, or a game type: its oldest open table), or why none."""
        t = book.table(self.store, target) or book.table_but_for_case(self.store, target)
        if t is not None:
            return t, ""
        try:
            engine = game_type(target)
        except KeyError:
            return None, UNKNOWN
        found = book.open_tables(self.store, engine.TYPE)
        return (found[0], "") if found else (None, f"No table of {engine.TITLE} is open just now.")

    def _not_open(self, t: OpenTable) -> str:
        if t.status == TableStatus.STARTED:
            return f"Table {t.id} has started already, as game {t.game}: its seats are all given."
        return f"Table {t.id} is closed: no game will be played at it."

    # -- the answers ----------------------------------------------------------------------------
    def refuse(self, note: str, problems: list[str], *, hint: str | None = None, table_id: str | None = None,
               proven: bool = False) -> Outcome:
        """Nothing done, and why; to mail that proved nothing, within the strangers' limits."""
        if not proven:
            silenced = self.door.unanswerable(self.msg, note)
            if silenced is not None:
                return silenced
        letters.write(self.postman, "refused", self.msg.sender, table_id=table_id, answer=self.msg,
                      authenticated=proven, problems=problems, hint=hint)
        return Outcome(InboundStatus.REFUSED, note, auth=self.msg.sender if proven else None)

    def _tell(self, note: str, template: str, table_id: str | None, *, proven: bool = False,
              secret: str | None = None, game_id: str | None = None, **extra) -> Outcome:
        """A table mail that answers the message (within the strangers' limits unless proven)."""
        if not proven:
            silenced = self.door.unanswerable(self.msg, note)
            if silenced is not None:
                return silenced
        letters.write(self.postman, template, self.msg.sender, table_id=table_id, answer=self.msg,
                      authenticated=proven, secret=secret, game_id=game_id, **extra)
        return Outcome(InboundStatus.HANDLED, note, game_id, auth=self.msg.sender if proven else None)

    # -- JOIN -----------------------------------------------------------------------------------
    def join(self, command: words.Command) -> Outcome:
        target = self._named(command)
        if target is None:
            return self.refuse("JOIN without a table", ["JOIN needs the id of an open table, or a game type: "
                               "JOIN <table> or JOIN <game type>."], hint=LIST_HINT)
        t, why = self._find(target)
        if t is None:
            return self.refuse("JOIN of no open table", [why], hint=LIST_HINT)
        if t.status != TableStatus.OPEN:
            return self.refuse(f"JOIN {t.id}: {t.status}", [self._not_open(t)], hint=LIST_HINT, table_id=t.id)
        sender = self.msg.sender
        if base_address(sender) in {base_address(a) for a in self.door.gm_addresses}:
            return self.refuse(f"JOIN {t.id} from the GM's address", ["The GM's own address cannot take a seat."],
                               table_id=t.id)
        seat = book.seat_of(self.store, t.id, sender)
        if seat is not None:
            return self._tell(f"JOIN {t.id}: seated already", "seated", t.id, secret=seat.token, already=True,
                              name=seat.name, t=letters.describe(self.store, t, self.now))
        short = self._unreliable(t, sender)
        if short is not None:
            return self.refuse(f"JOIN {t.id}: on time below the table's least", [short], table_id=t.id,
                               hint="LIST shows the open tables; a table opened without a least share takes "
                                    "any player.")
        if book.asked_lately(self.store, t.id, sender, self.now - ASKED_AGAIN, self.now):
            return Outcome(InboundStatus.IGNORED, f"JOIN {t.id}: its confirmation was asked already within the hour")
        silenced = self.door.unanswerable(self.msg, f"JOIN {t.id}")
        if silenced is not None:
            return silenced  # no answer, so no question either: nothing waits
        until = self.now + CONFIRM_FOR
        request = book.add_request(self.store, t.id, sender, letters.seat_name(self.msg.sender_name, sender),
                                   self.now, until)
        letters.write(self.postman, "ask", sender, table_id=t.id, answer=self.msg, secret=request.token,
                      t=letters.describe(self.store, t, self.now), until=format_utc(until))
        return Outcome(InboundStatus.HANDLED, f"JOIN {t.id}: asked to confirm")

    def _unreliable(self, t: OpenTable, address: str) -> str | None:
        """Why `address` may not sit at `t` (`--min-on-time`: too few deadlines met), or None."""
        least = book.min_on_time(self.store, t.id)
        if least is None:
            return None
        kept = reliability(self.store, self.now).get(address, Orders())
        if not below(kept, least):
            return None
        assert kept.share is not None  # `below` is never true with nothing owed
        return (f"Table {t.id} takes players whose orders came in time for at least {percent(least)} of their "
                f"deadlines over the last {WINDOW.days} days, in every game played here. Yours came in time "
                f"for {percent(kept.share)} ({kept.on_time} of {kept.owed}), so this table cannot seat you. "
                "Nothing was changed.")

    # -- the answer to the question ---------------------------------------------------------------
    def confirm(self, request: Request, lines: list) -> Outcome:
        """A reply carrying a JOIN's one-time token: from the address asked, unused and in time,
        it takes the seat, whatever it says (a LEAVE line in it says no instead)."""
        table_id = request.table_id
        if self.msg.sender != request.address:
            return self.refuse(f"table {table_id}: confirmation from another address", [
                "This answer must come from the address that was asked."],
                hint="Reply from the address the question was sent to; the reply needs no text.", table_id=table_id)
        if request.used is not None:
            seat = book.seat_of(self.store, table_id, request.address)
            t = book.table(self.store, table_id)
            if seat is not None and t is not None and t.status == TableStatus.OPEN:
                return self._seated(t, seat, already=True)
            return self.refuse(f"table {table_id}: confirmation used already", [
                "This question has been answered already: its answer counts once. Nothing was changed."],
                hint=f"To ask for a seat again, send a mail with the line JOIN {table_id}.", table_id=table_id)
        book.use_request(self.store, request.token, self.now)
        if request.expires <= self.now:
            return self.refuse(f"table {table_id}: confirmation expired", [
                f"This answer came too late: the question expired at {format_utc(request.expires)}. "
                "Nothing was changed."],
                hint=f"A question may be answered for {CONFIRM_FOR.days} days. To ask again, send a mail with "
                     f"the line JOIN {table_id}.", table_id=table_id)
        t = book.known_table(self.store, table_id)
        if words.first_verb(lines) == "LEAVE":
            return self._tell(f"table {table_id}: JOIN declined", "left", table_id, proven=True, declined=True,
                              t=letters.describe(self.store, t, self.now))
        return self._sit(t, request)

    def _sit(self, t: OpenTable, request: Request) -> Outcome:
        if t.status != TableStatus.OPEN:
            return self.refuse(f"table {t.id}: {t.status} before the confirmation", [
                self._not_open(t) + " It changed since you asked, so you have no seat there."],
                hint=LIST_HINT, table_id=t.id, proven=True)
        seat = book.seat_of(self.store, t.id, request.address)
        if seat is not None:
            return self._seated(t, seat, already=True)
        short = self._unreliable(t, request.address)
        if short is not None:  # it fell short since the JOIN was asked
            return self.refuse(f"table {t.id}: on time below the table's least", [short], hint=LIST_HINT,
                               table_id=t.id, proven=True)
        if len(book.seats(self.store, t.id)) >= t.seats:
            return self.refuse(f"table {t.id}: full", [f"Table {t.id} is full: every seat was taken before you "
                               "answered."], hint=LIST_HINT, table_id=t.id, proven=True)
        # The name of the address's own mail client, rather than the JOIN's From (which anyone may write).
        name = letters.seat_name(self.msg.sender_name or request.name, request.address)
        seat = book.add_seat(self.store, t.id, request.address, name, self.now)
        log.info("table %s: %s took a seat", t.id, clean(request.address, 100))
        return self._seated(t, seat, already=False)

    def _seated(self, t: OpenTable, seat: TableSeat, already: bool) -> Outcome:
        """The answer that says the seat is the player's; when that seat starts the table, the
        game is made at once (all of it, or the table stays open and the GM's log says why)."""
        note = f"table {t.id}: seated" + (" already" if already else "")
        if not already and start.ready(self.store, t, self.now):
            try:
                with self.postman.savepoint():
                    game_id = start.start(self.postman, t, told=seat.address)
                    self._tell(note, "seated", t.id, proven=True, already=False, name=seat.name,
                               t=letters.describe(self.store, book.known_table(self.store, t.id), self.now),
                               game_id=game_id, secret=start.game_secret(self.store, t.id, game_id, seat.address))
                return Outcome(InboundStatus.HANDLED, f"{note}; started as game {game_id}", game_id, auth=seat.address)
            except ValueError as e:  # a game the rules refuse: the table stays open, the GM reads why
                log.error("table %s: could not start: %s", t.id, clean(e, 300))
        return self._tell(note, "seated", t.id, proven=True, secret=seat.token, already=already, name=seat.name,
                          t=letters.describe(self.store, t, self.now))

    # -- mail to a seat's token ----------------------------------------------------------------
    def from_seat(self, seat: TableSeat, lines: list) -> Outcome:
        """Mail to a seat's token: taken from the seat's address only."""
        if self.msg.sender != seat.address:
            return self.refuse(f"table {seat.table_id}: seat token from another address", [
                "Mail to this reply address is taken only from the address that holds the seat. Nothing was "
                "changed."], table_id=seat.table_id)
        t = book.known_table(self.store, seat.table_id)
        reading = words.read(lines)
        if reading.command is None:
            if not lines:
                return Outcome(InboundStatus.IGNORED, f"table {t.id}: a reply with nothing in it", auth=seat.address)
            if t.status != TableStatus.OPEN:
                return self.refuse(f"table {t.id}: mail to a seat of a table {t.status}", [self._not_open(t)],
                                   hint=_after(t), table_id=t.id, proven=True)
            return self._seated(t, seat, already=True)
        if reading.problems:
            return self.refuse("table command refused", reading.problems, hint=_what_is_right(), table_id=t.id,
                               proven=True)
        command = reading.command
        if command.verb == "JOIN":
            return self.join(command)
        if command.verb == "LIST":
            return self.listing(command, proven=True)
        return self.leave(t, seat, command)

    # -- LEAVE ----------------------------------------------------------------------------------
    def leave(self, t: OpenTable, seat: TableSeat, command: words.Command) -> Outcome:
        if command.target is not None and command.target.lower() != t.id.lower():
            return self.refuse(f"table {t.id}: LEAVE of another table", [
                f"This reply address is for your seat at table {t.id}, not another table. Nothing was changed."],
                hint=f"LEAVE {t.id}", table_id=t.id, proven=True)
        if t.status != TableStatus.OPEN:
            return self.refuse(f"table {t.id}: LEAVE once {t.status}", [self._not_open(t)], hint=_after(t),
                               table_id=t.id, proven=True)
        book.drop_seat(self.store, t.id, seat.address)
        log.info("table %s: %s left", t.id, clean(seat.address, 100))
        return self._tell(f"table {t.id}: left", "left", t.id, proven=True, declined=False,
                          t=letters.describe(self.store, t, self.now))

    def leave_unproven(self, command: words.Command) -> Outcome:
        """LEAVE without the seat's token: it changes nothing, and says what would."""
        target = self._named(command)
        t = (book.table(self.store, target) or book.table_but_for_case(self.store, target)) if target else None
        if t is None:
            return self.refuse("LEAVE of no table", ["LEAVE needs the id of the table you sit at: LEAVE <table>."
                               if target is None else UNKNOWN], hint=LIST_HINT)
        if book.seat_of(self.store, t.id, self.msg.sender) is None:
            return self.refuse(f"LEAVE {t.id} without a seat", [f"You have no seat at table {t.id}. Nothing was "
                               "changed."], table_id=t.id)
        return self.refuse(f"LEAVE {t.id} without the seat's token", [
            "LEAVE is taken only in a reply to the mail that gave you your seat: its reply address carries "
            "your seat's token. Nothing was changed."], hint=f"Reply to that mail with the line LEAVE {t.id}.",
            table_id=t.id)

    # -- LIST -----------------------------------------------------------------------------------
    def listing(self, command: words.Command, proven: bool = False) -> Outcome:
        title = type_name = None
        if command.target is not None:
            try:
                engine = game_type(command.target)
            except KeyError:
                return self.refuse("LIST of no game type", ["There is no game type of that name here."],
                                   hint="LIST alone gets every open table.", proven=proven)
            title, type_name = engine.TITLE, engine.TYPE
        shown, more = letters.listing(self.store, self.now, type_name)
        return self._tell(f"LIST: {len(shown) + more} open table(s)", "list", None, proven=proven, tables=shown,
                          more=more, title=title)


def _what_is_right() -> str:
    return ("What would be right: a mail of one line, JOIN <table> (or JOIN <game type>) to ask for a seat, "
            "LEAVE <table> in a reply to the mail that seated you, or LIST for the open tables.")


def _after(t: OpenTable) -> str | None:
    if t.status == TableStatus.STARTED:
        return (f"To play, reply to the welcome mail of game {t.game}: its reply address carries your secret "
                "for the game.")
    return LIST_HINT


def answer(door, msg, lines: list, token: str | None) -> Outcome:
    """The Outcome of a message to the open tables (`TablesLayer.mail` found it is one)."""
    return Desk(door, msg).answer(lines, token)


__all__ = ["ASKED_AGAIN", "CONFIRM_FOR", "Desk", "answer"]
