"""`pbem arena` (CONTRACT section 12): its protocol with outside programs (an unreadable line, an
illegal one, a program that hangs or dies), the seats' rotation, a run repeated exactly, and
what a program is shown (its seat's view with the public events, the legal orders)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pbem import cli
from pbem.gm.courses import DEFAULT_COURSE, load_course
from pbem.robots.arena import Arena, read_seat

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = ROOT / "contrib" / "bots" / "first_legal.py"


def bot(tmp_path: Path, name: str, body: str) -> str:
    """An exec SPEC for a small Python program whose loop over the questions is `body`."""
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys, time\n" + textwrap.dedent(body))
    return f"exec:{sys.executable} {path}"


def arena(game_type: str, *specs: str, **kwargs) -> Arena:
    return Arena(game_type, [read_seat(s) for s in specs], {}, load_course(DEFAULT_COURSE), **kwargs)


def test_a_line_that_is_no_order_loses_the_game_and_is_reported(tmp_path):
    nonsense = bot(tmp_path, "nonsense", """
        for line in sys.stdin:
            print("PLEASE WIN FOR ME", flush=True)
    """)
    tallies = arena("golfdeck", nonsense, "robot:easy").run(4)
    assert [t.won for t in tallies] == [0, 4]
    assert len(tallies[0].illegal) == 4 and not tallies[1].illegal
    assert "'PLEASE WIN FOR ME' does not read as one order" in tallies[0].illegal[0]
    assert tallies[0].scores == [] and tallies[1].scores == []  # a forfeited game counts in no mean


def test_a_readable_but_illegal_order_loses_with_the_rule_it_broke(tmp_path):
    # A stroke card the hand does not hold: read by the grammar, refused by the rules.
    wrong = bot(tmp_path, "wrong", """
        for line in sys.stdin:
            print("PLAY 9 9 9", flush=True)
    """)
    tallies = arena("matchplay", wrong, "robot:easy").run(2)
    assert tallies[1].won == 2 and len(tallies[0].illegal) == 2
    assert "PLAY 9 9 9" in tallies[0].illegal[0]


def test_a_program_that_hangs_is_stopped_and_loses_and_the_next_game_starts_it_again(tmp_path):
    log = tmp_path / "starts.txt"
    hangs = bot(tmp_path, "hangs", f"""
        open({str(log)!r}, "a").write("started\\n")
        for line in sys.stdin:
            time.sleep(3600)
    """)
    tallies = arena("golfdeck", hangs, "robot:easy", timeout=0.5).run(2)
    assert tallies[1].won == 2 and len(tallies[0].illegal) == 2
    assert "no answer within 0.5 s" in tallies[0].illegal[0]
    assert log.read_text().count("started") == 2


def test_a_program_that_dies_loses_and_is_started_again(tmp_path):
    dies = bot(tmp_path, "dies", """
        sys.exit(3)
    """)
    tallies = arena("matchplay", dies, "robot:easy").run(2)
    assert tallies[1].won == 2 and "ended without an answer" in tallies[0].illegal[0]


def test_seats_rotate_so_each_spec_plays_each_seat_equally_often(tmp_path):
    seen = tmp_path / "seats.txt"
    watcher = bot(tmp_path, "watcher", f"""
        for line in sys.stdin:
            q = json.loads(line)
            open({str(seen)!r}, "a").write(str(q["seat"]) + "\\n")
            print(q["legal"][0], flush=True)
    """)
    a = arena("onpar", watcher, "robot:easy", "robot:easy")
    assert [a.sitting(k) for k in range(3)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    a.run(3)
    assert set(seen.read_text().split()) == {"0", "1", "2"}


def test_a_run_is_repeated_exactly_from_its_seed():
    def run() -> list[dict]:
        rows = [t.as_json() for t in arena("golf", "robot:strong", "robot:easy", first_seed=40).run(6)]
        return [{k: v for k, v in row.items() if k != "decision_ms"} for row in rows]
    first = run()
    assert first == run()
    assert sum(r["won"] for r in first) + max(r["shared"] for r in first) == 6


def test_a_program_is_shown_its_view_with_the_public_events_and_the_legal_orders(tmp_path):
    asked = tmp_path / "asked.jsonl"
    keeper = bot(tmp_path, "keeper", f"""
        for line in sys.stdin:
            open({str(asked)!r}, "a").write(line)
            print(json.loads(line)["legal"][-1], flush=True)
    """)
    tallies = arena("golfdeck", keeper, "robot:easy").run(1)
    assert not tallies[0].illegal
    questions = [json.loads(line) for line in asked.read_text().splitlines()]
    assert questions and all(set(q) == {"view", "seat", "legal"} for q in questions)
    assert all(isinstance(q["legal"], list) and q["legal"] for q in questions)
    later = questions[-1]["view"]
    # The robot's draws are public: the program's view tells it of them, as its mail would.
    assert any(ev.get("seat") not in (None, later["seat"]) for ev in later["events"])


def test_the_example_bot_plays_every_game_to_its_end():
    for game_type in ("matchplay", "golfdeck", "golf", "onpar", "dicegolf"):
        tallies = arena(game_type, f"exec:{sys.executable} {FIRST_LEGAL}", "robot:easy").run(1)
        assert not tallies[0].illegal, (game_type, tallies[0].illegal)
        assert tallies[0].seconds, game_type


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["arena", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_json_one_entry_per_seat_in_the_order_given(capsys):
    code, out, _ = run_cli(capsys, "golfdeck", "--seat", "robot:easy", "--seat", "robot:strong",
                           "--games", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 4
    assert [s["spec"] for s in data["seats"]] == ["robot:easy", "robot:strong"]
    assert set(data["seats"][0]) == {"spec", "won", "shared", "mean_score", "decision_ms", "illegal"}
    assert data["seats"][0]["won"] + data["seats"][1]["won"] + data["seats"][0]["shared"] == 4


@pytest.mark.parametrize("args, said", [
    (["golfdeck", "--seat", "robot:clever", "--seat", "robot:easy"], "a seat is robot:<level>"),
    (["golfdeck", "--seat", "robot:easy"], "golfdeck is played by 2 to"),
    (["chess", "--seat", "robot:easy", "--seat", "robot:easy"], "chess"),
    (["golfdeck", "--seat", "robot:easy", "--seat", "robot:easy", "--games", "0"], "--games 0"),
    (["golfdeck", "--seat", "robot:easy", "--seat", "robot:easy", "--option", "colour=red"], "unknown option"),
])
def test_a_wrong_command_is_one_line_and_exit_2(capsys, args, said):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and not out and said in err and err.count("\n") == 1


def test_the_command_runs_as_a_program():
    done = subprocess.run([sys.executable, "-m", "pbem", "arena", "matchplay", "--seat", "robot:easy",
                           "--seat", f"exec:{sys.executable} {FIRST_LEGAL}", "--games", "2"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("matchplay: 2 games, seeds 1 to 2, seats rotated")


@pytest.mark.parametrize("game_type,program", [
    ("golfdeck", "golfdeck_greedy.py"), ("golf", "golf_greedy.py"), ("onpar", "onpar_greedy.py"),
    ("matchplay", "matchplay_greedy.py"), ("golfdeck", "random_legal.py"), ("onpar", "random_legal.py")])
def test_the_contrib_players_play_their_game_legally(game_type, program):
    # The tuned greedy players and the random one read only the view and `legal`: two games
    # each (both seats) against easy, every move legal, every game played to its end.
    spec = f"exec:{sys.executable} {ROOT / 'contrib' / 'bots' / program}"
    tallies = Arena(game_type, [read_seat(spec), read_seat("robot:easy")], {"holes": 1} if game_type != "matchplay"
                    else {}, load_course(DEFAULT_COURSE), first_seed=7).run(2)
    assert not tallies[0].illegal, tallies[0].illegal
    assert sum(t.won + t.shared for t in tallies) >= 2 and len(tallies[0].scores) == 2


def test_the_golf_greedy_player_plays_the_2x3_layout_too():
    spec = f"exec:{sys.executable} {ROOT / 'contrib' / 'bots' / 'golf_greedy.py'}"
    tallies = Arena("golf", [read_seat(spec), read_seat("robot:easy")], {"holes": 1, "layout": 6},
                    load_course(DEFAULT_COURSE), first_seed=7).run(2)
    assert not tallies[0].illegal, tallies[0].illegal
