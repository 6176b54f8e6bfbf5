"""Dice golf played by mail through the Maildir transport, rescored from `pbem show --json`."""
from __future__ import annotations

import random

import pytest
from conftest import body, kinds

from pbem.gm import games
from pbem.store import Store

PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"]
NAMES = ["Ann", "Bob", "Cy", "Di"]
START = "2026-12-01T09:00:00Z"
SCORE_BY_TOSS = {1: -2, 2: 0, 3: 1, 4: 2}


def engine(table, game="dg"):
    return table.load(game).state


def new_game(table, n, *extra):
    args = ["new-game", "dicegolf", "--id", "dg", "--deadline", "2d", *extra]
    for i in range(n):
        args += ["--player", f"{NAMES[i]} <{PLAYERS[i]}>"]
    table.pbem(*args, now=START)


def rescore(sheet: list[dict], lenient: bool = False) -> int:
    """A player's total, every toss checked against the rules on its own (not the engine's code)."""
    total = 0
    for hole in sheet:
        flag, so_far, score = hole["flag"], 0, 4
        for n, toss in enumerate(hole["tosses"], start=1):
            a, b = toss["dice"]
            reach = [v for v in (a + b, a, b) if so_far + v == flag and (v == a + b or n > 1 or lenient)]
            if reach:
                assert toss["entry"] == reach[0] or toss["entry"] in reach
                assert n == len(hole["tosses"]), "the hole goes on after it was completed"
                score = SCORE_BY_TOSS[n]
                break
            fits = [v for v in {a + b, a, b} if so_far + v < flag]
            if fits:
                assert toss["entry"] in fits, (hole, toss)
                so_far += toss["entry"]
            else:
                assert toss["entry"] == "X", (hole, toss)
        else:
            assert len(hole["tosses"]) == 4
        assert hole["score"] == score, hole
        total += score
    return total


def expected_line(names, totals):
    if len(names) == 1:
        t = totals[0]
        rank = "Master's" if t < 8 else "Pro" if t <= 12 else "Amateur"
        return f"{names[0]} scores {t}, {rank}"
    low = min(totals)
    winners = [n for n, t in zip(names, totals) if t == low]
    if len(winners) == 1:
        return f"{winners[0]} wins with {low}"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {low}"


def check_finished(table, n):
    shown = table.show("dg")
    assert shown["status"] == "finished"
    totals = [rescore(shown["sheets"][addr]) for addr in PLAYERS[:n]]
    assert [len(shown["sheets"][addr]) for addr in PLAYERS[:n]] == [7] * n
    assert [p["score"] for p in shown["players"]] == totals
    assert shown["result"] == "Result: " + expected_line(NAMES[:n], totals)
    for addr in PLAYERS[:n]:
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and shown["result"] in body(results[0])
    return shown


def test_policy_best_in_the_first_mail_plays_a_solitaire_game_to_its_rank(table):
    new_game(table, 1, "--seed", "8")
    got = table.order(PLAYERS[0], "POLICY BEST", game="dg")
    assert kinds(got) == ["ack", "report", "result"]  # one report for all seven holes
    check_finished(table, 1)
    assert "holes 1 to 7 are over" in body(got[1]) or "hole 1 is over" in body(got[1])
    assert "answered no toss by hand" in " ".join(body(got[2]).split())


@pytest.mark.parametrize("seed", [3, 4])
def test_four_players_mixing_policies_and_hands_end_as_the_rules_score_them(table, seed):
    new_game(table, 4, "--seed", str(seed))
    rng = random.Random(seed)
    table.order(PLAYERS[1], "POLICY BEST", game="dg")
    table.order(PLAYERS[2], "POLICY LOW", game="dg")
    for _ in range(200):
        state = engine(table)
        if state.result() is not None:
            break
        seat = min(state.to_move())
        choice = rng.choice(state.choices(seat))
        # Ann enters values, Di names the dice; both by hand.
        order = choice["order"] if seat == 0 else f"ENTER {choice['names'][0]}"
        got = table.order(PLAYERS[seat], order, game="dg")
        assert "error" not in kinds(got), body(got[-1])
    shown = check_finished(table, 4)
    # Coaching: Ann answered by hand, so her result mail weighs her choices; Bob's says none.
    result = {a: " ".join(body([m for m in table.mails(a) if m["X-PBEM-Kind"] == "result"][0]).split())
              for a in PLAYERS}
    assert "answered by hand, costing" in result[PLAYERS[0]]
    assert "answered no toss by hand" in result[PLAYERS[1]]
    assert shown["history"][-1]["kind"] == "finished"


