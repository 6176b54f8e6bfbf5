"""The command line as the contract describes it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import BILL, GEORGE, body


def test_new_game_prints_the_id_alone_and_list_shows_it(table):
    assert table.new_match("m7") == "m7"
    _, out, _ = table.pbem("list", "--json")
    rows = json.loads(out)
    assert [r["id"] for r in rows] == ["m7"] and rows[0]["status"] == "active" and rows[0]["turn"] == 1
    _, out, _ = table.pbem("list")
    assert out.startswith("m7") and "matchplay" in out


def test_version_prints_pbem_and_the_packages_version_and_exits_0(tmp_path):
    """`pbem --version` (CONTRACT section 3): no configuration is read, so none need exist."""
    import pbem
    env = {k: v for k, v in os.environ.items() if k != "PBEM_CONFIG"}
    r = subprocess.run([sys.executable, "-m", "pbem", "--version"], capture_output=True, text=True, cwd=tmp_path,
                       env=env, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"pbem {pbem.__version__}\n", "")
    assert pbem.__version__.count(".") >= 1 and pbem.__version__.replace(".", "").isdigit()


def test_a_command_says_warnings_alone_on_stderr_unless_v_and_dates_its_lines_by_pbem_now(table):
    table.new_match()
    table.send("list@example.test", "HELP", headers={"Precedence": "bulk"})  # screened: an info line
    code, _, err = table.pbem("process")
    assert code == 0 and err == ""
    table.send("list@example.test", "STATUS", headers={"Precedence": "bulk"})
    _, _, err = table.pbem("process", "--verbose", now="2026-12-02T07:30:00Z")
    line = next(line for line in err.splitlines() if "screened" in line)
    assert line.startswith("2026-12-02T07:30:00Z pbem[") and " INFO " in line, err


@pytest.mark.parametrize("level, verbose, daemon, shown", [
    (None, False, False, {"WARNING", "ERROR"}),
    (None, True, False, {"INFO", "WARNING", "ERROR"}),
    (None, False, True, {"INFO", "WARNING", "ERROR"}),  # `pbem run`: its stderr is its log
    ("debug", False, False, {"DEBUG", "INFO", "WARNING", "ERROR"}),
    ("warning", True, True, {"INFO", "WARNING", "ERROR"}),
    ("warning", False, True, {"WARNING", "ERROR"}),
])
def test_the_log_level_of_a_command_the_daemon_and_the_configuration(table, level, verbose, daemon, shown):
    import contextlib
    import io
    import logging

    from pbem.commands.common import set_up_logging
    from pbem.config import load
    if level:
        (table.root / "pbem.yaml").write_text((table.root / "pbem.yaml").read_text() + f"log:\n  level: {level}\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        set_up_logging(load(table.root / "pbem.yaml"), verbose, daemon=daemon)
        for name in ("debug", "info", "warning", "error"):
            getattr(logging.getLogger("pbem"), name)("a line")
    assert {line.split()[2] for line in err.getvalue().splitlines()} == shown
    assert all(line.startswith("2026-12-01T18:00:00Z pbem[") for line in err.getvalue().splitlines())


def test_new_game_without_an_id_numbers_games(table):
    _, out, _ = table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL)
    assert out.strip() == "matchplay-1"
    _, out, _ = table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL)
    assert out.strip() == "matchplay-2"


def test_show_json_has_the_contract_keys(table):
    table.new_match()
    st = table.show()
    for key in ("id", "type", "status", "turn", "players", "result", "to_move", "history"):
        assert key in st
    assert st["players"][0] == {"name": "George", "address": GEORGE, "score": 0, "bounced": None}
    assert st["to_move"] == [GEORGE, BILL] and st["result"] is None
    _, out, _ = table.pbem("show", "m1")
    assert "George" in out and "hand 3 3 3 3" in out  # the GM sees every hand


def test_usage_mistakes_exit_2_with_one_line(table):
    table.new_match()
    for args in (["show", "nope"], ["new-game", "chess", "--player", GEORGE],
                 ["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--course", "999"],
                 ["new-game", "matchplay", "--player", GEORGE],
                 ["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--id", "m1"],
                 ["new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--deadline", "soon"],
                 ["new-game", "matchplay", "--player", "not an address", "--player", BILL]):
        code, out, err = table.pbem(*args, check=False)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)


def test_a_bad_config_is_refused_line_by_line(table, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("gm:\n  address: nobody\nsmtp:\n  port: abc\ntransport: pop\n")
    code, _, err = table.pbem("--config", str(bad), "list", check=False)
    assert code == 2
    lines = err.strip().splitlines()
    assert 'smtp.port: expected an integer, got "abc"' in lines
    assert any(line.startswith("transport:") for line in lines) and any(line.startswith("gm.address:") for line in lines)


def test_a_bad_pbem_now_is_a_usage_error(table):
    table.new_match()
    code, _, err = table.pbem("process", now="yesterday", check=False)
    assert code == 2 and "PBEM_NOW" in err


def test_deadline_autoplay_with_pbem_now(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "examples", "--id", "m1", "--deadline", "48h", now="2026-12-01T18:00:00Z")
    assert table.show()["deadline"] == "2026-12-03T18:00:00Z"
    table.order(GEORGE, "PLAY 3 5 4", now="2026-12-02T09:00:00Z")
    table.pbem("process", now="2026-12-03T17:59:00Z")
    assert table.show()["turn"] == 1
    table.pbem("process", now="2026-12-03T18:00:00Z")
    st = table.show()
    assert st["turn"] == 2 and st["deadline"] == "2026-12-05T18:00:00Z"
    report = [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "report"][-1]
    text = body(report)
    assert "Bill sent no orders by the deadline (autoplay)" in text and "PLAY 4 4 5" in text
    assert report["Date"].startswith("Thu, 03 Dec 2026 18:00")
    assert [e["kind"] for e in st["history"]].count("nmr") == 1


def test_deadline_forfeit_loses_every_hole(table):
    table.new_match("m1", "examples", "--option", "nmr=forfeit")
    table.order(GEORGE, "PLAY 5 5 5\nSPECIAL BLUE+1 HOLE 1", now="2026-12-01T00:00:00Z")
    table.pbem("process", now="2027-01-01T00:00:00Z")
    st = table.show()
    assert st["turn"] == 2 and st["players"][0]["score"] == 3 and st["players"][1]["score"] == 0
    assert "forfeit" in body([m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "report"][-1])


@pytest.mark.slow
def test_demo_plays_a_whole_match(tmp_path):
    env = dict(os.environ, PBEM_NOW="2026-12-01T18:00:00Z")  # the demo's clock too is given
    env.pop("PBEM_CONFIG", None)
    env.pop("PBEM_CLOCK", None)
    r = subprocess.run([sys.executable, "-m", "pbem", "demo"], capture_output=True, text=True, cwd=tmp_path,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("Result: ") and ("wins" in last or "halved" in last)
    assert "George -> GM: PLAY" in r.stdout and "[report]" in r.stdout
    folder = r.stdout.split("Demo folder: ", 1)[1].split()[0]
    assert not os.path.exists(folder)  # removed at the end
    # The exchange reads in the order it happened: each turn's orders come before its reports.
    lines = r.stdout.splitlines()
    first_report = next(i for i, ln in enumerate(lines) if "[report]" in ln)
    assert sum("-> GM: PLAY" in ln for ln in lines[:first_report]) == 2
    # A pass's mail is shown whole before anyone answers it: both reports of a turn stand together.
    reports = [i for i, ln in enumerate(lines) if "[report]" in ln]
    assert reports and all(b == a + 1 for a, b in zip(reports[::2], reports[1::2])), lines


@pytest.mark.slow
def test_demo_keep_dir_leaves_a_gm_folder_to_carry_on_from(tmp_path):
    env = dict(os.environ, PBEM_NOW="2026-12-01T18:00:00Z")
    env.pop("PBEM_CONFIG", None)
    env.pop("PBEM_CLOCK", None)
    kept = tmp_path / "my-demo"
    r = subprocess.run([sys.executable, "-m", "pbem", "demo", "--keep", str(kept)], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"the demo's folder is kept: {kept}" in r.stdout
    assert {"pbem.yaml", "pbem.sqlite3", "mail"} <= {p.name for p in kept.iterdir()}
    listed = subprocess.run([sys.executable, "-m", "pbem", "list"], capture_output=True, text=True, cwd=kept,
                            env=env, timeout=120)
    assert listed.returncode == 0 and listed.stdout.startswith("demo ") and "finished" in listed.stdout
    # A folder that holds anything is not the demo's to fill: one line, exit 2, nothing touched.
    again = subprocess.run([sys.executable, "-m", "pbem", "demo", "--keep", str(kept)], capture_output=True,
                           text=True, cwd=tmp_path, env=env, timeout=120)
    assert again.returncode == 2 and "a new or empty folder" in again.stderr and not again.stdout


def test_help_on_every_command(table):
    """Every command's --help says what it does in a sentence of its own, under the usage."""
    from pbem.cli import COMMANDS
    assert {"process", "show", "list", "check", "run", "export", "verify", "league"} <= set(COMMANDS)
    for command in sorted(COMMANDS):
        code, out, _ = table.pbem(command, "--help", check=False)
        assert code == 0 and out.startswith(f"usage: pbem {command}"), command
        described = out.split("\n\n")[1]
        assert not described.startswith(("positional arguments:", "options:")) and len(described) > 40, (command, out)
    _, out, _ = table.pbem("--help")
    for command in COMMANDS:
        assert f"    {command} " in out, command  # and the overview names each with its one line


