"""SET REMINDERS (CONTRACT section 14): when before each deadline a player who owes orders is
reminded, for all their games; driven by PBEM_NOW."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import BILL, GEORGE, GM, body, kinds, too_wide

from pbem.clock import reminders as reminder_times
from pbem.store import Store

START = "2026-12-01T18:00:00Z"  # a 48h deadline: 2026-12-03 18:00 UTC
DEFAULT = (timedelta(hours=12),)


def new_match(table, game_id="m1", now=START, deadline="48h"):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", game_id, "--deadline", deadline, now=now)


def reminders_at(table, now: str, who: str = BILL) -> int:
    table.new_mails(who)
    table.pbem("process", now=now)
    return kinds(table.new_mails(who)).count("reminder")


def test_three_reminders_at_24h_4h_and_1h_before_a_48h_deadline(table):
    new_match(table)
    ack = table.order(BILL, "SET REMINDERS 24h 4h 1h", now=START)
    assert kinds(ack) == ["ack"] and ack[0]["Subject"] == "[m1] Reminders set: 24h, 4h and 1h before each deadline"
    text = body(ack[0])
    for at in ("2026-12-02 18:00 UTC", "2026-12-03 14:00 UTC", "2026-12-03 17:00 UTC"):
        assert f"    {at}" in text
    assert not too_wide(text)
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-01T19:00:00Z")
    assert reminders_at(table, "2026-12-02T17:59:00Z") == 0
    assert reminders_at(table, "2026-12-02T18:00:00Z") == 1
    assert reminders_at(table, "2026-12-02T18:30:00Z") == 0
    assert reminders_at(table, "2026-12-03T13:59:00Z") == 0
    assert reminders_at(table, "2026-12-03T14:00:00Z") == 1
    assert reminders_at(table, "2026-12-03T16:59:00Z") == 0
    assert reminders_at(table, "2026-12-03T17:00:00Z") == 1
    assert reminders_at(table, "2026-12-03T17:30:00Z") == 0
    # George's orders are in, and he set no times of his own: no reminder at all for him.
    assert "reminder" not in kinds(table.mails(GEORGE))


def test_moments_passed_while_pbem_was_away_make_one_mail_and_a_later_one_still_comes(table):
    new_match(table)
    table.order(BILL, "SET REMINDERS 24h 4h 1h", now=START)
    assert reminders_at(table, "2026-12-03T16:00:00Z") == 1  # 24h and 4h both passed: one mail
    assert reminders_at(table, "2026-12-03T16:30:00Z") == 0
    assert reminders_at(table, "2026-12-03T17:00:00Z") == 1  # the 1h one, on time


def test_the_daemon_wakes_for_each_reminder_moment(table):
    new_match(table)
    table.order(BILL, "SET REMINDERS 24h 4h 1h", now=START)
    store = Store(table.root / "pbem.sqlite3")
    try:
        at = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
        # George has the default (12h), Bill his own; the next is Bill's 24h one.
        assert reminder_times.next_moment(store, at, DEFAULT) == datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    finally:
        store.close()
    table.pbem("process", now="2026-12-02T18:00:00Z")
    store = Store(table.root / "pbem.sqlite3")
    try:
        at = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
        assert reminder_times.next_moment(store, at, DEFAULT) == datetime(2026, 12, 3, 6, 0, tzinfo=UTC)
        assert reminder_times.games_due(store, at, DEFAULT) == []
    finally:
        store.close()


def test_off_means_no_reminder(table):
    new_match(table)
    ack = table.order(BILL, "set reminders off", now=START)
    assert ack[0]["Subject"] == "[m1] Reminders off" and "SET REMINDERS 24h 4h 1h" in body(ack[0])
    for now in ("2026-12-03T06:00:00Z", "2026-12-03T12:00:00Z", "2026-12-03T17:59:00Z"):
        assert reminders_at(table, now) == 0
    assert reminders_at(table, "2026-12-03T06:00:00Z", GEORGE) == 0  # George was reminded at 06:00
    assert kinds(table.mails(GEORGE)).count("reminder") == 1


def test_times_out_of_bounds_are_refused_with_the_rule_and_change_nothing(table):
    new_match(table)
    for line, why in (("SET REMINDERS 24h 12h 4h 1h", "4 times given"), ("SET REMINDERS 10m", '"10m" is too short'),
                      ("SET REMINDERS 8d", '"8d" is too long'), ("SET REMINDERS soon", '"soon" is not a duration'),
                      ("SET REMINDERS", "no times given")):
        got = table.order(BILL, line, now=START)
        assert kinds(got) == ["error"], line
        text = " ".join(body(got[0]).split())
        assert f"Line 1: {line}" in text and why in text, text
        assert "each from 30m to 7d" in text and "SET REMINDERS 24h 4h 1h" in text, text
    # The default still stands: one reminder, 12 h before.
    assert reminders_at(table, "2026-12-03T05:59:00Z") == 0
    assert reminders_at(table, "2026-12-03T06:00:00Z") == 1


def test_the_times_are_the_addresses_for_all_its_games(table):
    new_match(table, "m1")
    new_match(table, "m2", deadline="72h")  # 2026-12-04 18:00
    ack = table.order(BILL, "SET REMINDERS 2h", game="m1", now=START)
    assert "in all your 2 games here" in " ".join(body(ack[0]).split())
    table.new_mails(BILL)
    table.pbem("process", now="2026-12-03T06:00:00Z")  # the default 12 h is no longer Bill's
    assert kinds(table.new_mails(BILL)) == []
    table.pbem("process", now="2026-12-03T16:00:00Z")
    got = table.new_mails(BILL)
    assert [(m["X-PBEM-Kind"], m["X-PBEM-Game"]) for m in got] == [("reminder", "m1")]
    table.pbem("process", now="2026-12-04T16:00:00Z")  # m1's deadline has passed too: its report
    got = [m for m in table.new_mails(BILL) if m["X-PBEM-Kind"] == "reminder"]
    assert [m["X-PBEM-Game"] for m in got] == ["m2"]


def test_a_moved_deadline_has_reminders_of_its_own(table):
    new_match(table)
    table.order(BILL, "SET REMINDERS 1h", now=START)
    assert reminders_at(table, "2026-12-03T17:00:00Z") == 1
    table.pbem("gm", "EXTEND", "m1", "24h", now="2026-12-03T17:10:00Z")
    assert reminders_at(table, "2026-12-04T16:59:00Z") == 0
    assert reminders_at(table, "2026-12-04T17:00:00Z") == 1


def test_a_reminder_states_the_deadline_in_the_readers_zone(table):
    new_match(table)
    table.order(BILL, "SET TIMEZONE Europe/Paris\nSET REMINDERS 4h", now=START)
    table.new_mails(BILL)
    table.pbem("process", now="2026-12-03T14:00:00Z")
    got = table.new_mails(BILL)
    assert kinds(got) == ["reminder"] and "2026-12-03 19:00 CET (18:00 UTC)" in body(got[0])


# -- the command as everyday mail clients write it ---------------------------------------------

def _reply(table, who: str, content_type: str, text: str, mailer: str) -> bytes:
    welcome = next(m for m in table.mails(who) if m["X-PBEM-Kind"] == "welcome")
    reply_to = welcome["Reply-To"].split("<")[-1].rstrip(">")
    head = (f"From: Bill <{who}>\r\nTo: {reply_to}\r\nSubject: Re: {welcome['Subject']}\r\n"
            f"Date: Tue, 01 Dec 2026 18:05:00 +0000\r\nMessage-ID: <r{abs(hash(mailer))}@player.test>\r\n"
            f"In-Reply-To: {welcome['Message-ID']}\r\nReferences: {welcome['Message-ID']}\r\nMIME-Version: 1.0\r\n"
            f"{mailer}\r\nContent-Type: {content_type}\r\nContent-Transfer-Encoding: 7bit\r\n\r\n")
    quoted = "\r\n".join(f"> {line}" if line else ">" for line in body(welcome).splitlines())
    return (head + text.replace("%%QUOTED%%", quoted).replace("%%ORIGINAL%%", body(welcome).replace("\n", "\r\n"))
            ).encode("utf-8")


CLIENTS = {
    # Thunderbird, format=flowed: the line broken at a soft break (a space before the line end).
    "thunderbird": ("text/plain; charset=UTF-8; format=flowed", "User-Agent: Mozilla Thunderbird",
                    "Set reminders: 24h, \r\n4h and 1h.\r\n\r\nCheers,\r\nBill\r\n\r\n"
                    "On 01/12/2026 18:00, Golf GM wrote:\r\n%%QUOTED%%\r\n"),
    # Outlook: the original below a header block, unquoted.
    "outlook": ('text/plain; charset="us-ascii"', "X-Mailer: Microsoft Outlook 16.0",
                "SET REMINDERS 24h 4h 1h\r\n\r\nRegards,\r\nBill Baker\r\n\r\n-----Original Message-----\r\n"
                f"From: Golf GM <{GM}> \r\nSent: Tuesday, December 1, 2026 6:00 PM\r\nTo: Bill <{BILL}>\r\n"
                "Subject: welcome\r\n\r\n%%ORIGINAL%%\r\n"),
    # An iPhone: the name under the line, the phone's footer, the quote below.
    "iphone": ("text/plain; charset=us-ascii", "X-Mailer: iPhone Mail (22B91)",
               "SET REMINDERS 24h 4h 1h\r\nBill\r\n\r\nSent from my iPhone\r\n\r\n"
               f"> On 1 Dec 2026, at 18:00, Golf GM <{GM}> wrote:\r\n> \r\n%%QUOTED%%\r\n"),
}


def test_set_reminders_in_a_reply_from_thunderbird_outlook_and_an_iphone(table):
    new_match(table)
    for name, (content_type, mailer, text) in CLIENTS.items():
        table.pbem("process", now=START)
        table.new_mails(BILL)
        table.send(BILL, raw=_reply(table, BILL, content_type, text, mailer))
        table.pbem("process", now=START)
        got = table.new_mails(BILL)
        assert kinds(got) == ["ack"], (name, [body(m) for m in got])
        assert got[0]["Subject"] == "[m1] Reminders set: 24h, 4h and 1h before each deadline", name


ALICE, BRUNO = "alice@example.test", "bruno@example.test"


def test_set_reminders_in_reply_to_a_league_welcome_holds_for_the_league_games(table):
    """Before round 1 there is no game to reply to: the league's welcome takes SET REMINDERS
    (from every client as the game's mail does), and the times hold for the games it makes."""
    table.new_cup({"Alice": ALICE, "Bruno": BRUNO})
    for name, (content_type, mailer, text) in CLIENTS.items():
        table.new_mails(ALICE)
        table.send(ALICE, raw=_reply(table, ALICE, content_type, text, mailer))
        table.pbem("process", now="2026-12-06T11:00:00Z")
        got = table.new_mails(ALICE)
        assert kinds(got) == ["ack"], (name, [body(m) for m in got])
        assert got[0]["Subject"] == "[cup] Reminders set: 24h, 4h and 1h before each deadline", name
        text = body(got[0])
        assert "Hello Alice," in text and "in all your games here" in " ".join(text.split()), text
        assert "is not for the league" not in text and not too_wide(text)
    table.pbem("process", now="2026-12-07T18:00:00Z")  # round 1 opens: deadline 2026-12-09 18:00 UTC
    assert "welcome" in kinds(table.new_mails(ALICE))
    assert reminders_at(table, "2026-12-08T17:59:00Z", ALICE) == 0
    assert reminders_at(table, "2026-12-08T18:00:00Z", ALICE) == 1  # 24h before
    assert reminders_at(table, "2026-12-09T06:00:00Z", ALICE) == 0  # the GM's 12h is not hers
    assert reminders_at(table, "2026-12-09T14:00:00Z", ALICE) == 1  # 4h
    assert reminders_at(table, "2026-12-09T17:00:00Z", ALICE) == 1  # 1h
    # Bruno set none: the GM's own default stands for him.
    assert reminders_at(table, "2026-12-08T18:00:00Z", BRUNO) == 0


def test_set_reminders_off_in_reply_to_a_league_welcome_and_a_wrong_time_changes_nothing(table):
    table.new_cup({"Alice": ALICE, "Bruno": BRUNO})
    welcome, = table.new_mails(ALICE)
    table.send(ALICE, "SET REMINDERS 10d", subject=f"Re: {welcome['Subject']}", to=table.reply_to(ALICE))
    table.pbem("process", now="2026-12-06T11:00:00Z")
    error, = table.new_mails(ALICE)
    assert error["X-PBEM-Kind"] == "error" and "SET REMINDERS 24h 4h 1h" in body(error), body(error)
    assert reminder_times.times_of(Store(table.root / "pbem.sqlite3"), ALICE, DEFAULT) == DEFAULT  # unchanged
    table.send(ALICE, "SET REMINDERS OFF", subject=f"Re: {welcome['Subject']}", to=table.reply_to(ALICE))
    table.pbem("process", now="2026-12-06T12:00:00Z")
    ack, = table.new_mails(ALICE)
    assert ack["Subject"] == "[cup] Reminders off", body(ack)
    table.pbem("process", now="2026-12-07T18:00:00Z")
    table.new_mails(ALICE)
    assert reminders_at(table, "2026-12-09T06:00:00Z", ALICE) == 0  # not even the GM's 12h
    assert kinds(table.mails(BRUNO)).count("reminder") == 1  # Bruno's, at the GM's 12h
