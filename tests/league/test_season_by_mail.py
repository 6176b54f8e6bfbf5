"""Whole league seasons run by `pbem process` over the Maildir transport, time moved by PBEM_NOW."""
from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import body


NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"]
ADDRESSES = [f"{n.lower()}@example.test" for n in NAMES]
START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def league_file(table, game="matchplay", fmt="round-robin", players=6, extra=""):
    lines = ["id: cup", "name: Winter Cup", f"game: {game}", "course: parkland", "players:"]
    lines += [f"  - {NAMES[i]} <{ADDRESSES[i]}>" for i in range(players)]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h", f"format: {fmt}"]
    path = table.root / "league.yaml"
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


def state_of(table, game_id):
    return table.load(game_id)


def league_json(table, *args):
    return json.loads(table.pbem("league", *args, "cup", "--json")[1])


def play_season(table, silent: set[str], rng, now: datetime) -> datetime:
    """Every player but the silent ones answers every turn of every game they are in, whichever
    round it belongs to (a silent player's match outlasts its week, so rounds overlap); when
    nobody can move, time jumps past the next deadline, which plays for the silent."""
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    for _ in range(400):
        table.pbem("process", now=iso(now))
        league = league_json(table, "show")
        if league["status"] == "finished":
            return now
        live = [state_of(table, g["id"]) for r in league["rounds"] for g in r["games"] if g["status"] == "active"]
        sent = False
        for t in live:
            for seat in sorted(t.state.to_move()):
                address = t.seats[seat].address
                if address not in silent:
                    table.send(address, str(module.random_orders(t.state, seat, rng)),
                               subject=f"Re: [{t.id}] orders", to=table.reply_to_game(address, t.id))
                    sent = True
        if not sent:
            now += timedelta(hours=25)
    raise AssertionError("the season did not end")


def expected_standings(table, league):
    """The standings worked out here from the games' result lines alone."""
    rows = {a: {"played": 0, "won": 0, "halved": 0, "lost": 0, "points": 0.0, "holes_diff": 0} for a in ADDRESSES}
    for r in league["rounds"]:
        for g in r["games"]:
            a, b = g["players"]
            line = g["result"][len("Result: "):]
            rows[a]["played"] += 1
            rows[b]["played"] += 1
            if line == "Match halved":
                for x in (a, b):
                    rows[x]["halved"] += 1
                    rows[x]["points"] += 0.5
                continue
            winner_name = line.split(" wins ")[0]
            winner = ADDRESSES[NAMES.index(winner_name)]
            loser = b if winner == a else a
            found = re.search(r"wins (\d+) (and \d+|up)$", line)
            margin = int(found.group(1))
            rows[winner]["won"] += 1
            rows[winner]["points"] += 1
            rows[winner]["holes_diff"] += margin
            rows[loser]["lost"] += 1
            rows[loser]["holes_diff"] -= margin
    return rows


@pytest.mark.slow
def test_a_six_player_matchplay_season_runs_by_itself_and_tallies_right(table):
    path = league_file(table)
    code, out, _ = table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    assert out.strip() == "cup"
    welcome = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-League"] == "cup"]
    assert len(welcome) == 1 and welcome[0]["X-PBEM-Kind"] == "welcome"
    assert "Round 5" in body(welcome[0]) and "against" in body(welcome[0])
    rng = random.Random(12)
    silent = {ADDRESSES[5]}  # Farid never sends an order
    play_season(table, silent, rng, START - timedelta(days=1))
    standings_mail = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "standings"]
    assert [" ".join(body(m).split()).count("every game of round") for m in standings_mail] == [1] * 5
    assert ["after round " + str(r) in m["Subject"] for r, m in enumerate(standings_mail, start=1)] == [True] * 5
    league = league_json(table, "show")
    assert [r["status"] for r in league["rounds"]] == ["closed"] * 5
    pairs = [frozenset(g["players"]) for r in league["rounds"] for g in r["games"]]
    assert len(pairs) == 15 and len(set(pairs)) == 15  # every pair met exactly once
    expected = expected_standings(table, league)
    rows = league_json(table, "standings")
    assert len(rows) == 6
    for row in rows:
        want = expected[row["address"]]
        assert {k: row[k] for k in want} == want, row
    # Ranked by points, then holes won, as the contract orders them.
    keys = [(-r["points"], -r["holes_diff"]) for r in rows]
    assert keys == sorted(keys)
    farid = next(r for r in rows if r["address"] == ADDRESSES[5])
    assert farid["on_time"] == 0 and all(r["on_time"] == 1 for r in rows if r is not farid), [(r["name"], r["on_time"]) for r in rows]
    last = [m for m in table.mails(ADDRESSES[1]) if m["X-PBEM-Kind"] == "standings"][-1]
    assert "final standings" in " ".join(body(last).split()) and last["X-PBEM-League"] == "cup"
    assert all(len(line) <= 78 for line in body(last).splitlines())