def test_a_refused_entry_changes_nothing_and_names_the_rule_and_the_entries(table):
    new_game(table, 2, "--seed", "1")
    state = engine(table)
    assert 0 in state.to_move()
    a, b = state.position(0)[3]
    before = table.show("dg")
    wrong = next(v for v in range(2, 13) if v not in (a, b, a + b))
    got = table.order(PLAYERS[0], f"ENTER {wrong}", game="dg")
    assert kinds(got) == ["error"]
    text = " ".join(body(got[0]).split())
    assert "Rule: an entry is the sum of the toss or the value of one die" in text
    legal = [c["value"] for c in state.choices(0)]
    assert all(str(v) in text.split("you can enter")[1] for v in legal)
    suggestion = text.split("What would be right: ")[1].split()[:2]
    assert " ".join(suggestion) in [c["order"] for c in state.choices(0)]
    after = table.show("dg")
    assert after["sheets"] == before["sheets"] and after["state"] == before["state"]
    # The suggestion, sent as it stands, is accepted.
    got = table.order(PLAYERS[0], " ".join(suggestion), game="dg")
    assert "error" not in kinds(got)


def test_an_answer_when_no_toss_waits_is_refused(table):
    new_game(table, 2, "--seed", "1")
    table.order(PLAYERS[0], "POLICY BEST", game="dg")
    before = table.show("dg")
    got = table.order(PLAYERS[0], "ENTER SUM", game="dg")
    assert kinds(got) == ["error"]
    assert "Rule: ENTER answers a toss that waits for you" in " ".join(body(got[0]).split())
    assert table.show("dg")["sheets"] == before["sheets"]


def test_a_missed_deadline_plays_the_hole_by_best_and_says_so(table):
    new_game(table, 2, "--seed", "1")
    table.order(PLAYERS[1], "POLICY BEST", game="dg")
    assert 0 in engine(table).to_move()
    table.pbem("process", now="2026-12-02T22:00:00Z")
    reminder = [m for m in table.mails(PLAYERS[0]) if m["X-PBEM-Kind"] == "reminder"]
    assert len(reminder) == 1 and "Reply with one of" in body(reminder[0])
    table.pbem("process", now="2026-12-03T10:00:00Z")
    report = [m for m in table.mails(PLAYERS[1]) if m["X-PBEM-Kind"] == "report"][-1]
    assert "Ann sent no answer by the deadline: I played toss 1 and the rest of hole 1 by BEST" \
        in " ".join(body(report).split())
    shown = table.show("dg")
    assert shown["sheets"][PLAYERS[0]][0]["score"] is not None and shown["turn"] >= 2
    assert any(ev["kind"] == "nmr" and ev["orders"] == "AUTOPLAY BEST" for ev in shown["history"])


def test_the_game_replays_from_its_events(table):
    new_game(table, 3, "--seed", "6", "--option", "flags=random")
    rng = random.Random(6)
    for _ in range(40):
        state = engine(table)
        if state.result() is not None or not state.to_move():
            break
        seat = min(state.to_move())
        table.order(PLAYERS[seat], rng.choice(state.choices(seat))["order"], game="dg")
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert games.replay(store, "dg").to_dict() == games.load(store, "dg").state.to_dict()
    finally:
        store.close()


def test_a_course_template_gives_the_flags_and_the_replay_keeps_them(table):
    new_game(table, 1, "--seed", "9", "--course", "links")
    welcome = " ".join(body(table.mails(PLAYERS[0])[0]).split())
    assert "The flags of this game: 8 5 11 6 9 4 7." in welcome
    table.order(PLAYERS[0], "POLICY BEST", game="dg")
    shown = table.show("dg")
    assert [hole["flag"] for hole in shown["sheets"][PLAYERS[0]]] == [8, 5, 11, 6, 9, 4, 7]
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert games.replay(store, "dg").to_dict() == games.load(store, "dg").state.to_dict()
    finally:
        store.close()


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_policy_best_against_a_robot_is_one_report_and_the_result_in_one_pass(table, seed):
    """The robot plays its holes in the same pass as the player's POLICY BEST closes them: the
    player reads them all in one report (docs/games.md promises it), then the result."""
    table.pbem("new-game", "dicegolf", "--id", "dg", "--seed", str(seed), "--player", f"Ann <{PLAYERS[0]}>",
               "--player", "robot:strong")
    table.new_mails(PLAYERS[0])
    got = table.order(PLAYERS[0], "POLICY BEST", game="dg")
    assert kinds(got) == ["ack", "report", "result"], kinds(got)
    assert "holes 1 to 7 are over" in " ".join(body(got[1]).split())
