"""A league game rolled back (CONTRACT section 13): its round is open again, the standings
follow at once (they are read from the games), and once the game ends anew the standings of
its round are mailed again."""
from __future__ import annotations

import random
from datetime import timedelta

from conftest import kinds
from test_season_by_mail import START, iso, league_file, league_json

from pbem.games.matchplay import random_orders


class Clock:
    def __init__(self, at):
        self.at = at

    def tick(self) -> str:
        self.at += timedelta(seconds=150)
        return iso(self.at)


def send(table, address: str, game: str, text: str, clock: Clock) -> None:
    table.new_mails(address)
    table.send(address, text, subject=f"Re: [{game}] orders", to=table.reply_to_game(address, game))
    table.pbem("process", now=clock.tick())
    assert "error" not in kinds(table.new_mails(address))


def test_a_league_game_rolled_back_takes_its_standings_with_it(table):
    path = league_file(table, players=2, extra="rounds: 1\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START))
    game = league_json(table, "show")["rounds"][0]["games"][0]["id"]
    clock = Clock(START)
    seats = [s.address for s in table.load(game).seats]
    rng = random.Random(9)
    while table.show(game)["status"] == "active":
        t = table.load(game)
        for seat in sorted(t.state.to_move()):
            send(table, seats[seat], game, str(random_orders(t.state, seat, rng)), clock)
    table.pbem("process", now=clock.tick())
    league = league_json(table, "show")
    assert league["status"] == "finished"
    played = {row["address"]: row["played"] for row in league_json(table, "standings")}
    assert set(played.values()) == {1}
    table.pbem("gm", "ROLLBACK", game, now=clock.tick())
    table.pbem("process", now=clock.tick())
    assert league_json(table, "show")["status"] == "active"
    assert {row["played"] for row in league_json(table, "standings")} == {0}
    while table.show(game)["status"] == "active":
        t = table.load(game)
        for seat in sorted(t.state.to_move()):
            send(table, seats[seat], game, str(random_orders(t.state, seat, rng)), clock)
    table.pbem("process", now=clock.tick())
    assert league_json(table, "show")["status"] == "finished"
    assert {row["played"] for row in league_json(table, "standings")} == {1}
    standings = [m for m in table.mails(seats[0]) if m["X-PBEM-Kind"] == "standings"]
    assert len(standings) == 2  # mailed again once the game ended anew
