"""Replies to the league's own mail: `SET ABSENCE` (and `SET CALENDAR`, `SET DIGEST`, `SET
REMINDERS`) in answer to a welcome.

A league player has a token of their own in the league, in the Reply-To of every mail the league
writes to them, as a game's secret rides in a game's mail. So a reply to the welcome, before
round 1 has made a game (and a secret), is known for the player's: taken from the address it
was written to, it carries the league's commands. The lines are read by the one reader and the
generic commands as every mail is; the league takes only what is its own and says what else is
whose. The absence lines are the absences' layer's (they move the deadlines of every game the
address plays), handed to it as the layers are wired (`AbsenceKeeper`).
"""
from __future__ import annotations

from datetime import datetime
from typing import Protocol

from pbem.games.errors import InvalidOrder, OrderError
from pbem.gm.inbox import Outcome
from pbem.mail.kinds import MailKind
from pbem.orders.commands import (
    ABSENCE_COMMANDS, SPECTATOR_COMMANDS, SetCalendar, SetDigest, SetReminders, UnknownCommand, read_body,
    read_heading,
)
from pbem.calendars import layer as calendar_layer
from pbem.clock.reminders import set_times
from pbem.clock.schedule import reminder_words
from pbem.gm.reminders import games_playing
from pbem.digests import settings as digest_settings
from pbem.league import notices
from pbem.league import rows as league_rows
from pbem.league.rows import SeasonEvent
from pbem.league.plan import read_plan

__all__ = ["AbsenceKeeper", "answer"]

WHAT_IT_TAKES = ("a reply to the league's mail takes SET ABSENCE <first day> TO <last day> (or OFF), SET "
                 "AUTOABSENCE ON or OFF, SET CALENDAR ON or OFF, SET DIGEST DAILY [<HH:MM>] or OFF and SET "
                 "REMINDERS <times> (such as 24h 4h 1h) or OFF; orders "
                 "for a game go in a reply to that game's own mail")


class AbsenceKeeper(Protocol):
    """What the league asks of the layer that keeps absences (`pbem.absences.layer`)."""

    def check_lines(self, store, address: str, lines: list, now: datetime) -> list: ...

    def take_lines(self, postman, address: str, commands: list) -> dict:
        """What the acknowledgement says, and the pass's `note` of it."""

    def example(self, store, address: str, now: datetime) -> str | None: ...


def answer(door, msg, lines: list, token: str, away: AbsenceKeeper | None = None) -> Outcome | None:
    """The Outcome of a message to a league token (`LeagueLayer.mail` found it is one); None for
    a spectator's request, which is answered as one from any address is."""
    store, postman = door.store, door.postman
    heading = read_heading(lines[: door.policy.max_command_lines + 1])
    orders, errors = read_body(heading.body, None)
    if orders and all(isinstance(o.command, SPECTATOR_COMMANDS) for o in orders):
        return None
    holder = league_rows.league_token_holder(store, token)
    if holder is None or league_rows.league(store, holder[0]) is None:
        return door.unproven(msg, note="league token unknown", problem=(
            "This mail went to a reply address that is not in use here (an old one, or mistyped)."),
            hint="Nothing was changed. Reply to a mail from the GM about your league or your game.")
    league_id, address = holder
    if msg.sender != address:
        return door.unproven(msg, note=f"league {league_id}: token from another address", problem=(
            "Mail to this reply address is taken only from the address the league's mail went to."),
            hint="Nothing was changed. Reply from the address that got the league's mail.")
    league = league_rows.known_league(store, league_id)
    plan = read_plan(dict(league["plan"], id=league_id))
    name = _name(store, league_id, plan, address)
    errors = heading.errors + [_league_only(e) for e in errors]
    own = (SetCalendar, SetDigest, SetReminders)
    taken = (*ABSENCE_COMMANDS, *own) if away is not None else own
    kept = [o for o in orders if isinstance(o.command, taken)]
    errors += [InvalidOrder(f"{str(o.command).split()[0]} is not for the league's mail", line=o.lines[0][1],
                            lineno=o.lines[0][0], rule=WHAT_IT_TAKES)
               for o in orders if o not in kept and not isinstance(o.command, SPECTATOR_COMMANDS)]
    lines_away = [(o.command, o.lines[0]) for o in kept if isinstance(o.command, ABSENCE_COMMANDS)]
    if away is not None and lines_away:
        errors += away.check_lines(store, address, lines_away, postman.now)
    if not kept and not errors:
        errors.append(InvalidOrder(f"this message has no command for the league: {WHAT_IT_TAKES}",
                                   hint=away.example(store, address, postman.now) if away else None))
    if errors:
        errors.sort(key=lambda e: e.lineno or 0)
        notices.league_mail(postman, league_id, plan, MailKind.ERROR, address, name, template="error", answer=msg,
                            errors=errors, problem=None, hint=None, league=league_id, me={"name": name})
        return Outcome("refused", f"league {league_id}: {len(errors)} wrong line(s)", auth=address)
    done = []
    if away is not None and lines_away:
        commands = [c for c, _ in lines_away]
        answered = away.take_lines(postman, address, commands)
        notices.league_mail(postman, league_id, plan, MailKind.ACK, address, name, template="absence", answer=msg,
                            me={"name": name}, **answered)
        done.append(answered["note"])
    calendar = [o.command for o in kept if isinstance(o.command, SetCalendar)]
    if calendar:  # the last one stands, as in a game's mail
        calendar_layer.want(postman, address, calendar[-1].on)
        notices.league_mail(postman, league_id, plan, MailKind.ACK, address, name, template="calendar", answer=msg,
                            me={"name": name}, on=calendar[-1].on, owes=False)
        done.append(f"calendar {'on' if calendar[-1].on else 'off'}")
    digest = [o.command for o in kept if isinstance(o.command, SetDigest)]
    if digest:  # the last one stands, as in a game's mail
        digest_settings.want(postman, address, digest[-1].at)
        notices.league_mail(postman, league_id, plan, MailKind.ACK, address, name, template="digest_set", answer=msg,
                            me={"name": name}, digest=digest_settings.told(postman, address))
        done.append(f"digest {digest[-1].at or 'off'}")
    reminders = [o.command for o in kept if isinstance(o.command, SetReminders)]
    if reminders:  # the last one stands, as in a game's mail; no game of the league's is named
        befores = reminders[-1].befores
        set_times(store, address, befores, postman.now)
        notices.league_mail(postman, league_id, plan, MailKind.ACK, address, name, template="reminders", answer=msg,
                            me={"name": name}, times=reminder_words(befores), coming=[],
                            games=games_playing(store, address))
        done.append(f"reminders {reminder_words(befores)}")
    return Outcome("handled", f"league {league_id}: " + "; ".join(done), auth=address)


def _league_only(error: OrderError) -> OrderError:
    """A line that is no command of any game's: what the league's mail takes, not "name your game"."""
    if isinstance(error, UnknownCommand):
        error.message, error.rule, error.hint = "not a command of the league's mail", WHAT_IT_TAKES, None
    return error


def _name(store, league_id: str, plan, address: str) -> str:
    """The name the league knows the address by: its row's, or the one the GM gave a newcomer."""
    player = plan.player(address)
    name = player.name if player else address.split("@")[0]
    for event in league_rows.league_events(store, league_id):
        if event["kind"] == SeasonEvent.REPLACE and event.get("new") == address:
            name = event.get("name") or name
    return name
