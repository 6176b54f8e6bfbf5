"""Whole MatchPlay matches played by mail through the Maildir transport."""
from __future__ import annotations

import random
import re

import pytest
from conftest import BILL, GEORGE, body, kinds, too_wide

from pbem.games.matchplay import MatchPlay, random_orders
from pbem.gm import games
from pbem.store import Store


def engine_state(table, game="m1") -> MatchPlay:
    return table.load(game).state


def test_seed_example_one_by_mail(table):
    table.new_match()
    assert kinds(table.mails(GEORGE)) == ["welcome"]
    ack = table.order(GEORGE, "PLAY 3 5 4")
    assert kinds(ack) == ["ack"]
    assert "PLAY 3 5 4" in body(ack[0])
    table.order(BILL, "play 4 4 5\nspecial blue +1 hole 3")
    for addr in (GEORGE, BILL):
        report = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "report"][-1]
        text = body(report)
        assert "Match: George 1 up after 3" in text
        assert re.search(r"^\s+3\s+5\s+4\s+5 BLUE\+1 = 6\s+George", text, re.M), text
    st = table.show()
    assert st["turn"] == 2 and st["status"] == "active"
    assert st["players"][0]["score"] == 2 and st["players"][1]["score"] == 1


@pytest.mark.slow
def test_seed_example_two_by_mail_ends_four_and_three(cron_table):
    table = cron_table
    table.new_match()
    turns = [("PLAY 4 4 5\nSPECIAL RED+1 HOLE 1", "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 3"),
             ("PLAY 3 4 5\nSPECIAL RED-1 HOLE 4", "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 6"),
             ("PLAY 4 3 4", "PLAY 5 4 4"),
             ("PLAY 4 4 3", "PLAY 5 4 3\nSPECIAL RED+1 HOLE 10")]
    for george, bill in turns:
        table.order(GEORGE, george)
        table.order(BILL, bill)
    assert "Match: George 3 up after 12" in body(table.mails(GEORGE)[-1])
    table.order(GEORGE, "PLAY 4 3 4\nSPECIAL BLUE+1 HOLE 13")
    table.order(BILL, "PLAY 4 4 4\nSPECIAL RED-1 HOLE 13")
    for addr in (GEORGE, BILL):
        result = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(result) == 1
        assert "Result: George wins 4 and 3" in body(result[0])
        assert result[0]["Subject"].endswith("Result: George wins 4 and 3")
    st = table.show()
    assert st["result"] == "Result: George wins 4 and 3"
    assert st["status"] == "finished" and st["to_move"] == []
    assert [h["hole"] for h in st["state"]["holes"]][-1] == 15
    # No orders are taken after the end.
    errs = table.order(GEORGE, "PLAY 4 5 4\nSPECIAL BLUE-1 HOLE 16")
    assert kinds(errs) == ["error"] and "Rule: (j) no orders once the match is over" in body(errs[0])
    assert "What would be right" not in body(errs[0])  # no order would be


@pytest.mark.slow
def test_whole_random_match_by_mail_reaches_the_right_result_and_keeps_orders_secret(table):
    """Both players write every turn; the one who orders second also asks for STATUS, HISTORY and
    HELP and sends PRESS meanwhile. Every mail the match writes is read: none shows a player the
    other's orders for a turn that has not resolved."""
    table.new_match("m1", "parkland")
    rng = random.Random(99)
    players = (GEORGE, BILL)
    cursor = {GEORGE: 1, BILL: 1}  # past the welcomes
    while table.show()["status"] == "active":
        first = rng.randrange(2)
        for seat in (first, 1 - first):
            state = engine_state(table)
            if state.result():
                break
            addr, other = players[seat], players[1 - seat]
            got = table.order(addr, str(random_orders(state, seat, rng)))
            assert "ack" in kinds(got)
            assert_no_pending_orders_leak(table, cursor)
            if seat == first:
                table.order(other, "STATUS\nHISTORY\nHELP\nPRESS nice drive")
                assert_no_pending_orders_leak(table, cursor)
    final = engine_state(table)
    expected = "Result: " + final.result().line
    for addr in players:
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and expected in body(results[0])
    assert table.show()["result"] == expected
    assert cursor == {GEORGE: len(table.mails(GEORGE)), BILL: len(table.mails(BILL))}  # every mail read


