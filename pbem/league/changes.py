"""What the GM changes in a season besides its games: a player replaced (the newcomer takes the
seat in every game in play and the league row, for the rounds to come too, and gets the league's
welcome with the rounds still to come; the player replaced is told who plays their place) or
withdrawn (out of every game in play; the games left are scored as the league file's
`withdrawn` says, and the leaver and every opponent are told what that means for them). A row
may be handed to a robot (`REPLACE <league> <old> robot[:<level>]`, or a withdrawal when the
league file says `withdrawn: robot`): it plays the games in play at once and the rounds to come,
and the row's results, before and after, count as one player's. Both are kept as league events:
the standings read them, never a counter of their own. Whoever leaves has the league's round
openings still to come taken out of their calendar by the mail that tells them."""
from __future__ import annotations

import email.utils
from datetime import timedelta

from pbem.games.errors import InvalidOrder
from pbem.gm import games, robot_seats
from pbem.gm.turns import Turns
from pbem.robots import robot_types
from pbem.league import notices
from pbem.league import rows as league_rows
from pbem.league.rows import SeasonEvent
from pbem.league.plan import is_robot, read_plan
from pbem.league.records import is_match
from pbem.league.season import current_addresses, free_handle, holders, withdrawn
from pbem.mail.clean import given_name, quoted
from pbem.mail.kinds import MailKind


def _player_games(store, league_id: str, address: str) -> list:
    """The league's games in play that `address` (a player, or a robot row's handle) has a seat in."""
    out = []
    for row in league_rows.league_games(store, league_id):
        if row.status != "active":
            continue
        table = games.load(store, row.id)
        if _seat(table, address) is not None:
            out.append(table)
    return out


def _seat(table, address: str):
    """The seat of a league row's holder: a player's by address, a robot's by its league handle."""
    return next((s for s in table.seats if s.address == address), None)


def _key(seat) -> str:
    """How the GM's REPLACE names a seat: a player by address, a robot by `robot-<seat>`."""
    return f"robot-{seat.seat + 1}" if seat.robot else seat.address


def _in_league(store, league_id: str, address: str) -> bool:
    return address in current_addresses(store, league_id)


def _plan(store, league_id: str):
    return read_plan(dict(league_rows.known_league(store, league_id)["plan"], id=league_id))


def replace(admin, league_id: str, old: str, new_spec: str) -> str:
    store = admin.store
    old = old.strip().lower()
    name, address = email.utils.parseaddr(new_spec)
    line = f"REPLACE {league_id} {old} {new_spec}"
    if not _in_league(store, league_id, old):
        raise InvalidOrder(f"{old} plays in no row of league {league_id}", line=line)
    try:
        robot = robot_seats.read_spec(new_spec)
    except robot_seats.RobotSpecError as e:
        raise InvalidOrder(str(e), line=line, hint=f"REPLACE {league_id} {old} robot:strong") from None
    if robot is not None:
        name, spec = robot
        level = robot_seats.level_of(spec)
        assert level is not None  # read_spec gives a robot's spec with its level, or refuses it
        return _to_robot(admin, league_id, old, name, level, line)
    if "@" not in address:
        raise InvalidOrder(f"{quoted(new_spec)} is not one address", line=line,
                           hint=f'REPLACE {league_id} {old} "William <will@example.test>"')
    address = address.lower()
    if _in_league(store, league_id, address):
        raise InvalidOrder(f"{address} already plays in league {league_id}", line=line)
    rows = holders(store, league_id)
    row, (old_name, _) = next((r, held) for r, held in rows.items() if held[1] == old)
    moved = []
    for table in _player_games(store, league_id, old):
        admin._replace(table, _key(_seat(table, old)), new_spec)
        games.save(store, table)
        moved.append(table.id)
    name = given_name(name, address)
    league_rows.add_league_event(store, league_id, admin.now, SeasonEvent.REPLACE, old=old, new=address, name=name)
    rows[row] = (name, address)
    gone = withdrawn(store, league_id)
    notices.welcome(admin.postman, league_id, _plan(store, league_id), row, address, name,
                    row_names={r: held[0] for r, held in rows.items()},
                    gone={r for r, held in rows.items() if held[1] in gone}, replacing=old_name)
    notices.replaced(admin.postman, league_id, _plan(store, league_id), old, old_name, newcomer=name, moved=moved)
    return f"{old} replaced by {address} in league {league_id}" + (f" ({len(moved)} game(s) in play)" if moved else "")


