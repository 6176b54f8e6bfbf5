"""A season's changes told to whom they concern (issue 18, items 9 and 12): a newcomer gets the
league's welcome with the rounds still to come; a withdrawal tells the leaver (as "you") and
every opponent what it counts as; `league show` says what a round and a game are, in the
columns of the league's game."""
from __future__ import annotations

import random
import re
from datetime import date, timedelta

import pytest
from conftest import body, too_wide
from test_season_by_mail import ADDRESSES, START, iso, league_file, league_json, play_season

ZOE = "zoe@example.test"


def counts(table) -> dict[str, int]:
    folder = table.root / "mail"
    return {p.name: len(table.mails(p.name)) for p in folder.iterdir() if p.is_dir() and "@" in p.name}


def new_since(table, before: dict[str, int]) -> dict[str, list]:
    out = {}
    for address, _n in counts(table).items():
        fresh = table.mails(address, before.get(address, 0))
        if fresh:
            out[address] = fresh
    return out


def flat(mail) -> str:
    return " ".join(body(mail).split())


def opened(table, players=4, extra=""):
    table.pbem("league", "create", str(league_file(table, players=players, extra=extra)),
               now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1 opens


def test_a_newcomer_gets_the_league_welcome_with_the_rounds_to_come(table):
    opened(table)
    before = counts(table)
    table.pbem("gm", "REPLACE", "cup", ADDRESSES[0], f"Zoe <{ZOE}>", now=iso(START + timedelta(hours=1)))
    zoe = new_since(table, before)[ZOE]
    league = [m for m in zoe if m["X-PBEM-League"] == "cup"]
    assert [m["X-PBEM-Kind"] for m in league] == ["welcome"]
    assert any(m["X-PBEM-Game"] == "cup-r1-1" and m["X-PBEM-Kind"] == "welcome" for m in zoe)
    text, words = body(league[0]), flat(league[0])
    assert "The GM has given you Alice's place in Winter Cup (league cup)" in words
    # Alice's rows of rounds 2 and 3 (round 1 is in play, with its own welcome).
    assert "Round 2, 2026-12-14 18:00, parkland: against Chloe" in words
    assert "Round 3, 2026-12-21 18:00, parkland: against Bruno" in words
    assert "Round 1," not in words
    assert not too_wide(text)


def test_a_newcomer_after_a_withdrawal_sees_the_forfeit_in_the_schedule(table):
    opened(table)
    table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[1], now=iso(START + timedelta(hours=1)))
    before = counts(table)
    table.pbem("gm", "REPLACE", "cup", ADDRESSES[0], f"Zoe <{ZOE}>", now=iso(START + timedelta(hours=2)))
    welcome = next(m for m in new_since(table, before)[ZOE] if m["X-PBEM-League"] == "cup")
    assert "Round 3, 2026-12-21 18:00, parkland: against Bruno (withdrawn: a win for you by forfeit)" in flat(welcome)


def test_a_withdrawal_tells_the_leaver_you_and_every_opponent_what_it_counts_as(table):
    opened(table)
    before = counts(table)
    _, out, _ = table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[1], now=iso(START + timedelta(hours=2)))
    got = new_since(table, before)
    # Bruno (round 1 v Chloe, round 2 v Dmitri, round 3 v Alice); nobody else hears of it.
    assert set(got) == {ADDRESSES[1], ADDRESSES[2], ADDRESSES[3], ADDRESSES[0]}
    leaver = [m for m in got[ADDRESSES[1]] if m["X-PBEM-League"] == "cup"]
    assert len(leaver) == 1 and leaver[0]["Subject"] == "[cup] You have left Winter Cup"
    words = flat(leaver[0])
    assert "The GM has withdrawn you from Winter Cup (league cup)" in words
    assert "Your game in play ends for you now: cup-r1-2. In the standings it counts as lost by forfeit." in words
    assert "Your matches of rounds 2 and 3 are not played: they count as lost by forfeit." in words
    assert "Bruno" not in words.replace("Hello Bruno,", "")  # the reader is "you", never named
    assert [m["X-PBEM-Kind"] for m in got[ADDRESSES[1]] if m["X-PBEM-Game"]] == ["result"]
    # Chloe, in the match in play: the notice before the result, and what it means.
    chloe = got[ADDRESSES[2]]
    assert [m["X-PBEM-Kind"] for m in chloe] == ["status", "result"]
    assert "this match counts as a win for you by forfeit" in flat(chloe[0])
    # Dmitri (round 2) and Alice (round 3): matches not made yet, one notice each.
    for address, number in ((ADDRESSES[3], 2), (ADDRESSES[0], 3)):
        [notice] = got[address]
        assert notice["Subject"] == f"[cup] Round {number}: your match against Bruno is not played"
        assert f"your match against Bruno in round {number}" in flat(notice)
        assert "It counts as a win for you by forfeit" in flat(notice)
    assert all(not too_wide(body(m)) for mails in got.values() for m in mails)
    assert "told" in out