def test_list_names_who_is_to_move_and_a_game_that_is_over_has_no_clock(table):
    table.new_match()
    _, out, _ = table.pbem("list")
    assert out.rstrip().endswith("waiting for George, Bill"), out
    rows = json.loads(table.pbem("list", "--json")[1])
    assert {"id", "type", "status", "turn", "deadline", "paused", "result"} < set(rows[0])
    assert rows[0]["waiting_for"] == ["George", "Bill"]
    table.order(GEORGE, "PLAY 3 5 4")
    assert json.loads(table.pbem("list", "--json")[1])[0]["waiting_for"] == ["Bill"]
    assert table.pbem("list")[1].rstrip().endswith("waiting for Bill")
    table.pbem("gm", "PAUSE", "m1")
    assert "paused" in table.pbem("list")[1] and "(clock stopped)" in table.pbem("list")[1]
    table.pbem("gm", "ABANDON", "m1")
    _, out, _ = table.pbem("list")
    line = out.strip()
    assert line.split()[2] == "abandoned" and line.endswith("deadline -"), line
    assert "clock stopped" not in line and "paused" not in line and "waiting" not in line, line
    rows = json.loads(table.pbem("list", "--json")[1])
    assert rows[0]["paused"] is False and rows[0]["waiting_for"] == []
    assert table.show()["paused"] is False
    assert "paused" not in table.pbem("show", "m1")[1].splitlines()[0]


