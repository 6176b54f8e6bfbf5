"""The steps of the inbox's chain (`chain.Step`): each answers one kind of message or passes it on.

`chain()` lists them in their order of precedence, and the classes below follow that order.
Mail that proved no seat is answered through the door's `unproven` (one short answer, never
quoting the message, within the strangers' limits); a refusal's sentences are its template's
(`templates/inbox/`, through `wording`).
"""
from __future__ import annotations

import hmac

from pbem.clock import format_utc
from pbem.games.errors import OrderError
from pbem.mail.dsn import read_bounce
from pbem.mail.inbound import Inbound
from pbem.mail.kinds import MailKind
from pbem.mail.screen import SEAT_RULES, screen
from pbem.orders.commands import Help, first_word, read_body, read_heading
from pbem.orders.text import Reading, subject_game_id
from pbem.gm import admin, games, gm_password, layers, observers, spectators
from pbem.gm.admin import is_gm_command
from pbem.gm.chain import Door, Found, Outcome, Step
from pbem.gm.wording import wording


def chain() -> list[Step]:
    """Every step a message passes, top to bottom: the first that returns an outcome ends it.
    The mail that needs no seat (a spectator's, a layer's, the GM's) is answered before a seat
    is looked for, so that asking for a game or a seat never refuses it."""
    return [
        Screen(),
        Size(),
        Read(),
        SpectatorConfirmation(),
        *(LayerMail(layer) for layer in layers.above()),
        Echo(),
        GmCommands(),
        Spectators(),
        Identify(),
        Authenticate(),
        Commands(),
    ]


class Screen(Step):
    name = "screen"
    reason = ("mail that no one answers (an auto-reply, a list's, a delivery report), unless a seat's "
              "own address sends it with the seat's secret")

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        reason = screen(msg, door.gm_addresses)
        if not reason:
            return None
        stands = screen(msg, door.gm_addresses, SEAT_RULES)  # named first: no secret passes it
        reading = None if stands or msg.oversized or not msg.sender else door.read(msg)
        if reading is None or not _from_its_seat(door, msg, reading):
            # Never answered (`pbem inbox` lists it); a delivery report among them is read.
            return Outcome("screened", (stands or reason) + _bounces(door, msg))
        found.reading = reading  # read once: the steps after it share this reading
        return None


class Size(Step):
    name = "size"
    reason = "a message larger than the GM reads, refused unread"

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        if not msg.oversized:
            return None
        words = wording("too_large", size=msg.size, limit=door.policy.max_message_bytes)
        return door.unproven(msg, note=f"too large to read: {msg.size} bytes", problem=words.problem,
                             hint=words.hint)


class Read(Step):
    name = "read"
    reason = ("the lines as commands, read against the GM's mails they answer; GAME, PASSWORD and TURN; "
              "the secret in the address the message went to; a spectator's command in the subject of "
              "a mail with none in its text (answers nothing)")

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        if found.reading is None:
            found.reading = door.read(msg)
        found.head = found.reading.lines[: door.policy.max_command_lines + 1]
        found.token = door.secret_in_address(msg)
        # The mailto of a spectator's List-Unsubscribe (RFC 2369) is mailed as it is: its subject
        # is the command, and the text is empty (or a mail program's words of its own).
        command = _spectator_subject(msg.subject)
        if command and not door.has_commands(found.head):
            found.head = [(0, command)]
        found.heading = read_heading(found.head)
        return None


