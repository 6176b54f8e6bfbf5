"""A forged OBSERVE: what one line in a stranger's mail, written in a victim's name, can make pbem
send the victim (one confirmation at most, never a spectator's copy), and what a stream of them
can make it send (no more than `limits.strangers_per_hour` answers, and not one subscription)."""
from __future__ import annotations

import email.utils
import importlib
import random
from datetime import UTC, datetime, timedelta

from conftest import body, kinds

from pbem.store import Store

VICTIM = "victim@example.test"
START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri"]
ADDRESSES = [f"{n.lower()}@example.test" for n in NAMES]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def forge(table, victim: str, line: str, now: str | None = None) -> None:
    """A stranger writes `line` with the victim's address in the From, and one pass runs."""
    table.send(victim, line, subject="hello")
    table.pbem("process", now=now)


def observers(table) -> list[tuple]:
    """Every subscription in the store, whatever it is to."""
    store = Store(table.root / "pbem.sqlite3")
    try:
        return store.conn.execute("SELECT target, address FROM observers").fetchall()
    finally:
        store.close()


def play_match(table, game_id: str, rng: random.Random) -> None:
    module = importlib.import_module("pbem.games.matchplay")
    for _ in range(40):
        t = table.load(game_id)
        if t.state.result() is not None:
            return
        for s in sorted(t.state.to_move()):
            address = t.seats[s].address
            table.send(address, str(module.random_orders(t.state, s, rng)), subject=f"Re: [{game_id}] orders",
                       to=table.reply_to_game(address, game_id))
            table.pbem("process")
    raise AssertionError("the match did not end")


def assert_a_confirmation(m, what: str) -> None:
    """The one mail a forged OBSERVE may cause: a short question, carrying a token to answer."""
    text = body(m)
    assert m["X-PBEM-Kind"] == "ack" and m["Subject"].startswith(f"[{what}] Confirm")
    reply_to = email.utils.parseaddr(m["Reply-To"])[1]
    assert reply_to.startswith("gm+") and len(reply_to.split("@")[0]) > len("gm+") + 10
    assert "confirm" in text.lower() and "ignore this mail" in " ".join(text.split())
    assert "hello" not in text  # nothing of the forger's mail comes back
    assert all(len(line) <= 78 for line in text.splitlines()), text


def test_one_forged_observe_of_a_match_makes_one_mail_and_no_spectator(table):
    table.new_match()
    forge(table, VICTIM, "OBSERVE m1")
    got = table.new_mails(VICTIM)
    assert kinds(got) == ["ack"]
    assert_a_confirmation(got[0], "m1")
    assert observers(table) == []
    play_match(table, "m1", random.Random(4))  # the whole match: before, this gave the victim 8 mails
    assert table.show("m1")["status"] == "finished"
    assert table.new_mails(VICTIM) == []


def test_one_forged_observe_of_a_league_season_makes_one_mail(table):
    lines = ["id: cup", "name: Winter Cup", "game: matchplay", "course: parkland", "players:"]
    lines += [f"  - {n} <{a}>" for n, a in zip(NAMES, ADDRESSES)]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h", "format: round-robin"]
    (table.root / "league.yaml").write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(table.root / "league.yaml"), now=iso(START - timedelta(days=1)))
    forge(table, VICTIM, "OBSERVE cup", now=iso(START - timedelta(hours=1)))
    got = table.new_mails(VICTIM)
    assert kinds(got) == ["ack"]
    assert_a_confirmation(got[0], "cup")
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1 opens: two matches
    rng = random.Random(3)
    table.monkeypatch.setenv("PBEM_NOW", iso(START + timedelta(hours=1)))
    for game_id in ("cup-r1-1", "cup-r1-2"):
        play_match(table, game_id, rng)
    table.pbem("process", now=iso(START + timedelta(hours=2)))  # round 1's standings go out
    assert any(m["X-PBEM-Kind"] == "standings" for m in table.mails(ADDRESSES[0]))
    assert table.new_mails(VICTIM) == [] and observers(table) == []


def test_the_same_forged_observe_again_and_again_gets_one_confirmation(table):
    table.new_match()
    for _ in range(5):
        table.send(VICTIM, "OBSERVE m1", subject="hello")
    table.pbem("process")
    assert kinds(table.new_mails(VICTIM)) == ["ack"]  # a confirmation already waits: no second one


def test_a_stream_of_forged_observes_is_bounded_by_the_strangers_limit(table):
    text = (table.root / "pbem.yaml").read_text() + "limits:\n  strangers_per_hour: 5\n"
    (table.root / "pbem.yaml").write_text(text)
    table.new_match()
    victims = [f"v{i}@crowd.test" for i in range(20)]
    for victim in victims:
        table.send(victim, "OBSERVE m1", subject="hello")
    table.pbem("process")
    mails = {v: table.new_mails(v) for v in victims}
    assert sum(len(m) for m in mails.values()) == 5
    assert all(len(m) <= 1 for m in mails.values())
    for got in mails.values():
        for m in got:
            assert_a_confirmation(m, "m1")
    assert observers(table) == []
    play_match(table, "m1", random.Random(1))
    assert all(table.new_mails(v) == [] for v in victims)  # and not one report to any of them
