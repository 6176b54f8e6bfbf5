"""Open tables filled by mail (CONTRACT section 13): JOIN, the answer that takes the seat, LEAVE
with the seat's token, LIST, and the game that a full table becomes."""
from __future__ import annotations

from conftest import GM, body, kinds
from tables_helpers import (ANN, BOB, CY, DI, NAMES, NOW, answer, assert_asks, assert_table_mail, open_table,
                            reply_address, row, rows, sit, token_of, welcomed, write)

FOUR = (ANN, BOB, CY, DI)


def test_a_table_of_four_fills_by_mail_and_its_game_welcomes_exactly_those_four(table):
    table_id = open_table(table, "golfdeck", "--seats", "4", "--option", "holes=2")
    assert table_id == "table-1"
    seat_tokens = set()
    for n, who in enumerate(FOUR, start=1):
        got = sit(table, who, table_id)
        if n < 4:
            assert kinds(got) == ["table"], [m["Subject"] for m in got]
        else:  # the game's welcome (and its first turn), then the answer
            assert kinds(got)[0] == "welcome" and kinds(got)[-1] == "table", kinds(got)
        seated = got[-1]
        text = " ".join(assert_table_mail(seated, table_id).split())
        assert f"Hello {NAMES[who]}," in text
        if n < 4:
            assert seated["Subject"] == f"[{table_id}] You have a seat at table {table_id}"
            assert f"{n} of its 4 seats" in text and f"LEAVE {table_id}" in text
            seat_tokens.add(token_of(seated))
            assert row(table, table_id)["joined"][-1] == {"name": NAMES[who], "address": who}
            assert row(table, table_id)["status"] == "open"
        else:  # the last seat: the game is made at once, and the answer says so
            assert seated["Subject"] == f"[{table_id}] Table {table_id} has started: game {table_id}"
            assert seated["X-PBEM-Game"] == table_id and "has started" in text
    assert len(seat_tokens) == 3 and all(t.startswith("t") for t in seat_tokens)
    listed = row(table, table_id)
    assert listed["status"] == "started" and listed["game"] == table_id and listed["pending"] == 0
    # The welcome went to exactly those four, and the game's seats are theirs, in the order they sat down.
    assert welcomed(table, table_id) == set(FOUR)
    shown = table.show(table_id)
    assert [p["address"] for p in shown["players"]] == list(FOUR)
    assert [p["name"] for p in shown["players"]] == [NAMES[a] for a in FOUR]
    assert shown["type"] == "golfdeck" and shown["status"] == "active"
    # The three who sat down before heard that it started (the welcome first), and a reply to that
    # word reaches the game, as its Reply-To carries the player's secret for the game.
    for who in FOUR[:3]:
        fresh = table.new_mails(who)
        assert kinds(fresh)[:1] == ["welcome"] and "table" in kinds(fresh), kinds(fresh)
        started = next(m for m in fresh if m["X-PBEM-Kind"] == "table")
        text = " ".join(assert_table_mail(started, table_id, answer=False).split())
        assert started["Subject"] == f"[{table_id}] Table {table_id} has started: game {table_id}"
        assert "Ann, Bob, Cy and Di" in text
        assert reply_address(started) == table.reply_to_game(who, table_id)


def test_a_join_by_game_type_takes_the_oldest_open_table_of_that_game(table):
    open_table(table, "matchplay", "--seats", "2")
    older = open_table(table, "golfdeck", "--seats", "3")
    open_table(table, "golfdeck", "--seats", "2")
    question = write(table, ANN, "join GOLFDECK")
    assert_asks(question[0], older)
    got = answer(table, ANN, question[0])
    assert kinds(got) == ["table"] and row(table, older)["joined"] == [{"name": "ann", "address": ANN}]


