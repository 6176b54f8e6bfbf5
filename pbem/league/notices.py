"""The league's own mail: the welcome with a player's schedule (at the start, or to a newcomer
who takes over a row), and what a withdrawal or a handover means for the leaver and for each
opponent. Each reader is told about their own season, in the second person. The welcome puts
the rounds still to open in the reader's calendar; the mail that tells a player they have left
the league takes out those still to come (`calendar_layer.withdraw_season`)."""
from __future__ import annotations

from datetime import datetime, timedelta

from pbem import calendars
from pbem.calendars import layer as calendar_layer
from pbem.games import game_type
from pbem.gm.robot_seats import DEFAULT_LEVEL, robot_name
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter
from pbem.render import render
from pbem.league.pairings import Fixture, Pairing, fixtures, schedule
from pbem.league.plan import LeaguePlan, is_robot
from pbem.league.tokens import token_for

EXAMPLE_DAYS = 7
# How a schedule names the opponent of a `bye: robot` round (no row's handle looks like it).
BYE_ROBOT = "robot"


def league_mail(postman, league_id: str, plan: LeaguePlan, kind: MailKind, address: str, name: str | None, *,
                template: str | None = None, secret: str | None = None, calendar: str | None = None,
                answer=None, headers: dict[str, str] | None = None, calendar_cancels: tuple[str, ...] = (),
                **extra) -> None:
    """Every mail of the league's own goes through here: none is ever written to a robot. Its
    Reply-To carries `secret`, or the reader's own league token (`replies`), so that a reply to
    it is known for theirs; `answer`: the player's message it answers; `headers`: more of them
    (a spectator's `List-Id` and `List-Unsubscribe`); `calendar_cancels`: a CANCEL part for each
    calendar entry of the league's that the mail withdraws."""
    if is_robot(address):
        return
    if secret is None:  # a spectator's mail carries the spectator's token; every other, the reader's own
        secret = token_for(postman.store, league_id, address)
    ctx = postman.context(None, None)
    ctx.update(league_id=league_id, plan=plan, name=name, address=address, title=game_type(plan.game).TITLE,
               spectator=None)
    ctx.update(extra)
    subject, text = render(template or kind, "league", **ctx)
    postman.post(Letter(kind=kind, to_addr=address, to_name=name or "", subject=f"[{league_id}] {subject}",
                        text=text, secret=secret, extra_headers={"X-PBEM-League": league_id, **(headers or {})},
                        calendar=calendar, calendar_name="season.ics", calendar_cancels=calendar_cancels,
                        in_reply_to=answer.message_id if answer else None,
                        references=answer.references if answer else (),
                        # The standings, and a spectator's every mail, ask nothing: they may wait
                        # for the reader's digest (CONTRACT section 14).
                        digest=answer is None and (kind == MailKind.STANDINGS or bool(headers))),
                 topic=template or kind)


def absence_example(plan: LeaguePlan, now: datetime) -> str | None:
    """A SET ABSENCE line that would be taken: real dates inside the season, from the later of
    round 2's opening (round 1's when there is one) and today, a week or the allowance long."""
    days = min(EXAMPLE_DAYS, plan.absence_days)
    first = max(plan.opens(min(2, plan.rounds)).date(), now.date())
    last = min(first + timedelta(days=days - 1), (plan.ends - timedelta(seconds=1)).date())
    if days <= 0 or last < first:
        return None
    return f"SET ABSENCE {first.isoformat()} TO {last.isoformat()}"


