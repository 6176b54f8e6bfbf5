"""A `store:` or `local.maildir:` that cannot be used is a setting to mend: every command that
opens it says so in one line and exits 2 (the store) or 78 (the mail folder, as `pbem check`
does), never a traceback; the file it names is left exactly as it was; and nothing waiting is
lost: once the setting is mended, the mail goes."""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

import pytest

from conftest import BILL, GEORGE
from pbem.store import SCHEMA_VERSION

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ pbem\[\d+\] ")
# Every command that opens the store, with what it needs to get that far.
STORE_COMMANDS = [
    ["list"], ["list", "--json"], ["show", "m1"], ["show", "m1", "--json"], ["process"],
    ["new-game", "matchplay", "--player", GEORGE, "--player", BILL], ["export", "m1"],
    ["inbox"], ["inbox", "retry", "1"], ["outbox"], ["outbox", "retry"], ["gm", "PAUSE", "m1"],
    ["league", "list"], ["league", "show", "l1"], ["check"],
]


def _folder(root):
    (root / "bad").mkdir()
    return root / "bad"


def _not_sqlite(root):
    (root / "bad").write_text("my shopping list\n")
    return root / "bad"


def _another_program(root):
    conn = sqlite3.connect(root / "bad")
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    conn.commit()
    conn.close()
    return root / "bad"


def _newer(root):
    conn = sqlite3.connect(root / "bad")
    conn.execute("CREATE TABLE games (id TEXT)")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('schema', ?)", [str(SCHEMA_VERSION + 5)])
    conn.commit()
    conn.close()
    return root / "bad"


def _under_a_file(root):
    (root / "bad").write_text("a file\n")
    return root / "bad" / "pbem.sqlite3"


BAD_STORES = {
    "a folder": (_folder, "is a folder; name a file in it"),
    "not SQLite": (_not_sqlite, "is not a SQLite file"),
    "another program's": (_another_program, "is a SQLite file of another program"),
    "a newer pbem's": (_newer, "was written by a newer pbem"),
    "under a file": (_under_a_file, "a part of that path is a file"),
}


def _snapshot(path):
    """What is at the store's path: its bytes, its folder's names, or nothing."""
    target = path if path.exists() else path.parent
    if target.is_dir():
        return sorted(p.name for p in target.iterdir())
    return target.read_bytes()


def _use_store(table, path) -> None:
    config = table.root / "pbem.yaml"
    config.write_text(config.read_text().replace("store: ./pbem.sqlite3", f"store: {path}"))


@pytest.mark.parametrize("kind", sorted(BAD_STORES))
def test_every_command_refuses_an_unusable_store_in_one_line(table, kind):
    make, words = BAD_STORES[kind]
    path = make(table.root)
    _use_store(table, path)
    before = _snapshot(path)
    for args in STORE_COMMANDS:
        code, out, err = table.pbem(*args, check=False)
        lines = err.strip().splitlines()
        assert code == 2 and out == "", (args, code, out, err)
        assert len(lines) == 1 and lines[0].startswith(f"pbem {args[0]}: store: ") and words in lines[0], (args, err)
    code, _, err = table.pbem("deliver", stdin=b"From: a@example.test\n\nhello\n", check=False)
    # To an MTA, exit 2 would bounce the player's mail: 75 keeps it queued until the store is mended.
    assert code == 75 and err.strip().startswith("pbem deliver: temporary failure: store: "), err
    assert words in err and len(err.strip().splitlines()) == 1, err
    run = subprocess.run([sys.executable, "-m", "pbem", "run"], cwd=table.root, env=dict(os.environ),
                         capture_output=True, timeout=60)
    assert run.returncode == 2 and run.stderr.decode().startswith("pbem run: store: "), run.stderr
    assert b"Traceback" not in run.stderr and words in run.stderr.decode()
    assert _snapshot(path) == before  # pbem wrote nothing into what it could not use


def test_a_store_of_this_version_and_a_fresh_one_still_open(table):
    """The checks refuse only what is not pbem's: a new store is made, an existing one reopens."""
    assert table.new_match() == "m1"
    assert table.pbem("list")[1].startswith("m1")
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(SCHEMA_VERSION)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", [str(SCHEMA_VERSION - 1)])
    conn.commit()
    assert table.pbem("show", "m1")[1].startswith("Game m1")  # an older store is upgraded, not refused
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(SCHEMA_VERSION)
    conn.close()


BAD_MAILDIRS = {
    "under a file": ("afile/mail", "cannot make the mail folder", "a part of that path is a file"),
    "a file": ("afile", "is a file, not a folder", "afile"),
    "in /proc": ("/proc/mail", "cannot make the mail folder /proc/mail", "No such file"),
}


@pytest.mark.parametrize("kind", sorted(BAD_MAILDIRS))
def test_an_unusable_mail_folder_is_a_setting_and_nothing_waiting_is_lost(table, kind):
    folder, words, more = BAD_MAILDIRS[kind]
    table.new_match()
    (table.root / "afile").write_text("a file\n")
    config = table.root / "pbem.yaml"
    good = config.read_text()
    config.write_text(good.replace("maildir: ./mail", f"maildir: {folder}"))
    sent_before = len(table.mails(GEORGE))

    for args in (["process"], ["check"]):
        code, out, err = table.pbem(*args, check=False)
        said = [line for line in (out if args == ["check"] else err).splitlines() if not LOG_LINE.match(line)]
        assert code == 78 and len(said) == 1, (args, code, out, err)
        assert said[0].startswith(("local.maildir: ", "pbem process: local.maildir: ")), said
        assert words in said[0] and more in said[0] and "Traceback" not in err, said
    # The GM's own work is done and its mail waits, one warning line naming the setting.
    code, out, err = table.pbem("gm", "PAUSE", "m1", check=False)
    assert code == 0 and out.strip() == "m1 paused", (code, out, err)
    said = [line for line in err.splitlines() if not LOG_LINE.match(line)]
    assert len(said) == 1 and said[0].startswith("pbem gm: warning: mail waits in the outbox: local.maildir: "), err
    run = subprocess.run([sys.executable, "-m", "pbem", "run"], cwd=table.root, env=dict(os.environ),
                         capture_output=True, timeout=60)
    assert run.returncode == 78 and b"Traceback" not in run.stderr, run.stderr
    assert b"pbem run: local.maildir: " in run.stderr
    code, _, err = table.pbem("deliver", stdin=b"From: a@example.test\n\nhello\n", check=False)
    assert code == 75 and "local.maildir" in err and "Traceback" not in err, err
    assert table.pbem("list")[1].startswith("m1")  # what needs no mail folder works on

    config.write_text(good)
    code, out, _ = table.pbem("process", check=False)
    assert code == 0, out
    news = [m["X-PBEM-Kind"] for m in table.mails(GEORGE)[sent_before:]]
    assert news == ["notice"], news  # the PAUSE notice, held while the folder was wrong
