"""Ratings (CONTRACT section 13): `pbem ratings` against a computation written here, with the
`openskill` package itself, over the same finished games in the order they finished: matches
(a halved one among them), tables with shared ranks, robots (one player per level, two seats of
one level in one game rated once at the better rank), a rollback (a game counts once, at its
last finish) and an abandoned game (not rated)."""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta

import pytest
from conftest import BILL, GEORGE, body, kinds, too_wide

from pbem.games.matchplay import random_orders

ANN, BOB, CY = "ann@example.test", "bob@example.test", "cy@example.test"


class Clock:
    def __init__(self):
        self.at = datetime(2026, 12, 1, 10, 0)

    def tick(self, seconds: int = 150) -> str:
        self.at += timedelta(seconds=seconds)
        return self.at.strftime("%Y-%m-%dT%H:%M:%SZ")


def send(table, address, game, text, clock):
    table.send(address, text, subject=f"Re: [{game}] orders", to=table.reply_to_game(address, game))
    table.pbem("process", now=clock.tick())


def dice_table(table, game, players, seed, clock):
    """A dice golf game of `players` (specs) whose people all stand on POLICY BEST: it plays
    itself out in the pass that takes the last policy."""
    args = ["new-game", "dicegolf", "--id", game, "--seed", str(seed), "--course", "parkland"]
    for spec in players:
        args += ["--player", spec]
    if all(spec.startswith("robot") for spec in players):
        args += ["--option", "robots_only=true"]
    table.pbem(*args, now=clock.tick())
    for spec in players:
        if "@" in spec:
            send(table, spec.split("<")[-1].rstrip(">"), game, "POLICY BEST", clock)
    assert table.show(game)["status"] == "finished"


def match(table, game, players, seed, clock, rng):
    table.pbem("new-game", "matchplay", "--id", game, "--player", players[0], "--player", players[1],
               now=clock.tick())
    while table.show(game)["status"] == "active":
        state = table.load(game).state
        for seat in sorted(state.to_move()):
            address = table.show(game)["players"][seat]["address"]
            send(table, address, game, str(random_orders(state, seat, rng)), clock)


