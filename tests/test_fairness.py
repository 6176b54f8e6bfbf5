"""Provable fairness (CONTRACT section 11): the commitment, the seed after the end, export and
verify, for a finished game of every type, played by mail."""
from __future__ import annotations

import copy
import hashlib
import json
import random
import re

import pytest
from conftest import body


PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test"]
GAMES = {"matchplay": 2, "golfdeck": 3, "golf": 2, "dicegolf": 2, "onpar": 2}
OPTIONS = {"golfdeck": ["holes=1"], "golf": ["holes=1"], "onpar": ["holes=1"]}


def engine(table, game_id="f1"):
    return table.load(game_id)


def play(table, game_type, check_secret=None):
    """A whole game by mail with random legal orders; `check_secret(seed_hex)` after every pass."""
    args = ["new-game", game_type, "--id", "f1"]
    for i in range(GAMES[game_type]):
        args += ["--player", f"P{i} <{PLAYERS[i]}>"]
    for option in OPTIONS.get(game_type, []):
        args += ["--option", option]
    table.pbem(*args, now="2026-12-01T09:00:00Z")
    module = __import__(f"pbem.games.{game_type}", fromlist=["random_orders"])
    rng = random.Random(7)
    for _ in range(3000):
        t = engine(table)
        if check_secret:
            check_secret(t.row.seed_hex)
        if t.state.result() is not None:
            return t
        seats = sorted(t.state.to_move())
        for seat in seats if game_type == "matchplay" else seats[:1]:
            table.order(PLAYERS[seat], str(module.random_orders(t.state, seat, rng)), game="f1")
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_finished_game_verifies_and_any_change_to_its_record_is_caught(table, game_type, tmp_path):
    t = play(table, game_type)
    seed = bytes.fromhex(t.row.seed_hex)
    assert len(seed) >= 16 and hashlib.sha256(seed).hexdigest() == t.row.commitment
    welcome = body(table.mails(PLAYERS[0])[0])
    assert f"Seed commitment: {t.row.commitment}" in welcome.splitlines()
    result = [m for m in table.mails(PLAYERS[0]) if m["X-PBEM-Kind"] == "result"][-1]
    assert f"Seed: {t.row.seed_hex}" in body(result).splitlines()
    shown = table.show("f1")
    assert shown["seed"] == t.row.seed_hex and shown["seed_commitment"] == t.row.commitment
    record = json.loads(table.pbem("export", "f1")[1])
    assert "example.test" not in json.dumps(record)  # no address unless the GM's config allows
    assert set(record["course"]["extras"]) <= {game_type}  # the course's extras for other games stay out
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code == 0 and out.strip() == f"verified: f1: {shown['result']}"
    for change, words in _changes(record):
        path.write_text(json.dumps(change))
        code, out, _ = table.pbem("verify", str(path), check=False)
        assert code == 1 and out.startswith("not verified: f1: ") and words in out, (words, out)


def _changes(record):
    """The record with one thing changed each time, and a word the refusal must name."""
    seed = copy.deepcopy(record)
    seed["seed"] = ("0" if record["seed"][0] != "0" else "1") + record["seed"][1:]
    yield seed, "commitment"
    if record["chance"]:  # MatchPlay draws no chance at all
        chance = copy.deepcopy(record)
        _change_one_draw(chance["chance"])
        yield chance, "chance"
    order = copy.deepcopy(record)
    played = [s for s in order["steps"] if s["kind"] == "orders"]
    played[0]["order"] = _another_order(record["type"], played[0]["order"])
    yield order, "step"
    result = copy.deepcopy(record)
    result["result"] = record["result"] + " (amended)"
    yield result, "result line"


def _change_one_draw(chance) -> None:
    """Change the first number or card name found in the chance record."""
    def walk(value):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, int) and not isinstance(item, bool):
                    value[i] = item + 1 if item < 6 else item - 1
                    return True
                if isinstance(item, str):
                    value[i] = item + "x"
                    return True
                if walk(item):
                    return True
        elif isinstance(value, dict):
            for key in sorted(value):
                item = value[key]
                if isinstance(item, int) and not isinstance(item, bool):
                    value[key] = item + 1 if item < 6 else item - 1
                    return True
                if walk(item):
                    return True
        return False
    assert walk(chance), "the record has no chance in it"


def _another_order(game_type, order):
    """An order that differs from `order` and is unlikely to replay the same."""
    if game_type == "golfdeck" and order.startswith("REVEAL"):  # two other cards (not the same two)
        taken = {int(p) for p in order.split()[1:]}
        return "REVEAL " + " ".join(str(p) for p in [p for p in range(1, 7) if p not in taken][:2])
    return {"matchplay": "PLAY 5 5 5", "golfdeck": "REVEAL 1 2",
            "golf": "KNOCK", "dicegolf": "POLICY LOW" if order != "POLICY LOW" else "POLICY HIGH",
            "onpar": "PASS" if order != "PASS" else "DISCARD D5"}[game_type]


