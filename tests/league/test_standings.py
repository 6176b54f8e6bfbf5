"""Standings and the results grid, from hand-made game records, against rows worked out by hand."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.league.grid import GridCell, results_grid
from pbem.league.pairings import schedule
from pbem.league.plan import read_plan
from pbem.league.records import (GameRecord, Orders, Replacement, Withdrawal, largest_margin,
                                 read_match_result)
from pbem.league.standings import MATCH_COLUMNS, TABLE_COLUMNS, columns, standings

LARGEST_MARGIN = largest_margin("matchplay")
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
LATER = datetime(2027, 3, 1, tzinfo=UTC)       # every round has opened


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def addr(name: str) -> str:
    return f"{name.lower()}@example.test"


def plan_of(count: int, **changes):
    data = {"id": "lg", "name": "League", "game": "matchplay", "start": "2026-12-07T18:00:00Z",
            "players": [f"{n} <{addr(n)}>" for n in NAMES[:count]]}
    return read_plan(data | changes)


def pairing(plan, a: str, b: str):
    for one_round in schedule(plan):
        for game in one_round.games:
            if set(game.players) == {addr(a), addr(b)}:
                return game
    raise AssertionError(f"{a} and {b} never meet")


def match(plan, a: str, b: str, line: str | None, winner: str | None = None, *,
          status: str = "finished", ended: datetime | None = None, orders=None,
          players: tuple | None = None) -> GameRecord:
    game = pairing(plan, a, b)
    seats = players or game.players
    if line == "Match halved":
        winners = (0, 1)
    elif winner is not None:
        winners = (seats.index(addr(winner)),)
    else:
        winners = ()
    return GameRecord(id=game.game_id("lg"), round=game.round, type="matchplay", players=seats,
                      status=status, result=line and f"Result: {line}", winners=winners,
                      ended=ended, orders=orders or {})


def beats(plan, winner: str, loser: str, how: str, **kwargs) -> GameRecord:
    return match(plan, winner, loser, f"{winner} wins {how}", winner, **kwargs)


def halves(plan, a: str, b: str, **kwargs) -> GameRecord:
    return match(plan, a, b, "Match halved", **kwargs)


def unfinished(plan, a: str, b: str, **kwargs) -> GameRecord:
    return match(plan, a, b, None, status="active", **kwargs)


def rows(table) -> list[tuple]:
    return [(r.rank, r.name, r.played, r.won, r.halved, r.lost, r.points, r.holes_diff, r.on_time)
            for r in table]


def test_a_season_of_matches_gives_the_rows_worked_out_by_hand():
    plan = plan_of(4)
    games = [
        beats(plan, "Ann", "Bob", "4 and 3", orders={addr("Ann"): Orders(6, 6), addr("Bob"): Orders(6, 6)}),
        beats(plan, "Cid", "Ann", "2 up", orders={addr("Ann"): Orders(6, 3)}),
        halves(plan, "Ann", "Dee"),
        beats(plan, "Bob", "Cid", "3 and 2"),
        beats(plan, "Bob", "Dee", "1 up"),
        halves(plan, "Cid", "Dee"),
    ]
    table = standings(plan, games, now=LATER)
    assert rows(table) == [
        (1, "Bob", 3, 2, 0, 1, 2.0, 0, 1.0),        # -4 +3 +1
        (2, "Ann", 3, 1, 1, 1, 1.5, 2, 0.75),       # +4 -2 0; 9 of 12 orders in time
        (3, "Cid", 3, 1, 1, 1, 1.5, -1, 1.0),       # +2 -3 0
        (4, "Dee", 3, 0, 2, 1, 1.0, -1, 1.0),       # 0 -1 0
    ]
    assert table[0].to_dict() == {
        "rank": 1, "name": "Bob", "address": "bob@example.test", "played": 3, "won": 2,
        "halved": 0, "lost": 1, "points": 2.0, "holes_diff": 0, "total": 0, "on_time": 1.0,
        "note": ""}
    assert columns(plan) == MATCH_COLUMNS


def test_the_match_between_two_level_players_breaks_their_tie():
    plan = plan_of(4)
    games = [beats(plan, "Bob", "Ann", "3 and 2"), beats(plan, "Ann", "Cid", "3 and 2"),
             beats(plan, "Dee", "Bob", "3 and 2"), halves(plan, "Cid", "Dee"),
             unfinished(plan, "Ann", "Dee"), unfinished(plan, "Bob", "Cid")]
    table = standings(plan, games, now=LATER)
    # Ann and Bob: 1 point and 0 holes each; Bob beat Ann, so Bob goes first (by name Ann would).
    assert rows(table) == [
        (1, "Dee", 2, 1, 1, 0, 1.5, 3, 1.0),
        (2, "Bob", 2, 1, 0, 1, 1.0, 0, 1.0),
        (3, "Ann", 2, 1, 0, 1, 1.0, 0, 1.0),
        (4, "Cid", 2, 0, 1, 1, 0.5, -3, 1.0),
    ]


def test_rows_level_on_every_key_share_a_rank():
    plan = plan_of(4)
    games = [beats(plan, "Ann", "Bob", "2 up"), beats(plan, "Cid", "Dee", "2 up")]
    assert [(r.rank, r.name) for r in standings(plan, games, now=LATER)] == [
        (1, "Ann"), (1, "Cid"), (3, "Bob"), (3, "Dee")]
    # Before anything is played everyone is level.
    assert [r.rank for r in standings(plan, [], now=LATER)] == [1, 1, 1, 1]


def test_three_players_who_beat_each_other_in_a_circle_share_first_place():
    plan = plan_of(3)
    games = [beats(plan, "Ann", "Bob", "2 up"), beats(plan, "Bob", "Cid", "2 up"),
             beats(plan, "Cid", "Ann", "2 up")]
    assert [(r.rank, r.name, r.points, r.holes_diff) for r in standings(plan, games, now=LATER)] == [
        (1, "Ann", 1.0, 0), (1, "Bob", 1.0, 0), (1, "Cid", 1.0, 0)]


@pytest.mark.parametrize(("line", "winners", "read"), [
    ("George wins 4 and 3", (1,), (1, 4, "")),
    ("Result: George wins 10 and 8", (0,), (0, 10, "")),
    ("George wins 2 up", (0,), (0, 2, "")),
    ("Match halved", (0, 1), (None, 0, "")),
    ("Bill wins by resignation (George resigned after 4 holes)", (1,), (1, LARGEST_MARGIN, "resignation")),
    ("Ann and Bob wins 1 up", (0,), (0, 1, "")),                   # the name is not read
])
def test_the_margin_is_read_from_the_result_line(line, winners, read):
    assert read_match_result(line, winners, LARGEST_MARGIN) == read


def test_a_result_line_that_is_not_a_match_result_is_refused():
    with pytest.raises(ValueError, match="expected '<Name> wins 4 and 3'"):
        read_match_result("George scores 7", (0,), LARGEST_MARGIN)


def test_a_resignation_counts_the_widest_margin():
    plan = plan_of(2)
    games = [match(plan, "Ann", "Bob", "Bob wins by resignation (Ann resigned after 4 holes)", "Bob")]
    assert rows(standings(plan, games, now=LATER)) == [
        (1, "Bob", 1, 1, 0, 0, 1.0, 10, 1.0), (2, "Ann", 1, 0, 0, 1, 0.0, -10, 1.0)]


def test_abandoned_and_unfinished_games_do_not_count():
    plan = plan_of(4)
    games = [match(plan, "Ann", "Bob", None, status="abandoned"), unfinished(plan, "Cid", "Dee")]
    assert all(r.played == 0 and r.rank == 1 for r in standings(plan, games, now=LATER))


def test_a_newcomer_takes_over_the_row_and_the_standings_say_so():
    plan = plan_of(4)
    round_two = plan.opens(2)
    eve = addr("Eve")
    first = pairing(plan, "Dee", "Ann").round
    later = [p for p in ("Bob", "Cid") if pairing(plan, "Dee", p).round > first]
    games = [beats(plan, "Dee", "Ann", "2 up", orders={addr("Dee"): Orders(6, 0)})]
    for other in later:
        seats = tuple(eve if a == addr("Dee") else a for a in pairing(plan, "Dee", other).players)
        games.append(match(plan, "Dee", other, "Eve wins 3 and 1", "Eve", players=seats,
                           orders={eve: Orders(6, 6)}))
    change = Replacement(old=addr("Dee"), new=eve, name="Eve", at=round_two)
    table = standings(plan, games, now=LATER, replacements=[change])
    row = next(r for r in table if r.address == eve)
    assert (row.name, row.played, row.won, row.holes_diff) == ("Eve", 1 + len(later), 1 + len(later),
                                                              2 + 3 * len(later))
    assert row.note == "took over from Dee in round 2"
    assert row.on_time == 1.0                   # Dee's missed orders are not held against Eve
    assert addr("Dee") not in [r.address for r in table] and len(table) == 4


def withdrawal_season(plan):
    """Dee plays round 1, withdraws during round 2 with that game unfinished; round 3 is
    never made for Dee."""
    rounds = schedule(plan)
    dee = addr("Dee")
    games, opponents = [], []
    for one_round in rounds[:2]:
        for game in one_round.games:
            a, b = (n for n in NAMES[:4] if addr(n) in game.players)
            if dee in game.players and one_round.number == 2:
                games.append(unfinished(plan, a, b))
                opponents.append(a if b == "Dee" else b)
            else:
                games.append(beats(plan, a, b, "2 up", ended=plan.opens(1)))
    third = rounds[2].game_of(dee)
    opponents.append(next(n for n in NAMES[:4] if addr(n) in third.players and n != "Dee"))
    return games, opponents


def test_a_withdrawn_players_remaining_games_are_lost_by_the_widest_margin():
    plan = plan_of(4)
    games, opponents = withdrawal_season(plan)
    leaving = Withdrawal(addr("Dee"), plan.opens(2))
    before = standings(plan, games, now=plan.opens(2))
    during = standings(plan, games, now=plan.opens(2), withdrawals=[leaving])
    after = standings(plan, games, now=LATER, withdrawals=[leaving])
    dee = {t: next(r for r in table if r.name == "Dee") for t, table in
           (("before", before), ("during", during), ("after", after))}
    assert dee["before"].played == 1
    # Round 2's unfinished game is forfeited at once; round 3's once round 3 opens.
    assert (dee["during"].played, dee["during"].lost - dee["before"].lost) == (2, 1)
    assert (dee["after"].played, dee["after"].lost - dee["before"].lost) == (3, 2)
    assert dee["after"].holes_diff == dee["before"].holes_diff - 2 * LARGEST_MARGIN
    assert dee["after"].note == "withdrew in round 2, games left forfeited"
    for name in opponents:
        was = next(r for r in before if r.name == name)
        now = next(r for r in after if r.name == name)
        assert (now.won - was.won, now.holes_diff - was.holes_diff) == (1, LARGEST_MARGIN)


def test_void_leaves_a_withdrawn_players_remaining_games_out():
    plan = plan_of(4, withdrawn="void")
    games, _ = withdrawal_season(plan)
    leaving = Withdrawal(addr("Dee"), plan.opens(2))
    before = {r.name: r for r in standings(plan, games, now=LATER)}
    after = {r.name: r for r in standings(plan, games, now=LATER, withdrawals=[leaving])}
    assert {n: (r.played, r.points) for n, r in after.items()} == \
        {n: (r.played, r.points) for n, r in before.items()}
    assert after["Dee"].played == 1 and after["Dee"].note == "withdrew in round 2, games left void"


def test_a_game_that_ended_before_the_withdrawal_still_counts():
    plan = plan_of(2)
    game = beats(plan, "Ann", "Bob", "2 up", ended=utc(2026, 12, 8))
    table = standings(plan, [game], now=LATER, withdrawals=[Withdrawal(addr("Ann"), utc(2026, 12, 9))])
    assert rows(table)[0] == (1, "Ann", 1, 1, 0, 0, 1.0, 2, 1.0)
    late = Withdrawal(addr("Ann"), utc(2026, 12, 7, 20))      # the game ended after it
    assert rows(standings(plan, [game], now=LATER, withdrawals=[late]))[0][:3] == (1, "Bob", 1)


def test_the_results_grid_shows_who_beat_whom_and_by_what():
    plan = plan_of(4)
    games = [beats(plan, "Ann", "Bob", "4 and 3"), halves(plan, "Cid", "Dee"),
             match(plan, "Bob", "Dee", "Dee wins by resignation (Bob resigned after 9 holes)", "Dee")]
    grid = results_grid(plan, games, now=LATER)
    assert grid.kind == "matches"
    order = [row.name for row in grid.rows]
    assert list(grid.columns) == order == ["Dee", "Ann", "Cid", "Bob"]
    cell = {(row.name, order[i]): c for row in grid.rows for i, c in enumerate(row.cells)}
    ann_bob = pairing(plan, "Ann", "Bob")
    assert cell["Ann", "Bob"] == GridCell("won", "4 and 3", ann_bob.game_id("lg"), ann_bob.round, ("Bob",))
    assert (cell["Bob", "Ann"].outcome, cell["Bob", "Ann"].detail) == ("lost", "4 and 3")
    assert (cell["Cid", "Dee"].outcome, cell["Dee", "Cid"].outcome) == ("halved", "halved")
    assert (cell["Dee", "Bob"].outcome, cell["Dee", "Bob"].detail) == ("won", "by resignation")
    assert cell["Ann", "Cid"].outcome == "pending" and cell["Ann", "Cid"].game is None
    assert all(cell[n, n] is None for n in order)
    assert grid.to_dict()["rows"][0]["cells"][0] is None


# -- table games ---------------------------------------------------------------------------

def table_season(plan, scores: dict[str, list[int]]):
    """Records for every scheduled table: ``scores[name][r - 1]`` in round r; the lowest
    score at a table wins (or shares the win)."""
    games = []
    for one_round in schedule(plan):
        for game in one_round.games:
            seat_scores = tuple(scores[_name(a)][one_round.number - 1] for a in game.players)
            best = min(seat_scores)
            games.append(GameRecord(
                id=game.game_id("lg"), round=game.round, type=plan.game, players=game.players,
                status="finished", result="...", scores=seat_scores,
                winners=tuple(i for i, s in enumerate(seat_scores) if s == best)))
    return games


def _name(address: str) -> str:
    return address.split("@")[0].capitalize()


def test_tables_add_the_scores_and_count_wins_and_shares():
    plan = plan_of(5, game="dicegolf", table_size=3, rounds=2)
    scores = {"Ann": [10, 12], "Bob": [12, 10], "Cid": [11, 11], "Dee": [13, 9], "Eve": [9, 14]}
    games = table_season(plan, scores)
    table = standings(plan, games, now=LATER)
    for row in table:
        assert row.total == sum(scores[row.name])
        assert row.total == sum(g.scores[g.players.index(row.address)] for g in games
                                if row.address in g.players)
        assert row.played == 2 and row.won + row.lost == 2
    won = {name: sum(1 for g in games if addr(name) in g.players
                     and g.players.index(addr(name)) in g.winners) for name in scores}
    assert [(r.name, r.total, r.won) for r in table] == sorted(
        ((n, sum(s), won[n]) for n, s in scores.items()), key=lambda t: (t[1], -t[2], t[0]))
    assert columns(plan) == TABLE_COLUMNS


def test_tables_rank_by_total_then_wins_then_name_and_share_ranks():
    plan = plan_of(4, game="dicegolf", table_size=2, rounds=1)
    # Round 1 pairs two tables of two; Ann/Bob-style ties are made whatever the pairing.
    games = []
    for game in schedule(plan)[0].games:
        one, two = game.players
        scored = {addr("Ann"): 20, addr("Bob"): 20, addr("Cid"): 20, addr("Dee"): 21}
        seat_scores = (scored[one], scored[two])
        best = min(seat_scores)
        games.append(GameRecord(game.game_id("lg"), 1, "dicegolf", game.players, "finished",
                                "...", tuple(i for i, s in enumerate(seat_scores) if s == best),
                                seat_scores))
    table = standings(plan, games, now=LATER)
    # Three on 20: the one at Dee's table won alone, the other two shared a win, so all three
    # have won 1 and share first place (in name order); Dee is fourth.
    assert [(r.rank, r.name, r.total, r.won) for r in table] == [
        (1, "Ann", 20, 1), (1, "Bob", 20, 1), (1, "Cid", 20, 1), (4, "Dee", 21, 0)]


def test_a_withdrawn_table_player_scores_the_worst_of_the_round():
    plan = plan_of(5, game="dicegolf", table_size=3, rounds=2)
    scores = {"Ann": [10, 12], "Bob": [12, 10], "Cid": [11, 11], "Dee": [13, 9], "Eve": [9, 14]}
    games = table_season(plan, scores)
    # Eve withdrew as round 2 opened, so her round-2 game, which ended later, is not hers.
    leaving = Withdrawal(addr("Eve"), plan.opens(2))
    games = [GameRecord(**{**g.__dict__, "ended": plan.opens(g.round) + timedelta(days=1)})
             for g in games]
    eve = next(r for r in standings(plan, games, now=LATER, withdrawals=[leaving]) if r.name == "Eve")
    # Round 1 stands (9, the lowest of the round: a win); round 2 is lost with the round's
    # worst score among those who played it (Ann's 12).
    assert (eve.total, eve.played, eve.won, eve.lost) == (9 + 12, 2, 1, 1)
    assert eve.note == "withdrew in round 2, games left forfeited"


def test_the_rounds_grid_shows_each_players_table_and_byes():
    plan = plan_of(5, game="golfdeck", table_size=2, rounds=3)
    scores = {n: [10 + i, 20 - i, 15] for i, n in enumerate(NAMES)}
    played = schedule(plan)
    games = [g for g in table_season(plan, scores) if g.round < 3]
    grid = results_grid(plan, games, now=LATER)
    assert grid.kind == "rounds" and grid.columns == ("Round 1", "Round 2", "Round 3")
    for row in grid.rows:
        for r, cell in enumerate(row.cells, start=1):
            if row.address in played[r - 1].byes:
                assert cell == GridCell("bye", round=r)
            elif r == 3:
                assert cell.outcome == "pending" and cell.game is None
            else:
                assert cell.detail == str(scores[row.name][r - 1])
                assert cell.game == played[r - 1].game_of(row.address).game_id("lg")
                assert cell.outcome in ("won", "lost") and len(cell.against) == 1


# -- the standings mail, as its readers take it ---------------------------------------------------
def _standings_mail(next_open: bool, finished: bool = False) -> str:
    from pbem.render import render

    plan = plan_of(4)
    rows = [{"rank": 1, "name": "Ann", "played": 1, "won": 1, "halved": 0, "lost": 0, "points": 1.0,
             "holes_diff": 3, "on_time": 2 / 3, "ordinal": None, "note": ""}]
    _, text = render("standings", "league", gm_address="gm@example.test", gm_name="Golf GM", now="",
                     league_id="lg", plan=plan, name="Ann", address=addr("Ann"), title="MatchPlay Golf",
                     spectator=None, round=1, finished=finished, rows=rows, columns=columns(plan),
                     next_open=next_open)
    return " ".join(text.split())


def test_the_standings_say_whether_the_next_round_has_opened_not_that_it_may_have():
    assert "Round 2 opens 2026-12-14 18:00 UTC." in _standings_mail(next_open=False)
    opened = _standings_mail(next_open=True)
    assert "Round 2 opened 2026-12-14 18:00 UTC: its games are under way." in opened
    assert "if it has not already" not in opened


def test_the_standings_say_what_their_columns_mean_and_round_on_time_as_the_page_does():
    text = _standings_mail(next_open=False)
    assert "On time: the share of a player's deadlines met" in text
    assert "Rating: the rating ordinal" in text and "Points: a won match 1" in text
    assert " 67% " in text  # two deadlines of three: the page's round(66.67) too, not 66
