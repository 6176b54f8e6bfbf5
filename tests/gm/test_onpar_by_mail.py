"""On Par played by mail through the Maildir transport, checked from `pbem show --json`."""
from __future__ import annotations

import random
import re

import pytest
from conftest import body, kinds, too_wide


PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"]
NAMES = ["Ann", "Bob", "Cy", "Di"]
START = "2026-12-01T09:00:00Z"


def engine(table, game="op"):
    return table.load(game).state


def new_game(table, n, *extra):
    args = ["new-game", "onpar", "--id", "op", "--deadline", "2d", *extra]
    for i in range(n):
        args += ["--player", f"{NAMES[i]} <{PLAYERS[i]}>"]
    table.pbem(*args, now=START)


def loser_rule(hole: dict, address: str) -> int:
    """A player's strokes for a hole, from the record alone: the winner scores their shots,
    everyone else their shots plus one per course card still ahead of the ball (the card the
    ball lies on counts; a ball on the tee has them all ahead)."""
    shots = hole["shots"][address]
    if hole["winner"] == address:
        return shots
    space, first, ahead = hole["finish"][address], 1, 0
    for card in hole["course"]:
        last = first + card["spaces"] - 1
        if card["card"] != "Green" and last >= max(space, 1) and not (space > last):
            ahead += 1
        first = last + 1
    return shots + ahead


CARD = re.compile(r"\b[DIWP][0-9]\b")
EXAMPLES = {"D5", "I3", "W2", "P4"}  # the codes the rules text shows as examples


