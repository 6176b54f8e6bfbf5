"""The league file: read into a LeaguePlan, or refused with one line per wrong key."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.league.plan import LeagueError, LeaguePlayer, read_plan

CONTRACT_EXAMPLE = """\
id: winter                     # optional; default league-<n>
name: Winter League
game: matchplay                # any game type; `options:` as with --option
course: parkland               # one course for every round, or `courses: [a, b, ...]`
players:                       # "Name <address>", or {name:, address:, timezone:}
  - George <george@example.test>
  - Bill <bill@example.test>
start: 2026-12-07T18:00:00Z    # round 1 opens then
round_length: 7d               # round r opens at start + (r-1) * round_length
deadline: 48h                  # each turn's deadline in the league's games
format: round-robin
"""


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def league(**changes) -> dict:
    """A good six-player MatchPlay league file, with ``changes`` (None removes a key)."""
    data = {"id": "winter", "name": "Winter League", "game": "matchplay",
            "players": [f"Player {i} <p{i}@example.test>" for i in range(6)],
            "start": "2026-12-07T18:00:00Z"}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def problems(data, **kwargs) -> list[str]:
    with pytest.raises(LeagueError) as caught:
        read_plan(data, **kwargs)
    lines = caught.value.problems
    assert str(caught.value) == "\n".join(lines)
    assert all("\n" not in line and line.strip() for line in lines)
    return lines


def test_the_contract_example_reads_as_written():
    plan = read_plan(CONTRACT_EXAMPLE)
    assert plan.id == "winter" and plan.name == "Winter League" and plan.game == "matchplay"
    assert plan.courses == ("parkland",) and dict(plan.options) == {}
    assert plan.players == (LeaguePlayer("George", "george@example.test"),
                            LeaguePlayer("Bill", "bill@example.test"))
    assert plan.start == utc(2026, 12, 7, 18)
    assert plan.round_length == timedelta(days=7) and plan.deadline == "48h"
    assert (plan.format, plan.table_size, plan.rounds, plan.min_table) == ("round-robin", 2, 1, 2)
    assert (plan.absence_days, plan.withdrawn) == (14, "forfeit")


def test_defaults_and_derived_values():
    plan = read_plan(league(id=None, deadline=None))
    assert plan.id is None and plan.deadline is None
    assert plan.format == "round-robin" and plan.rounds == 5          # n - 1 for six
    assert plan.courses == ("parkland",) and plan.round_length == timedelta(days=7)
    assert read_plan(league(players=[f"p{i}@example.test" for i in range(7)])).rounds == 7
    tables = read_plan(league(game="dicegolf", rounds=4))
    assert (tables.format, tables.table_size, tables.rounds, tables.min_table) == ("tables", 4, 4, 1)
    assert read_plan(league(game="golf", rounds=2)).table_size == 4   # golf seats up to 8


def test_the_schedule_of_rounds_and_courses():
    plan = read_plan(league(courses=["parkland", "links", "executive"], round_length="3d"))
    assert plan.opens(1) == utc(2026, 12, 7, 18) and plan.opens(3) == utc(2026, 12, 13, 18)
    assert [plan.course_for(r) for r in range(1, 6)] == [
        "parkland", "links", "executive", "parkland", "links"]
    assert plan.round_at(utc(2026, 12, 7, 17, 59)) == 0
    assert plan.round_at(utc(2026, 12, 7, 18)) == 1
    assert plan.round_at(utc(2026, 12, 10, 18)) == 2
    assert plan.round_at(utc(2027, 6, 1)) == 5                        # never past the last


def test_players_in_both_spellings_and_their_time_zones():
    plan = read_plan(league(players=[
        "George <George@Example.test>", "bill@example.test",
        {"name": "Ann Lee", "address": "ann@example.test", "timezone": "europe/paris"},
        {"address": "dee@example.test"}]))
    assert plan.players == (
        LeaguePlayer("George", "george@example.test"), LeaguePlayer("bill", "bill@example.test"),
        LeaguePlayer("Ann Lee", "ann@example.test", "Europe/Paris"),
        LeaguePlayer("dee", "dee@example.test"))
    assert plan.player("GEORGE@example.test").name == "George"
    assert plan.players[2].spec() == "Ann Lee <ann@example.test>"


def test_options_are_checked_by_the_engine_and_kept_as_given():
    plan = read_plan(league(game="golf", rounds=3, options={"Layout": "6", "ending": "faceup"}))
    assert dict(plan.options) == {"layout": 6, "ending": "faceup"}


def test_start_as_yaml_time_as_date_and_with_an_offset():
    assert read_plan(CONTRACT_EXAMPLE.replace("18:00:00Z", "19:00:00+01:00")).start == utc(2026, 12, 7, 18)
    assert read_plan(CONTRACT_EXAMPLE.replace("2026-12-07T18:00:00Z", "2026-12-07")).start == utc(2026, 12, 7)
    assert read_plan(league(start="2026-12-07T18:00:00")).start == utc(2026, 12, 7, 18)


def test_a_plan_written_out_reads_back_the_same():
    plan = read_plan(league(game="golfdeck", rounds=3, table_size=3, withdrawn="void",
                            courses=["links", "parkland"], round_length="1d12h", absence_days=7,
                            options={"holes": 9},
                            players=[{"name": "Ann", "address": "ann@example.test",
                                      "timezone": "Asia/Tokyo"}, "b@example.test",
                                     "c@example.test"]))
    assert read_plan(plan.to_dict()) == plan


@pytest.mark.parametrize(("changes", "expected"), [
    ({"id": "a b"}, "id: expected letters, digits, - and _"),
    ({"id": "x" * 41}, "id: expected letters, digits, - and _ (at most 40)"),
    ({"id": "x" * 36}, "id: at most 35 characters here, so that game ids like"),
    ({"name": None}, "name: required"),
    ({"name": ["x"]}, "name: expected text, got a list"),
    ({"name": "two\nlines"}, "name: expected one line of text"),
    ({"game": None}, "game: required"),
    ({"game": "chess"}, 'game: unknown game type "chess"; expected one of '),
    ({"options": "nmr=wait"}, "options: expected a mapping of option: value"),
    ({"options": {"colour": "red"}}, "options.colour: unknown option for matchplay; known: nmr, takeover_after"),
    ({"options": {"nmr": "never"}}, "options.nmr: expected one of autoplay, wait, forfeit"),
    ({"course": "nowhere"}, 'course: unknown course "nowhere"'),
    ({"course": "444 444 444"}, "course: MatchPlay Golf needs an 18-hole course"),
    ({"game": "golfdeck", "rounds": 2, "options": {"holes": "abc"}},
     'options.holes: expected a positive whole number, got "abc"'),
    ({"courses": "parkland"}, "courses: expected a list of course names"),
    ({"courses": ["links", "nowhere"]}, 'courses[1]: unknown course "nowhere"'),
    ({"course": "links", "courses": ["links"]}, "courses: give course (one for every round) or"),
    ({"players": None}, "players: expected a list of players"),
    ({"players": ["George <george@example.test>"]}, "players: a round robin needs at least 2"),
    ({"players": ["a@x.test", "George <george>"]}, 'players[1]: expected "Name <address>"'),
    ({"players": ["a@x.test", "b@x.test, c@x.test"]}, "players[1]: one player a line"),
    ({"players": ["a@x.test", 7]}, 'players[1]: expected "Name <address>" or a mapping'),
    ({"players": ["a@x.test", {"name": "B"}]}, "players[1].address: expected an address like"),
    ({"players": ["a@x.test", {"address": "b@x.test", "tz": "UTC"}]},
     "players[1].tz: unknown key; a player has name, address, timezone"),
    ({"players": ["a@x.test", {"address": "b@x.test", "timezone": "Mars/Base"}]},
     'players[1].timezone: unknown time zone "Mars/Base"'),
    ({"players": ["a@x.test", {"address": "b@x.test", "name": ""}]},
     "players[1].name: expected one line of text"),
    ({"players": ["a@x.test", "A <A+golf@X.test>"]},
     "players[1].address: a+golf@x.test is the mailbox of players[0] already"),
    ({"start": None}, "start: required: when round 1 opens, like 2026-12-07T18:00:00Z"),
    ({"start": "next monday"}, 'start: expected an ISO 8601 time like 2026-12-07T18:00:00Z, got "next'),
    ({"round_length": 7}, "round_length: expected a duration like 7d, 48h or 90m, got 7"),
    ({"round_length": "2y"}, 'round_length: expected a duration like 7d, 48h or 90m, got "2y"'),
    ({"deadline": "soon"}, 'deadline: expected a duration like 7d, 48h or 90m, got "soon"'),
    ({"format": "swiss"}, 'format: expected one of round-robin, tables, got "swiss"'),
    ({"game": "dicegolf", "format": "round-robin"}, "format: round-robin is for two-player games"),
    ({"table_size": 3}, "table_size: a round robin plays matches of 2; leave table_size out"),
    ({"game": "golfdeck", "rounds": 3, "table_size": 5},
     "table_size: Golf (golf deck) is played by 2 to 4 players; expected table_size from 2 to 4"),
    ({"game": "golfdeck", "rounds": 3, "table_size": "many"}, "table_size: expected a whole number"),
    ({"game": "golfdeck"}, "rounds: required with format tables"),
    ({"game": "golfdeck", "rounds": 0}, "rounds: expected a whole number from 1 to 100, got 0"),
    ({"rounds": 4}, "rounds: a round robin of 6 players has 5 rounds; leave rounds out"),
    ({"game": "golfdeck", "rounds": 2, "players": ["a@x.test"]},
     "players: Golf (golf deck) needs at least 2 players, got 1"),
    ({"absence_days": -1}, "absence_days: expected a whole number from 0 to 366, got -1"),
    ({"absence_days": True}, "absence_days: expected a whole number from 0 to 366, got true"),
    ({"withdrawn": "maybe"}, 'withdrawn: expected one of forfeit, void, robot, got "maybe"'),
    ({"colour": "red"}, "colour: unknown key; a league file knows id, name, game"),
])
def test_a_wrong_key_is_named_with_what_would_be_right(changes, expected):
    lines = problems(league(**changes))
    assert any(line.startswith(expected) for line in lines), lines


def test_every_wrong_key_is_reported_at_once():
    lines = problems(league(id="a b", game="golfdeck", rounds="x", start="soon", deadline="1",
                            withdrawn="no", options={"holes": "abc", "game": "x", "foo": 1},
                            players=["a@x.test", "A@x.test", "c"]))
    keys = [line.split(":", 1)[0] for line in lines]
    assert keys == ["id", "options.holes", "options.game", "options.foo", "players[2]",
                    "players[1].address", "start", "deadline", "withdrawn", "rounds"]


def test_the_gm_address_is_no_player():
    lines = problems(league(players=["a@x.test", "GM+x@Example.test"]), gm_address="gm@example.test")
    assert lines == ["players[1].address: gm+x@example.test is the GM's own address: "
                     "a player needs their own"]


def test_what_is_not_a_mapping_is_refused_whole():
    assert problems("- a\n- b") == ["top level: expected a mapping of keys (id, name, game, "
                                    "options ...), got a list"]
    assert problems("name: [") == ["league file: YAML syntax error at line 1, column 8: "
                                   "expected the node content, but found '<stream end>'"]
