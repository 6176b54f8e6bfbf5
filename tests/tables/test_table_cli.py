"""`pbem table open|list|close` (CONTRACT section 13): checked input, the JSON rows, closing."""
from __future__ import annotations

import json

import pytest
from conftest import kinds
from tables_helpers import ANN, BOB, CY, NOW, assert_table_mail, configure, open_table, rows, sit, write

KEYS = {"id", "type", "seats", "joined", "pending", "starts", "fill", "status", "game"}


def test_table_list_json_rows_have_exactly_the_contracts_shape(table):
    assert rows(table) == []
    waiting = open_table(table, "golfdeck", "--seats", "3", "--min", "2", "--starts", "2026-12-05T12:00:00+01:00",
                         "--fill", "robots")
    closed = open_table(table, "dicegolf", "--seats", "2", "--id", "dice_1")
    played = open_table(table, "matchplay", "--seats", "2")
    sit(table, ANN, waiting)
    write(table, BOB, f"JOIN {waiting}")
    table.pbem("table", "close", closed)
    sit(table, ANN, played)
    sit(table, CY, played)
    found = rows(table)
    assert [r["id"] for r in found] == [waiting, played, closed]  # open ones first
    for r in found:
        assert set(r) == KEYS, r
        assert isinstance(r["id"], str) and isinstance(r["type"], str) and isinstance(r["fill"], str)
        assert type(r["seats"]) is int and type(r["pending"]) is int
        assert isinstance(r["joined"], list) and all(set(j) == {"name", "address"} for j in r["joined"])
        assert all(isinstance(j["name"], str) and isinstance(j["address"], str) for j in r["joined"])
        assert r["starts"] is None or isinstance(r["starts"], str)
        assert r["status"] in ("open", "started", "closed")
        assert r["game"] is None or isinstance(r["game"], str)
    first, second, third = found
    assert first == {"id": waiting, "type": "golfdeck", "seats": 3, "joined": [{"name": "Ann", "address": ANN}],
                     "pending": 1, "starts": "2026-12-05T11:00:00Z", "fill": "robots", "status": "open",
                     "game": None}
    assert second["status"] == "started" and second["game"] == played and second["starts"] is None
    assert [j["address"] for j in second["joined"]] == [ANN, CY] and second["fill"] == "wait"
    assert third == {"id": "dice_1", "type": "dicegolf", "seats": 2, "joined": [], "pending": 0, "starts": None,
                     "fill": "wait", "status": "closed", "game": None}
    text = table.pbem("table", "list")[1]
    assert waiting in text and "Ann <ann@example.test>" in text and "1/3 seats" in text
    lines = {line.split()[0]: line for line in text.splitlines() if not line.startswith(" ")}
    # A started table says which game it became, not that it waits to be full; a closed one
    # that it made none.
    assert lines[second["id"]].endswith(f"started  2/2 seats, now game {played}"), lines
    assert "pending" not in lines[second["id"]] and "starts when full" not in lines[second["id"]]
    assert lines["dice_1"].endswith("closed   0/2 seats, no game"), lines
    assert "1 pending, starts 2026-12-05T11:00:00Z, fill robots" in lines[waiting]


def test_a_table_keeps_what_it_will_need_to_start_from_the_configuration_at_opening(table):
    configure(table, games={"deadline": "5d", "nmr": "forfeit"})
    table_id = open_table(table, "matchplay", "--seats", "2", "--starts", "1d")
    configure(table, games={"deadline": "1d", "nmr": "autoplay"})  # a later key of the same name wins
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    game = table.load(table_id)
    assert game.row.deadline_every == "5d" and game.row.options["nmr"] == "forfeit"
    assert rows(table)[0]["starts"] == "2026-12-02T18:00:00Z"


def test_ids_count_up_and_never_meet_a_games(table):
    table.pbem("new-game", "matchplay", "--player", "x@example.test", "--player", "y@example.test",
               "--id", "table-2")
    assert [open_table(table, "golfdeck", "--seats", "2") for _ in range(2)] == ["table-1", "table-3"]