def test_the_standings_page_of_a_season_shows_what_json_says_in_a_browser(table, tmp_path, chromium):
    from test_page import assert_self_contained, assert_standings, rendered
    path = league_file(table, players=4)
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    play_season(table, {ADDRESSES[3]}, random.Random(3), START)
    rows = league_json(table, "standings")
    page_path = table.root / "cup.html"
    code, out, err = table.pbem("league", "standings", "cup", "--html", str(page_path))
    page = page_path.read_text(encoding="utf-8")
    assert_self_contained(page)
    dom = rendered(page, tmp_path, chromium)
    keys = [c.attrs.get("data-key") for c in dom.tables["standings"].head[0]]
    assert {"rank", "name", "points", "holes_diff", "on_time"} <= set(keys)
    assert_standings(dom.tables["standings"], rows, keys)
    assert "example.test" not in page  # names only: the page may be published


@pytest.mark.slow
def test_a_five_player_dice_golf_tables_league_seats_everyone_and_adds_up(table):
    path = league_file(table, game="dicegolf", fmt="tables", players=5, extra="table_size: 4\nrounds: 3\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    told: set[tuple[str, str]] = set()
    now = START
    for _ in range(60):
        table.pbem("process", now=iso(now))
        league = league_json(table, "show")
        if league["status"] == "finished":
            break
        for r in league["rounds"]:
            for g in r["games"]:
                if g["status"] != "active":
                    continue
                for address in g["players"]:
                    if (g["id"], address) not in told:  # one mail a player, the whole game long
                        told.add((g["id"], address))
                        table.send(address, "POLICY BEST", subject=f"Re: [{g['id']}] orders",
                                   to=table.reply_to_game(address, g["id"]))
        now += timedelta(days=1)
    assert league_json(table, "show")["status"] == "finished"
    league = league_json(table, "show")
    for r in league["rounds"]:
        seated = [a for g in r["games"] for a in g["players"]]
        assert sorted(seated) == sorted(ADDRESSES[:5]), r  # everyone at one table a round
        sizes = [len(g["players"]) for g in r["games"]]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 4
    totals = {a: 0 for a in ADDRESSES[:5]}
    for r in league["rounds"]:
        for g in r["games"]:
            shown = table.show(g["id"])
            for p in shown["players"]:
                totals[p["address"]] += p["score"]
    rows = league_json(table, "standings")
    assert {row["address"]: row["total"] for row in rows} == totals
    assert [row["total"] for row in rows] == sorted(row["total"] for row in rows)


@pytest.mark.slow
def test_a_replacement_takes_the_seat_and_the_row_and_a_withdrawal_forfeits_what_is_left(table):
    path = league_file(table, players=4)
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1 opens
    newcomer = "zoe@example.test"
    _, out, _ = table.pbem("gm", "REPLACE", "cup", ADDRESSES[0], f"Zoe <{newcomer}>",
                           now=iso(START + timedelta(hours=1)))
    assert "replaced by zoe@example.test in league cup (1 game(s) in play)" in out
    r1 = league_json(table, "show")["rounds"][0]
    assert any(newcomer in g["players"] for g in r1["games"])
    assert any(m["X-PBEM-Kind"] == "welcome" for m in table.mails(newcomer))
    _, out, _ = table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[1], now=iso(START + timedelta(hours=2)))
    assert "withdrawn from league cup" in out
    play_season(table, set(), random.Random(4), START + timedelta(hours=3))
    league = league_json(table, "show")
    # Bruno's later matches are never made; Zoe plays Alice's row from round 1 on.
    later = [g for r in league["rounds"][1:] for g in r["games"]]
    assert all(ADDRESSES[1] not in g["players"] for g in later if g["status"] not in ("waiting", "forfeit"))
    assert [g["status"] for g in later if ADDRESSES[1] in g["players"]] == ["forfeit", "forfeit"]
    assert all(ADDRESSES[0] not in g["players"] for r in league["rounds"] for g in r["games"])
    rows = {row["address"]: row for row in league_json(table, "standings")}
    assert newcomer in rows and ADDRESSES[0] not in rows
    assert "took over from Alice" in rows[newcomer]["note"]
    bruno = rows[ADDRESSES[1]]
    assert bruno["played"] == 3 and bruno["won"] == 0 and bruno["lost"] == 3  # forfeits, by default
    assert "withdrew" in bruno["note"]


