"""Screened mail (issue 31, item 9). A GM address that is a Google or Microsoft 365 group adds
list headers and `Precedence: list` to every message, a player's orders among them: mail from a
seat's own address carrying that seat's secret is read, and answered at the seat's address only.
Every other screened message gets no answer at all and is listed by `pbem inbox` with its rule."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import BILL, GEORGE, GM, body, kinds

from pbem.gm.inbox import Inbox
from pbem.gm.steps import Identify

START = "2026-12-01T18:00:00Z"
REAL_COMMANDS = Inbox._commands


def broken(self, *args):
    """A step that raises, as a bug would: the message is kept as failed."""
    raise RuntimeError("engine exploded")
MALLORY = "mallory@evil.test"
GROUP = "golfers@groups.example.test"
# What a Google group adds to every message it passes on.
GROUP_HEADERS = {"List-Id": f"<{GROUP.replace('@', '.')}>", "List-Post": f"<mailto:{GROUP}>",
                 "List-Unsubscribe": f"<mailto:{GROUP.replace('@', '+unsubscribe@')}>", "Precedence": "list",
                 "Mailing-List": f"list {GROUP}; contact {GROUP.replace('@', '+owners@')}", "Reply-To": GROUP}


def all_mail(table) -> list[Path]:
    """Every mail the GM wrote, to anyone (its own inbox aside)."""
    return sorted(p for p in (table.root / "mail").rglob("*") if p.is_file() and p.parent.name in ("new", "cur")
                  and p.parents[1].name != GM)


def listed(table) -> list[dict]:
    return json.loads(table.pbem("inbox", "--json")[1])


def started(table) -> None:
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "445 345 434 543 434 454", "--id", "m1", "--deadline", "2d", now=START)


@pytest.mark.parametrize("how", ["reply address", "password line"])
def test_a_seats_own_list_mail_with_its_secret_is_read_and_answered_to_the_seat_only(table, how):
    started(table)
    before = all_mail(table)
    if how == "reply address":
        table.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1", subject="Re: [m1] Your orders",
                   to=table.reply_to(GEORGE), headers=GROUP_HEADERS)
    else:
        table.send(GEORGE, f"GAME m1\nPASSWORD {table.secret(GEORGE)}\nPLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1",
                   subject="orders", to=GROUP, headers=GROUP_HEADERS)
    table.pbem("process")
    new = [p for p in all_mail(table) if p not in before]
    # One answer, in George's own folder: nothing to the group, its Reply-To or anyone else.
    assert [p.parents[1].name for p in new] == [GEORGE]
    assert not (table.root / "mail" / GROUP).exists()
    answer = table.mails(GEORGE)[-1]
    assert kinds([answer]) == ["ack"] and answer["To"].addresses[0].addr_spec == GEORGE
    assert "PLAY 4 4 5" in body(answer)
    assert table.show()["to_move"] == [BILL]  # the orders stand
    assert listed(table) == []  # read, so not listed


def test_a_strangers_list_mail_causes_no_mail_and_is_listed_with_its_rule(table):
    started(table)
    before, state = all_mail(table), table.show()["state"]
    # A stranger, George's address without the secret, and a stranger carrying George's secret.
    table.send(MALLORY, "GAME m1\nSTATUS\nHELP", subject="[m1] hello", headers=GROUP_HEADERS)
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] Your orders", to=GROUP, headers=GROUP_HEADERS)
    table.send(MALLORY, "PLAY 4 4 5", subject="Re: [m1] Your orders", to=table.reply_to(GEORGE),
               headers=GROUP_HEADERS)
    table.pbem("process")
    assert all_mail(table) == before  # not one mail: no answer, no warning, nothing to the group
    assert table.show()["state"] == state
    rows = listed(table)
    assert [r["sender"] for r in rows] == [MALLORY, GEORGE, MALLORY]
    assert {(r["status"], r["rule"], r["reason"]) for r in rows} == {("screened", "precedence", "precedence: "
                                                                      "Precedence: list")}
    text = table.pbem("inbox")[1]
    assert text.count("screened (precedence: Precedence: list)") == 3 and MALLORY in text


@pytest.mark.parametrize("rule, headers", [
    ("auto-submitted", {"Auto-Submitted": "auto-replied"}),
    ("autoreply", {"X-Autoreply": "yes"}),
    ("precedence", {"Precedence": "junk"}),
    ("bounce", {"Return-Path": "<>"}),
    ("bounce", {"Content-Type": "multipart/report; report-type=delivery-status; boundary=x"}),
    # A group's marks give way, a robot's beside them never.
    ("auto-submitted", {"Auto-Submitted": "auto-generated", "List-Id": "<golfers.groups.example.test>"}),
])
def test_a_robots_marks_stand_even_with_the_seats_secret(table, rule, headers):
    started(table)
    before, state = all_mail(table), table.show()["state"]
    text = f"GAME m1\nPASSWORD {table.secret(GEORGE)}\nPLAY 4 4 5\nPRESS Hello Bill\n"
    raw = (f"From: George <{GEORGE}>\nTo: {table.reply_to(GEORGE)}\nSubject: Re: [m1] Your orders\n"
           f"Message-ID: <{rule}.{len(headers)}@player.test>\nMIME-Version: 1.0\n"
           + "".join(f"{k}: {v}\n" for k, v in headers.items())
           + ("" if "Content-Type" in headers else "Content-Type: text/plain; charset=utf-8\n")
           + "\n" + ("--x\nContent-Type: text/plain\n\n" + text + "--x--\n" if "Content-Type" in headers else text))
    table.send(GEORGE, raw=raw.encode())
    table.pbem("process")
    assert all_mail(table) == before and table.show()["state"] == state
    (row,) = listed(table)
    assert row["status"] == "screened" and row["rule"] == rule and row["sender"] == GEORGE


def test_mail_from_the_gm_address_with_a_secret_is_never_answered(table):
    started(table)
    before = all_mail(table)
    table.send(GM, f"GAME m1\nPASSWORD {table.secret(GEORGE)}\nSTATUS", subject="[m1] loop",
               headers={"List-Id": "<golfers.groups.example.test>"})
    table.pbem("process")
    assert all_mail(table) == before
    assert [r["rule"] for r in listed(table)] == ["loop"]


def test_retry_screens_a_screened_message_again_and_answers_nothing(table):
    started(table)
    table.send(MALLORY, "GAME m1\nSTATUS", subject="[m1] hello", headers={"List-Id": "<x.example.test>"})
    table.pbem("process")
    before = all_mail(table)
    (row,) = listed(table)
    assert row["rule"] == "list"
    _, out, _ = table.pbem("inbox", "retry", str(row["id"]))
    assert out.strip() == f"message {row['id']}: screened (list: List-Id header)"
    assert all_mail(table) == before and [r["id"] for r in listed(table)] == [row["id"]]


def test_failed_and_screened_mail_are_listed_together_each_with_its_status(table, monkeypatch):
    from pbem.gm.inbox import Inbox
    started(table)


    monkeypatch.setattr(Inbox, "_commands", broken)
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] Your orders", to=table.reply_to(GEORGE))
    table.send(MALLORY, "HELP", subject="help", headers={"Precedence": "bulk"})
    table.pbem("process")
    failed, screened = listed(table)
    assert (failed["status"], failed["rule"], failed["sender"]) == ("failed", None, GEORGE)
    assert "RuntimeError: engine exploded" in failed["reason"]
    assert (screened["status"], screened["rule"], screened["reason"]) == ("screened", "precedence",
                                                                          "precedence: Precedence: bulk")
    lines = table.pbem("inbox")[1].splitlines()
    assert len(lines) == 2 and lines[0].endswith("RuntimeError: engine exploded")
    assert lines[1].endswith("screened (precedence: Precedence: bulk)")


def test_screened_mail_is_listed_while_its_text_is_kept(table):
    from datetime import UTC, datetime

    from pbem.store import Store
    started(table)
    table.send(MALLORY, "HELP", subject="help", headers={"Precedence": "list"})
    table.pbem("process")
    assert len(listed(table)) == 1
    store = Store(table.root / "pbem.sqlite3")
    try:
        forgotten, _ = store.prune(datetime(2027, 6, 1, tzinfo=UTC), 90)
    finally:
        store.close()
    assert forgotten >= 1 and listed(table) == []
    assert "no failed mail, none screened" in table.pbem("inbox")[1]


def test_the_listing_names_the_inbox_step_that_ended_each_message(table, monkeypatch):
    """`step`: the step of the inbox's chain that screened a message, or that was at work when
    its handling raised (a GM looking at a failure knows where to look)."""
    started(table)


    monkeypatch.setattr(Inbox, "_commands", broken)
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] Your orders", to=table.reply_to(GEORGE))
    table.send(MALLORY, "HELP", subject="help", headers={"Precedence": "bulk"})
    table.pbem("process")
    monkeypatch.setattr(Inbox, "_commands", REAL_COMMANDS)
    monkeypatch.setattr(Identify, "check", broken)
    table.send(BILL, "PLAY 3 5 4", subject="Re: [m1] Your orders", to=table.reply_to(BILL))
    table.pbem("process")
    rows = listed(table)
    assert [(r["sender"], r["status"], r["step"]) for r in rows] == [
        (GEORGE, "failed", "commands"), (MALLORY, "screened", "screen"), (BILL, "failed", "identify")]
    assert all("RuntimeError: engine exploded" in r["reason"] for r in rows if r["status"] == "failed")
    assert rows[1]["rule"] == "precedence"  # the keys it had are as they were
    lines = table.pbem("inbox")[1].splitlines()
    assert lines[0].endswith("commands: RuntimeError: engine exploded")
    assert lines[1].endswith("screen: screened (precedence: Precedence: bulk)")
    assert lines[2].endswith("identify: RuntimeError: engine exploded") and BILL in lines[2]


def test_a_retried_message_is_listed_with_the_step_that_ends_it_now(table, monkeypatch):
    started(table)


    monkeypatch.setattr(Inbox, "_commands", broken)
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] Your orders", to=table.reply_to(GEORGE))
    table.pbem("process")
    (row,) = listed(table)
    assert row["step"] == "commands"
    monkeypatch.setattr(Inbox, "_commands", REAL_COMMANDS)
    _, out, _ = table.pbem("inbox", "retry", str(row["id"]))
    assert out.startswith(f"message {row['id']}: handled")
    assert listed(table) == [] and inbound_steps(table) == {row["id"]: "commands"}


def test_every_message_the_gm_handled_keeps_its_step(table):
    started(table)
    table.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1", subject="Re: [m1] Your orders", to=table.reply_to(GEORGE))
    table.send(MALLORY, "PLAY 4 4 5", subject="Re: [m1] Your orders")
    table.send(MALLORY, "HELP", subject="help", headers={"Auto-Submitted": "auto-replied"})
    table.pbem("process")
    assert sorted(inbound_steps(table).values()) == ["authenticate", "commands", "screen"]


def inbound_steps(table) -> dict[int, str | None]:
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        return dict(conn.execute("SELECT rowid, step FROM inbound").fetchall())
    finally:
        conn.close()