@pytest.mark.parametrize("game_type, words", [("matchplay", "holes won"), ("golf", "points"),
                                               ("golfdeck", "points"), ("onpar", "strokes"),
                                               ("dicegolf", "score")])
def test_show_names_what_each_game_counts(table, game_type, words):
    table.pbem("new-game", game_type, "--id", "g1", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>")
    lines = table.pbem("show", "g1")[1].splitlines()
    score = table.show("g1")["players"][0]["score"]  # the JSON key stays as the contract has it
    assert lines[1] == f"  George <{GEORGE}>  {words} {score}", lines[1]


@pytest.mark.slow
def test_run_with_the_local_transport_answers_mail_and_stops_cleanly(table):
    import signal
    import time
    table.new_match()
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=table.root, env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        table.send(GEORGE, "PLAY 3 5 4", subject="Re: [m1] welcome", to=table.reply_to(GEORGE))
        deadline = time.monotonic() + 30
        while len(table.mails(GEORGE)) < 2:
            assert time.monotonic() < deadline and daemon.poll() is None, daemon.stderr.read().decode()[-2000:]
            time.sleep(0.1)
        assert table.mails(GEORGE)[-1]["X-PBEM-Kind"] == "ack"
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=30)
    assert code == 0
    assert b"pbem run: stopped" in daemon.stderr.read()


