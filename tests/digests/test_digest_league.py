"""A league's mail in a digest (CONTRACT section 14): the result of a player's league game and
the league's standings ask nothing of the player and wait for their digest, in that order; the
welcome of the round that opens never waits."""
from __future__ import annotations

from conftest import body, kinds

ALICE, BRUNO = "alice@example.test", "bruno@example.test"


def test_a_league_result_and_its_standings_wait_for_the_digest_in_their_order(table):
    table.new_cup({"Alice": ALICE, "Bruno": BRUNO})
    table.pbem("process", now="2026-12-07T18:00:00Z")
    game = next(m["X-PBEM-Game"] for m in table.mails(ALICE) if m["X-PBEM-Game"])
    opponent = BRUNO
    table.send(ALICE, "SET DIGEST DAILY 09:00", subject=f"Re: [{game}] welcome", to=table.reply_to_game(ALICE, game))
    table.pbem("process", now="2026-12-07T19:00:00Z")
    table.new_mails(ALICE)
    table.send(opponent, "RESIGN", subject=f"Re: [{game}] orders", to=table.reply_to_game(opponent, game))
    table.pbem("process", now="2026-12-07T20:00:00Z")
    table.pbem("process", now="2026-12-07T21:00:00Z")
    assert table.new_mails(ALICE) == []  # the result and whatever the league says wait
    table.pbem("process", now="2026-12-08T09:00:00Z")
    mails = table.new_mails(ALICE)
    assert kinds(mails) == ["digest"], kinds(mails)
    text = body(mails[0])
    assert f"== [{game}] Result:" in text and "Mail 2 of 2" in text
    assert text.index(f"== [{game}] Result:") < text.index("== [cup]")  # the season's standings after it
    assert kinds(table.mails(BRUNO))[-1] == "standings"  # Bruno has no digest: his came at once


def test_a_reply_to_the_league_welcome_sets_the_digest(table):
    table.new_cup({"Alice": ALICE, "Bruno": BRUNO})
    welcome, = table.new_mails(ALICE)
    table.send(ALICE, "Set digest: daily 07:00.\n\nCheers,\nAlice", subject=f"Re: {welcome['Subject']}",
               to=table.reply_to(ALICE))
    table.pbem("process", now="2026-12-06T11:00:00Z")
    ack, = table.new_mails(ALICE)
    assert ack["X-PBEM-Kind"] == "ack" and ack["Subject"] == "[cup] Digest daily at 07:00", body(ack)
    assert "Hello Alice," in body(ack) and "2026-12-07 07:00 UTC" in " ".join(body(ack).split())
    table.send(ALICE, "SET DIGEST WEEKLY", subject=f"Re: {welcome['Subject']}", to=table.reply_to(ALICE))
    table.pbem("process", now="2026-12-06T12:00:00Z")
    error, = table.new_mails(ALICE)
    assert error["X-PBEM-Kind"] == "error" and "SET DIGEST DAILY 18:00" in body(error)