def welcome(postman, league_id: str, plan: LeaguePlan, row: str, address: str, name: str, *,
            row_names: dict[str, str], gone: set[str], replacing: str | None = None) -> None:
    """The schedule of league row `row` (a plan address), to the player who holds it: every round
    at the start; a newcomer, the rounds still to open. `row_names`: each row's player now, by
    the row's plan address; `gone`: the rows whose player withdrew."""
    now = postman.now
    rounds = [f for f in fixtures(plan, row) if replacing is None or f.opens > now]
    if plan.bye == "robot":  # the bye is a match against a robot: the schedule names it so
        rounds = [Fixture(f.round, f.opens, f.course, Pairing(f.round, 0, (row, BYE_ROBOT)), (BYE_ROBOT,))
                  if f.bye else f for f in rounds]
        row_names = {**row_names, BYE_ROBOT: f"{robot_name(DEFAULT_LEVEL)}, a robot player"}
    # The season's calendar (CONTRACT section 13): each round still to open, for a calendar program.
    openings = calendars.openings(postman.store, league_id, plan, postman.gm_address, now)
    organizer = calendars.Organizer(postman.gm_name, postman.gm_address)
    calendar = calendars.calendar(postman.store, openings, now, organizer, publish=True) if openings else None
    league_mail(postman, league_id, plan, MailKind.WELCOME, address, name, fixtures=rounds, row_names=row_names,
                gone=gone, replacing=replacing, absence_example=absence_example(plan, now), calendar=calendar,
                calendar_part=calendar is not None)
    if calendar is not None and not is_robot(address):
        calendar_layer.hold_season(postman, league_id, address, openings)


def withdrawal(postman, league_id: str, plan: LeaguePlan, row: str, address: str, name: str, *,
               left: list[str], opened: int) -> None:
    """To the player withdrawn from league row `row`: they are out, and what their games in play
    and their matches not made yet count as."""
    later = [f.round for f in fixtures(plan, row) if f.round > opened and not f.bye]
    match = plan.format == "round-robin"
    cancels = calendar_layer.withdraw_season(postman, league_id, address)
    league_mail(postman, league_id, plan, MailKind.STATUS, address, name, template="withdrawn", left=left,
                later=later if match else [], calendar_cancels=cancels, cancelled=len(cancels))


def to_robot(postman, league_id: str, plan: LeaguePlan, row: str, address: str, name: str, *, robot: str,
             moved: list[str], opened: int) -> None:
    """To the player whose league row a robot now plays (`withdrawn: robot`, or the GM's
    `REPLACE <league> <address> robot`): which games it plays for them, and that they count in
    the row as before."""
    later = [f.round for f in fixtures(plan, row) if f.round > opened and not f.bye]
    cancels = calendar_layer.withdraw_season(postman, league_id, address)
    league_mail(postman, league_id, plan, MailKind.STATUS, address, name, template="to_robot", robot=robot, moved=moved,
                later=later, calendar_cancels=cancels, cancelled=len(cancels))


def replaced(postman, league_id: str, plan: LeaguePlan, address: str, name: str, *, newcomer: str,
             moved: list[str]) -> None:
    """To the player whose league row the GM gave to another player: who plays it now, and
    which games in play went with it (each game told its own players as well)."""
    cancels = calendar_layer.withdraw_season(postman, league_id, address)
    league_mail(postman, league_id, plan, MailKind.STATUS, address, name, template="replaced", newcomer=newcomer,
                moved=moved, calendar_cancels=cancels, cancelled=len(cancels))


def forfeits(postman, league_id: str, plan: LeaguePlan, leaver: str, *, leaver_name: str, opened: int,
             holders: dict[str, tuple[str, str]]) -> list[str]:
    """To each opponent of a match not made yet: that match will not be played, and what it
    counts as. `holders`: each row's (name, address) now. Returns the addresses told."""
    if plan.format != "round-robin":
        return []  # a table plays on without the leaver: no one's game is lost
    told = []
    for one in schedule(plan):
        game = one.game_of(leaver)
        if one.number <= opened or game is None:
            continue
        for row in game.players:
            if row == leaver or row not in holders:
                continue
            other_name, address = holders[row]
            if is_robot(address):
                continue  # a robot is told nothing
            league_mail(postman, league_id, plan, MailKind.STATUS, address, other_name, template="forfeit",
                        leaver=leaver_name, round=one.number, opens=plan.opens(one.number))
            told.append(address)
    return told