def assert_no_pending_orders_leak(table, cursor: dict) -> None:
    """Reads the mail of the last pass: none may show the other seat's unresolved orders."""
    state = engine_state(table)
    for seat, addr in enumerate((GEORGE, BILL)):
        other = 1 - seat
        secret_block = str(state.pending[other]) if state.pending[other] else None
        own = state.view(seat)["seats"][seat]
        harmless = {own["orders"], own["example"]}
        fresh = table.mails(addr)[cursor[addr]:]
        cursor[addr] += len(fresh)
        for m in fresh:
            if secret_block and secret_block not in harmless:
                assert secret_block not in body(m), f"{m['X-PBEM-Kind']} to {addr} shows {secret_block}"
                for line in secret_block.splitlines()[1:]:  # a SPECIAL line is never harmless
                    assert line not in body(m), f"{m['X-PBEM-Kind']} to {addr} shows {line}"


def test_every_mail_has_the_contract_headers(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    for m in table.mails(GEORGE) + table.mails(BILL):
        assert m["X-PBEM-Game"] == "m1"
        assert m["X-PBEM-Kind"] in ("welcome", "ack", "report")
        assert m["Message-ID"]
        assert m["Auto-Submitted"] in ("auto-replied", "auto-generated")
        # Text in UTF-8; an HTML part may stand beside it (CONTRACT.md section 5).
        text = m.get_body(preferencelist=("plain",))
        assert text.get_content_type() == "text/plain" and text.get_content_charset() == "utf-8"
        assert m.get_content_type() in ("text/plain", "multipart/alternative")
        assert "+" in m["Reply-To"]
        if m["X-PBEM-Kind"] == "ack":
            assert m["Auto-Submitted"] == "auto-replied" and m["In-Reply-To"] and m["References"]


def test_history_rebuilds_the_game(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 5")
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert games.replay(store, "m1").to_dict() == games.load(store, "m1").state.to_dict()
    finally:
        store.close()


def test_orders_may_be_replaced_until_the_turn_resolves(table):
    table.new_match()
    table.order(GEORGE, "PLAY 5 5 5")
    ack = table.order(GEORGE, "PLAY 3 5 4")
    assert "replace" in body(ack[0])
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    assert "Match: George 1 up after 3" in body(table.mails(BILL)[-1])


def test_press_reaches_the_opponent_signed(table):
    table.new_match()
    table.order(GEORGE, "PRESS Good luck, Bill!")
    press = [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "press"]
    assert len(press) == 1 and "Good luck, Bill!" in body(press[0]) and "-- George" in body(press[0])


def test_resign_ends_the_match_and_refuses_later_orders(table):
    table.new_match()
    table.order(BILL, "RESIGN")
    result = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "result"]
    assert result and "Result: George wins by resignation" in body(result[0])
    before = table.show()
    errs = table.order(BILL, "PLAY 4 4 5")
    assert kinds(errs) == ["error"]
    assert "Line 1: PLAY 4 4 5" in body(errs[0]) and "(j) no orders once the match is over" in body(errs[0])
    assert table.show()["state"] == before["state"]


def test_status_history_and_help_answer_the_player(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 5")
    got = table.order(GEORGE, "STATUS\nHISTORY\nHELP")
    # One answer: the status, and below it the history and the help under their headings.
    assert kinds(got) == ["status"]
    assert got[0]["Subject"] == "[m1] Status: George 1 up after 3 (with history, help)"
    status, rest = body(got[0]).split("\n== History of game m1 ==\n")
    history, help_ = rest.split("\n== Help for MatchPlay Golf ==\n")
    assert "Your orders for turn 2: PLAY 3 4 5 / SPECIAL BLUE-1 HOLE 5" in status
    assert "Bill has not yet sent orders for this turn." in status
    assert "Match: George 1 up after 3" in history and "resolved: turn 1" in history
    assert "PLAY <card> <card> <card>" in help_ and help_.rstrip().endswith("Golf GM")
    assert all(m["In-Reply-To"] and m["Auto-Submitted"] == "auto-replied" for m in got)


def test_the_mails_of_one_pass_carry_strictly_increasing_dates(table):
    import email.utils
    table.new_match()
    table.order(GEORGE, "PLAY 4 4 5\nSTATUS\nHELP\nHISTORY", now="2026-12-01T18:00:00Z")
    table.order(GEORGE, "HELP", now="2026-12-01T18:00:00Z")
    table.order(BILL, "PRESS Hello\nPLAY 3 5 4", now="2026-12-01T18:00:00Z")
    got = table.mails(GEORGE)  # written order: welcome, ack (with the rest), help, report, press
    dates = [email.utils.parsedate_to_datetime(m["Date"]) for m in got]
    assert kinds(got) == ["welcome", "ack", "help", "report", "press"]
    assert all(a < b for a, b in zip(dates, dates[1:])), [m["Date"] for m in got]


# -- what the mail looks like: 78 columns, the table, the rules by letter, the specials owed -----

MAXIMILIAN = "Maximilian Alexander von Hohenzollern-Sigmaringen"
BARTHOLOMEW = "Bartholomew Featherstonehaugh-Cholmondeley"
MATCHPLAY_KINDS = {"welcome", "report", "reminder", "status", "history", "help", "result"}


def long_named_match_with_a_forfeit(table) -> None:
    """Turn 1 puts both players' specials on hole 2 (both change Maximilian's score); in turn 2
    Bartholomew is reminded, asks for STATUS, HISTORY and HELP, then misses the deadline and
    forfeits; in turn 3 Maximilian resigns."""
    table.pbem("new-game", "matchplay", "--player", f"{MAXIMILIAN} <{GEORGE}>", "--player",
               f"{BARTHOLOMEW} <{BILL}>", "--course", "445 345 434 543 434 454", "--id", "m1",
               "--option", "nmr=forfeit", "--deadline", "1d", now="2026-03-01T00:00:00Z")
    table.order(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 2", now="2026-03-01T01:00:00Z")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL RED-1 HOLE 2", now="2026-03-01T01:00:00Z")
    table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4", now="2026-03-01T02:00:00Z")
    table.pbem("process", now="2026-03-01T14:00:00Z")  # within 12 hours of the deadline
    for asked in ("STATUS", "HISTORY", "HELP", "STATUS\nHISTORY\nHELP"):
        table.order(BILL, asked, now="2026-03-01T15:00:00Z")
    table.pbem("process", now="2026-03-02T02:00:00Z")  # past it
    table.order(GEORGE, "RESIGN", now="2026-03-02T03:00:00Z")


def test_every_matchplay_mail_fits_78_columns_with_long_names(table):
    long_named_match_with_a_forfeit(table)
    seen = set()
    for addr in (GEORGE, BILL):
        for m in table.mails(addr):
            kind = m["X-PBEM-Kind"]
            if kind in MATCHPLAY_KINDS:
                seen.add(kind)
                wide = too_wide(body(m))
                assert not wide, f"{kind} to {addr}: {wide}"
    assert seen == MATCHPLAY_KINDS


def test_the_hole_table_keeps_every_cell_apart(table):
    long_named_match_with_a_forfeit(table)
    reports = [body(m) for m in table.mails(BILL) if m["X-PBEM-Kind"] == "report"]
    first, second = reports
    # The long names are shortened in the table, and said in full above it.
    assert "In the table, Maximil. is Maximilian Alexander von Hohenzollern-Sigmaringen,\n" \
           "and Barthol. is Bartholomew Featherstonehaugh-Cholmondeley." in first
    assert re.search(r"^Hole Par  Maximil\.\s+Barthol\.\s+Won by\s+Match$", first, re.M), first
    # Two specials on one hole: the card, both specials, then the score, set apart from the next cell.
    assert re.search(r"^   2   4  4 BLUE\+1 RED-1 = 4  4 +halved +all square$", first, re.M), first
    # A forfeit is marked and explained, and the running match names the leader.
    assert re.search(r"^   4   3  3 BLUE-1 = 2  3 F +Maximil\.  Maximil\. 1 up$", second, re.M), second
    assert "F: forfeit, no orders by the deadline: the hole is lost whatever the score." in second
    assert "Note: Bartholomew Featherstonehaugh-Cholmondeley sent no orders by the" in second


def test_reports_and_status_say_which_specials_are_owed_and_by_when(table):
    long_named_match_with_a_forfeit(table)
    report = [body(m) for m in table.mails(BILL) if m["X-PBEM-Kind"] == "report"][0]
    flat = " ".join(report.split())
    assert ("You still owe a RED special (RED+1) by the end of turn 3, and BLUE+1 and BLUE-1, in "
            "two different turns, by the end of turn 6.") in flat
    status = " ".join(body(next(m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "status")).split())
    assert "You still owe a RED special (RED+1) by the end of turn 3" in status
    mine = " ".join(body(table.mails(GEORGE)[0]).split())  # the welcome, before any special
    assert ("You still owe two specials of one colour (both BLUE or both RED), in two different "
            "turns, by the end of turn 3, and the two of the other colour by the end of turn 6.") in mine


def test_an_error_cites_a_rule_of_the_welcome_and_suggests_an_order_that_is_accepted(table):
    table.new_match()
    table.order(GEORGE, "PLAY 4 4 5\nSPECIAL RED+1 HOLE 1")
    table.order(BILL, "PLAY 4 4 5")
    welcome = body(table.mails(GEORGE)[0])
    errs = table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4")
    assert kinds(errs) == ["error"]
    text = body(errs[0])
    assert "Rule: (c) never specials of two colours in turns 1-3" in text
    assert "\n  (c) never specials of two colours in turns 1-3\n" in welcome
    after = text.split("What would be right:", 1)[1]
    suggestion = re.findall(r"^\s*((?:PLAY|SPECIAL) .*?)\s*$", after, re.M)
    assert suggestion == ["PLAY 3 4 5", "SPECIAL RED-1 HOLE 4"]
    assert kinds(table.order(GEORGE, "\n".join(suggestion))) == ["ack"]


def test_an_unreadable_special_is_answered_with_the_turn_own_holes(table):
    table.new_match()
    table.order(GEORGE, "PLAY 4 4 5\nSPECIAL RED+1 HOLE 1")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1")
    table.order(GEORGE, "PLAY 3 4 5")
    table.order(BILL, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4")
    errs = table.order(GEORGE, "PLAY 4 3 4\nSPECIAL red -1 hol 8")  # turn 3: holes 7-9
    after = body(errs[0]).split("What would be right:", 1)[1]
    suggestion = re.findall(r"^\s*((?:PLAY|SPECIAL) .*?)\s*$", after, re.M)[:2]
    assert suggestion == ["PLAY 4 3 4", "SPECIAL RED-1 HOLE 8"]
    assert kinds(table.order(GEORGE, "\n".join(suggestion))) == ["ack"]


def test_the_gm_show_text_has_the_players_hole_table(table):
    long_named_match_with_a_forfeit(table)
    text = table.pbem("show", "m1")[1]
    assert re.search(r"^  Hole Par  Maximil\.\s+Barthol\.\s+Won by\s+Match$", text, re.M), text
    assert re.search(r"^     2   4  4 BLUE\+1 RED-1 = 4  4 +halved +all square$", text, re.M), text
