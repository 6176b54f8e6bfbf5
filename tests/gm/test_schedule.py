"""Deadlines, reminders and time zones, driven by PBEM_NOW."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import BILL, GEORGE, body, kinds

from pbem.clock.schedule import format_deadline

START = "2026-12-01T18:00:00Z"


def new_match(table, *extra, now=START, deadline="48h"):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", "--deadline", deadline, *extra, now=now)


def test_the_reminder_goes_out_once_to_who_owes_orders_at_the_right_time(table):
    new_match(table)  # deadline 2026-12-03 18:00, reminders 12 h before
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-02T09:00:00Z")
    table.pbem("process", now="2026-12-03T05:59:00Z")
    assert "reminder" not in kinds(table.mails(BILL))
    table.pbem("process", now="2026-12-03T06:00:00Z")
    reminders = [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "reminder"]
    assert len(reminders) == 1
    assert "2026-12-03 18:00 UTC" in body(reminders[0]) and "turn 1" in body(reminders[0])
    assert reminders[0]["Auto-Submitted"] == "auto-generated"
    assert "reminder" not in kinds(table.mails(GEORGE))  # George's orders are in
    table.pbem("process", now="2026-12-03T07:00:00Z")
    table.pbem("process", now="2026-12-03T17:00:00Z")
    assert kinds(table.mails(BILL)).count("reminder") == 1


def test_a_deadline_with_one_player_silent_resolves_by_the_policy_and_the_next_turn_gets_its_reminder(table):
    new_match(table)
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-02T09:00:00Z")
    table.pbem("process", now="2026-12-03T18:00:01Z")
    report = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "report"][-1]
    assert "Bill sent no orders by the deadline (autoplay)" in body(report)
    assert table.show()["deadline"] == "2026-12-05T18:00:01Z"
    table.pbem("process", now="2026-12-05T06:00:01Z")
    # Both owe turn 2; the turn-1 reminder time was passed over, so it never went out late.
    assert kinds(table.mails(GEORGE)).count("reminder") == 1 and kinds(table.mails(BILL)).count("reminder") == 1


def test_wait_policy_has_no_deadline(table):
    new_match(table, "--option", "nmr=wait")
    assert table.show()["deadline"] is None
    table.pbem("process", now="2027-06-01T00:00:00Z")
    assert table.show()["turn"] == 1 and "reminder" not in kinds(table.mails(BILL))


def test_a_player_sees_deadlines_in_their_time_zone_and_in_utc(table):
    new_match(table)
    acks = table.order(BILL, "SET TIMEZONE europe/paris", now=START)
    assert kinds(acks) == ["ack"]
    assert "Europe/Paris" in body(acks[0]) and "2026-12-03 19:00 CET (18:00 UTC)" in body(acks[0])
    status = table.order(BILL, "STATUS", now=START)
    assert "2026-12-03 19:00 CET (18:00 UTC)" in body(status[0])
    george = table.order(GEORGE, "STATUS", now=START)
    assert "2026-12-03 18:00 UTC" in body(george[0]) and "CET" not in body(george[0])


def test_an_unknown_time_zone_is_refused(table):
    new_match(table)
    errs = table.order(BILL, "SET TIMEZONE Mars/Olympus", now=START)
    assert kinds(errs) == ["error"] and "unknown time zone" in body(errs[0]) and "Europe/Paris" in body(errs[0])


def test_a_deadline_across_the_spring_change_lands_on_the_right_instant(table):
    # Europe/Paris moves from CET (UTC+1) to CEST (UTC+2) at 01:00 UTC on 2026-03-29.
    new_match(table, now="2026-03-27T18:00:00Z")
    table.order(BILL, "SET TIMEZONE Europe/Paris", now="2026-03-27T18:00:00Z")
    assert table.show()["deadline"] == "2026-03-29T18:00:00Z"  # exactly 48 hours later
    status = table.order(BILL, "STATUS", now="2026-03-27T18:00:00Z")
    assert "2026-03-29 20:00 CEST (18:00 UTC)" in body(status[0])
    table.pbem("process", now="2026-03-29T17:59:59Z")
    assert table.show()["turn"] == 1
    table.pbem("process", now="2026-03-29T18:00:00Z")
    assert table.show()["turn"] == 2


def test_format_deadline_in_autumn_and_across_midnight():
    moment = datetime(2026, 10, 25, 23, 30, tzinfo=UTC)  # after the autumn change
    assert format_deadline(moment, "Europe/Paris") == "2026-10-26 00:30 CET (2026-10-25 23:30 UTC)"
    assert format_deadline(moment - timedelta(days=1), "Europe/Paris") == "2026-10-25 01:30 CEST (2026-10-24 23:30 UTC)"
    assert format_deadline(moment, None) == "2026-10-25 23:30 UTC"