class SpectatorConfirmation(Step):
    name = "spectator_confirmation"
    reason = "the answer to the question an OBSERVE got, carrying its one-time token, whatever it says"

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        """From the address that was asked, before it expires, it makes the subscription (an
        UNOBSERVE line in it says no instead). The token is used once either way."""
        pending = spectators.observe_request(door.store, found.token)
        if pending is None:
            return None
        ids = " ".join(pending["targets"])
        if msg.sender != pending["address"]:
            words = wording("confirmation_elsewhere")
            return door.unproven(msg, note=f"spectator confirmation from another address ({ids})",
                                 problem=words.problem, hint=words.hint)
        spectators.drop_observe_request(door.store, pending["token"])
        if pending["expires"] <= door.postman.now:
            words = wording("confirmation_expired", days=observers.CONFIRM_FOR.days, targets=pending["targets"])
            return door.unproven(msg, note=f"spectator confirmation expired ({ids})", problem=words.problem,
                                 hint=words.hint)
        spectator = observers.Spectator(door.store, msg.sender, door.postman.now)
        if observers.declines(found.head):
            observers.tell(door.postman, msg, msg.sender,
                           [observers.unchanged(door.store, "declined", i) for i in pending["targets"]])
            return Outcome("handled", f"spectator declined: {ids}", auth=msg.sender)
        observers.tell(door.postman, msg, msg.sender, spectator.confirm(pending["targets"]))
        return Outcome("handled", f"spectator confirmed: {ids}", auth=msg.sender)


class LayerMail(Step):
    """The mail one layer above the GM answers itself (`layers.Layer.mail`), named as the layer."""
    reason = "mail a layer above the GM answers itself (a league's JOIN, a table's confirmation, RATINGS)"

    def __init__(self, layer: layers.Layer):
        self.layer = layer
        self.name = layer.name

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        return self.layer.mail(door, msg, found.head, found.token)


class Echo(Step):
    name = "echo"
    reason = ("a reply to the GM's own mail with not one command in it: an auto-responder that sets no "
              "header saying so, and answering it could start a loop")

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        ids = tuple(i for i in (msg.in_reply_to, *msg.references) if i)
        if not ids or not door.store.outbox.is_own_mail(ids) or door.has_commands(found.head):
            return None
        return Outcome("ignored", "a reply to the GM's own mail that carries no command")


class GmCommands(Step):
    name = "gm_commands"
    reason = ("GM commands: run from an admin's address with the GM's password, refused from any other "
              "address that gives no password")

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        heading = found.heading
        if not any(is_gm_command(ln) for _, ln in heading.body):
            return None
        if msg.sender in door.policy.admins:
            return _gm_door(door, msg, heading)
        if heading.password or found.token:
            return None  # a player's mail with a word of the GM's: the player's side reads it
        words = wording("gm_not_admin", gm_contact=door.postman.gm_contact)
        return door.unproven(msg, note="GM command from a non-admin", problem=words.problem, hint=words.hint)


class Spectators(Step):
    name = "spectators"
    reason = "OBSERVE and UNOBSERVE, from anyone: answered as mail that proves no seat is"

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        """No secret is asked, so one that gets no answer changes nothing. An OBSERVE only asks
        the address to confirm; UNOBSERVE is done at once, for the sender, or for the spectator
        whose token the address it was sent to carries (from any address)."""
        request = observers.read_request(door.store, found.heading, msg.subject)
        if request is None:
            return None
        owner = spectators.spectator_by_token(door.store, found.token)
        spectator = observers.Spectator(door.store, owner or msg.sender, door.postman.now)
        steps, errors = spectator.check(request)
        asked = ", ".join(str(o.command) for o in request.orders)
        if errors:
            words = wording("spectator_refused", errors=errors)
            return door.unproven(msg, note=f"spectator request refused: {asked}", problem=words.problem,
                                 hint=words.hint)
        silenced = door.unanswerable(msg, f"spectator request: {asked}")
        if silenced:
            return silenced
        applied = spectator.apply(steps)
        now = door.postman.now
        if applied.wanted and spectators.observe_asked(door.store, spectator.address, [t.id for t in applied.wanted],
                                                        now - observers.ASKED_AGAIN, now):
            applied.wanted = []  # asked already within the hour: the question is in that mailbox
            if not applied.done:
                return Outcome("ignored", f"spectator request: {asked}; its confirmation was asked already")
        if applied.wanted:
            observers.ask_to_confirm(door.postman, msg, spectator.address, applied)
        else:
            observers.tell(door.postman, msg, spectator.address, applied.done)
        named = {d["id"] for d in applied.done if d["kind"] == "game"} | {
            t.id for t in applied.wanted if t.kind == "game"}
        waiting = "; asked to confirm" if applied.wanted else ""
        return Outcome("handled", f"spectator: {asked}{waiting}", next(iter(named)) if len(named) == 1 else None)


