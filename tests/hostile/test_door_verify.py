"""`pbem verify` is a door anyone can knock on: the record it reads may come from anyone.

Player names are the record's own text, and they reach the terminal in the result line and in
what a refusal quotes. A name with terminal escapes (set the window title, clear the line, write
a line of its own) must come out as plain text on one line: a forged `verified:` line, or a
title set on the reader's terminal, would make a record look checked that is not.

The records here are forged with care: the chance, the results, the result line and every
step's digest are what the replay gives, so the names are the only thing hostile in them.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pbem
from pbem.gm import fairness

# Names as an attacker writes them: an OSC title, a CSI that wipes the line and goes back to its
# start, a newline with a forged verdict, an 8-bit CSI, a bidi override, a line separator.
HOSTILE_NAMES = [
    "\x1b]0;pwned by Mallory\x07Ann",
    "Bob\x1b[2K\r\nverified: forged: Result: Bob wins",
    "\x9b31mCy\u202eeve\u2028verified: x",
]
SEED = bytes(range(16))
# Control and format characters, and the escape introducers, that must never reach a terminal.
UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
PYTHON_VALUES = re.compile(r"\b(None|True|False)\b|\['|\{'|'\]")


def _sealed(record: dict) -> dict:
    """The record with what its replay gives written in: a forgery that checks out."""
    for step in record["steps"]:
        step.pop("after", None)
    state = fairness._replay(record, lambda number, state: None)
    result = state.result()
    record.update(chance=state.chance_record(), results=fairness._results(state),
                  result=f"Result: {result.line}" if result else None)
    for step, after in zip(record["steps"], fairness._public_digests(record)):
        step["after"] = after
    return record


def _record(names: list[str], steps: list[dict], game_type: str = "golf") -> dict:
    return _sealed({
        "record": 1, "id": "h1", "type": game_type, "players": list(names), "options": {"holes": "1"},
        "course": {"name": "x", "pars": [4] * 18}, "steps": steps,
        "seed_commitment": hashlib.sha256(SEED).hexdigest(), "seed": SEED.hex()})


def _verify(tmp_path: Path, record: dict) -> subprocess.CompletedProcess:
    """`python -m pbem verify` as its own process: its stdout is the bytes a terminal would get."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    env = dict(os.environ, PYTHONPATH=str(Path(pbem.__file__).parent.parent))
    env.pop("PBEM_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "pbem", "verify", str(path)], capture_output=True,
                          cwd=tmp_path, env=env, timeout=120)


def _one_clean_line(out: bytes) -> str:
    text = out.decode("utf-8")
    assert text.endswith("\n") and text.count("\n") == 1, repr(text)
    line = text[:-1]
    assert not UNSAFE.search(line), repr(line)
    assert not PYTHON_VALUES.search(line), line
    assert len(line) <= 400, len(line)
    return line


def test_a_forged_record_with_escapes_in_its_names_verifies_as_plain_text(tmp_path):
    names = [HOSTILE_NAMES[0], "Bob"]
    record = _record(names, [{"kind": "resign", "seat": 1, "turn": 1, "order": "RESIGN"}])
    assert "\x1b]0;" in record["result"]  # the replay's own result line carries the raw name
    run = _verify(tmp_path, record)
    assert run.returncode == 0 and run.stderr == b"", run.stderr
    line = _one_clean_line(run.stdout)
    assert line == "verified: h1: Result: ]0;pwned by Mallory Ann wins by resignation", line


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_each_hostile_name_is_quoted_clean_in_a_refusal(tmp_path, seat):
    """The result line is changed, so the refusal quotes both the record's line and the replay's,
    names and all; each arrives as one plain line."""
    names = ["Ann", "Bob", "Cy"]
    names[seat] = HOSTILE_NAMES[seat]
    loser = (seat + 1) % 3
    record = _record(names, [{"kind": "resign", "seat": loser, "turn": 1, "order": "RESIGN"},
                             {"kind": "resign", "seat": (loser + 1) % 3, "turn": 1, "order": "RESIGN"}])
    assert record["result"] and HOSTILE_NAMES[seat] in record["result"]
    record["result"] = record["result"].replace("wins", "loses")
    run = _verify(tmp_path, record)
    assert run.returncode == 1 and run.stderr == b"", run.stderr
    line = _one_clean_line(run.stdout)
    assert line.startswith("not verified: h1: the result line differs: the record says \"Result: "), line
    assert "loses" in line and "wins" in line, line


def test_a_hostile_game_id_and_step_are_quoted_clean(tmp_path):
    record = _record(["Ann", "Bob"], [{"kind": "resign", "seat": 0, "turn": 1, "order": "RESIGN"}])
    record["steps"][0]["order"] = "\x1b]0;t\x07RESIGN\r\nverified: forged"
    record["id"] = "h1\x1b[2J\nverified: h1"
    run = _verify(tmp_path, record)
    assert run.returncode == 1 and run.stderr == b"", run.stderr
    line = _one_clean_line(run.stdout)
    assert line.startswith("not verified: h1 [2J verified: h1: step 1 (]0;t RESIGN verified: forged, seat 0)"), line