@pytest.mark.slow
@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_the_seed_shows_nowhere_before_the_end(table, game_type):
    """No mail, no show --json, no history entry and no log line carries the seed before the
    game ends (checked after every pass)."""
    log = table.root / "pbem.log"
    config = table.root / "pbem.yaml"
    config.write_text(config.read_text() + f"log:\n  file: {log}\n")

    seen = {a: 0 for a in PLAYERS}

    def nothing_shows(seed_hex):
        t = engine(table)
        if t.state.result() is not None:
            return
        shown = table.pbem("show", "f1", "--json")[1]
        assert seed_hex not in shown and json.loads(shown)["seed"] is None
        assert seed_hex not in table.pbem("export", "f1")[1]
        for address in PLAYERS:
            fresh = table.mails(address, seen[address])
            seen[address] += len(fresh)
            assert all(seed_hex not in m.as_string() for m in fresh)
        assert not log.exists() or seed_hex not in log.read_text()
    t = play(table, game_type, nothing_shows)
    assert table.show("f1")["seed"] == t.row.seed_hex


def _hostile_records():
    """Records anyone could hand to `pbem verify`: each wrong in one way, and a word the answer
    must name."""
    seed = bytes(16)
    base = {"id": "h1", "type": "golf", "players": ["Ann", "Bob"], "options": {},
            "course": {"name": "x", "pars": [4] * 18}, "steps": [], "result": None,
            "seed_commitment": hashlib.sha256(seed).hexdigest(), "seed": seed.hex()}
    changes = [
        ({"type": "chess"}, "game type"), ({"type": 7}, '"type"'), ({"players": 5}, '"players"'),
        ({"players": [1, 2]}, "players"), ({"options": [1]}, '"options"'), ({"course": "x"}, '"course"'),
        ({"course": {"name": "x", "pars": ["4"]}}, "course"), ({"steps": [5]}, "step 1"),
        ({"players": ["A"] * 10_000}, "cannot be set up"),
        ({"seed": "00", "seed_commitment": hashlib.sha256(b"\0").hexdigest()}, "at least 16"),
        ({"seed": "zz"}, "not hex"),
        ({"steps": [{"kind": "replace", "seat": -1, "name": "Eve"}]}, "no such seat"),
        ({"steps": [{"kind": "orders", "seat": "x", "order": "DRAW STOCK"}]}, "no such seat"),
        ({"steps": [{"kind": "orders", "seat": 0, "order": "DRAW\0STOCK\r\nKNOCK"}]}, "does not replay"),
        ({"steps": [{"kind": "orders", "seat": 0, "order": "D" * 5_000_000}]}, "does not replay"),
        ({"steps": [{"kind": "orders", "seat": 0, "order": "DRAW DISCARD \u0663"}]}, "as pbem writes it"),
        ({"id": "h1\r\nverified: forged"}, "commitment"),
        # Seeds JSON can hold that are no seed (issue 18, item 3): each a one-line answer.
        ({"seed": -1}, "the seed -1 is out of range"), ({"seed": 2**128}, "out of range"),
        ({"seed": True}, "the seed true is neither hex digits nor a whole number"),
        ({"seed": None}, "no seed"), ({"seed": [1]}, "neither hex digits"),
        ({"steps": [{"kind": "replace", "seat": 0, "name": 5}]}, "the new player's name 5 is not text"),
        ({"steps": [{"kind": "replace", "seat": 0, "name": ["Eve"]}]}, 'name ["Eve"] is not text'),
        ({"steps": [{"kind": "orders", "seat": 0, "order": None}]}, "order is not text"),
        ({"steps": [{"kind": "resolved", "turn": 1}], "type": "matchplay"}, "step 1 (resolved, turn 1)"),
        ({"steps": [{"kind": True}]}, "no known kind: true"),
    ]
    for change, words in changes:
        record = dict(base, **change)
        if change.get("id"):
            record["seed_commitment"] = "0" * 64
        yield record, words


def test_verify_answers_any_record_in_one_short_line_and_never_crashes(table, tmp_path):
    path = tmp_path / "record.json"
    for record, words in _hostile_records():
        path.write_text(json.dumps(record))
        code, out, err = table.pbem("verify", str(path), check=False)
        assert code == 1 and err == "", (words, out, err)
        lines = out.splitlines()
        assert len(lines) == 1 and lines[0].startswith("not verified: h1") and words in lines[0], (words, out)
        assert len(lines[0]) <= 400 and "\0" not in out and "\r" not in out, (words, len(lines[0]))
        # What the record says is quoted as JSON says it, never as Python would.
        assert not re.search(r"\b(None|True|False)\b|\['|\{'|'\]", lines[0]), (words, lines[0])
