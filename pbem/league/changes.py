"""What the GM changes in a season besides its games: a player replaced (the newcomer takes the
seat in every game in play and the league row, for the rounds to come too, and gets the league's
welcome with the rounds still to come) or withdrawn (out of every game in play; the games left
are scored as the league file's `withdrawn` says, and the leaver and every opponent are told
what that means for them).
Both are kept as league events: the standings read them, never a counter of their own."""
from __future__ import annotations

import email.utils
from datetime import timedelta

from ..games.errors import InvalidOrder
from ..gm import games
from ..gm.turns import Turns
from . import notices
from .plan import read_plan
from .records import MATCH_GAMES
from ..mail.clean import quoted


def _player_games(store, league_id: str, address: str) -> list:
    """The league's games in play that `address` has a seat in."""
    out = []
    for row in store.league_games(league_id):
        if row.status != "active":
            continue
        table = games.load(store, row.id)
        if table.seat_of(address) is not None:
            out.append(table)
    return out


def _in_league(store, league_id: str, address: str) -> bool:
    from .season import current_addresses
    return address in current_addresses(store, league_id)


def _plan(store, league_id: str):
    return read_plan(dict(store.league(league_id)["plan"], id=league_id))


def replace(admin, league_id: str, old: str, new_spec: str) -> str:
    from .season import holders, withdrawn
    store = admin.store
    old = old.strip().lower()
    name, address = email.utils.parseaddr(new_spec)
    line = f"REPLACE {league_id} {old} {new_spec}"
    if not _in_league(store, league_id, old):
        raise InvalidOrder(f"{old} plays in no row of league {league_id}", line=line)
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
        moved.append(admin._replace(table, old, new_spec))
        games.save(store, table)
    name = name or address.split("@")[0]
    store.add_league_event(league_id, admin.now, "replace", old=old, new=address, name=name)
    rows[row] = (name, address)
    gone = withdrawn(store, league_id)
    notices.welcome(admin.postman, league_id, _plan(store, league_id), row, address, name,
                    row_names={r: held[0] for r, held in rows.items()},
                    gone={r for r, held in rows.items() if held[1] in gone}, replacing=old_name)
    return f"{old} replaced by {address} in league {league_id}" + (f" ({len(moved)} game(s) in play)" if moved else "")


def withdraw(admin, league_id: str, address: str) -> str:
    from .season import holders
    store = admin.store
    address = address.strip().lower()
    if not _in_league(store, league_id, address):
        raise InvalidOrder(f"{address} plays in no row of league {league_id}", line=f"WITHDRAW {league_id} {address}")
    plan, opened = _plan(store, league_id), store.league(league_id)["opened"]
    rows = holders(store, league_id)
    row, (name, _) = next((r, held) for r, held in rows.items() if held[1] == address)
    # A second before the games are left: every game of theirs still in play is one they left.
    store.add_league_event(league_id, admin.now - timedelta(seconds=1), "withdraw", address=address)
    left = []
    for table in _player_games(store, league_id, address):
        seat = table.seat_of(address)
        _tell_table(admin.postman, table, seat, league_id, plan)  # before the game's own result
        Turns(admin.postman, table).resign(seat)
        games.save(store, table)
        left.append(table.id)
    notices.withdrawal(admin.postman, league_id, plan, row, address, name, left=left, opened=opened)
    told = notices.forfeits(admin.postman, league_id, plan, row, leaver_name=name, opened=opened, holders=rows)
    return (f"{address} withdrawn from league {league_id}" + (f" (left {', '.join(left)})" if left else "")
            + (f"; told {', '.join(told)} of their matches not played" if told else ""))


def _tell_table(postman, table, leaver, league_id: str, plan) -> None:
    """Each other player of a game the leaver leaves: why, and what it counts as for them."""
    head = f"The GM has withdrawn {leaver.name} from league {league_id}, so {leaver.name} plays no more in game {table.id}."
    if plan.game in MATCH_GAMES and len(table.seats) == 2:
        counts = (" In the league standings this match counts as a win for you by forfeit, by the widest "
                  "margin a match can have." if plan.withdrawn == "forfeit" else
                  " In the league standings this match is void: it counts for neither of you.")
    else:
        counts = (f" In the league standings {leaver.name} scores the round's worst score for it."
                  if plan.withdrawn == "forfeit" else f" In the league standings it counts for {leaver.name} not at all.")
    for seat in table.seats:
        if seat.seat != leaver.seat and seat.address:
            postman.to_seat("status", table, seat, template="gm_notice", notice=head + counts, deadline=None,
                            paused=False)