class Identify(Step):
    name = "identify"
    reason = ("the game the message is for (its GAME line, its subject, or the seat whose secret it gives) "
              "and the sender's seat in it (answers nothing)")

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        found.secret = found.heading.password or found.token
        found.game_id = found.heading.game_id or subject_game_id(msg.subject)
        if found.game_id is None and found.secret:
            owner = door.store.seat_by_secret(found.secret)
            found.game_id = owner.game_id if owner else None
        found.table = games.load(door.store, found.game_id) if found.game_id else None
        found.seat = found.table.seat_of(msg.sender) if found.table else None
        return None


class Authenticate(Step):
    name = "authenticate"
    reason = "mail that does not come from a seat's own address with that seat's secret is refused"

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        """The answer goes to the From address, so it may tell a seat's owner that the password
        was missing or wrong; to anyone else it says the same whether or not the game exists and
        the secret is someone's: it is no oracle."""
        table, seat, secret = found.table, found.seat, found.secret
        if seat is not None and _same(secret, seat.secret):
            return None
        owner = table.seat_with_secret(secret) if table else None
        if table is not None and owner is not None and owner.address != msg.sender:
            # Someone else holds this seat's secret: its owner hears of it, never the sender.
            door.postman.to_seat(MailKind.ERROR, table, owner, template="warning", intruder=msg.sender)
        if table is not None and seat is not None:
            words = wording("password", given=bool(secret))
            return door.unproven(msg, table=table, seat=seat, problem=words.problem,
                                 note=f"{words.problem} ({table.id})", hint=words.hint)
        if not (found.game_id or secret):
            return _without_game(door, msg, found.head)
        words = wording("no_seat")
        return door.unproven(msg, note="no seat matches sender, game and password", problem=words.problem,
                             hint=words.hint)


class Commands(Step):
    name = "commands"
    reason = "a player's commands, from the seat's own address with its secret: all applied, or none"

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        table, seat, reading = found.table, found.seat, found.reading
        assert table is not None and seat is not None and reading is not None  # `authenticate` passed it on
        return door.player(msg, table, seat, found.heading, reading)


# -- what the steps share --------------------------------------------------------------------
_SUBJECT_COMMAND_CHARS = 120  # a word and an id or two: a longer subject is a sentence


def _spectator_subject(subject: str) -> str | None:
    """The subject as a command line when it is one of a spectator's (OBSERVE, UNOBSERVE), else None."""
    if len(subject) > _SUBJECT_COMMAND_CHARS or first_word(subject)[0] not in observers.WORDS:
        return None
    return " ".join(subject.split())


def _same(given: str | None, secret: str | None) -> bool:
    """Whether a password from the mail is a seat's secret (in constant time, any case: the
    secret rides in a Reply-To's local part, which some mail systems fold to lower case)."""
    if not given or not secret:
        return False
    return hmac.compare_digest(given.strip().lower().encode("utf-8", "replace"), secret.lower().encode("utf-8"))


def _from_its_seat(door: Door, msg: Inbound, reading: Reading) -> bool:
    """Whether a screened message comes from a seat's own address with that seat's secret
    (in its reading or the address it went to), so that what a group adds to it gives way.
    Its answer goes to the From address, that is the seat's, as every answer does: never
    to a Reply-To or to the list."""
    heading = read_heading(reading.lines[: door.policy.max_command_lines + 1])
    secret = heading.password or door.secret_in_address(msg)
    owner = door.store.seat_by_secret(secret) if secret else None
    return owner is not None and not owner.robot and owner.address == msg.sender.lower() \
        and _same(secret, owner.secret)