# -- the computation written here ---------------------------------------------------------------
def expected(table, games: list[str]) -> list[dict]:
    """Every finished game in `games`, in the order of its last finish, then by id, rated with
    openskill's Plackett-Luce at its defaults; the ranks read from `pbem show --json` alone."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    shown = [table.show(g) for g in games]
    done = []
    for g in shown:
        if g["status"] != "finished":
            continue
        finished = [ev["at"] for ev in g["history"] if ev["kind"] == "finished" and not ev.get("rolled_back")]
        done.append((finished[-1], g["id"], g))
    done.sort(key=lambda x: (x[0], x[1]))
    ratings, names, counts = {}, {}, {}
    for _, _, g in done:
        keys = [p["address"] or f"Robot ({p['robot']})" for p in g["players"]]
        if g["type"] == "matchplay":
            line = g["result"].removeprefix("Result: ")
            winner = None if line == "Match halved" else next(i for i, p in enumerate(g["players"])
                                                              if line.startswith(p["name"] + " wins"))
            ranks = [1, 1] if winner is None else [1 if i == winner else 2 for i in range(2)]
        else:  # lower scores first, ties sharing a rank
            scores = [p["score"] for p in g["players"]]
            order = sorted(set(scores))
            ranks = [order.index(s) + 1 for s in scores]
        best = {}
        for key, rank in zip(keys, ranks):
            best[key] = min(rank, best.get(key, rank))
        for p, key in zip(g["players"], keys):
            names[(g["type"], key)] = p["name"] if p["address"] else key
        teams = [[ratings.setdefault((g["type"], key), model.rating())] for key in best]
        for key, (new,) in zip(best, model.rate(teams, ranks=list(best.values()))):
            ratings[(g["type"], key)] = new
            counts[(g["type"], key)] = counts.get((g["type"], key), 0) + 1
    rows = [{"name": names[k], "address": None if k[1].startswith("Robot (") else k[1], "type": k[0],
             "mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "games": counts[k]}
            for k, r in ratings.items()]
    return sorted(rows, key=lambda r: (r["type"], -r["ordinal"]))


def ratings(table, *args) -> list[dict]:
    return json.loads(table.pbem("ratings", "--json", *args)[1])


def same(got: list[dict], want: list[dict]) -> None:
    assert [(r["type"], r["name"], r["address"], r["games"]) for r in got] == \
        [(r["type"], r["name"], r["address"], r["games"]) for r in want]
    for a, b in zip(got, want):
        assert set(a) == {"name", "address", "type", "mu", "sigma", "ordinal", "games", "on_time", "owed"}
        if a["address"] is None:  # a robot owes no deadline (section 14)
            assert a["on_time"] is None and a["owed"] == 0
        for key in ("mu", "sigma", "ordinal"):
            assert a[key] == pytest.approx(b[key], abs=1e-9), (a, b, key)


@pytest.mark.slow
def test_ratings_equal_openskill_over_the_same_games_in_the_same_order(table):
    clock = Clock()
    rng = random.Random(4)
    games = []
    # Ids out of the order the games finish in: the ratings take them by their finish.
    dice_table(table, "z-dice", [f"Ann <{ANN}>", f"Bob <{BOB}>", f"Cy <{CY}>"], 14, clock)  # 2nd shared
    games.append("z-dice")
    match(table, "b-match", [f"George <{GEORGE}>", f"Bill <{BILL}>"], 1, clock, rng)
    games.append("b-match")
    dice_table(table, "a-dice", [f"Cy <{CY}>", f"Ann <{ANN}>", "robot:easy", "robot:easy"], 2, clock)
    games.append("a-dice")
    match(table, "c-match", [f"George <{GEORGE}>", "robot:strong"], 2, clock, rng)
    games.append("c-match")
    dice_table(table, "m-dice", [f"Bob <{BOB}>", "robot:strong", f"Ann <{ANN}>"], 25, clock)  # a three-way tie
    games.append("m-dice")
    # Never rated: a game abandoned, one still in play.
    table.pbem("new-game", "matchplay", "--id", "gone", "--player", ANN, "--player", BOB, now=clock.tick())
    table.pbem("gm", "ABANDON", "gone", now=clock.tick())
    table.pbem("new-game", "matchplay", "--id", "open", "--player", ANN, "--player", CY, now=clock.tick())
    games += ["gone", "open"]
    got = ratings(table)
    want = expected(table, games)
    same(got, want)
    assert {r["type"] for r in got} == {"dicegolf", "matchplay"}
    assert any(r["name"] == "Robot (easy)" and r["address"] is None and r["games"] == 1 for r in got)
    assert any(r["name"] == "Robot (strong)" and r["type"] == "matchplay" for r in got)
    assert sum(r["games"] for r in got if r["type"] == "matchplay") == 4
    assert [r["type"] for r in ratings(table, "--type", "dicegolf")] == ["dicegolf"] * 5
    # A rollback: the match counts once, at its last finish, with its new result.
    table.pbem("gm", "ROLLBACK", "b-match", "TO", "1", now=clock.tick())
    assert [r for r in ratings(table) if r["address"] == BILL] == []
    while table.show("b-match")["status"] == "active":
        state = table.load("b-match").state
        for seat in sorted(state.to_move()):
            address = table.show("b-match")["players"][seat]["address"]
            send(table, address, "b-match", str(random_orders(state, seat, random.Random(seat + 40))), clock)
    same(ratings(table), expected(table, games))
    text = table.pbem("ratings")[1]
    assert "Robot (strong)" in text and "dicegolf" in text and not too_wide(text)


def test_seat_ranks_put_winners_first_and_share_ties():
    from pbem.ratings import seat_ranks
    assert seat_ranks((0, 2), (4, 22, 4), 3) == (1, 2, 1)
    assert seat_ranks((1,), (12, -4, 12), 3) == (2, 1, 2)
    assert seat_ranks((), (2, 2), 2) == (1, 1)  # a halved match: no winners, a tie
    assert seat_ranks((1,), (3, 5), 2) == (2, 1)
    # A resigned player's low total does not rank them above the winner.
    assert seat_ranks((1,), (3, 10, 12), 3) == (2, 1, 3)


def test_ratings_by_mail_answer_a_player_and_nobody_else_and_a_forgery_makes_one_mail(table):
    clock = Clock()
    dice_table(table, "d1", [f"Ann <{ANN}>", f"Bob <{BOB}>", f"Cy <{CY}>"], 14, clock)
    match(table, "m1", [f"George <{GEORGE}>", "robot:strong"], 2, clock, random.Random(1))
    table.new_mails(ANN)
    table.send(ANN, "RATINGS", subject="ratings?")
    table.pbem("process", now=clock.tick())
    got = table.new_mails(ANN)
    assert kinds(got) == ["ratings"] and got[0]["Auto-Submitted"] == "auto-replied"
    text = body(got[0])
    assert "Your ratings:" in text and "Dice Golf (dicegolf)" in text and not too_wide(text)
    assert "MatchPlay" not in text  # Ann plays no match: only the tables of what she plays
    assert ANN not in text and BOB not in text  # names only: an address is its player's to give
    mine = next(r for r in ratings(table) if r["address"] == ANN)
    assert f"{mine['ordinal']:.2f}" in text
    assert any(line.startswith(">") and "Ann" in line for line in text.splitlines())
    html = next((p for p in got[0].walk() if p.get_content_type() == "text/html"), None)
    assert html is not None and "<table" in html.get_content()
    # A stranger: never played here, so no table, one error.
    table.send("stranger@example.test", "RATINGS", subject="ratings")
    table.pbem("process", now=clock.tick())
    refused = table.new_mails("stranger@example.test")
    assert kinds(refused) == ["error"] and "never had a seat here" in " ".join(body(refused[0]).split())
    # A RATINGS forged in Bob's name: one mail to Bob, nothing else from it.
    before = {a: len(table.mails(a)) for a in (ANN, BOB, CY, GEORGE)}
    table.send(f"Bob <{BOB}>", "RATINGS", subject="forged")
    table.pbem("process", now=clock.tick())
    after = {a: len(table.mails(a)) for a in (ANN, BOB, CY, GEORGE)}
    assert {a: after[a] - before[a] for a in after} == {ANN: 0, BOB: 1, CY: 0, GEORGE: 0}
    assert table.mails(BOB)[-1]["X-PBEM-Kind"] == "ratings"


def test_ratings_by_mail_count_against_the_strangers_limit(table):
    (table.root / "pbem.yaml").write_text((table.root / "pbem.yaml").read_text() + "limits:\n  strangers_per_hour: 2\n")
    clock = Clock()
    dice_table(table, "d1", [f"Ann <{ANN}>", f"Bob <{BOB}>", f"Cy <{CY}>"], 14, clock)
    for who in (ANN, BOB, CY, ANN):
        table.send(who, "RATINGS", subject="ratings")
    table.pbem("process", now=clock.tick())
    answered = sum(kinds(table.mails(a)).count("ratings") for a in (ANN, BOB, CY))
    assert answered == 2
