"""Dice golf's hole in play is each player's own until it closes (issue 18, item 7).

Everyone plays the same hole at once, so a player's sheet shows the others' tosses of a hole
only once every player has finished it; the totals every mail shares are those of the closed
holes; and a toss the GM enters at once (a hole-in-one among them) is told with its dice and
its score, in the welcome too.
"""
from __future__ import annotations

import email.utils
import random
import re

from conftest import body, kinds

from pbem.games.dicegolf import HOLES

PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test"]
NAMES = ["Ann", "Bob", "Cy"]
FAN = "fan@example.test"
ROWS = ("Hole-in-one", "Par", "One over", "Two over", "Score")


def new_game(table, n, seed):
    args = ["new-game", "dicegolf", "--id", "dg", "--seed", str(seed), "--deadline", "2d"]
    for i in range(n):
        args += ["--player", f"{NAMES[i]} <{PLAYERS[i]}>"]
    table.pbem(*args, now="2026-12-01T09:00:00Z")


def sheets_in(text: str) -> dict[str, dict[str, list[str]]]:
    """Each score sheet drawn in a mail: player name -> row name -> the seven cells as drawn
    (columns of five after a label of fourteen, as a player reads them across)."""
    out: dict[str, dict[str, list[str]]] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("  Hole  ") and i > 0 and i + 6 < len(lines):
            name = re.sub(r" \((you|resigned)\)", "", lines[i - 1]).strip()
            rows = {}
            for row in lines[i + 2:i + 7]:
                label = row[2:16].strip()
                assert label in ROWS, (row, text)
                rows[label] = [row[16 + 5 * h:21 + 5 * h].strip() for h in range(HOLES)]
            out[name] = rows
    return out


def shown_holes(rows: dict[str, list[str]]) -> int:
    """How many holes a drawn sheet shows anything of."""
    return max((h + 1 for cells in rows.values() for h, c in enumerate(cells) if c), default=0)


def totals_in(text: str) -> tuple[int | None, dict[str, int]]:
    """`Totals after hole N:` and the totals listed under it."""
    m = re.search(r"^Totals after hole (\d+):\n((?:  \S.*\n)+)", text, re.M)
    if not m:
        return None, {}
    listed = {}
    for line in m.group(2).splitlines():
        name, total = line.split()[0], line.split()[1]
        listed[name] = 0 if total == "0" else int(total)
    return int(m.group(1)), listed


def closed_score(sheet: list[dict], holes: int) -> int:
    return sum(h["score"] for h in sheet[:holes] if h["score"] is not None)


def test_the_report_after_hole_two_hides_the_others_hole_three_and_totals_two_holes(table):
    """The repro: Bob plays by policy, so his hole 3 is done the moment it opens; Ann, playing
    by hand, must not see it on her sheet, and `Totals after hole 2` must not count it."""
    new_game(table, 2, seed=5)
    table.order(PLAYERS[1], "POLICY BEST", game="dg")
    for _ in range(10):
        state = table.load("dg").state
        if state.hole == 3:
            break
        got = table.order(PLAYERS[0], state.choices(0)[-1]["order"], game="dg")
    state = table.load("dg").state
    assert state.hole == 3 and 0 in state.to_move(), "Ann has hole 3 still to play"
    assert state.sheet(1, 3)["score"] is not None, "Bob's policy has finished his hole 3"
    report = [m for m in got if m["X-PBEM-Kind"] == "report"][-1]
    text = body(report)
    drawn = sheets_in(text)
    assert shown_holes(drawn["Bob"]) == 2, text
    assert drawn["Bob"]["Score"][2] == "" and drawn["Ann"]["Hole-in-one"][2] == "?"
    after, listed = totals_in(text)
    shown = table.show("dg")
    assert after == 2
    assert listed == {"Ann": closed_score(shown["sheets"][PLAYERS[0]], 2),
                      "Bob": closed_score(shown["sheets"][PLAYERS[1]], 2)}
    assert listed["Bob"] != closed_score(shown["sheets"][PLAYERS[1]], 3), "the repro shows a difference"
    assert "Ann +4, Bob 0" in report["Subject"] and "Hole 3 is in play" in " ".join(text.split())
    # Bob, who finished his hole 3, sees his own hole 3, and nothing of Ann's.
    bob = body([m for m in table.mails(PLAYERS[1]) if m["X-PBEM-Kind"] == "report"][-1])
    assert shown_holes(sheets_in(bob)["Bob"]) == 3 and shown_holes(sheets_in(bob)["Ann"]) == 2, bob
    assert "?" not in "".join(sheets_in(bob)["Ann"]["Hole-in-one"])