def withdraw(admin, league_id: str, address: str) -> str:
    store = admin.store
    address = address.strip().lower()
    line = f"WITHDRAW {league_id} {address}"
    if not _in_league(store, league_id, address):
        raise InvalidOrder(f"{address} plays in no row of league {league_id}", line=line)
    plan, opened = _plan(store, league_id), league_rows.known_league(store, league_id)["opened"]
    if plan.withdrawn == "robot":
        if is_robot(address):
            raise InvalidOrder(f"{address} is a robot already: with withdrawn: robot a robot's row plays on",
                               line=line, hint=f'REPLACE {league_id} {address} "William <will@example.test>"')
        level = robot_seats.DEFAULT_LEVEL
        return _to_robot(admin, league_id, address, robot_seats.robot_name(level), level, line)
    rows = holders(store, league_id)
    row, (name, _) = next((r, held) for r, held in rows.items() if held[1] == address)
    # A second before the games are left: every game of theirs still in play is one they left.
    league_rows.add_league_event(store, league_id, admin.now - timedelta(seconds=1), SeasonEvent.WITHDRAW,
                                 address=address)
    left = []
    for table in _player_games(store, league_id, address):
        seat = _seat(table, address)
        _tell_table(admin.postman, table, seat, league_id, plan)  # before the game's own result
        Turns(admin.postman, table).resign(seat)
        robot_seats.move(Turns(admin.postman, table))  # a robot to play after the leaver plays now
        games.save(store, table)
        left.append(table.id)
    notices.withdrawal(admin.postman, league_id, plan, row, address, name, left=left, opened=opened)
    told = notices.forfeits(admin.postman, league_id, plan, row, leaver_name=name, opened=opened, holders=rows)
    return (f"{address} withdrawn from league {league_id}" + (f" (left {', '.join(left)})" if left else "")
            + (f"; told {', '.join(told)} of their matches not played" if told else ""))


def _to_robot(admin, league_id: str, old: str, name: str, level: str, line: str) -> str:
    """A league row handed to a robot: it takes the seat in every game of the row in play (and
    makes any move owed there at once) and, under a league handle of its own, the rounds to
    come; the leaver is told once for the league, and each game tells its own players."""
    store = admin.store
    plan = _plan(store, league_id)
    if plan.game not in robot_types():
        raise InvalidOrder(f"no robot plays {plan.game} yet", line=line)
    rows = holders(store, league_id)
    row, (old_name, _) = next((r, held) for r, held in rows.items() if held[1] == old)
    handle = free_handle(store, league_id)
    moved = []
    for table in _player_games(store, league_id, old):
        admin._to_robot(table, _seat(table, old), old, (name, f"{handle}:{level}"))
        # By mail the GM's command moves its game's robots itself (Admin.run); the league's come here.
        robot_seats.move(Turns(admin.postman, table))
        games.save(store, table)
        moved.append(table.id)
    league_rows.add_league_event(store, league_id, admin.now, SeasonEvent.REPLACE, old=old, new=handle, name=name,
                                 robot=level)
    notices.to_robot(admin.postman, league_id, plan, row, old, old_name, robot=name, moved=moved,
                     opened=league_rows.known_league(store, league_id)["opened"])
    return (f"{old}'s row of league {league_id} handed to a robot ({level}, {handle})"
            + (f"; it plays {', '.join(moved)} now" if moved else ""))


def _tell_table(postman, table, leaver, league_id: str, plan) -> None:
    """Each other player of a game the leaver leaves: why, and what it counts as for them."""
    head = (f"The GM has withdrawn {leaver.name} from league {league_id}, so {leaver.name} plays no more in "
            f"game {table.id}.")
    if is_match(plan.game) and len(table.seats) == 2:
        counts = (" In the league standings this match counts as a win for you by forfeit, by the widest "
                  "margin a match can have." if plan.withdrawn == "forfeit" else
                  " In the league standings this match is void: it counts for neither of you.")
    else:
        counts = (f" In the league standings {leaver.name} scores the round's worst score for it."
                  if plan.withdrawn == "forfeit"
                  else f" In the league standings it counts for {leaver.name} not at all.")
    for seat in table.seats:
        if seat.seat != leaver.seat and seat.address:
            postman.to_seat(MailKind.STATUS, table, seat, template="gm_notice", notice=head + counts, deadline=None,
                            paused=False)
