"""The leagues as the GM hears of them (`gm.layers`): the GM's REPLACE and WITHDRAW that name a
league, a rolled back game, the clock, and the league's own mail (a reply to its welcome, whose
absence lines go to the absences' layer it is wired with: `away`)."""
from __future__ import annotations

from datetime import datetime

from pbem.gm.layers import Layer, Watchable
from pbem.league import changes
from pbem.league import rows as league_rows
from pbem.league.rows import SeasonEvent
from pbem.league.replies import AbsenceKeeper, answer
from pbem.league.season import Season, round_of
from pbem.league.tokens import is_league_token


class LeagueLayer(Layer):
    name = "league"

    def __init__(self, away: AbsenceKeeper | None = None):
        # Who keeps the absences a reply to the league's mail asks for (the absences' layer).
        self.away = away

    def owns(self, store, target_id: str, verb: str) -> bool:
        return verb in ("REPLACE", "WITHDRAW") and league_rows.league(store, target_id) is not None

    def gm_command(self, admin, command) -> str:
        return getattr(changes, command.verb.lower())(admin, command.game_id, *command.args)

    def mail(self, door, msg, lines: list, token: str | None):
        # Asked of every message: a text check of the token first, the store only after.
        if not is_league_token(token):
            return None
        return answer(door, msg, lines, token, self.away)

    def rolled_back(self, store, postman, table, to_turn: int) -> None:
        """A league game in play again: its round is open again, and so is a finished season,
        so that the standings are mailed once more when the game ends anew. The standings
        themselves are read from the games, so they follow at once."""
        league_id = league_rows.league_of_game(store, table.id)
        if league_id is None:
            return
        league = league_rows.known_league(store, league_id)
        number = round_of(league_id, table.id)
        changes: dict[str, int | str] = {}
        if league["reported"] >= number:
            changes["reported"] = number - 1
        if league["status"] == "finished":
            changes["status"] = "active"
        if changes:
            league_rows.update_league(store, league_id, **changes)
            league_rows.add_league_event(store, league_id, postman.now, SeasonEvent.ROLLBACK, game=table.id,
                                         turn=to_turn)

    def tick(self, gm, now: datetime) -> list[str]:
        if not league_rows.leagues(gm.store, "active"):
            return []
        season = Season(gm)
        return season.tick(now) if season.due(now) else []

    def watchable(self, store, target_id: str) -> Watchable | None:
        league = league_rows.league(store, target_id)
        if league is None:
            return None
        return Watchable("league", league["name"], league["status"], league["plan"].get("spectators", True) is False)

    def ids_but_for_case(self, store, target_id: str) -> list[str]:
        return league_rows.ids_but_for_case(store, target_id)