def test_an_absence_moves_the_right_deadlines_and_no_further_than_the_limit(table):
    path = league_file(table, players=4, extra="absence_days: 10\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    league = league_json(table, "show")
    mine = next(g["id"] for g in league["rounds"][0]["games"] if ADDRESSES[0] in g["players"])
    other = next(g["id"] for g in league["rounds"][0]["games"] if ADDRESSES[0] not in g["players"])
    before_other = table.show(other)["deadline"]
    assert table.show(mine)["deadline"] == "2026-12-09T18:00:01Z"
    away = "SET ABSENCE 2026-12-08 TO 2026-12-12"
    table.send(ADDRESSES[0], away, subject=f"Re: [{mine}] away", to=table.reply_to_game(ADDRESSES[0], mine))
    table.pbem("process", now=iso(START + timedelta(hours=1)))
    assert table.show(mine)["deadline"] == "2026-12-13T00:00:00Z"  # the end of the last day away
    assert table.show(other)["deadline"] == before_other  # a game without the absent player
    ack = [m for m in table.mails(ADDRESSES[0]) if "Absence noted" in m["Subject"]]
    assert len(ack) == 1 and "5 days of absence left" in " ".join(body(ack[0]).split())
    # A new turn's deadline set while away moves too (the next pass does it).
    rng = random.Random(1)
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    t = state_of(table, mine)
    for seat in (0, 1):
        a = t.seats[seat].address
        table.send(a, str(module.random_orders(t.state, seat, rng)), subject=f"Re: [{mine}] o",
                   to=table.reply_to_game(a, mine))
    table.pbem("process", now=iso(START + timedelta(hours=2)))
    assert table.show(mine)["turn"] == 2
    table.pbem("process", now=iso(START + timedelta(hours=3)))
    assert table.show(mine)["deadline"] == "2026-12-13T00:00:00Z"
    # Past the limit: refused, nothing changes, and the right length is suggested.
    too_long = "SET ABSENCE 2026-12-20 TO 2026-12-29"
    table.send(ADDRESSES[0], too_long, subject=f"Re: [{mine}] away", to=table.reply_to_game(ADDRESSES[0], mine))
    table.pbem("process", now=iso(START + timedelta(hours=4)))
    error = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "error"][-1]
    text = " ".join(body(error).split())
    assert "you have 5 days of absence left" in text and "SET ABSENCE 2026-12-20 TO 2026-12-24" in text
    assert table.show(mine)["deadline"] == "2026-12-13T00:00:00Z"