@pytest.mark.parametrize("args, words", [
    (["nosuch", "--seats", "2"], "unknown game type"),
    (["matchplay"], "--seats is needed"),
    (["matchplay", "--seats", "3"], "MatchPlay Golf takes 2 players"),
    (["golfdeck", "--seats", "5"], "takes 2 to 4 players"),
    (["golfdeck", "--seats", "4", "--min", "5", "--starts", "1d"], "--min 5: at least 2"),
    (["golfdeck", "--seats", "4", "--min", "1", "--starts", "1d"], "--min 1: at least 2"),
    (["golfdeck", "--seats", "4", "--min", "2"], "--min needs --starts"),
    (["golfdeck", "--seats", "4", "--fill", "cancel"], "--fill needs --starts"),
    (["golfdeck", "--seats", "4", "--fill", "sometimes"], "invalid choice"),
    (["golfdeck", "--seats", "two"], "invalid int value"),
    (["golfdeck", "--seats", "2", "--option", "holes=none"], "holes"),
    (["golfdeck", "--seats", "2", "--option", "colour=red"], "unknown option"),
    (["golfdeck", "--seats", "2", "--option", "spectators=maybe"], "spectators"),
    (["golfdeck", "--seats", "2", "--course", "nowhere"], "unknown course"),
    (["golfdeck", "--seats", "2", "--deadline", "soon"], "duration"),
    (["golfdeck", "--seats", "2", "--starts", "someday"], "--starts: expected an ISO 8601 time"),
    (["golfdeck", "--seats", "2", "--starts", "2026-11-30T18:00:00Z"], "already past"),
    (["golfdeck", "--seats", "2", "--starts", "400d"], "a year"),
    (["golfdeck", "--seats", "2", "--id", "a b"], "--id"),
    (["golfdeck", "--seats", "2", "--id", "m1"], "a game with that id exists already"),
])
def test_bad_input_is_refused_in_one_line_with_exit_2(table, args, words):
    table.new_match("m1")
    code, out, err = table.pbem("table", "open", *args, now=NOW, check=False)
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert rows(table) == []


def test_open_refuses_an_id_that_a_table_has(table):
    open_table(table, "golfdeck", "--seats", "2", "--id", "t1")
    code, _, err = table.pbem("table", "open", "golfdeck", "--seats", "2", "--id", "t1", check=False)
    assert code == 2 and "a table with that id exists already" in err


def test_close_tells_everyone_who_joined_and_refuses_what_cannot_close(table):
    table_id = open_table(table, "golfdeck", "--seats", "4")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    write(table, CY, f"JOIN {table_id}")
    _, out, _ = table.pbem("table", "close", table_id)
    assert out.strip() == f"table {table_id} closed; 2 players told"
    for who in (ANN, BOB):
        told = table.new_mails(who)
        assert kinds(told) == ["table"]
        assert "The GM has closed table table-1" in " ".join(assert_table_mail(told[0], table_id, answer=False)
                                                              .split())
    assert table.new_mails(CY) == []
    assert rows(table)[0]["status"] == "closed"
    for args, words in ((["close", table_id], "is closed already"), (["close", "nosuch"], "there is no table"),
                        (["close"], "needs a table's id"), (["list", "extra"], "takes no id"),
                        (["list", "--seats", "2"], "--seats is for table open")):
        code, _, err = table.pbem("table", *args, check=False)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (args, err)


def test_a_started_table_cannot_be_closed(table):
    table_id = open_table(table, "matchplay", "--seats", "2")
    sit(table, ANN, table_id)
    sit(table, BOB, table_id)
    code, _, err = table.pbem("table", "close", table_id, check=False)
    assert code == 2 and f"ABANDON {table_id}" in err
    assert json.loads(table.pbem("table", "list", "--json")[1])[0]["status"] == "started"
