"""Robots in a league (CONTRACT section 12, last paragraph): robot players in the league file,
`withdrawn: robot` (a robot plays a leaver's games left, in their row) and `bye: robot` (an odd
round robin's bye is a match against a robot, counted in the human's row only). Every season
here runs through `pbem process` over the Maildir transport, time moved by PBEM_NOW."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from conftest import GM, body
from test_season_by_mail import ADDRESSES, NAMES, START, iso, league_file, league_json, play_season

from pbem.games.matchplay import random_orders


def mail_folders(table) -> set[str]:
    return {p.name for p in (table.root / "mail").iterdir() if p.is_dir()}


def flat(mail) -> str:
    return " ".join(body(mail).split())


def create(table, path, now=START - timedelta(days=1)):
    table.pbem("league", "create", str(path), now=iso(now))


def robot_league(table, players: int, robots: list[str], extra: str = ""):
    """A round robin of the first `players` players and the robot items `robots`."""
    path = league_file(table, players=players, extra=extra)
    lines = path.read_text().splitlines()
    at = lines.index("players:") + players + 1
    lines[at:at] = [f"  - {item}" for item in robots]
    path.write_text("\n".join(lines) + "\n")
    return path


def play_turns(table, game_id: str, turns: int, rng, now) -> None:
    """Both players of a match by mail answer `turns` turns, one pass after each."""
    for _ in range(turns):
        t = table.load(game_id)
        for seat in sorted(t.state.to_move()):
            address = t.seats[seat].address
            table.send(address, str(random_orders(t.state, seat, rng)), subject=f"Re: [{game_id}] orders",
                       to=table.reply_to_game(address, game_id))
        table.pbem("process", now=iso(now))


# -- (a) robot players in the league file -----------------------------------------------------

@pytest.mark.slow
def test_robot_players_sit_under_their_league_handles_and_get_no_mail(table):
    path = robot_league(table, 2, ['"Caddie <robot:strong>"', "robot:easy"])
    create(table, path)
    plan = league_json(table, "show")
    assert plan["standings"] and len(plan["standings"]) == 4
    welcome = next(m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-League"] == "cup")
    assert "against Caddie" in flat(welcome) and "against Robot (easy)" in flat(welcome)
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1 opens
    league = league_json(table, "show")
    seated = {}
    for g in league["rounds"][0]["games"]:
        for seat in table.load(g["id"]).seats:
            seated[seat.address] = (seat.name, seat.robot)
    assert seated["robot-1"] == ("Caddie", "strong") and seated["robot-2"] == ("Robot (easy)", "easy")
    # Caddie and Robot (easy) meet in some round: that match is played by robots alone, at once.
    end = play_season(table, set(), random.Random(3), START + timedelta(seconds=2))
    league = league_json(table, "show")
    assert league["status"] == "finished"
    assert all(g["status"] == "finished" for r in league["rounds"] for g in r["games"])
    rows = {r["address"]: r for r in league_json(table, "standings")}
    assert set(rows) == {ADDRESSES[0], ADDRESSES[1], "robot-1", "robot-2"}
    assert all(r["played"] == 3 for r in rows.values())
    assert rows["robot-1"]["name"] == "Caddie"
    # No mail was ever written to a robot: only the players' and the GM's own folders exist.
    assert mail_folders(table) == {ADDRESSES[0], ADDRESSES[1], GM}
    standings = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "standings"]
    assert len(standings) == 3 and "Caddie" in body(standings[-1])
    assert end


# -- (b) withdrawn: robot ---------------------------------------------------------------------

@pytest.mark.slow
def test_a_withdrawn_player_s_row_is_played_on_by_a_robot(table):
    create(table, league_file(table, players=4, extra="withdrawn: robot\n"))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1: Alice v Dmitri, Bruno v Chloe
    bruno, chloe = ADDRESSES[1], ADDRESSES[2]
    game = next(g["id"] for g in league_json(table, "show")["rounds"][0]["games"] if bruno in g["players"])
    rng, now = random.Random(8), START + timedelta(hours=1)
    play_turns(table, game, 3, rng, now)  # half the match by mail
    t = table.load(game)
    turn = t.state.turn
    chloe_seat = next(s.seat for s in t.seats if s.address == chloe)
    table.send(chloe, str(random_orders(t.state, chloe_seat, rng)), subject=f"Re: [{game}] orders",
               to=table.reply_to_game(chloe, game))
    table.pbem("process", now=iso(now))
    assert table.load(game).state.turn == turn  # Bruno owes his orders now
    before = len(table.mails(bruno))
    _, out, _ = table.pbem("gm", "WITHDRAW", "cup", bruno, now=iso(now + timedelta(minutes=5)))
    assert "robot" in out
    t = table.load(game)
    robot = next(s for s in t.seats if s.robot)
    assert (robot.address, robot.name, robot.robot) == ("robot-1", "Robot (strong)", "strong")
    assert t.state.turn == turn + 1 or t.state.result() is not None  # the robot moved at once
    # The leaver: one league notice, and the game's own notice that a robot has the seat.
    got = table.mails(bruno, before)
    league_mail = [m for m in got if m["X-PBEM-League"] == "cup"]
    assert len(league_mail) == 1
    words = flat(league_mail[0])
    assert "to Robot (strong), a robot player of pbem's" in words
    assert f"It plays your game in play from where you left it: {game}." in words
    assert "It plays your matches of rounds 2 and 3 too." in words
    assert [m["X-PBEM-Game"] for m in got if m["X-PBEM-Game"]] == [game]
    # Chloe hears it from the game: a robot plays in Bruno's place, and moves when it must.
    notice = next(m for m in table.mails(chloe) if m["X-PBEM-Game"] == game and "robot" in flat(m))
    assert "Robot (strong), a robot player of pbem's, now plays in place of Bruno" in flat(notice)
    told = len(table.mails(bruno))
    play_season(table, set(), rng, now + timedelta(minutes=10))
    league = league_json(table, "show")
    assert league["status"] == "finished"
    # The row's later games were made with the robot, under the row's league handle.
    later = [g for r in league["rounds"][1:] for g in r["games"] if "robot-1" in g["players"]]
    assert len(later) == 2 and all(g["status"] == "finished" for g in later)
    rows = {r["address"]: r for r in league_json(table, "standings")}
    assert set(rows) == {ADDRESSES[0], "robot-1", ADDRESSES[2], ADDRESSES[3]}
    row = rows["robot-1"]
    assert row["played"] == 3 and row["won"] + row["halved"] + row["lost"] == 3
    assert row["note"].startswith("took over from Bruno in round 1")
    assert sum(r["played"] for r in rows.values()) == 12
    assert table.mails(bruno)[told:] == []  # no more standings, nor anything else
    assert mail_folders(table) == set(ADDRESSES[:4]) | {GM}


def test_league_replace_with_a_robot_plays_on_at_once(table):
    create(table, league_file(table, players=4))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    _, out, _ = table.pbem("gm", "REPLACE", "cup", ADDRESSES[0], "Iron Caddie <robot:easy>",
                           now=iso(START + timedelta(hours=1)))
    assert "robot-1" in out
    game = next(g for g in league_json(table, "show")["rounds"][0]["games"] if "robot-1" in g["players"])
    seat = next(s for s in table.load(game["id"]).seats if s.robot)
    assert (seat.name, seat.robot) == ("Iron Caddie", "easy")
    assert not table.load(game["id"]).state.to_move() & {seat.seat}
    leaver = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-League"] == "cup"]
    assert [m["X-PBEM-Kind"] for m in leaver] == ["welcome", "status"]
    # A person may take the robot's row in turn.
    table.pbem("gm", "REPLACE", "cup", "robot-1", "Zoe <zoe@example.test>", now=iso(START + timedelta(hours=2)))
    seats = table.load(game["id"]).seats
    assert "zoe@example.test" in [s.address for s in seats] and not any(s.robot for s in seats)


# -- (c) bye: robot ---------------------------------------------------------------------------

@pytest.mark.slow
def test_the_bye_is_a_match_against_a_robot_that_counts_for_the_human_only(table):
    create(table, league_file(table, players=3, extra="bye: robot\n"))
    welcome = next(m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-League"] == "cup")
    assert "against Robot (strong), a robot player" in flat(welcome) and "a bye" not in flat(welcome)
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    first = league_json(table, "show")["rounds"][0]
    bye = next(g for g in first["games"] if g["id"] == "cup-r1-0")
    assert bye["players"][0] in ADDRESSES[:3] and bye["players"][1].startswith("robot-")
    assert first["byes"] == []
    play_season(table, set(), random.Random(5), START + timedelta(minutes=1))
    league = league_json(table, "show")
    assert league["status"] == "finished"
    byes = [next(g for g in r["games"] if g["id"] == f"cup-r{r['round']}-0") for r in league["rounds"]]
    assert sorted(g["players"][0] for g in byes) == sorted(ADDRESSES[:3])  # each had the bye once
    assert all(g["status"] == "finished" for g in byes)
    robots = {g["players"][1] for g in byes}
    rows = league_json(table, "standings")
    assert len(rows) == 3 and not robots & {r["address"] for r in rows}
    assert all(r["played"] == 3 for r in rows)  # two matches and the bye's
    # Three matches between them count twice (both rows), the three byes' once (the human's).
    assert sum(r["won"] + r["halved"] + r["lost"] for r in rows) == 9
    # The bye's result is in the human's row: the points are the two matches' plus the bye's.
    for player in ADDRESSES[:3]:
        row = next(r for r in rows if r["address"] == player)
        mine = [g for r in league["rounds"] for g in r["games"] if player in g["players"]]
        name = NAMES[ADDRESSES.index(player)]
        points = sum(1 if g["result"].startswith(f"Result: {name} wins") else
                     0.5 if "halved" in g["result"] else 0 for g in mine)
        assert row["points"] == points, (row, mine)
    assert mail_folders(table) == set(ADDRESSES[:3]) | {GM}
    grid_page = table.root / "standings.html"
    table.pbem("league", "standings", "cup", "--html", str(grid_page))
    assert "Robot" not in grid_page.read_text().split("<h2>Results</h2>")[1].split("<h2>")[0]


# -- (d) refusals -----------------------------------------------------------------------------

def test_a_wrong_robot_level_or_a_league_of_robots_is_refused_naming_the_key(table):
    path = robot_league(table, 2, ["robot:hard"])
    code, out, err = table.pbem("league", "create", str(path), check=False)
    assert code == 2 and out == ""
    assert any(line.startswith("players[2]: 'robot:hard': a robot's level is easy or strong")
               for line in err.splitlines()), err
    path = robot_league(table, 0, ["robot", "robot:easy"])
    code, _, err = table.pbem("league", "create", str(path), check=False)
    assert code == 2
    assert "players: every player is a robot: a league needs at least one player by mail" in err.splitlines()
    path = league_file(table, game="golf", fmt="tables", players=3, extra="rounds: 2\nbye: robot\nwithdrawn: robot\n")
    code, _, err = table.pbem("league", "create", str(path), check=False)
    keys = [line.split(":", 1)[0] for line in err.splitlines()[1:-1]]
    assert code == 2 and keys == ["bye"], err  # every game has a robot: only bye's format is wrong
    _, shown, _ = table.pbem("league", "list")
    assert shown.strip() == ""
