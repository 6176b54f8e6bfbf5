"""A digest day (CONTRACT section 14): SET DIGEST, the mail that asks nothing held, the mail
that asks something sent at once, one digest at the reader's time of day with its items in the
order they happened; OFF sends what waits as a last digest; the List-Unsubscribe mailto."""
from __future__ import annotations

import email.utils
import sqlite3
import urllib.parse

from conftest import BILL, GEORGE, body, follow, kinds, too_wide

FAN = "fan@example.test"
CAROL, DAVE = "carol@example.test", "dave@example.test"
COURSE = "445 345 434 543 434 454"
TURN = {GEORGE: ["PLAY 3 5 4", "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 4"],
        BILL: ["PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3", "PLAY 3 5 4\nSPECIAL BLUE-1 HOLE 5"]}


def play(table, game: str, players: tuple[str, str], turn: int, now: str) -> None:
    for player, script in zip(players, (GEORGE, BILL)):
        table.send(player, TURN[script][turn], subject=f"Re: [{game}] orders", to=table.reply_to_game(player, game))
    table.pbem("process", now=now)


def flat(m) -> str:
    return " ".join(body(m).split())


def reply_address(m) -> str:
    return email.utils.parseaddr(m["Reply-To"])[1]


def mailto(m) -> tuple[str, str]:
    uri = m["List-Unsubscribe"].strip()
    assert uri.startswith("<mailto:") and uri.endswith(">"), uri
    parts = urllib.parse.urlsplit(uri[1:-1])
    query = urllib.parse.parse_qs(parts.query)
    assert set(query) == {"subject"}, query
    return urllib.parse.unquote(parts.path), query["subject"][0]


def waiting(table) -> list[tuple[str, str]]:
    """(address, subject) of every item that waits for a digest."""
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return list(conn.execute("SELECT address, subject FROM digest_items WHERE carried IS NULL ORDER BY id"))
    finally:
        conn.close()


def two_games_and_a_fan(table) -> str:
    table.new_match("m1")
    table.pbem("new-game", "matchplay", "--player", f"Carol <{CAROL}>", "--player", f"Dave <{DAVE}>",
               "--course", COURSE, "--id", "m2")
    return follow(table, FAN, "m2")


def test_a_digest_day(table):
    fan_token = two_games_and_a_fan(table)
    table.new_mails(GEORGE)
    table.send(GEORGE, "SET DIGEST DAILY 18:00\nSET TIMEZONE Europe/Paris", subject="Re: [m1] welcome",
               to=table.reply_to(GEORGE))
    table.pbem("process", now="2026-12-02T08:00:00Z")
    ack, = table.new_mails(GEORGE)
    assert ack["X-PBEM-Kind"] == "ack" and "(with digest)" in ack["Subject"]
    assert "at 18:00 in your time zone (Europe/Paris)" in flat(ack) and "Your next digest: 2026-12-02 18:00 CET (17:00 UTC)" \
        in flat(ack)
    table.send(FAN, "SET DIGEST DAILY", subject="Re: [m2] Report", to=fan_token)  # from a spectator: its token
    table.pbem("process", now="2026-12-02T08:05:00Z")
    fan_ack, = table.new_mails(FAN)
    assert fan_ack["Subject"] == "Digest daily at 18:00" and "2026-12-02 18:00 UTC" in flat(fan_ack)

    play(table, "m2", (CAROL, DAVE), 0, "2026-12-02T09:00:00Z")
    play(table, "m1", (GEORGE, BILL), 0, "2026-12-02T10:00:00Z")
    # George owes the next turn: the report that opens it asks something of him, and comes at once.
    assert kinds(table.new_mails(GEORGE)) == ["ack", "report"]
    play(table, "m2", (CAROL, DAVE), 1, "2026-12-02T11:00:00Z")
    table.send(BILL, "RESIGN", subject="Re: [m1] orders", to=table.reply_to(BILL))
    table.pbem("process", now="2026-12-02T12:00:00Z")
    assert table.new_mails(FAN) == [] and table.new_mails(GEORGE) == []  # all of it waits
    assert [a for a, _ in waiting(table)] == [FAN, FAN, GEORGE]
    assert kinds(table.new_mails(CAROL))[-1] == "report"  # the players' own mail goes on

    table.pbem("process", now="2026-12-02T16:59:00Z")
    assert table.new_mails(GEORGE) == []
    table.pbem("process", now="2026-12-02T17:00:00Z")  # 18:00 in Paris
    digest, = table.new_mails(GEORGE)
    assert table.new_mails(FAN) == []  # the fan's is at 18:00 UTC
    assert digest["X-PBEM-Kind"] == "digest" and digest["Subject"] == "Your digest of 2026-12-02: 1 mail"
    assert digest["List-Id"] == "Daily digest <digest.example.test>"
    assert digest["Auto-Submitted"] == "auto-generated" and digest["In-Reply-To"] is None
    address, subject = mailto(digest)
    assert subject == "SET DIGEST OFF" and address == reply_address(digest)
    text = body(digest)
    assert "== [m1] Result: George wins by resignation" in text and "Mail 1 of 1, written 2026-12-02 13:00 CET" \
        in text and "Result: George wins by resignation" in text and too_wide(text) == []
    assert digest.get_body(preferencelist=("html",)) is not None

    table.pbem("process", now="2026-12-02T18:00:00Z")
    fan_digest, = table.new_mails(FAN)
    text = body(fan_digest)
    assert fan_digest["Subject"] == "Your digest of 2026-12-02: 2 mails" and too_wide(text) == []
    first, second = text.index("Mail 1 of 2, written 2026-12-02 09:00 UTC"), text.index("Mail 2 of 2")
    assert first < text.index("Turn 1 is played") < second < text.index("Turn 2 is played")  # in their order
    assert "a reply to this digest with that line does it too" in " ".join(text.split())
    assert "Hello" not in text.split("Mail 1 of 2")[1]  # each item without its own greeting
    assert waiting(table) == []
    table.pbem("process", now="2026-12-02T18:30:00Z")
    table.pbem("process", now="2026-12-03T18:00:00Z")
    assert table.new_mails(FAN) == [] and table.new_mails(GEORGE) == []  # each item once, no empty digest