def _bounces(door: Door, msg: Inbound) -> str:
    """A delivery report: the mail it speaks of is marked bounced, and the admins are told
    once per address. Never answered."""
    noted = []
    for bounce in read_bounce(msg):
        if not bounce.permanent:
            continue
        mail, new = door.store.outbox.mark_bounced(bounce.message_id, bounce.recipient, bounce.diagnostic,
                                            door.postman.now)
        if mail is None:
            continue
        noted.append(mail["recipient"])
        if new:
            for admin_address in sorted(door.policy.admins - {mail["recipient"]}):
                door.postman.to_address(MailKind.ERROR, admin_address, template="bounced", game_id=mail["game_id"],
                                        mail=mail, bounced=mail["recipient"], diagnostic=bounce.diagnostic)
    return f"; bounced: {', '.join(noted)}" if noted else ""


def _without_game(door: Door, msg: Inbound, lines: list) -> Outcome:
    """Mail that names no game and gives no secret: HELP alone is answered; anything else is
    told to name its game."""
    orders, _ = read_body(lines, None)
    if orders and len(orders) == len(lines) and all(isinstance(o.command, Help) for o in orders):
        return door.unproven(msg, note="help", kind=MailKind.HELP, status="handled")
    words = wording("no_game")
    return door.unproven(msg, note="no game named", problem=words.problem, hint=words.hint)


def _gm_door(door: Door, msg: Inbound, heading) -> Outcome:
    """GM commands from an admin's address run only with the GM's password, exactly. Each
    wrong one counts; past the hour's limit none is taken, the right one neither, and wrong
    ones get no answer (see `gm_password`)."""
    secret = door.policy.gm_secret
    if not secret or not heading.password:
        words = wording("gm_password", why="missing", secret_set=bool(secret))
        return door.unproven(msg, note=words.problem, problem=words.problem, hint=words.hint)
    lock = gm_password.Lock(door.store, door.postman.now)
    was_locked = lock.locked_until()
    if gm_password.same_password(heading.password, secret):
        if was_locked is None:
            return _gm_commands(door, msg, heading)
        # Only the password's holder gets here: the answer is no stranger's to use up.
        words = wording("gm_password", why="locked", tries=gm_password.TRIES, until=format_utc(was_locked))
        door.postman.to_sender(MailKind.ERROR, msg, errors=[], problem=words.problem, hint=words.hint)
        return Outcome("refused", f"GM password right, but locked until {format_utc(was_locked)}")
    until, alarm = lock.miss(msg.sender)
    if was_locked is not None:
        assert until is not None  # locked before this miss, so still locked after it
        outcome = Outcome("ignored", f"wrong GM password while locked until {format_utc(until)}: not answered")
    else:
        note = "wrong GM password" + (f"; GM commands by mail locked until {format_utc(until)}" if until else "")
        words = wording("gm_password", why="wrong", tries=gm_password.TRIES,
                        until=format_utc(until) if until else None)
        outcome = door.unproven(msg, note=note, problem=words.problem, hint=words.hint)
    for address in sorted(door.policy.admins) if alarm else ():
        assert until is not None  # the alarm is for the miss that began a lockout
        door.postman.to_address(MailKind.ERROR, address, template="gm_locked", sender=msg.sender, tries=lock.tries,
                                until=format_utc(until))
    return outcome


def _gm_commands(door: Door, msg: Inbound, heading) -> Outcome:
    """An admin's GM commands with the right password: all of them run, or none."""
    errors, done = [], []
    commands = []
    for lineno, line in heading.body:
        try:
            commands.append(admin.parse(line, lineno))
        except OrderError as e:
            errors.append(e)
    if not errors:
        try:
            with door.postman.savepoint():  # all of the commands or none, and their mail
                done = [admin.Admin(door.postman).run(c) for c in commands]
        except OrderError as e:
            errors.append(e)
            done = []  # the savepoint took back the state and the mail of the commands
    if errors:
        door.postman.to_sender(MailKind.ERROR, msg, errors=errors, problem=None, hint=None)
        return Outcome("refused", "GM command refused", auth=msg.sender)
    door.postman.to_sender(MailKind.ACK, msg, template="gm_done", done=done)
    return Outcome("handled", "; ".join(done), auth=msg.sender)


__all__ = ["chain"]
