"""The GM's password by mail (issue 18, item 18): compared exactly, every wrong one kept and
counted, and past five in an hour no GM command is taken by mail (the right password neither)
until an hour has passed with fewer; the admins hear of each lockout once. Counted here: the
mails that a stream of forged guesses can make pbem send."""
from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from conftest import GM, body, kinds

from pbem.gm.gm_password import TRIES

BOSS, DEPUTY = "boss@example.test", "deputy@example.test"
SECRET = "Correct-Horse-Battery-Staple-42"
START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def at(minutes: float) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def gm_table(table):
    (table.root / "pbem.yaml").write_text(
        f"gm:\n  address: {GM}\n  name: Golf GM\n  admins: [{BOSS}, {DEPUTY}]\n  secret: {SECRET}\n"
        "store: ./pbem.sqlite3\ntransport: local\nlocal:\n  maildir: ./mail\n")
    table.new_match()
    return table


def guess(table, password: str, command: str = "PAUSE m1", sender: str = BOSS) -> None:
    table.send(sender, f"PASSWORD {password}\n{command}", subject="GM")


def paused(table) -> bool:
    return bool(table.load().row.paused)


def sent_since(table, since: int) -> list[tuple[str, str]]:
    """(recipient, kind) of every mail queued after outbox row `since`."""
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return db.execute("SELECT recipient, kind FROM outbox WHERE id > ? ORDER BY id", [since]).fetchall()
    finally:
        db.close()


def last_row(table) -> int:
    return max([0] + [row[0] for row in sqlite3.connect(table.root / "pbem.sqlite3").execute("SELECT id FROM outbox")])


@pytest.mark.slow
def test_four_hundred_guesses_then_the_right_one_take_nothing_and_cost_few_mails(table):
    gm_table(table)
    since = last_row(table)
    for n in range(400):
        guess(table, f"guess-{n}")
    guess(table, SECRET)
    table.pbem("process", now=at(0))
    assert not paused(table)
    mails = sent_since(table, since)
    # One answer to each of the first five guesses, one alarm to each admin, and one answer to the
    # right password (a forger never has it): the other 395 guesses cost no mail at all.
    assert len([m for m in mails if m == (BOSS, "error")]) == TRIES + 1 + 1, mails
    assert mails.count((DEPUTY, "error")) == 1 and len(mails) == TRIES + 3, mails
    to_boss = table.mails(BOSS)
    alarm, = [m for m in to_boss if "wrong GM passwords" in m["Subject"]]
    text = " ".join(body(alarm).split())
    assert f"{TRIES} wrong GM passwords came by mail in the last hour, the last from {BOSS}" in text
    assert "Until 2026-12-01 19:00 UTC" in text and SECRET not in body(alarm)
    assert all(len(line) <= 78 for m in to_boss for line in body(m).splitlines())
    right = " ".join(body(to_boss[-1]).split())
    assert "locked for now" in right and "even with the right password" in right
    rows = json.loads(table.pbem("inbox", "--json")[1])
    assert rows == []  # every guess handled in its own barrier, none failed


def test_each_wrong_password_is_stored_and_the_fifth_begins_the_lockout(table):
    gm_table(table)
    for n in range(TRIES - 1):
        guess(table, f"guess-{n}")
    table.pbem("process", now=at(0))
    answers = table.mails(BOSS)
    assert kinds(answers) == ["error"] * (TRIES - 1)
    assert all("The GM password is wrong" in body(m) and "locked" not in body(m) for m in answers)
    db = sqlite3.connect(table.root / "pbem.sqlite3")
    assert db.execute("SELECT count(*) FROM gm_password_misses WHERE sender = ?", [BOSS]).fetchone()[0] == TRIES - 1
    guess(table, "guess-last")
    table.pbem("process", now=at(1))
    fifth, alarm = table.mails(BOSS)[TRIES - 1:]
    assert "wrong GM passwords" in alarm["Subject"]
    fifth = " ".join(body(fifth).split())
    assert "The GM password is wrong" in fifth and "until 2026-12-01 19:00 UTC" in fifth, fifth


def test_the_comparison_is_exact(table):
    gm_table(table)
    for password in (SECRET.lower(), SECRET.upper(), SECRET + "x", SECRET[:-1]):
        guess(table, password)
    table.pbem("process", now=at(0))
    assert not paused(table)
    assert all("The GM password is wrong" in body(m) for m in table.mails(BOSS))
    guess(table, SECRET)
    table.pbem("process", now=at(1))
    assert paused(table)  # four wrong ones are under the limit: the right one is taken


def test_the_right_password_is_taken_again_once_the_hour_has_passed(table):
    gm_table(table)
    for n in range(TRIES):
        guess(table, f"guess-{n}")
    table.pbem("process", now=at(0))
    guess(table, SECRET)
    table.pbem("process", now=at(59))
    assert not paused(table)
    guess(table, SECRET)
    table.pbem("process", now=at(61))
    assert paused(table)
    assert "GM commands done" in table.mails(BOSS)[-1]["Subject"] or kinds(table.mails(BOSS))[-1] == "ack"


def test_a_stream_of_guesses_for_hours_alarms_the_admins_once(table):
    gm_table(table)
    since = last_row(table)
    for minute in range(0, 180, 5):  # one forged guess every five minutes for three hours
        guess(table, f"guess-{minute}")
        table.pbem("process", now=at(minute))
    mails = sent_since(table, since)
    assert mails.count((DEPUTY, "error")) == 1, mails  # one lockout, one alarm
    assert mails.count((BOSS, "error")) == TRIES + 1, mails  # five answers, one alarm
    guess(table, SECRET)
    table.pbem("process", now=at(181))
    assert not paused(table)  # still locked: the guesses never stopped


def test_a_second_lockout_later_is_alarmed_again(table):
    gm_table(table)
    for round_start in (0, 120):
        for n in range(TRIES):
            guess(table, f"guess-{round_start}-{n}")
        table.pbem("process", now=at(round_start))
    alarms = [m for m in table.mails(DEPUTY) if "wrong GM passwords" in m["Subject"]]
    assert len(alarms) == 2


def test_a_wrong_password_from_a_player_address_is_no_gm_guess(table):
    gm_table(table)
    for n in range(TRIES + 2):
        guess(table, f"guess-{n}", sender="mallory@example.test")
    table.pbem("process", now=at(0))
    assert not [m for m in table.mails(DEPUTY)]  # no alarm: the GM password was never tried
    guess(table, SECRET)
    table.pbem("process", now=at(1))
    assert paused(table)