def test_the_name_of_a_seat_comes_from_the_address_own_answer_and_is_cut_to_one_short_line(table):
    table_id = open_table(table, "golfdeck", "--seats", "2")
    question = write(table, ANN, f"JOIN {table_id}", name="Somebody Else")
    table.new_mails(ANN)
    long = "Ann " + "Q" * 90
    table.send(f'"{long}" <{ANN}>', "", subject="Re: yes", to=reply_address(question[0]))
    table.pbem("process", now=NOW)
    name = row(table, table_id)["joined"][0]["name"]
    assert name.startswith("Ann QQQ") and len(name) <= 60 and "\n" not in name


def test_a_join_that_cannot_be_taken_says_why_and_what_would_be_right(table):
    table_id = open_table(table, "matchplay", "--seats", "2")
    cases = {
        "JOIN nosuch": "There is no table with that id here, and no game of that name.",
        "JOIN onpar": "No table of On Par is open just now.",
        "JOIN": "JOIN needs the id of an open table, or a game type",
        f"JOIN {table_id} please": "JOIN takes one word after it",
        f"JOIN {table_id}\nSTATUS": "a mail about the tables holds one command",
    }
    for n, (line, problem) in enumerate(cases.items()):
        got = write(table, f"s{n}@example.test", line)
        assert kinds(got) == ["table"], (line, body(got[0]))
        text = " ".join(assert_table_mail(got[0], None).split())
        assert problem in text and "LIST" in text, (line, text)
        assert "nosuch" not in text and "please" not in text  # nothing of the mail comes back
        assert got[0]["Reply-To"] is None
    table.pbem("table", "close", table_id)
    got = write(table, ANN, f"JOIN {table_id}")
    text = " ".join(assert_table_mail(got[0], table_id).split())
    assert f"Table {table_id} is closed" in text and "LIST" in text
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["pending"] == 0


def test_a_join_for_a_table_that_has_started_is_refused(table):
    table_id = open_table(table, "matchplay", "--seats", "2", "--id", "duel")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    got = write(table, CY, "JOIN duel")
    text = " ".join(assert_table_mail(got[0], "duel").split())
    assert "Table duel has started already, as game duel" in text and "LIST" in text
    assert [p["address"] for p in table.show("duel")["players"]] == [ANN, BOB]


def test_an_address_seated_already_is_told_so_and_keeps_one_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    first = sit(table, ANN, table_id)
    got = write(table, ANN, f"JOIN {table_id}")
    assert kinds(got) == ["table"]
    assert "You have a seat at table table-1 already." in " ".join(assert_table_mail(got[0], table_id).split())
    assert token_of(got[0]) == token_of(first[0])  # the seat's own token, as before
    assert len(row(table, table_id)["joined"]) == 1


def test_mail_from_the_gms_own_address_takes_no_seat(table):
    table_id = open_table(table, "golfdeck", "--seats", "2")
    write(table, GM, f"JOIN {table_id}")
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["pending"] == 0


def test_list_answers_the_open_tables_and_names_nobody_who_joined(table):
    assert "No table is open" in " ".join(body(write(table, ANN, "LIST")[0]).split())
    dice = open_table(table, "dicegolf", "--seats", "3", "--starts", "2026-12-03T18:00:00Z", "--min", "2",
                      "--fill", "robots")
    cards = open_table(table, "golfdeck", "--seats", "4", "--deadline", "48h")
    sit(table, BOB, cards)
    got = write(table, ANN, "list")
    assert kinds(got) == ["table"]
    text = " ".join(assert_table_mail(got[0], None).split())
    assert got[0]["Subject"] == "Open tables: 2 waiting for players"
    assert f"{dice}: Dice Golf, 3 seats, 0 taken, 3 free" in text
    assert f"{cards}: Golf (golf deck), 4 seats, 1 taken, 3 free" in text and "2 days a turn" in text
    assert "at 2026-12-03 18:00 UTC" in text and "robots take the seats still empty" in text
    assert "JOIN <table>" in text
    assert BOB not in text and "Bob" not in text
    only = " ".join(body(write(table, ANN, "LIST golfdeck")[0]).split())
    assert cards in only and dice not in only


def test_help_to_a_stranger_names_join_and_list(table):
    got = write(table, ANN, "HELP")
    assert kinds(got) == ["help"]
    text = body(got[0])
    assert "\n    LIST " in text and "\n    JOIN <table>" in text


