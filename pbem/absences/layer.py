"""Absences as a layer above the GM (`pbem.gm.layers`): every deadline the GM sets passes by the
absences of the game's players; a player's SET ABSENCE, SET ABSENCE OFF and SET AUTOABSENCE lines
in a game's mail, or in a reply to any mail pbem sent them outside a game; a passed deadline of
a player with AUTOABSENCE on. The league's own mail (a reply to its welcome) hands its absence
lines here too, as the layers are wired (`pbem.commands.wiring`)."""
from __future__ import annotations

from datetime import datetime

from pbem.games.errors import InvalidOrder
from pbem.gm.chain import Outcome
from pbem.gm.layers import Layer
from pbem.mail.kinds import MailKind
from pbem.orders.commands import ABSENCE_COMMANDS, first_word, read_body, read_heading
from pbem.absences import auto, keeper, rows
from pbem.absences.allowance import (
    DAY, DEFAULT_DAYS_PER_YEAR, Allowance, active_games, caps, check, example, later, moments, today, zone_of,
)
from pbem.league import rows as league_rows
from pbem.league.plan import read_plan

DEADLINE_WHY = "it falls inside a player's absence (SET ABSENCE), which moves it to the absence's end"
OUTSIDE_A_GAME = ("a reply to pbem's mail outside a game takes SET ABSENCE <first day> TO <last day>, SET ABSENCE "
                  "OFF and SET AUTOABSENCE ON or OFF; orders for a game go in a reply to that game's own mail")


