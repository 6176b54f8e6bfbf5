"""`pbem backup FILE` (CONTRACT section 3): a copy of the store taken while passes run, which pbem
carries on from once `store:` names it."""
from __future__ import annotations

import email.utils
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from email.message import EmailMessage

import pytest

from conftest import BILL, EXAMPLE_COURSE, GEORGE, GM, verified
from pbem.games.registry import spec_for
from pbem.gm import games
from pbem.store import Store
from pbem.store.statuses import InboundStatus

PLAYERS = (GEORGE, BILL)


def copy_config(table, name: str, store: str) -> str:
    """A configuration beside the GM's whose store is `store` and whose mail folder is its own."""
    path = table.root / name
    path.write_text(f"gm:\n  address: {GM}\n  name: Golf GM\nstore: {store}\ntransport: local\n"
                    f"local:\n  maildir: ./mail-{name}\n")
    return str(path)


def order_mail(table, sender: str, game_id: str, orders: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = table.reply_to_game(sender, game_id)
    msg["Subject"] = f"Re: [{game_id}] your turn"
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<{uuid.uuid4().hex}@player.test>"
    msg.set_content(orders + "\n")
    return msg.as_bytes()


def turns(store_path, ids) -> dict[str, tuple[int, str]]:
    """Each game's turn and status as the store at `store_path` holds them."""
    store = Store(store_path)
    try:
        rows = {row.id: row for row in store.games()}
        return {i: (rows[i].turn, str(rows[i].status)) for i in ids}
    finally:
        store.close()


def orders_now(store_path, game_id: str, rng: random.Random) -> list[tuple[str, str]]:
    """A legal order for each seat that owes one now (the demo's scripted players' way)."""
    store = Store(store_path)
    try:
        table = games.load(store, game_id)
        assert table is not None
        play = spec_for("matchplay").random_orders
        return [(PLAYERS[i], str(play(table.state, i, rng))) for i in table.state.to_move()]
    finally:
        store.close()


def test_a_backup_refuses_to_overwrite_unless_forced_and_never_copies_onto_the_store(table):
    table.new_match()
    code, out, err = table.pbem("backup", "copy.sqlite3")
    assert code == 0 and out == f"backed up {table.root / 'pbem.sqlite3'} to copy.sqlite3: 1 game(s), " \
        f"{(table.root / 'copy.sqlite3').stat().st_size} bytes\n" and err == ""
    (table.root / "copy.sqlite3").write_bytes(b"an older copy")
    code, _, err = table.pbem("backup", "copy.sqlite3", check=False)
    assert code == 2 and err == "pbem backup: copy.sqlite3 exists; name a new file, or add --force to replace it\n"
    assert (table.root / "copy.sqlite3").read_bytes() == b"an older copy"
    table.pbem("backup", "copy.sqlite3", "--force")
    assert sqlite3.connect(table.root / "copy.sqlite3").execute("SELECT id FROM games").fetchall() == [("m1",)]
    for target in ("pbem.sqlite3", "./pbem.sqlite3-wal", "."):
        code, _, err = table.pbem("backup", target, "--force", check=False)
        assert code == 2 and err.startswith("pbem backup: ") and "\n" == err[-1] and err.count("\n") == 1, err
    assert [p.name for p in table.root.iterdir() if p.name.endswith(".part")] == []


def test_a_backup_of_no_store_or_of_another_programs_file_says_so(table):
    code, _, err = table.pbem("backup", "copy.sqlite3", check=False)
    assert code == 2 and "does not exist: there is nothing to back up yet" in err
    other = sqlite3.connect(table.root / "pbem.sqlite3")
    other.execute("CREATE TABLE notes (x)")
    other.commit()
    other.close()
    code, _, err = table.pbem("backup", "copy.sqlite3", check=False)
    assert code == 2 and "another program" in err and not (table.root / "copy.sqlite3").exists()


def test_the_copy_goes_into_a_folder_it_makes(table):
    table.new_match()
    table.pbem("backup", "backups/nightly/pbem.sqlite3")
    assert (table.root / "backups/nightly/pbem.sqlite3").is_file()


@pytest.mark.slow
def test_a_backup_taken_while_the_daemon_plays_is_a_store_pbem_carries_on_from(table):
    """`pbem run` handles the players' orders of six matches while `pbem backup` (a process of its
    own) copies the store again and again. Every copy is the store at one committed moment: each
    game's turn is the one before or after the round, with exactly the reports that turn wrote.
    On a copy taken while the daemon was between two games of a round, pbem plays every match to
    its end, and the records verify."""
    ids = [f"m{i}" for i in range(1, 7)]
    for game_id in ids:
        table.new_match(game_id, EXAMPLE_COURSE, "--seed", str(len(game_id) + int(game_id[1:])))
    rng = random.Random(7)
    store = table.root / "pbem.sqlite3"
    daemon = subprocess.Popen([sys.executable, "-m", "pbem", "run"], cwd=table.root, env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    copies = []
    try:
        for turn in range(1, 4):
            for game_id in ids:
                for sender, orders in orders_now(store, game_id, rng):
                    table.send(sender, raw=order_mail(table, sender, game_id, orders))
            # Copies are taken, one after the other, while the daemon handles the round's mail.
            deadline = time.monotonic() + 60
            while True:
                copy = f"copy-{len(copies) + 1}.sqlite3"
                r = subprocess.run([sys.executable, "-m", "pbem", "backup", copy], cwd=table.root,
                                   env=dict(os.environ), capture_output=True, text=True, timeout=120)
                assert r.returncode == 0 and r.stderr == "", r.stderr
                copies.append((turn, copy))
                if all(t > turn for t, _ in turns(store, ids).values()):
                    break
                assert time.monotonic() < deadline and daemon.poll() is None, daemon.stderr.read().decode()[-2000:]
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=30)
    assert code == 0
    assert turns(store, ids) == {i: (4, "active") for i in ids}

    mixed: list[str] = []  # the copies taken while the daemon stood between two games of a round
    for turn, copy in copies:
        held = turns(table.root / copy, ids)
        assert set(held.values()) <= {(turn, "active"), (turn + 1, "active")}, (copy, held)
        if len(set(held.values())) > 1:
            mixed.append(copy)
        conn = sqlite3.connect(table.root / copy)
        # A turn resolved in the copy has its report mail queued or sent in the copy too.
        for game_id, (t, _) in held.items():
            reports = conn.execute("SELECT count(*) FROM outbox WHERE game_id = ? AND kind = 'report'",
                                   [game_id]).fetchone()[0]
            assert reports == 2 * (t - 1), (copy, game_id, t, reports)
        conn.close()

    # A copy taken mid-round, where the timing gave one (the daemon is quick: on a quiet machine a
    # round may fall between two copies; a write caught half done is the next test's), else one
    # taken during the second round: pbem carries on from it as from the store itself.
    copy = mixed[0] if mixed else next(c for t, c in copies if t == 2)
    config = copy_config(table, "restored.yaml", copy)
    # A message kept in the copy but not yet handled there (the daemon stores each one before
    # it handles it) is handled by the copy's first pass; the copy's own mail folder is empty.
    conn = sqlite3.connect(table.root / copy)
    kept = conn.execute("SELECT count(*) FROM inbound WHERE status = ?", [str(InboundStatus.NEW)]).fetchone()[0]
    conn.close()
    code, out, _ = table.pbem("--config", config, "process")
    assert code == 0 and out.startswith(f"handled {kept} message(s)"), out
    for game_id in ids:
        for _ in range(10):
            owed = orders_now(table.root / copy, game_id, rng)
            if not owed:
                break
            for sender, orders in owed:
                table.pbem("--config", config, "deliver", stdin=order_mail(table, sender, game_id, orders))
        shown = json.loads(table.pbem("--config", config, "show", game_id, "--json")[1])
        assert shown["status"] == "finished" and shown["result"].startswith("Result: ")
        table.monkeypatch.setenv("PBEM_CONFIG", config)
        said = verified(table, game_id)
        assert said.startswith(f"verified: {game_id}: ") and shown["result"].removeprefix("Result: ") in said, said
        table.monkeypatch.setenv("PBEM_CONFIG", str(table.root / "pbem.yaml"))
    # The original store stood where the daemon left it: the copy's games went on in the copy alone.
    assert turns(store, ids) == {i: (4, "active") for i in ids}


def test_a_copy_of_a_quiet_store_shows_what_the_store_shows(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.pbem("backup", "copy.sqlite3")
    config = copy_config(table, "copy.yaml", "./copy.sqlite3")
    for command in (("show", "m1", "--json"), ("list", "--json"), ("export", "m1"), ("players", "--json")):
        assert table.pbem("--config", config, *command)[1] == table.pbem(*command)[1], command


def test_a_backup_taken_while_a_pass_holds_its_writes_open_has_none_of_them(table):
    """A pass caught half way: its transaction has written and not committed. `pbem backup` does
    not wait for it and copies the store as it was before the pass, whole."""
    table.new_match("m1")
    table.new_match("m2")
    writer = sqlite3.connect(table.root / "pbem.sqlite3", isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE games SET turn = 5 WHERE id = 'm1'")
        writer.execute("DELETE FROM outbox")
        r = subprocess.run([sys.executable, "-m", "pbem", "backup", "copy.sqlite3"], cwd=table.root,
                           env=dict(os.environ), capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    conn = sqlite3.connect(table.root / "copy.sqlite3")
    try:
        assert conn.execute("SELECT id, turn FROM games ORDER BY id").fetchall() == [("m1", 1), ("m2", 1)]
        assert conn.execute("SELECT count(*) FROM outbox").fetchone()[0] == 4  # the four welcomes
    finally:
        conn.close()
    code, out, _ = table.pbem("--config", copy_config(table, "restored.yaml", "copy.sqlite3"), "list")
    assert code == 0 and "m1" in out and "m2" in out
