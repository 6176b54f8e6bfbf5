"""`pbem league create` with a wrong file (issue 18, item 13): every problem of the file, one a
line, each naming its key, none cut inside its value; nothing created; exit 2."""
from __future__ import annotations

import re

import pytest

from pbem.league.plan import LeagueError, read_plan

GOOD = """\
id: cup
name: Winter Cup
game: matchplay
course: parkland
players:
  - Alice <alice@example.test>
  - Bruno <bruno@example.test>
start: 2026-12-07T18:00:00Z
"""

BAD = """\
id: "bad id!"
name: Winter
game: matchplay
course: nowhere
options: {wibble: 3}
players:
  - Alice <alice@example.test>
  - "not an address at all, really not one: a very long value that goes on and on"
  - {name: Bill, address: bill@example.test, timezone: Mars/Olympus, colour: red}
start: tomorrow-ish
round_length: forever
deadline: 48 hours
format: swiss
table_size: 0
rounds: -3
absence_days: 400
withdrawn: maybe
extra_key: 1
name: Winter again
"""
KEYS = ["name", "extra_key", "id", "options.wibble", "course", "players[1]", "players[2].colour",
        "players[2].timezone", "start", "round_length", "deadline", "absence_days", "withdrawn", "format",
        "table_size", "rounds"]


def problems(text: str) -> list[str]:
    with pytest.raises(LeagueError) as caught:
        read_plan(text)
    return caught.value.problems


def test_league_create_lists_every_problem_on_its_own_line_and_creates_nothing(table):
    (table.root / "bad.yaml").write_text(BAD)
    code, out, err = table.pbem("league", "create", "bad.yaml", check=False)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0] == f"pbem league: bad.yaml: {len(KEYS)} problems, one a line:"
    assert lines[-1] == "No league was created; correct the file and run league create again."
    listed = lines[1:-1]
    assert [line.split(":", 1)[0] for line in listed] == KEYS
    for line in listed:  # every quoted value is whole, or says how much of it was left out
        assert line.count('"') % 2 == 0, line
    assert 'got "not an address at all, really not one: a very long value tha" (and 16 more characters)' \
        in "\n".join(listed)
    _, shown, _ = table.pbem("league", "list")
    assert shown.strip() == ""


def test_a_value_ending_in_a_quote_keeps_it(table):
    (table.root / "bad.yaml").write_text(GOOD + "withdrawn: maybe\n")
    code, _, err = table.pbem("league", "create", "bad.yaml", check=False)
    assert code == 2
    assert 'withdrawn: expected one of forfeit, void, robot, got "maybe"\n' in err


def test_a_key_written_twice_is_a_problem_not_a_silent_choice():
    assert problems(GOOD + "Name: Summer Cup\n") == ["name: written twice (lines 2 and 9); write it once"]


def test_a_player_s_name_and_time_zone_are_both_named():
    lines = problems(GOOD.replace("  - Bruno <bruno@example.test>",
                                  '  - {name: "", address: bruno@example.test, timezone: Mars/Base}'))
    assert [line.split(":", 1)[0] for line in lines] == ["players[1].name", "players[1].timezone"]


def test_an_id_too_long_for_game_ids_is_named_beside_the_other_problems():
    lines = problems(GOOD.replace("id: cup", "id: " + "x" * 38) + "deadline: soon\n")
    assert [line.split(":", 1)[0] for line in lines] == ["deadline", "id"]


def test_a_course_the_game_refuses_is_named_beside_a_wrong_option():
    lines = problems(GOOD.replace("course: parkland", "course: 444 444 444") + "options: {colour: red}\n")
    keys = [line.split(":", 1)[0] for line in lines]
    assert keys == ["options.colour", "course"], lines
    assert re.match(r"course: MatchPlay Golf needs an 18-hole course", lines[1])


def test_a_line_break_in_a_value_stays_on_the_problem_s_line():
    lines = problems(GOOD + 'withdrawn: "may\\nbe"\n')
    assert lines == ['withdrawn: expected one of forfeit, void, robot, got "may\\nbe"']
