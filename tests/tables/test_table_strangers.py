"""What a stranger can make of the open tables: a forged JOIN makes one mail at most and never a
seat; a question's token takes a seat once, in time, and only from the address asked; JOIN and
LIST count against `limits.strangers_per_hour`; and ordinary mail costs the tables nothing."""
from __future__ import annotations

from types import SimpleNamespace

from conftest import body, kinds
from tables_helpers import (ANN, BOB, CY, NOW, answer, assert_asks, configure, open_table, outbox_count,
                            outbox_since, reply_address, row, sit, write)

from pbem.store import Store
from pbem.tables.layer import TablesLayer

VICTIM = "victim@example.test"


def test_a_forged_join_makes_one_mail_to_its_victim_and_never_a_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "2")
    before = outbox_count(table)
    got = write(table, VICTIM, f"JOIN {table_id}", subject="Free golf, click here", name="Mallory Says Hi")
    # Everything that one message made pbem send: one mail, to the victim, of kind table.
    assert outbox_since(table, before) == [{"recipient": VICTIM, "kind": "table"}]
    assert_asks(got[0], table_id)
    text = body(got[0])
    assert "Mallory" not in text and "click" not in text and "Mallory" not in got[0]["To"]
    assert got[0]["To"] == VICTIM
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["pending"] == 1
    # The same JOIN again within the hour: no second mail.
    before = outbox_count(table)
    write(table, VICTIM, f"JOIN {table_id}", now="2026-12-01T18:59:00Z")
    assert outbox_since(table, before) == []
    # An hour on, the forger gets one more question through, and still no seat.
    write(table, VICTIM, f"join {table_id}", now="2026-12-01T19:01:00Z")
    assert outbox_since(table, before) == [{"recipient": VICTIM, "kind": "table"}]
    assert row(table, table_id)["joined"] == []
    # Every other player joins and the game starts: the victim never hears more of it.
    table.new_mails(VICTIM)
    sit(table, ANN, table_id, now="2026-12-01T19:10:00Z")
    sit(table, BOB, table_id, now="2026-12-01T19:20:00Z")
    assert row(table, table_id)["status"] == "started" and table.new_mails(VICTIM) == []
    assert VICTIM not in [p["address"] for p in table.show(table_id)["players"]]


def test_an_expired_token_takes_no_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    question = write(table, ANN, f"JOIN {table_id}")[0]
    assert "2026-12-08 18:00 UTC" in " ".join(body(question).split())
    late = answer(table, ANN, question, now="2026-12-08T18:00:01Z")
    assert kinds(late) == ["table"]
    text = " ".join(body(late[0]).split())
    assert "This answer came too late" in text and f"the line JOIN {table_id}" in text
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["pending"] == 0
    again = answer(table, ANN, question, now="2026-12-08T18:05:00Z")
    assert "answered already" in body(again[0]) and row(table, table_id)["joined"] == []


def test_a_token_that_took_a_seat_takes_none_again(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    question = write(table, ANN, f"JOIN {table_id}")[0]
    seated = answer(table, ANN, question)[0]
    assert [j["address"] for j in row(table, table_id)["joined"]] == [ANN]
    # The second answer to the same question finds the seat already the player's: one seat still.
    again = answer(table, ANN, question)
    assert "already" in body(again[0]) and len(row(table, table_id)["joined"]) == 1
    answer(table, ANN, seated, f"LEAVE {table_id}")
    assert row(table, table_id)["joined"] == []
    # Used once, the question's token cannot take the freed seat back.
    reused = answer(table, ANN, question)
    assert kinds(reused) == ["table"] and "answered already" in body(reused[0])
    assert row(table, table_id)["joined"] == []


def test_a_confirmation_from_another_address_takes_no_seat_and_the_question_still_stands(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    question = write(table, ANN, f"JOIN {table_id}")[0]
    refused = write(table, BOB, "", subject=f"Re: {question['Subject']}", to=reply_address(question))
    assert kinds(refused) == ["table"]
    assert "must come from the address that was asked" in " ".join(body(refused[0]).split())
    assert row(table, table_id)["joined"] == [] and table.new_mails(ANN) == []
    answer(table, ANN, question)
    assert [j["address"] for j in row(table, table_id)["joined"]] == [ANN]


def test_join_and_list_from_strangers_stop_being_answered_past_the_hours_limit(table):
    configure(table, limits={"strangers_per_hour": 3})
    table_id = open_table(table, "golfdeck", "--seats", "4")
    crowd = [f"s{i}@crowd.test" for i in range(6)]
    for i, who in enumerate(crowd):
        table.send(who, f"JOIN {table_id}" if i % 2 == 0 else "LIST", subject=f"hello {i}")
    table.pbem("process", now=NOW)
    answered = [who for who in crowd if table.mails(who)]
    assert len(answered) == 3
    # A JOIN that got no answer asked no question: nothing waits for it.
    asked = [who for who in answered if crowd.index(who) % 2 == 0]
    assert row(table, table_id)["pending"] == len(asked)
    # The limit holds for the hour, whatever the command; an hour on, answers come again.
    assert write(table, CY, "LIST", now="2026-12-01T18:30:00Z") == []
    assert kinds(write(table, CY, "LIST", now="2026-12-01T19:01:00Z")) == ["table"]


class _NoStore:
    def __getattr__(self, name):
        raise AssertionError(f"the store was asked ({name}) about ordinary mail")


def test_ordinary_mail_is_no_tables_and_costs_no_look_at_the_store(tmp_path):
    door = SimpleNamespace(postman=SimpleNamespace(store=_NoStore()), store=_NoStore())
    layer = TablesLayer()
    msg = SimpleNamespace(sender=ANN, subject="Re: [m1] your turn")
    for lines, token in (([(1, "PLAY 3 5 4")], "0123456789abcdef"), ([(1, "DRAW STOCK"), (2, "JOIN")], None),
                         ([], None), ([(1, "joinery 4")], "t0123"), ([(1, "STATUS")], "t0123456789abcdeg")):
        assert layer.mail(door, msg, lines, token) is None
    store = Store(tmp_path / "pbem.sqlite3")  # no table opened: the clock has none to start
    try:
        assert layer.tick(SimpleNamespace(store=store), None) == []
    finally:
        store.close()
