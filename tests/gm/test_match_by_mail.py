"""Whole MatchPlay matches played by mail through the Maildir transport."""
from __future__ import annotations

import random
import re

from conftest import BILL, GEORGE, body, kinds

from pbem.games.matchplay import MatchPlay, random_orders
from pbem.gm import games
from pbem.store import Store


def engine_state(table, game="m1") -> MatchPlay:
    store = Store(table.root / "pbem.sqlite3")
    try:
        return games.load(store, game).state
    finally:
        store.close()


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


def test_seed_example_two_by_mail_ends_four_and_three(table):
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
    assert kinds(errs) == ["error"] and "no orders after the end of the match" in body(errs[0])


def test_whole_random_match_by_mail_reaches_the_right_result(table):
    table.new_match("m1", "parkland")
    rng = random.Random(99)
    secrets_seen = set()
    while table.show()["status"] == "active":
        for seat, addr in enumerate((GEORGE, BILL)):
            state = engine_state(table)
            if state.result():
                break
            orders = str(random_orders(state, seat, rng))
            other = BILL if addr == GEORGE else GEORGE
            got = table.order(addr, orders)
            assert "ack" in kinds(got)
            if seat == 0:
                # Bill has not ordered yet: nothing Bill receives may show George's orders.
                table.new_mails(other)
                table.send(other, "STATUS\nHISTORY", subject="Re: [m1] x", to=table.reply_to(other))
                table.pbem("process")
                for m in table.new_mails(other):
                    for line in orders.splitlines():
                        assert line not in body(m), f"{m['X-PBEM-Kind']} to Bill shows George's {line}"
            secrets_seen.add(table.secret(addr))
    final = engine_state(table)
    expected = "Result: " + final.result().line
    for addr in (GEORGE, BILL):
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and expected in body(results[0])
    assert table.show()["result"] == expected
    assert len(secrets_seen) == 2


def test_every_mail_has_the_contract_headers(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    for m in table.mails(GEORGE) + table.mails(BILL):
        assert m["X-PBEM-Game"] == "m1"
        assert m["X-PBEM-Kind"] in ("welcome", "ack", "report")
        assert m["Message-ID"]
        assert m["Auto-Submitted"] in ("auto-replied", "auto-generated")
        assert m.get_content_type() == "text/plain" and m.get_content_charset() == "utf-8"
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
    assert "Line 1: PLAY 4 4 5" in body(errs[0]) and "no orders after the end of the match" in body(errs[0])
    assert table.show()["state"] == before["state"]
