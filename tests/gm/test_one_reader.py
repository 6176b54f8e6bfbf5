"""One reader for every kind of mail: a sign-off is read the same way under orders, under a
wrong order, under a refused SET ABSENCE and under a table's command, and the answers say what
happened (CONTRACT section 4; issue: everyday mail)."""
from __future__ import annotations

import sys
from pathlib import Path

from conftest import GEORGE, body, kinds

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from tables_helpers import ANN, BOB, answer, open_table, reply_address, row, write  # noqa: E402

QUOTE = "\n\nOn Wed, 2 Dec 2026 at 10:00, Golf GM <gm@example.test> wrote:\n> Hello,\n>\n> Something.\n"


def test_a_sign_off_is_never_a_wrong_line_nor_a_command(table):
    table.new_match()
    ok = table.order(GEORGE, "PLAY 3 5 4\n\nCheers,\nGeorge")
    assert kinds(ok) == ["ack"]
    wrong = table.order(GEORGE, "PLAY 3 5 9\n\nCheers,\nGeorge")
    text = body(wrong[0])
    assert kinds(wrong) == ["error"] and "1 problem" in wrong[0]["Subject"]
    assert "Line 1: PLAY 3 5 9" in text and "Cheers" not in text.split("As I read")[0]
    assert "Lines 3-4 read as a sign-off, which I skip" in " ".join(text.split())
    # 58 days of 2027 asked for: more than a year's allowance (30), refused.
    away = table.order(GEORGE, "SET ABSENCE 2026-12-20 TO 2027-02-27\n\nThanks,\nGeorge")
    text = " ".join(body(away[0]).split())
    assert kinds(away) == ["error"] and "1 problem" in away[0]["Subject"]
    assert "Line 1: SET ABSENCE 2026-12-20 TO 2027-02-27" in text and "Line 3" not in text


def test_punctuated_orders_are_acked_in_their_canonical_form_and_quoted_back_as_written(table):
    table.new_match()
    ok = table.order(GEORGE, "Play: 3, 5, 4.\nSpecial: blue -1 on hole 2.\n\nThanks, George")
    assert kinds(ok) == ["ack"] and "    PLAY 3 5 4\n    SPECIAL BLUE-1 HOLE 2\n" in body(ok[0])
    wrong = table.order(GEORGE, "Play: 3, 5, 9.")
    assert kinds(wrong) == ["error"] and "Line 1: Play: 3, 5, 9." in body(wrong[0])
    assert table.show()["to_move"] == ["bill@example.test"]  # the first set stands


def test_leave_above_the_quoted_question_declines_and_takes_no_seat(table):
    table_id = open_table(table, "matchplay", "--seats", "2")
    question = write(table, ANN, f"JOIN {table_id}")[0]
    got = answer(table, ANN, question, f"LEAVE {table_id}" + QUOTE)
    assert kinds(got) == ["table"] and got[0]["Subject"] == f"[{table_id}] No seat at table {table_id}"
    assert "no seat was taken" in " ".join(body(got[0]).split())
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["status"] == "open"


def test_leave_above_the_quoted_seat_mail_and_with_an_apology_frees_the_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    for who, text in ((ANN, f"LEAVE {table_id}" + QUOTE), (BOB, f"LEAVE {table_id}\n\nSorry, can't make it.")):
        question = write(table, who, f"JOIN {table_id}")[0]
        seated = answer(table, who, question)[0]
        got = write(table, who, text, subject=f"Re: {seated['Subject']}", to=reply_address(seated))
        assert kinds(got) == ["table"] and got[0]["Subject"] == f"[{table_id}] You left table {table_id}"
        assert "the seat is free again" in " ".join(body(got[0]).split())
    assert row(table, table_id)["joined"] == []


def test_join_with_a_signature_a_name_or_thanks_asks_for_the_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "4")
    for n, text in enumerate([f"JOIN {table_id}\n-- \nCarol", f"JOIN {table_id}\nCarol",
                              f"JOIN {table_id}\n\nThanks, Carol", f"Join: {table_id}."]):
        got = write(table, f"carol{n}@example.test", text)
        assert kinds(got) == ["table"] and got[0]["Subject"] == f"[{table_id}] Confirm: a seat at table {table_id}"