def test_no_mail_shows_a_player_or_a_spectator_another_players_hole_before_it_closes(table):
    """A whole game of three, two playing by hand and one by policy, a spectator watching:
    every sheet in every mail shows another player's holes only up to the last closed hole,
    and its totals are those of the closed holes."""
    new_game(table, 3, seed=11)
    table.send(FAN, "OBSERVE dg", subject="watching")
    table.pbem("process")
    question = table.new_mails(FAN)  # the spectator confirms, as pbem asks
    assert [m["X-PBEM-Kind"] for m in question] == ["ack"] and "Confirm" in question[0]["Subject"]
    table.send(FAN, "", subject="Re: " + question[0]["Subject"],
               to=email.utils.parseaddr(question[0]["Reply-To"])[1],
               headers={"In-Reply-To": question[0]["Message-ID"]})
    table.pbem("process")
    assert [m["X-PBEM-Kind"] for m in table.new_mails(FAN)] == ["ack"]
    table.order(PLAYERS[1], "POLICY BEST", game="dg")
    rng = random.Random(11)
    checked = {"player": 0, "spectator": 0, "own open hole": 0}
    for _ in range(120):
        state = table.load("dg").state
        if state.result() is not None:
            break
        seat = rng.choice(sorted(state.to_move()))
        table.order(PLAYERS[seat], rng.choice(state.choices(seat))["order"], game="dg")
        state = table.load("dg").state
        for reader in [*PLAYERS, FAN]:
            for m in table.new_mails(reader):
                checked.update(check_mail(m, reader, state, checked))
    assert table.load("dg").state.result() is not None
    assert checked["player"] > 5 and checked["spectator"] > 2 and checked["own open hole"] > 0, checked


def check_mail(m, reader: str, state, checked: dict) -> dict:
    text = body(m)
    drawn = sheets_in(text)
    if not drawn:
        return checked
    closed, over = len(state.holes), state.result() is not None
    after, listed = totals_in(text)
    me = NAMES[PLAYERS.index(reader)] if reader in PLAYERS else None
    if not over:
        assert after == closed, (m["Subject"], text)
        for name, rows in drawn.items():
            if name != me:
                assert shown_holes(rows) <= closed, (reader, name, m["Subject"], text)
        assert listed == {NAMES[s]: closed_score(state.sheets()[s], closed) for s in range(len(drawn))}, text
        if me is not None and shown_holes(drawn[me]) > closed:
            checked["own open hole"] += 1
    checked["spectator" if me is None else "player"] += 1
    return checked


def test_a_hole_in_one_entered_at_once_is_told_in_the_welcome_with_its_dice_and_score(table):
    new_game(table, 2, seed=5)  # Bob's first toss of hole 1 is 2 and 5 on the flag 7
    state = table.load("dg").state
    assert state.sheet(1, 1) == {"flag": 7, "tosses": [{"dice": [2, 5], "entry": 7}], "score": -2}
    welcome = body(table.mails(PLAYERS[1])[0])
    said = " ".join(welcome.split())
    assert "Hole 1, toss 1: 2 and 5: 7 reaches the flag 7, a hole-in-one" in said
    assert "Hole 1 done in 1 toss: -2" in said
    # Ann's welcome says nothing of it: the hole is Bob's own until it closes.
    assert "2 and 5" not in body(table.mails(PLAYERS[0])[0])
    # Told once: the answer to Bob's first mail does not tell it again.
    got = table.order(PLAYERS[1], "POLICY BEST", game="dg")
    assert kinds(got) == ["ack"] and "2 and 5" not in body(got[0])


def test_a_hole_in_one_later_in_the_game_is_told_with_its_dice_and_score(table):
    """Whichever hole it falls on, a hole-in-one the GM enters at once is told as one."""
    new_game(table, 1, seed=8)
    got = table.order(PLAYERS[0], "POLICY BEST", game="dg")
    sheet = table.show("dg")["sheets"][PLAYERS[0]]
    aces = [h for h, hole in enumerate(sheet, start=1) if hole["score"] == -2]
    said = " ".join(" ".join(body(m).split()) for m in got)
    told = re.findall(r"Hole (\d), toss 1: (\d) and (\d): (\d+) reaches the flag \d+, a hole-in-one", said)
    welcome = " ".join(body(table.mails(PLAYERS[0])[0]).split())
    told += re.findall(r"Hole (\d), toss 1: (\d) and (\d): (\d+) reaches the flag \d+, a hole-in-one", welcome)
    assert aces, "seed 8 makes a hole-in-one"
    assert sorted(int(h) for h, *_ in told) == aces
    for h, a, b, total in told:
        assert sheet[int(h) - 1]["tosses"][0] == {"dice": [int(a), int(b)], "entry": int(total)}
        assert f"Hole {h} done in 1 toss: -2" in said + welcome