class AbsenceLayer(Layer):
    name = "absences"
    deadline_why = DEADLINE_WHY

    def __init__(self, days_per_year: int = DEFAULT_DAYS_PER_YEAR):
        self.days_per_year = days_per_year

    # -- deadlines --------------------------------------------------------------------------
    def deadline(self, store, game_id: str, addresses: frozenset, moment: datetime) -> datetime:
        """A deadline inside a seated player's absence moves to the absence's end."""
        if not addresses:
            return moment
        return later(moment, [moments(span) for span in rows.spans(store, addresses, rows.AWAY)])

    def missed(self, store, postman, table, now: datetime) -> datetime | None:
        return auto.grant(store, postman, table, now, self.days_per_year)

    def tick(self, gm, now: datetime) -> list[str]:
        """A deadline that falls inside an absence and was set some way the rules did not see
        moves to the absence's end (the pass after it was set, long before it could fall due)."""
        store = gm.store
        away = rows.away_addresses(store, (now - DAY).date())
        done = []
        for address in away:
            spans = [span for span in map(moments, rows.spans(store, [address], rows.AWAY)) if span[1] > now]
            for game_id in active_games(store, address):
                row = store.game(game_id)
                if row is None or row.deadline is None or row.paused or later(row.deadline, spans) == row.deadline:
                    continue
                with store.transaction():
                    moved = keeper.move(store, gm.postman(), address)
                done += [f"{g}: deadline moved (absence)" for g in moved]
                break
        return done

    # -- a game's mail ----------------------------------------------------------------------
    def check_orders(self, store, table, seat, orders: list, now: datetime) -> list:
        away = [(o.command, o.lines[0]) for o in orders if isinstance(o.command, ABSENCE_COMMANDS)]
        if not away:
            return []
        return check(store, seat.address, away, now, zone_of(store, seat.address, table), self.days_per_year)

    def take_orders(self, turns, seat, commands: list, msg) -> str | None:
        away = [c for c in commands if isinstance(c, ABSENCE_COMMANDS)]
        if not away:
            return None
        answered = keeper.take(turns.postman, seat.address, away, self.days_per_year, turns.table)
        turns.postman.to_seat(MailKind.ACK, turns.table, seat, answer=msg, template="absence", **answered)
        return keeper.said(away, answered)

    # -- the league's mail, and a reply outside a game ----------------------------------------
    def check_lines(self, store, address: str, lines: list, now: datetime) -> list:
        """`check_orders` for mail outside a game: `(command, (lineno, text))` pairs."""
        return check(store, address, lines, now, zone_of(store, address), self.days_per_year)

    def take_lines(self, postman, address: str, commands: list) -> dict:
        """Carry out lines `check_lines` took; what the one acknowledgement says, and the pass's
        `note` of it."""
        answered = keeper.take(postman, address, commands, self.days_per_year)
        return answered | {"note": keeper.said(commands, answered)}

    def example(self, store, address: str, now: datetime) -> str | None:
        day = today(now, zone_of(store, address))
        allowance = Allowance(store, address, self.days_per_year)
        left = min([allowance.left_in(day.year), *(s["left"] for s in allowance.seasons())])
        return example(day, left)

    def mail(self, door, msg, lines: list, token: str | None):
        """A reply to a mail pbem sent the sender (to that address), with no secret and no game
        named, whose lines are absence lines: the sender's absence, for all their games."""
        # Asked of every message: a look at the text first, the reader and the store only after.
        if token is not None or not any("ABSENCE" in str(line).upper() for _, line in lines):
            return None
        heading = read_heading(lines)
        if heading.game_id or heading.password:
            return None
        orders, errors = read_body(heading.body, None)
        if not any(isinstance(o.command, ABSENCE_COMMANDS) for o in orders) and not any(
                _absence_line(e.line) for e in errors):
            return None
        store, postman, sender = door.store, door.postman, msg.sender
        ids = tuple(i for i in (msg.in_reply_to, *msg.references) if i)
        if not sender or not ids or not store.outbox.originals(ids, 1, sender) or not _plays(store, sender):
            return None  # not shown to be the player's: the chain answers it as any stranger's mail
        errors = heading.errors + [e for e in errors if _absence_line(e.line)] + [
            InvalidOrder(f"{first_word(str(line))[0] or 'this line'} is not for a reply outside a game",
                         line=line, lineno=lineno, rule=OUTSIDE_A_GAME)
            for lineno, line in _others(heading.body, orders, errors)]
        away = [(o.command, o.lines[0]) for o in orders if isinstance(o.command, ABSENCE_COMMANDS)]
        errors += self.check_lines(store, sender, away, postman.now)
        if errors:
            errors.sort(key=lambda e: e.lineno or 0)
            postman.to_sender(MailKind.ERROR, msg, errors=errors, problem=None, hint=None)
            return Outcome("refused", f"absence: {len(errors)} wrong line(s)", auth=sender)
        answered = self.take_lines(postman, sender, [c for c, _ in away])
        postman.to_sender(MailKind.ACK, msg, template="absence", me={"name": _name(store, sender)}, **answered)
        return Outcome("handled", answered["note"], auth=sender)


def _absence_line(line) -> bool:
    words = str(line or "").upper().split()
    return len(words) >= 2 and words[0] == "SET" and words[1].rstrip(":") in ("ABSENCE", "AUTOABSENCE")


def _others(body: list, orders: list, errors: list) -> list:
    """The lines that are neither an absence line nor an absence line's mistake."""
    kept = {n for o in orders if isinstance(o.command, ABSENCE_COMMANDS) for n, _ in o.lines}
    kept |= {e.lineno for e in errors if _absence_line(e.line)}
    return [(n, line) for n, line in body if n not in kept]


def _plays(store, address: str) -> bool:
    return bool(store.seats_of(address)) or bool(caps(store, address))


def _name(store, address: str) -> str:
    seats = [s for s in store.seats_of(address) if not s.robot]
    if seats:
        return seats[-1].name
    for league in league_rows.leagues(store):
        player = read_plan(dict(league["plan"], id=league["id"])).player(address)
        if player is not None:
            return player.name
    return address.split("@")[0]


__all__ = ["AbsenceLayer", "DEADLINE_WHY"]