def play_out(table, n, seed, watch_hands=False):
    """Random legal play to the end. With `watch_hands`, every mail is read as it arrives: each
    distance card it names must be one its reader has held, one played in public (the history's
    moves), or one of the rules' examples; never only a card of another player's hand."""
    rng = random.Random(seed)
    module = __import__("pbem.games.onpar", fromlist=["random_orders"])
    held = {s: set() for s in range(n)}
    for _ in range(3000):
        state = engine(table)
        if state.result() is not None:
            return
        for s in range(n):
            held[s] |= set(state.hands[s])
        seat = min(state.to_move())
        table.order(PLAYERS[seat], str(module.random_orders(state, seat, rng)), game="op")
        if watch_hands:
            after = engine(table)
            for s in range(n):
                held[s] |= set(after.hands[s])
            public = {c for ev in table.show("op")["history"] if ev["kind"] == "move" for c in CARD.findall(ev["text"])}
            for reader in range(n):
                others = {c for s in range(n) if s != reader for c in after.hands[s]}
                for m in table.new_mails(PLAYERS[reader]):
                    named = set(CARD.findall(body(m)))
                    leaked = (named & others) - held[reader] - public - EXAMPLES
                    assert not leaked, (reader, leaked, m["Subject"])
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("n, seed", [(1, 1), (2, 2), (4, 3)])
def test_whole_games_end_as_the_loser_rule_scores_them(table, n, seed):
    new_game(table, n, "--seed", str(seed), "--option", "holes=2")
    play_out(table, n, seed, watch_hands=(n > 1))
    shown = table.show("op")
    assert shown["status"] == "finished" and len(shown["holes"]) == 2
    totals = {a: 0 for a in PLAYERS[:n]}
    for hole in shown["holes"]:
        assert set(hole) >= {"hole", "par", "course", "finish", "shots", "strokes", "winner"}
        for a in PLAYERS[:n]:
            assert hole["strokes"][a] == loser_rule(hole, a), (hole, a)
            totals[a] += hole["strokes"][a]
    assert [p["score"] for p in shown["players"]] == [totals[a] for a in PLAYERS[:n]]
    if n > 1:
        low = min(totals.values())
        winners = [NAMES[i] for i, a in enumerate(PLAYERS[:n]) if totals[a] == low]
        line = (f"{winners[0]} wins with {low}" if len(winners) == 1
                else f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {low}")
        assert shown["result"] == "Result: " + line
    for a in PLAYERS[:n]:
        assert kinds(table.mails(a)).count("result") == 1


def test_show_json_has_the_hole_in_play_by_address(table):
    new_game(table, 2, "--seed", "4")
    shown = table.show("op")
    assert shown["hole"] == 1 and shown["par"] in (3, 4, 5)
    assert shown["course"][-1] == {"card": "Green", "spaces": 5}
    assert len(shown["course"]) == shown["par"] + 1
    assert set(shown["balls"]) == set(PLAYERS[:2]) and shown["balls"][PLAYERS[0]] == {"space": 0, "strokes": 0}
    state = engine(table)
    assert shown["hands"] == {PLAYERS[s]: list(state.hands[s]) for s in range(2)}
    assert shown["holes"] == []


def test_an_illegal_shot_is_refused_by_rule_and_changes_nothing(table):
    new_game(table, 2, "--seed", "4")
    state = engine(table)
    seat = min(state.to_move())
    putter = next((c for c in state.hands[seat] if c.startswith("P")), None)
    order = f"SHOT {putter}" if putter else "PASS"
    before = table.show("op")
    got = table.order(PLAYERS[seat], order, game="op")
    assert kinds(got) == ["error"]
    text = " ".join(body(got[0]).split())
    assert "Rule: " in text and "What would be right: " in text
    after = table.show("op")
    assert after["state"] == before["state"] and after["hands"] == before["hands"]
    suggestion = text.split("What would be right: ")[1].split(" Send the whole")[0]
    assert "error" not in kinds(table.order(PLAYERS[seat], suggestion, game="op"))


def _to_a_trap(table, n, seed):
    """Play on by the GM's own choice until the seat to move may lay a trap; its order."""
    for _ in range(200):
        state = engine(table)
        seat = min(state.to_move())
        traps = [c["order"] for c in state.view(seat)["choices"] if c["order"].startswith("TRAP")]
        if traps:
            return seat, traps[0]
        table.order(PLAYERS[seat], str(state.default_orders(seat)), game="op")
    raise AssertionError("no trap came")


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_trap_tells_its_victim_at_once_and_may_name_them_by_address(table, seed):
    new_game(table, 3, "--seed", str(seed))
    seat, order = _to_a_trap(table, 3, seed)
    victim_name = order.split(" ON ")[1]
    victim = NAMES.index(victim_name)
    table.new_mails(PLAYERS[victim])
    got = table.order(PLAYERS[seat], order.replace(victim_name, PLAYERS[victim]), game="op")
    assert "error" not in kinds(got), body(got[-1])
    told = [m for m in table.new_mails(PLAYERS[victim]) if "on your ball" in m["Subject"]]
    assert len(told) == 1 and NAMES[seat] in told[0]["Subject"]
    assert f"TRAP {order.split()[1]} ON {victim_name}" in [ev.get("orders") for ev in table.show("op")["history"]]


def test_a_handicap_by_address_reaches_the_seat(table):
    new_game(table, 2, "--seed", "4", "--option", f"handicap={PLAYERS[1]}:2")
    assert engine(table).view(None)["handicaps"] == [0, 2]
    welcome = " ".join(body(table.mails(PLAYERS[1])[0]).split())
    assert "Your handicap: 2" in welcome


@pytest.mark.slow
def test_every_mail_of_a_game_of_long_names_fits_78_columns(table):
    long_names = [f"{n} Bartholomew-Fitzwilliam de la Montagne-Saint-Exupery" for n in NAMES]
    args = ["new-game", "onpar", "--id", "op", "--seed", "11", "--option", "holes=1", "--deadline", "2d"]
    for i in range(4):
        args += ["--player", f"{long_names[i]} <{PLAYERS[i]}>"]
    table.pbem(*args, now=START)
    table.order(PLAYERS[0], "HELP", game="op")
    table.order(PLAYERS[1], "STATUS", game="op")
    table.pbem("process", now="2026-12-02T22:00:00Z")  # reminders
    table.pbem("process", now="2026-12-03T10:00:00Z")  # a missed move
    play_out(table, 4, 11)
    table.order(PLAYERS[2], "HISTORY", game="op")
    wide = [(a, m["X-PBEM-Kind"], line) for a in PLAYERS for m in table.mails(a)
            for line in too_wide(body(m))]
    assert not wide, wide[:5]
    assert {"welcome", "turn", "ack", "report", "result", "help", "status", "reminder", "history"} <= {
        m["X-PBEM-Kind"] for a in PLAYERS for m in table.mails(a)}
