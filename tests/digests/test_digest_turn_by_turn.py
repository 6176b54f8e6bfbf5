"""Hidden information in a digest (CONTRACT section 14), in a game played turn by turn (golf):
a reader who owes a move gets everything at once, their turn with the news it carries; only the
report of a hole ended while the reader owes nothing waits, and what the digest carries is that
very report, word for word as the same game without digests mailed it to that reader."""
from __future__ import annotations

import random
import sqlite3

from conftest import LocalTable, body, kinds

from pbem.games import golf

ANN, BOB = "ann@example.test", "bob@example.test"
SEATS = [ANN, BOB]


def held(table) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return list(conn.execute("SELECT address, kind, text FROM digest_items ORDER BY id"))
    finally:
        conn.close()


def play(table, digest: bool) -> dict[str, list]:
    """The game played with the same orders at the same times; each reader's mail as it came."""
    table.pbem("new-game", "golf", "--id", "g1", "--player", f"Ann <{ANN}>", "--player", f"Bob <{BOB}>",
               "--seed", "12", "--option", "holes=2", "--deadline", "2d", now="2026-12-01T08:00:00Z")
    for addr in SEATS:
        table.send(addr, "SET DIGEST DAILY 18:00" if digest else "STATUS", subject="Re: [g1] digest",
                   to=table.reply_to(addr))
    table.pbem("process", now="2026-12-01T09:00:00Z")
    got: dict[str, list] = {addr: [] for addr in SEATS}
    for addr in SEATS:
        table.new_mails(addr)
    rng = random.Random(12)
    for n in range(400):
        state = table.load("g1").state
        if state.result() is not None:
            break
        seat = min(state.to_move())
        table.send(SEATS[seat], str(golf.random_orders(state, seat, rng)), subject="Re: [g1] move",
                   to=table.reply_to(SEATS[seat]))
        table.pbem("process", now=f"2026-12-01T{10 + n // 60:02d}:{n % 60:02d}:00Z")
        for addr in SEATS:
            got[addr] += table.new_mails(addr)
    return got


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_turn_by_turn_game_holds_only_the_very_report_of_a_reader_who_owes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain").mkdir()
    (tmp_path / "digest").mkdir()
    plain = play(LocalTable(tmp_path / "plain", monkeypatch), digest=False)
    table = LocalTable(tmp_path / "digest", monkeypatch)
    with_digest = play(table, digest=True)
    items = held(table)
    assert items, "a hole ended while one of them owed nothing"
    for addr in SEATS:
        waited = [words(text) for address, _, text in items if address == addr]
        sent = [m for m in plain[addr]]
        # What came at once, and what waited, is all the reader got without digests, in order,
        # and nothing else; what asks something (their turns, the acks) never waited.
        at_once = [words(body(m)) for m in with_digest[addr]]
        assert sorted(at_once + waited) == sorted(words(body(m)) for m in sent)
        assert set(kinds(with_digest[addr])) >= {"turn", "ack"}
        assert all(m["X-PBEM-Kind"] in ("report", "result") for m in sent if words(body(m)) in waited)
        assert "result" not in kinds(with_digest[addr])  # the game over, nobody owes: it waits
    table.pbem("process", now="2026-12-02T18:00:00Z")
    for addr in SEATS:
        digest, = table.new_mails(addr)
        count = sum(1 for address, *_ in items if address == addr)
        assert digest["X-PBEM-Kind"] == "digest" and f"of {count}, written" in words(body(digest))