def test_a_void_withdrawal_says_void(table):
    opened(table, extra="withdrawn: void\n")
    before = counts(table)
    table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[1], now=iso(START + timedelta(hours=2)))
    got = new_since(table, before)
    assert "this match is void: it counts for neither of you" in flat(got[ADDRESSES[2]][0])
    assert "It is void: it counts for neither of you." in flat(got[ADDRESSES[3]][0])
    assert "they count for nobody (void)" in flat(got[ADDRESSES[1]][-1])


@pytest.mark.slow
def test_after_the_season_no_game_is_waiting_and_the_leaver_gets_no_standings(table):
    opened(table)
    table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[1], now=iso(START + timedelta(hours=2)))
    told = len(table.mails(ADDRESSES[1]))
    end = play_season(table, set(), random.Random(4), START + timedelta(hours=3))
    league = league_json(table, "show")
    assert league["status"] == "finished"
    games = [g for r in league["rounds"] for g in r["games"]]
    assert [g["status"] for g in games if g["status"] not in ("finished",)] == ["forfeit", "forfeit"]
    assert {g["result"] for g in games if g["status"] == "forfeit"} == {
        "Result: Dmitri wins by forfeit (Bruno withdrew)", "Result: Alice wins by forfeit (Bruno withdrew)"}
    assert all(m["X-PBEM-Kind"] != "standings" for m in table.mails(ADDRESSES[1])[told:])
    _, text, _ = table.pbem("league", "show", "cup", now=iso(end))
    assert "waiting" not in text and "opens" not in text
    assert "Round 1 (closed, every game over; it opened 2026-12-07 18:00 UTC)" in text


def test_league_show_says_when_a_round_opened_or_opens(table):
    opened(table)
    _, text, _ = table.pbem("league", "show", "cup", now=iso(START + timedelta(hours=1)))
    assert "Round 1 (open since 2026-12-07 18:00 UTC)" in text
    assert "Round 2 (waiting, opens 2026-12-14 18:00 UTC)" in text


def test_a_tables_league_shows_the_columns_of_its_game(table):
    path = league_file(table, game="dicegolf", fmt="tables", players=5, extra="table_size: 4\nrounds: 2\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    _, text, _ = table.pbem("league", "show", "cup", now=iso(START - timedelta(hours=1)))
    header = next(line for line in text.splitlines() if "Rank" in line)
    assert header.split() == ["Rank", "Player", "Pl", "Won", "Total", "On", "time", "Rating"]
    assert "halved" not in text.lower() and "points" not in text.lower() and "holes" not in text.lower()
    _, standings, _ = table.pbem("league", "standings", "cup")
    assert header in standings


def example_dates(mail) -> tuple[date, date]:
    found = re.search(r"e\.g\. SET ABSENCE (\S+) TO (\S+)\)", flat(mail))
    return date.fromisoformat(found.group(1)), date.fromisoformat(found.group(2))


def test_the_welcome_s_absence_example_lies_inside_the_season(table):
    path = league_file(table, players=4)
    path.write_text(path.read_text().replace(iso(START), "2027-03-01T18:00:00Z"))
    table.pbem("league", "create", str(path), now="2027-02-01T12:00:00Z")
    welcome = table.mails(ADDRESSES[0])[0]
    first, last = example_dates(welcome)
    # Round 2 opens 2027-03-08; the season's three weeks end 2027-03-22.
    assert (first, last) == (date(2027, 3, 8), date(2027, 3, 14))
    assert "up to 14 days a season" in flat(welcome)


def test_the_absence_example_fits_a_small_allowance_and_none_is_offered_without_one(table):
    path = league_file(table, players=4, extra="absence_days: 3\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    first, last = example_dates(table.mails(ADDRESSES[0])[0])
    assert (first, last) == (date(2026, 12, 14), date(2026, 12, 16))
    path = league_file(table, players=4, extra="absence_days: 0\n")
    path.write_text(path.read_text().replace("id: cup", "id: cup2"))
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    welcome = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-League"] == "cup2"][0]
    assert "SET ABSENCE" not in body(welcome)