def test_leave_with_the_seats_token_frees_the_seat_and_without_it_or_from_elsewhere_does_not(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    seated = sit(table, ANN, table_id)[0]
    sit(table, BOB, table_id)
    # From the seat's address, but to the GM's plain address: no token, no change.
    got = write(table, ANN, f"LEAVE {table_id}")
    text = " ".join(assert_table_mail(got[0], table_id).split())
    assert "LEAVE is taken only in a reply to the mail that gave you your seat" in text
    # The token, from another address: no change either (and the seat's owner keeps it).
    got = write(table, CY, f"LEAVE {table_id}", to=reply_address(seated), subject=f"Re: {seated['Subject']}")
    text = " ".join(assert_table_mail(got[0], table_id).split())
    assert "taken only from the address that holds the seat" in text
    assert [j["address"] for j in row(table, table_id)["joined"]] == [ANN, BOB]
    # The token from the seat's address: the seat is free, and the answer says so.
    got = answer(table, ANN, seated, f"LEAVE {table_id}")
    assert kinds(got) == ["table"] and got[0]["Subject"] == f"[{table_id}] You left table {table_id}"
    assert "You have given up your seat at table table-1" in " ".join(assert_table_mail(got[0], table_id).split())
    assert [j["address"] for j in row(table, table_id)["joined"]] == [BOB]
    # Freed, the seat may be taken again: by Cy, and Ann's old seat token is gone.
    sit(table, CY, table_id)
    assert [j["address"] for j in row(table, table_id)["joined"]] == [BOB, CY]
    assert write(table, ANN, f"LEAVE {table_id}", to=reply_address(seated))[0]["Reply-To"] is None


def test_a_leave_in_the_answer_to_the_question_says_no(table):
    table_id = open_table(table, "golfdeck", "--seats", "3")
    question = write(table, ANN, f"JOIN {table_id}")[0]
    got = answer(table, ANN, question, f"LEAVE {table_id}")
    assert kinds(got) == ["table"] and "You said no, so no seat was taken" in " ".join(body(got[0]).split())
    assert row(table, table_id)["joined"] == [] and row(table, table_id)["pending"] == 0


def test_a_reply_to_the_seat_mail_after_the_start_points_to_the_game(table):
    table_id = open_table(table, "matchplay", "--seats", "2")
    seated = sit(table, ANN, table_id)[0]
    sit(table, BOB, table_id)
    got = answer(table, ANN, seated, "PLAY 3 5 4")
    text = " ".join(assert_table_mail(got[0], table_id).split())
    assert f"reply to the welcome mail of game {table_id}" in text
    assert table.show(table_id)["turn"] == 1 and table.show(table_id)["history"][-1]["kind"] != "orders"


def test_every_table_is_listed_with_its_pending_joins(table):
    table_id = open_table(table, "golfdeck", "--seats", "4")
    write(table, ANN, f"JOIN {table_id}")
    write(table, BOB, f"JOIN {table_id}")
    assert row(table, table_id)["pending"] == 2
    sit(table, CY, table_id)
    listed = row(table, table_id)
    assert listed["pending"] == 2 and listed["joined"] == [{"name": "Cy", "address": CY}]
    assert [r["id"] for r in rows(table)] == [table_id]


def test_a_player_may_join_in_a_reply_to_a_games_mail_and_a_games_lines_stay_the_games(table):
    table.new_match("m1")
    george = "george@example.test"
    table_id = open_table(table, "golfdeck", "--seats", "2")
    got = write(table, george, f"JOIN {table_id}", subject="Re: [m1] welcome", to=table.reply_to(george))
    assert kinds(got) == ["table"]
    assert_asks(got[0], table_id)
    # A line of a mail to the game that only starts like a table's command is the game's to refuse.
    got = write(table, george, "Leave the flag in, please\nPLAY 3 5 4", subject="Re: [m1] welcome",
                to=table.reply_to(george))
    assert kinds(got) == ["error"] and got[0]["X-PBEM-Game"] == "m1"