def test_every_command_works_for_every_game_type(table):
    """`show` (text and JSON) and `list` over one game of each type, and the GM sees hidden cards."""
    from pbem.games.registry import types
    GAMES = types()
    for game_type in sorted(GAMES):
        table.pbem("new-game", game_type, "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
                   "--id", f"t-{game_type}", "--seed", "4")
        code, text, err = table.pbem("show", f"t-{game_type}")
        assert code == 0 and "Traceback" not in err and f"t-{game_type}" in text
        shown = table.show(f"t-{game_type}")
        assert shown["type"] == game_type and [p["address"] for p in shown["players"]] == [GEORGE, BILL]
        if "grids" in shown["state"]:  # every face-down card, marked as such
            first = shown["state"]["grids"][0][0]
            assert f"[{first}]" in text
    _, listed, _ = table.pbem("list")
    assert all(f"t-{t}" in listed for t in GAMES)
    assert {g["id"] for g in json.loads(table.pbem("list", "--json")[1])} == {f"t-{t}" for t in GAMES}


def test_options_go_before_or_after_the_command_and_a_closed_pipe_is_quiet(table):
    table.new_match()
    config = str(table.root / "pbem.yaml")
    table.monkeypatch.delenv("PBEM_CONFIG")
    for argv in (["--config", config, "list"], ["list", "--config", config], ["list", "-v", "--config", config]):
        code, out, _ = table.pbem(*argv)
        assert code == 0 and "m1" in out, argv
    code, out, _ = table.pbem("new-game", "--help", check=False)
    assert code == 0 and all(t in out for t in ("matchplay", "golfdeck", "golf,"))
    # The reader of the pipe is gone before pbem writes: no BrokenPipe traceback, exit 0.
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "--config", config, "show", "m1", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=table.root)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("extra,words", [(["--id", "cup 1"], "game id"), (["--id", "[x]"], "game id"),
                                         (["--id", "x" * 41], "game id")])
def test_new_game_refuses_ids_that_are_not_plain(table, extra, words):
    code, out, err = table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL, *extra, check=False)
    assert code == 2 and words in err and out == ""


@pytest.mark.parametrize("address", ["gm@example.test", "GM+x@example.test"])
def test_new_game_refuses_the_gms_own_address_as_a_player(table, address):
    code, out, err = table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", address, check=False)
    assert code == 2 and "GM's own address" in err and out == ""
    assert json.loads(table.pbem("list", "--json")[1]) == []


def test_the_docs_command_table_has_every_command_and_says_how_to_run_pbem_from_anywhere():
    from pathlib import Path

    from pbem.cli import COMMANDS
    root = Path(__file__).resolve().parent.parent
    reference = (root / "docs" / "commands.md").read_text()
    table = reference.split("## Options and exit codes", 1)[0]
    for command in COMMANDS:
        assert f"| `pbem {command}" in table, command
    # The GM works in a folder of their own: no example runs the clone's venv by a relative path.
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text()
        assert "$ .venv/bin/pbem" not in text and " .venv/bin/pbem " not in text, page.name
    first = (root / "docs" / "first-match.md").read_text()
    setup = first.split("## Run pbem from your own folder", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/activate" in setup and "/.venv/bin/pbem" in setup


def test_one_game_that_cannot_be_read_does_not_stop_the_listing(table):
    import sqlite3
    table.new_match("m1")
    table.new_match("m2")
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    conn.execute("UPDATE games SET state = '{}' WHERE id = 'm1'")
    conn.commit()
    conn.close()
    lines = table.pbem("list")[1].splitlines()
    assert lines[0].startswith("m1") and lines[0].endswith("(its state cannot be read: see pbem show)")
    assert lines[1].startswith("m2") and lines[1].endswith("waiting for George, Bill")
    rows = json.loads(table.pbem("list", "--json")[1])
    assert [r["waiting_for"] for r in rows] == [None, ["George", "Bill"]]
