"""What the GM changes in a season besides its games: a player replaced (the newcomer takes the
seat in every game in play and the league row, for the rounds to come too) or withdrawn (out of
every game in play; the games left are scored as the league file's `withdrawn` says).
Both are kept as league events: the standings read them, never a counter of their own."""
from __future__ import annotations

import email.utils
from datetime import timedelta

from ..games.errors import InvalidOrder
from ..gm import games
from ..gm.turns import Turns


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


def replace(admin, league_id: str, old: str, new_spec: str) -> str:
    store = admin.store
    old = old.strip().lower()
    name, address = email.utils.parseaddr(new_spec)
    line = f"REPLACE {league_id} {old} {new_spec}"
    if not _in_league(store, league_id, old):
        raise InvalidOrder(f"{old} plays in no row of league {league_id}", line=line)
    if "@" not in address:
        raise InvalidOrder(f"{new_spec!r} is not one address", line=line,
                           hint=f'REPLACE {league_id} {old} "William <will@example.test>"')
    address = address.lower()
    if _in_league(store, league_id, address):
        raise InvalidOrder(f"{address} already plays in league {league_id}", line=line)
    moved = []
    for table in _player_games(store, league_id, old):
        moved.append(admin._replace(table, old, new_spec))
        games.save(store, table)
    store.add_league_event(league_id, admin.now, "replace", old=old, new=address,
                           name=name or address.split("@")[0])
    return f"{old} replaced by {address} in league {league_id}" + (f" ({len(moved)} game(s) in play)" if moved else "")


def withdraw(admin, league_id: str, address: str) -> str:
    store = admin.store
    address = address.strip().lower()
    if not _in_league(store, league_id, address):
        raise InvalidOrder(f"{address} plays in no row of league {league_id}", line=f"WITHDRAW {league_id} {address}")
    # A second before the games are left: every game of theirs still in play is one they left.
    store.add_league_event(league_id, admin.now - timedelta(seconds=1), "withdraw", address=address)
    left = []
    for table in _player_games(store, league_id, address):
        seat = table.seat_of(address)
        Turns(admin.postman, table).resign(seat)
        admin._tell_players(table, f"The GM has withdrawn {seat.name} from league {league_id}: "
                                   f"{seat.name} plays no more in game {table.id}.")
        games.save(store, table)
        left.append(table.id)
    return f"{address} withdrawn from league {league_id}" + (f" (left {', '.join(left)})" if left else "")