def test_off_sends_what_waits_at_once_as_a_last_digest(table):
    fan_token = two_games_and_a_fan(table)
    table.send(FAN, "SET DIGEST DAILY 07:30", subject="digest", to=fan_token)
    table.pbem("process", now="2026-12-02T08:00:00Z")
    ack, = table.new_mails(FAN)
    assert "2026-12-03 07:30 UTC" in flat(ack)
    play(table, "m2", (CAROL, DAVE), 0, "2026-12-02T09:00:00Z")
    assert table.new_mails(FAN) == []
    table.send(FAN, "SET DIGEST OFF", subject="Re: Digest", to=reply_address(ack))
    table.pbem("process", now="2026-12-02T10:00:00Z")
    last, answer = table.new_mails(FAN)
    assert last["X-PBEM-Kind"] == "digest" and last["Subject"] == "Your last digest: 1 mail"
    assert "Turn 1 is played" in body(last) and "Your digest is off" in flat(last)
    assert answer["Subject"] == "Digest off" and "(1 mail) comes now, in one last digest" in flat(answer)
    play(table, "m2", (CAROL, DAVE), 1, "2026-12-02T11:00:00Z")
    report, = table.new_mails(FAN)  # one by one again
    assert report["X-PBEM-Kind"] == "report" and waiting(table) == []


def test_the_unsubscribe_mailto_mailed_as_it_is_turns_the_digest_off(table):
    fan_token = two_games_and_a_fan(table)
    table.send(FAN, "SET DIGEST DAILY", subject="digest", to=fan_token)
    table.pbem("process", now="2026-12-02T08:00:00Z")
    table.new_mails(FAN)
    play(table, "m2", (CAROL, DAVE), 0, "2026-12-02T09:00:00Z")
    table.pbem("process", now="2026-12-02T18:00:00Z")
    digest, = table.new_mails(FAN)
    address, subject = mailto(digest)
    table.send(FAN, "", subject=subject, to=address)  # what a mail program's button sends
    table.pbem("process", now="2026-12-02T19:00:00Z")
    answer, = table.new_mails(FAN)
    assert answer["X-PBEM-Kind"] == "ack" and answer["Subject"] == "Digest off"
    assert answer["List-Unsubscribe"] is None and "every mail comes to you at once" in flat(answer)
    play(table, "m2", (CAROL, DAVE), 1, "2026-12-02T20:00:00Z")
    assert kinds(table.new_mails(FAN)) == ["report"]
    # A second click, by a mail program that writes words of its own in the text.
    table.send(FAN, "This message was sent by the unsubscribe button.", subject=subject, to=address)
    table.pbem("process", now="2026-12-02T21:00:00Z")
    again, = table.new_mails(FAN)
    assert "was off already" in flat(again)
