"""Every deadline a mail states is the one the store holds (issue 18, item 5): a league player's
absence moves a deadline before any mail states it, whether the turn resolved by orders, by the
GM's PROCESS or by a round opening, and the welcome, ack, turn, report, reminder, status and
notice all say what `pbem show --json` and `pbem list` say."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from conftest import body, kinds

ALICE, BRUNO, CHLOE = "alice@example.test", "bruno@example.test", "chloe@example.test"
ADMIN = "boss@example.test"
START = "2026-12-07T18:00:00Z"
DUE = re.compile(r"(?:due by|deadline is|deadline:) ?(\d{4}-\d\d-\d\d \d\d:\d\d UTC)", re.IGNORECASE)


def league(table, players=(("Alice", ALICE), ("Bruno", BRUNO)), game="matchplay", fmt="round-robin"):
    text = (table.root / "pbem.yaml").read_text().replace(
        "  name: Golf GM\n", f"  name: Golf GM\n  admins: [{ADMIN}]\n  secret: gm-secret-0123456789\n")
    (table.root / "pbem.yaml").write_text(text)
    lines = ["id: cup", "name: Winter Cup", f"game: {game}", "course: parkland", "players:"]
    lines += [f"  - {name} <{address}>" for name, address in players]
    lines += [f"start: {START}", "round_length: 7d", "deadline: 48h", f"format: {fmt}"]
    lines += ["table_size: 2", "rounds: 1"] if fmt == "tables" else []
    path = table.root / "league.yaml"
    path.write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(path), now="2026-12-06T18:00:00Z")
    table.pbem("process", now="2026-12-07T18:00:00Z")


def mailed(msg) -> set[str]:
    """The deadlines a mail states, in the form `2026-12-13 00:00 UTC`."""
    return set(DUE.findall(" ".join(body(msg).split()) + " " + msg["Subject"]))


def stored(table, game_id) -> str:
    """The deadline of the store, as `pbem show --json` has it and as a mail writes it."""
    shown = table.show(game_id)["deadline"]
    listed = next(g for g in json.loads(table.pbem("list", "--json")[1]) if g["id"] == game_id)
    assert listed["deadline"] == shown
    moment = datetime.fromisoformat(shown.replace("Z", "+00:00")).astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def send(table, sender, game_id, text, now):
    table.send(sender, text, subject=f"Re: [{game_id}] orders", to=table.reply_to_game(sender, game_id))
    table.pbem("process", now=now)


def orders(table, game_id, seat):
    from pbem.games.matchplay import random_orders
    import random
    t = table.load(game_id)
    return str(random_orders(t.state, seat, random.Random(seat)))


def test_a_turn_that_resolves_inside_an_absence_mails_the_moved_deadline(table):
    league(table)
    game = "cup-r1-1"
    for address in (ALICE, BRUNO):
        welcome = [m for m in table.new_mails(address) if m["X-PBEM-Game"] == game]
        assert kinds(welcome) == ["welcome"] and mailed(welcome[0]) == {stored(table, game)}
    send(table, ALICE, game, "SET ABSENCE 2026-12-10 TO 2026-12-14", now="2026-12-08T10:00:00Z")
    assert table.show(game)["deadline"] == "2026-12-09T18:00:00Z"  # not inside: not moved
    table.new_mails(ALICE)
    send(table, ALICE, game, orders(table, game, 0), now="2026-12-08T20:00:00Z")
    send(table, BRUNO, game, orders(table, game, 1), now="2026-12-08T20:00:00Z")
    # The turn resolved at 20:00; its 48 h end inside Alice's absence, so the deadline is its end.
    assert table.show(game)["turn"] == 2 and stored(table, game) == "2026-12-15 00:00 UTC"
    for address in (ALICE, BRUNO):
        report = [m for m in table.new_mails(address) if m["X-PBEM-Kind"] == "report"][-1]
        assert mailed(report) == {"2026-12-15 00:00 UTC"}, body(report)
    table.pbem("process", now="2026-12-08T21:00:00Z")  # the league's pass moves nothing more
    assert stored(table, game) == "2026-12-15 00:00 UTC"
    send(table, BRUNO, game, orders(table, game, 1), now="2026-12-09T10:00:00Z")
    ack = table.new_mails(BRUNO)
    assert kinds(ack) == ["ack"] and mailed(ack[0]) == {"2026-12-15 00:00 UTC"}
    send(table, ALICE, game, "STATUS", now="2026-12-09T11:00:00Z")
    status = table.new_mails(ALICE)
    assert kinds(status) == ["status"] and mailed(status[0]) == {"2026-12-15 00:00 UTC"}
    table.pbem("process", now="2026-12-14T13:00:00Z")  # 11 h before: Alice's reminder
    reminder = table.new_mails(ALICE)
    assert kinds(reminder) == ["reminder"] and mailed(reminder[0]) == {"2026-12-15 00:00 UTC"}


def test_a_turn_the_gm_closes_inside_an_absence_mails_the_moved_deadline(table):
    league(table)
    game = "cup-r1-1"
    send(table, BRUNO, game, "SET ABSENCE 2026-12-08 TO 2026-12-12", now="2026-12-07T19:00:00Z")
    assert stored(table, game) == "2026-12-13 00:00 UTC"  # the welcome's deadline was inside
    table.new_mails(ALICE), table.new_mails(BRUNO)
    table.pbem("gm", "PROCESS", game, now="2026-12-09T12:00:00Z")
    assert table.show(game)["turn"] == 2 and stored(table, game) == "2026-12-13 00:00 UTC"
    for address in (ALICE, BRUNO):
        got = table.new_mails(address)
        assert kinds(got) == ["notice", "report"]
        assert mailed(got[0]) == set()  # the notice of a turn closed now states no old deadline
        assert mailed(got[1]) == {"2026-12-13 00:00 UTC"}, body(got[1])


def test_a_deadline_the_gm_sets_inside_an_absence_is_mailed_as_it_is_stored(table):
    league(table)
    game = "cup-r1-1"
    send(table, BRUNO, game, "SET ABSENCE 2026-12-10 TO 2026-12-14", now="2026-12-07T19:00:00Z")
    table.new_mails(ALICE)
    _, out, _ = table.pbem("gm", "DEADLINE", game, "2026-12-11T12:00:00Z", now="2026-12-08T12:00:00Z")
    assert stored(table, game) == "2026-12-15 00:00 UTC"
    assert "2026-12-15T00:00:00Z (2026-12-11T12:00:00Z asked for, but it falls inside a player's absence" in out
    notice = table.new_mails(ALICE)
    assert kinds(notice) == ["notice"] and mailed(notice[0]) == {"2026-12-15 00:00 UTC"}, body(notice[0])
    table.pbem("gm", "PAUSE", game, now="2026-12-08T13:00:00Z")
    table.pbem("gm", "DEADLINE", game, "24h", now="2026-12-09T00:00:00Z")  # the time left, while paused
    paused = table.new_mails(ALICE)
    assert [mailed(m) for m in paused] == [set(), set()]  # no deadline runs while the clock is stopped
    assert "turn 1 has 1d left for orders" in " ".join(body(paused[-1]).split())
    table.pbem("gm", "RESUME", game, now="2026-12-10T00:00:00Z")  # 1 d left: into the absence
    assert stored(table, game) == "2026-12-15 00:00 UTC"
    resumed = table.new_mails(ALICE)
    assert kinds(resumed) == ["notice"] and mailed(resumed[0]) == {"2026-12-15 00:00 UTC"}, body(resumed[0])


def test_a_round_that_opens_inside_an_absence_welcomes_with_the_moved_deadline(table):
    league(table, players=(("Alice", ALICE), ("Bruno", BRUNO), ("Chloe", CHLOE)))
    rounds = json.loads(table.pbem("league", "show", "cup", "--json")[1])["rounds"]
    # The one who plays both of the first two rounds is away when the second opens.
    first, second = ({p for g in r["games"] for p in g["players"]} for r in rounds[:2])
    away = sorted(first & second)[0]
    game = next(g["id"] for g in rounds[0]["games"] if away in g["players"])
    send(table, away, game, "SET ABSENCE 2026-12-14 TO 2026-12-18", now="2026-12-08T10:00:00Z")
    table.new_mails(away)
    table.pbem("process", now="2026-12-14T18:00:00Z")  # round 2 opens while they are away
    welcomes = [m for m in table.new_mails(away) if m["X-PBEM-Kind"] == "welcome"]
    assert len(welcomes) == 1
    game = welcomes[0]["X-PBEM-Game"]
    assert stored(table, game) == "2026-12-19 00:00 UTC"
    assert mailed(welcomes[0]) == {"2026-12-19 00:00 UTC"}, body(welcomes[0])


def test_a_card_games_turn_mail_inside_an_absence_states_the_moved_deadline(table):
    league(table, game="golf", fmt="tables")
    game = "cup-r1-1"
    shown = table.show(game)
    first = shown["to_move"][0]
    other = next(p["address"] for p in shown["players"] if p["address"] != first)
    send(table, other, game, "SET ABSENCE 2026-12-10 TO 2026-12-14", now="2026-12-07T19:00:00Z")
    table.new_mails(other)
    send(table, first, game, "DRAW STOCK IF <= 13 KEEP 1 ELSE DISCARD", now="2026-12-09T12:00:00Z")
    turn = [m for m in table.new_mails(other) if m["X-PBEM-Kind"] == "turn"]
    assert len(turn) == 1 and stored(table, game) == "2026-12-15 00:00 UTC"
    assert mailed(turn[0]) == {"2026-12-15 00:00 UTC"}, body(turn[0])
