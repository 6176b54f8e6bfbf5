"""Hostile mail, one class at a time: poison messages, paths, headers, senders, size, floods,
guessing, robots, exactly-once delivery. Each test drives pbem through its command line."""
from __future__ import annotations

import email
import email.policy
import json
import sqlite3
from pathlib import Path

import pytest

from conftest import BILL, GEORGE, GM, body, kinds

START = "2026-12-01T18:00:00Z"


def configure(table, **sections):
    text = (table.root / "pbem.yaml").read_text()
    for section, values in sections.items():
        text += f"{section}:\n" + "".join(f"  {k}: {v}\n" for k, v in values.items())
    (table.root / "pbem.yaml").write_text(text)


def flat(m) -> str:
    """The text part with its lines joined: prose is wrapped at 76 columns."""
    return " ".join(body(m).split())


def raw_mail(sender_header: str, text: str, *, to: str = GM, subject: str = "orders", message_id: str | None = None,
             extra: str = "") -> bytes:
    head = f"From: {sender_header}\nTo: {to}\nSubject: {subject}\n"
    if message_id is not None:
        head += f"Message-ID: {message_id}\n"
    head += extra + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n"
    return head.encode("utf-8", "surrogateescape") + text.encode("utf-8", "surrogateescape")


def inbound(table) -> list[dict]:
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute("SELECT rowid AS id, * FROM inbound ORDER BY rowid")]
    finally:
        conn.close()


def state_of(table, game: str = "m1") -> tuple:
    shown = table.show(game)
    return shown["state"], shown["history"]


def sent_files(table) -> list[Path]:
    return sorted(p for p in (table.root / "mail").rglob("*") if p.is_file() and p.parent.name in ("new", "cur")
                  and p.parents[1].name != GM)


# -- 1. poison messages -------------------------------------------------------------------------

POISON = {
    "non-ascii address": raw_mail("J\u00f6rg <j\u00f6rg@x.test>", "HELP"),
    "nul in address": raw_mail("<geo\x00rge@example.test>", "HELP"),
    "non-ascii message-id": raw_mail(f"<{GEORGE}>", "STATUS", message_id="<\u00e4\u00f6@x.test>",
                                     subject="[m1] orders"),
    "non-ascii references": raw_mail(f"<{GEORGE}>", "STATUS", subject="[m1] orders",
                                     extra="References: <\u00e4@x> <\x00@y>\n"),
    "unicode digit turn": raw_mail(f"<{GEORGE}>", "TURN \u19da\nPLAY 4 4 5", subject="[m1] orders"),
    "5000-digit number": raw_mail(f"<{GEORGE}>", "TURN " + "9" * 5000 + "\nPLAY 4 4 5", subject="[m1] orders"),
}


@pytest.mark.parametrize("name", sorted(POISON))
def test_a_poison_message_is_handled_and_the_pass_goes_on(table, name):
    table.new_match()
    before = state_of(table)
    table.send(GEORGE, raw=POISON[name])
    table.send(GEORGE, "STATUS", subject="[m1] status", to=table.reply_to(GEORGE))
    code, out, err = table.pbem("process")
    assert code == 0 and "Traceback" not in err
    rows = inbound(table)
    assert len(rows) == 2 and all(r["status"] in ("handled", "refused", "ignored", "screened") for r in rows), rows
    assert kinds(table.mails(GEORGE))[-1] == "status"  # the message after it was handled
    assert state_of(table) == before


def test_an_unexpected_error_marks_the_message_failed_answers_once_and_retry_handles_it(table, monkeypatch):
    from pbem.gm.inbox import Inbox
    table.new_match()
    real = Inbox._commands

    def broken(self, msg, *args):
        if "BOOM" in msg.subject:
            raise RuntimeError("engine exploded\r\nForged: yes")
        return real(self, msg, *args)

    monkeypatch.setattr(Inbox, "_commands", broken)
    before = state_of(table)
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] BOOM", to=table.reply_to(GEORGE))
    table.send(BILL, "PLAY 3 5 4", subject="Re: [m1] orders", to=table.reply_to(BILL))
    code, _, err = table.pbem("-v", "process")
    assert code == 0
    assert "failed: RuntimeError: engine exploded Forged: yes" in err  # one clean log line
    assert not any(line.startswith("Forged") for line in err.splitlines())
    assert kinds(table.mails(BILL))[-1] == "ack"  # the pass went on
    assert state_of(table)[0] != before[0]  # Bill's orders, and only his, were applied
    got = table.mails(GEORGE)[1:]
    assert kinds(got) == ["error"] and "could not be read" in got[0]["Subject"]
    assert "PLAY" not in flat(got[0])
    _, out, _ = table.pbem("inbox", "--json")
    listed = json.loads(out)
    assert [r["sender"] for r in listed] == [GEORGE] and "RuntimeError" in listed[0]["reason"]
    # Another pass neither retries it nor answers it again.
    table.pbem("process")
    assert len(table.mails(GEORGE)) == 2
    monkeypatch.setattr(Inbox, "_commands", real)
    _, out, _ = table.pbem("inbox", "retry", str(listed[0]["id"]))
    assert "handled" in out
    assert json.loads(table.pbem("inbox", "--json")[1]) == []
    assert table.show()["turn"] == 2  # both orders are in: the turn resolved
    assert "no failed mail" in table.pbem("inbox")[1]
    code, _, err = table.pbem("inbox", "retry", "999", check=False)
    assert code == 2 and "no kept message 999" in err


@pytest.mark.slow
def test_a_message_that_kills_the_process_is_set_aside_after_three_tries(cron_table):
    table = cron_table
    table.new_match()
    table.send(GEORGE, "STATUS", subject="[m1] status", to=table.reply_to(GEORGE))
    for _ in range(4):  # the first handling and three retries die
        code, _, _ = _crash(table, "handling")
        assert code != 0
        assert [r["status"] for r in inbound(table)] == ["new"]
    code, _, err = _crash(table, "handling")
    assert code == 0, err
    rows = inbound(table)
    assert [r["status"] for r in rows] == ["failed"] and "tries" in rows[0]["note"]
    assert kinds(table.mails(GEORGE))[-1] == "error"  # told once, plainly
    table.pbem("process")
    assert len(table.mails(GEORGE)) == 2


def _crash(table, point):
    table.monkeypatch.setenv("PBEM_CRASH_AT", point)
    try:
        return table.pbem("process", check=False)
    finally:
        table.monkeypatch.delenv("PBEM_CRASH_AT")


def test_one_outbox_row_that_cannot_be_sent_holds_up_no_other(table):
    from pbem.store import Store
    table.new_match()
    store = Store(table.root / "pbem.sqlite3")
    try:
        with store.transaction():
            store.outbox.queue(now=store_now(), game_id=None, kind="error", recipient="../../evil@x.test",
                               message_id="<bad@x>", raw=b"Subject: x\r\n\r\nx\r\n")
            store.outbox.queue(now=store_now(), game_id=None, kind="error", recipient=BILL, message_id="<good@x>",
                               raw=b"Subject: fine\r\n\r\nfine\r\n")
    finally:
        store.close()
    code, out, err = table.pbem("process")
    assert code == 0 and "Traceback" not in err
    assert any(m["Subject"] == "fine" for m in table.mails(BILL))
    assert not (table.root / "evil@x.test").exists() and not (table.root.parent / "evil@x.test").exists()


def store_now():
    from datetime import UTC, datetime
    return datetime(2026, 12, 1, 18, tzinfo=UTC)


# -- 2. paths -------------------------------------------------------------------------------------

TRAVERSALS = ["../../../../x@y.test", "/tmp/abs@y.test", "x/../bill@example.test", "george@example.test/../bill",
              "..@y.test", ".hidden@y.test", "a\\b@y.test", "x@../../y", "x@y.test/..", "x@y..test", "x@y.test\x00",
              "", "a b@y.test", "j\u00f6rg@x.test", "x" * 300 + "@y.test"]


@pytest.mark.parametrize("address", TRAVERSALS)
def test_no_address_but_a_plain_one_names_a_folder(tmp_path, address):
    from pbem.mail.clean import folder_name
    from pbem.mail.maildir import LocalTransport
    with pytest.raises(ValueError):
        folder_name(address)
    transport = LocalTransport(tmp_path / "a" / "mail", GM)
    with pytest.raises(ValueError):
        transport.send(address, b"Subject: x\n\nx\n")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


@pytest.mark.parametrize("address", ["bill@example.test", "Bill.Smith+golf@Example.TEST", "o'neil@x-y.test"])
def test_a_plain_address_is_its_own_folder(tmp_path, address):
    from pbem.mail.maildir import LocalTransport
    transport = LocalTransport(tmp_path / "mail", GM)
    transport.send(address, b"Subject: x\n\nx\n")
    (box,) = (tmp_path / "mail").iterdir()
    assert box.name == address.lower() and len(list((box / "new").iterdir())) == 1


@pytest.mark.parametrize("sender", ["<../../../../x@y.test>", "</abs/x@y.test>", "<x/../bill@example.test>",
                                    '"../../x"@y.test'])
def test_a_traversing_sender_gets_no_folder_and_no_answer(table, sender):
    table.new_match()
    table.send("x", raw=raw_mail(sender, "HELP"))
    code, _, err = table.pbem("process")
    assert code == 0
    folders = {p.name for p in (table.root / "mail").iterdir()}
    assert folders == {GM, GEORGE, BILL}
    outside = [p for p in table.root.rglob("*") if p.is_file() and "mail" not in p.relative_to(table.root).parts
               and not p.name.startswith("pbem.")]
    assert outside == []
    assert inbound(table)[0]["status"] == "screened"


# -- 3. headers -------------------------------------------------------------------------------------

def header_lines(raw: bytes) -> list[bytes]:
    head = raw.split(b"\n\n", 1)[0]
    return head.split(b"\n")


def test_an_encoded_display_name_cannot_inject_a_header(table):
    table.new_match()
    name = "=?utf-8?b?" + __import__("base64").b64encode(b"Bill\rReply-To: <mallory@evil.test>\r\nX-Evil: 1").decode() + "?="
    table.send("x", raw=raw_mail(f"{name} <{BILL}>", "PLAY 4 4 5", subject="[m1] orders"))
    table.pbem("process")
    (answer,) = [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "error"]
    assert answer.get_all("Reply-To") is None or len(answer.get_all("Reply-To")) == 1
    assert "mallory" not in str(answer.get("Reply-To", "")) and answer["X-Evil"] is None
    files = sent_files(table)
    for f in files:
        for line in header_lines(f.read_bytes()):
            assert not line.lower().startswith((b"x-evil", b"forged")) and len(line) <= 998
            assert b"\r" not in line and b"\x00" not in line


def test_a_huge_message_id_and_references_are_not_echoed_whole(table):
    table.new_match()
    huge_id = "<" + "a" * 10_000 + "@x.test>"
    refs = " ".join(f"<{i}.ref@x.test>" for i in range(5_000))
    table.send("x", raw=raw_mail(f"<{GEORGE}>", "STATUS", to=table.reply_to(GEORGE), subject="Re: [m1] x",
                                 message_id=huge_id, extra=f"References: {refs}\n"))
    table.send("x", raw=raw_mail(f"<{BILL}>", "STATUS", to=table.reply_to(BILL), subject="Re: [m1] x",
                                 message_id="<short@x.test>", extra=f"References: {refs}\n"))
    table.pbem("process")
    george, bill = table.mails(GEORGE)[-1], table.mails(BILL)[-1]
    assert kinds([george, bill]) == ["status", "status"]
    assert george["In-Reply-To"] is None  # a Message-ID no client writes is no Message-ID
    assert bill["In-Reply-To"] == "<short@x.test>"
    assert bill["References"].split() == [f"<{i}.ref@x.test>" for i in range(4993, 5000)] + ["<short@x.test>"]
    for f in sent_files(table):
        assert all(len(line) <= 998 for line in f.read_bytes().split(b"\n"))


# -- 4. senders -------------------------------------------------------------------------------------

def test_the_sender_is_the_angle_address(table):
    table.new_match()
    before = state_of(table)
    table.send("x", raw=raw_mail(f"{GEORGE} <mallory@evil.test>", "PLAY 4 4 5", to=table.reply_to(GEORGE),
                                 subject="Re: [m1] x"))
    table.pbem("process")
    assert state_of(table) == before
    assert kinds(table.mails("mallory@evil.test")) == ["error"]
    # George hears that someone else used his secret; nothing was played for him.
    warning = table.mails(GEORGE)[-1]
    assert kinds(table.mails(GEORGE)) == ["welcome", "error"] and "mallory@evil.test" in flat(warning)


@pytest.mark.parametrize("sender", [f"<{GEORGE}> <mallory@evil.test>", f"{GEORGE}, mallory@evil.test",
                                    f"{GEORGE} mallory@evil.test", f"x: <{GEORGE}>;", f'"x" <{GEORGE}'])
def test_an_ambiguous_from_is_refused_without_an_answer(table, sender):
    table.new_match()
    before = state_of(table)
    table.send("x", raw=raw_mail(sender, "PLAY 4 4 5", to=table.reply_to(GEORGE), subject="Re: [m1] x"))
    table.pbem("process")
    assert state_of(table) == before
    assert inbound(table)[0]["status"] == "screened" and "From" in inbound(table)[0]["note"]
    assert sent_files(table) == [p for p in sent_files(table) if "welcome" in p.read_text()]


def test_two_from_headers_are_refused(table):
    table.new_match()
    raw = raw_mail(f"<{GEORGE}>", "PLAY 4 4 5", to=table.reply_to(GEORGE), subject="Re: [m1] x",
                   extra="From: <mallory@evil.test>\n")
    table.send("x", raw=raw)
    table.pbem("process")
    assert inbound(table)[0]["status"] == "screened"
    assert table.show()["to_move"] == [GEORGE, BILL]


# -- 5. size and retention ---------------------------------------------------------------------------

def test_mail_over_the_size_limit_is_kept_unread_and_answered_once(table):
    configure(table, limits={"max_message_bytes": 10_000})
    table.new_match()
    raw = raw_mail(f"George <{GEORGE}>", "PLAY 4 4 5\n" + "x" * 20_000, to=table.reply_to(GEORGE), subject="Re: [m1]")
    table.send("x", raw=raw)
    table.pbem("process")
    (answer,) = table.mails(GEORGE)[1:]
    assert kinds([answer]) == ["error"] and "did not read it" in flat(answer)
    row = inbound(table)[0]
    assert row["status"] == "refused" and row["raw"] == raw and row["size"] == len(raw)
    assert table.show()["to_move"] == [GEORGE, BILL]


@pytest.mark.parametrize("shape", ["long line", "schrieb", "nfkc", "html"])
def test_slow_shapes_are_read_or_refused(table, shape):
    configure(table, limits={"max_message_bytes": 8_000_000})
    table.new_match()
    reply = table.reply_to(GEORGE)
    if shape == "long line":
        raw = raw_mail(f"<{GEORGE}>", "PLAY 4 4 5\n" + "x" * 2_000_000, to=reply, subject="Re: [m1]")
    elif shape == "schrieb":
        raw = raw_mail(f"<{GEORGE}>", "PLAY 4 4 5\nam " + "schrieb " * 200_000, to=reply, subject="Re: [m1]")
    elif shape == "nfkc":
        raw = raw_mail(f"<{GEORGE}>", "PLAY 4 4 5\n" + "\ufdfa" * 2_000_000, to=reply, subject="Re: [m1]")
    else:
        html = "<p>PLAY 4 4 5</p>" + "<div><b>x</b></div>" * 300_000
        raw = (f"From: <{GEORGE}>\nTo: {reply}\nSubject: Re: [m1]\nMIME-Version: 1.0\n"
               "Content-Type: text/html; charset=utf-8\n\n").encode() + html.encode()
    table.send("x", raw=raw)
    code, _, err = table.pbem("process")
    assert code == 0 and "Traceback" not in err
    assert inbound(table)[0]["status"] in ("handled", "refused")
    assert kinds(table.mails(GEORGE)[1:]) in (["ack"], ["error"])


def test_retention_forgets_old_raw_mail_but_never_a_game(table):
    from conftest import EXAMPLE_COURSE
    table.new_match("m1", EXAMPLE_COURSE, "--option", "nmr=wait")  # no deadline moves it meanwhile
    table.order(GEORGE, "PLAY 4 4 5", now=START)
    table.order(BILL, "PLAY 3 5 4", now=START)
    before = table.show()
    table.pbem("process", now="2027-01-15T18:00:00Z")  # 45 days: nothing is old enough
    assert all(r["raw"] for r in inbound(table))
    table.pbem("process", now="2027-03-15T18:00:00Z")
    assert all(r["raw"] is None for r in inbound(table))
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        assert conn.execute("SELECT count(*) FROM outbox WHERE raw IS NOT NULL").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM outbox WHERE raw IS NULL").fetchone()[0] >= 6
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] >= 3
    finally:
        conn.close()
    after = table.show()
    assert after["state"] == before["state"] and after["history"] == before["history"]
    # A copy of an old message is still known as seen: it is not handled again.
    table.pbem("process", now="2027-03-15T18:10:00Z")
    assert len(inbound(table)) == 2


# -- 6. amplification --------------------------------------------------------------------------------

def test_repeated_commands_get_one_answer_each(table):
    table.new_match()
    text = "\n".join(["STATUS", "HELP", "STATUS", "HISTORY", "HELP"] * 4 + [f"PRESS hello {i}" for i in range(20)])
    got = table.order(GEORGE, text)
    # One answer: the sender's copy of the press, with the status, the history and the help, once each.
    assert kinds(got) == ["press"]
    assert [flat(got[0]).count(f"== {part}") for part in ("Status", "History", "Help")] == [1, 1, 1]
    presses = [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "press"]
    assert len(presses) == 1 and "hello 0" in flat(presses[0]) and "hello 19" in flat(presses[0])


@pytest.mark.parametrize("line,count", [("PRESS spam", 1_000), ("STATUS", 20_000)])
def test_too_many_command_lines_get_one_refusal(table, line, count):
    table.new_match()
    got = table.order(GEORGE, "\n".join([line] * count))
    assert kinds(got) == ["error"] and "more than 100 command lines" in flat(got[0])
    assert [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "press"] == []


def test_press_in_a_finished_game_reaches_the_other_player_only(table):
    table.new_match()
    table.order(GEORGE, "RESIGN")
    got = table.order(BILL, "PRESS gg")
    assert kinds(got) == ["press"] and "passed your press on to George" in flat(got[0])
    assert len([m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "press"]) == 1
    # Anyone else's PRESS to the finished game still proves nothing and reaches nobody.
    table.send("mallory@evil.test", "GAME m1\nPRESS gg", subject="[m1] gg")
    table.pbem("process")
    assert len([m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "press"]) == 1


# -- 7. the guards ------------------------------------------------------------------------------------

def test_forged_mail_cannot_silence_a_player(table):
    configure(table, limits={"messages_per_hour": 5})
    table.new_match()
    for i in range(60):
        table.send(GEORGE, "PLAY 4 4 5", subject=f"[m1] forged {i}")
    table.pbem("process", now=START)
    got = table.order(GEORGE, "PLAY 4 4 5", now="2026-12-01T18:05:00Z")
    assert kinds(got) == ["ack"]
    assert table.show()["to_move"] == [BILL]


def test_a_flooding_player_still_plays_but_is_not_answered(table):
    configure(table, limits={"messages_per_hour": 3})
    table.new_match()
    for _i in range(3):
        table.order(GEORGE, "STATUS", now=START)
    got = table.order(GEORGE, "STATUS", now=START)
    assert kinds(got) == ["error"] and "still count" in flat(got[0])
    assert table.order(GEORGE, "STATUS", now=START) == []
    table.order(GEORGE, "PLAY 4 4 5", now=START)
    assert table.show()["to_move"] == [BILL]


def test_a_right_and_a_wrong_guess_get_the_same_answer(table):
    table.new_match()
    right = table.secret(GEORGE)
    table.send("mallory@evil.test", f"PASSWORD {right}\nPLAY 4 4 5", subject="guess 1")
    table.send("mallory@evil.test", "PASSWORD 0123456789abcdef\nPLAY 4 4 5", subject="guess 2")
    table.send("mallory@evil.test", f"GAME m1\nPASSWORD {right}\nPLAY 4 4 5", subject="guess 3")
    table.send("mallory@evil.test", "GAME m1\nPASSWORD 0123456789abcdef\nPLAY 4 4 5", subject="guess 4")
    table.pbem("process")
    answers = table.mails("mallory@evil.test")
    assert len(answers) == 4
    assert len({(m["Subject"], body(m)) for m in answers}) == 1
    assert "m1" not in flat(answers[0]) and "PLAY" not in flat(answers[0])


def test_a_stranger_cannot_make_the_gm_mail_text_of_their_choosing(table):
    table.new_match()
    spam = "Cheap pills at spam.example"
    table.send("x", raw=raw_mail(f'"{spam}" <victim@example.test>', f"GAME m1\n{spam}\nPLAY {spam}",
                                 subject=f"[{spam}] hello", extra=f"References: <{spam.replace(' ', '.')}@x>\n"))
    table.send("x", raw=raw_mail(f'"{spam}" <victim@example.test>', f"HELP\n{spam}", subject=spam))
    table.pbem("process")
    answers = table.mails("victim@example.test")
    assert len(answers) == 2
    for answer in answers:
        assert "pills" not in answer.as_string().lower()


def test_secrets_have_at_least_64_bits(table):
    table.new_match()
    for player in (GEORGE, BILL):
        secret = table.secret(player)
        assert len(secret) >= 16 and int(secret, 16) >= 0


def test_unproven_mail_is_answered_only_so_often_an_hour(table):
    configure(table, limits={"strangers_per_hour": 5})
    for i in range(8):
        table.send(f"s{i}@evil.test", "PASSWORD abc\nPLAY 4 4 5", subject=f"try {i}")
    table.pbem("process", now=START)
    answered = [i for i in range(8) if (table.root / "mail" / f"s{i}@evil.test").exists()]
    assert answered == [0, 1, 2, 3, 4]
    table.send("s9@evil.test", "HELP", subject="later")
    table.pbem("process", now="2026-12-01T19:30:00Z")
    assert kinds(table.mails("s9@evil.test")) == ["help"]


def test_a_robot_answering_the_gms_mail_without_headers_gets_no_answer(table):
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    text = "Thank you for your message.\n\nI am out of the office until Monday.\n"
    raw = raw_mail(f"<{GEORGE}>", text, to=table.reply_to(GEORGE), subject="Re: [m1] welcome",
                   extra=f"In-Reply-To: {welcome['Message-ID']}\n")
    for _ in range(3):
        table.send("x", raw=raw.replace(b"Subject:", f"Message-ID: <{_}.ooo@x.test>\nSubject:".encode()))
    table.pbem("process")
    assert kinds(table.mails(GEORGE)) == ["welcome"]
    assert {r["status"] for r in inbound(table)} == {"ignored"}
    # A real reply with a wrong order still gets its error.
    table.send("x", raw=raw_mail(f"<{GEORGE}>", "PLAY 4 4 9", to=table.reply_to(GEORGE), subject="Re: [m1] welcome",
                                 extra=f"In-Reply-To: {welcome['Message-ID']}\n"))
    table.pbem("process")
    assert kinds(table.mails(GEORGE))[-1] == "error"


# -- 8. exactly once ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_kill_between_writing_and_marking_sent_delivers_each_mail_once(cron_table):
    table = cron_table
    table.new_match()
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1]", to=table.reply_to(GEORGE))
    table.send(BILL, "PLAY 3 5 4", subject="Re: [m1]", to=table.reply_to(BILL))
    for _ in range(8):  # every crash sends one more mail, then dies before it is marked sent
        code, _, _ = _crash(table, "written")
        if code == 0:
            break
        assert code != 0
    table.pbem("process")
    conn = sqlite3.connect(table.root / "pbem.sqlite3")
    try:
        rows = conn.execute("SELECT message_id, recipient, status FROM outbox").fetchall()
    finally:
        conn.close()
    assert rows and all(status == "sent" for _, _, status in rows)
    per_id: dict[str, int] = {}
    for f in sent_files(table):
        mid = email.message_from_bytes(f.read_bytes(), policy=email.policy.default)["Message-ID"]
        per_id[mid] = per_id.get(mid, 0) + 1
    assert per_id == {mid: 1 for mid, _, _ in rows}


# -- 9. smaller ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("charset", ["punycode", "idna", "rot13", "x-unknown"])
def test_a_body_in_a_strange_charset_is_still_read(table, charset):
    table.new_match()
    raw = raw_mail(f"<{GEORGE}>", "PLAY 4 4 5", to=table.reply_to(GEORGE), subject="Re: [m1]")
    table.send("x", raw=raw.replace(b"charset=utf-8", f"charset={charset}".encode()))
    table.pbem("process")
    assert kinds(table.mails(GEORGE)[1:]) == ["ack"]


def test_control_characters_are_never_quoted_raw(table):
    table.new_match()
    got = table.order(GEORGE, "PLAY 4 4 \x1b[31m9\x07\nDANCE\x00 \u202eevil")
    assert kinds(got) == ["error"]
    text = body(got[0])
    assert not any(ch in text for ch in "\x1b\x07\x00\u202e")


def test_the_same_message_id_from_another_sender_is_another_message(table):
    table.new_match()
    table.send(GEORGE, "STATUS", subject="[m1] x", to=table.reply_to(GEORGE), message_id="<same@x.test>")
    table.send(BILL, "STATUS", subject="[m1] x", to=table.reply_to(BILL), message_id="<same@x.test>")
    table.send(BILL, "STATUS", subject="[m1] x", to=table.reply_to(BILL), message_id="<same@x.test>")
    table.pbem("process")
    assert kinds(table.mails(GEORGE))[-1] == "status" and kinds(table.mails(BILL)).count("status") == 1


def test_html_parts_escape_what_they_print(table):
    from pbem.render.html_part import html_part
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "3", "--player", f'"Ann <i>" <{GEORGE}>',
               "--player", f"Bob <{BILL}>", now=START)
    html = [m.get_body(preferencelist=("html",)).get_content() for m in table.mails(BILL)
            if m.get_body(preferencelist=("html",)) is not None]
    assert html and all("Ann <i>" not in h for h in html) and any("Ann &lt;i&gt;" in h for h in html)
    page = html_part("Game <i>c1</i>\n\n<script>x</script>   4   5\n  PLAY <a> & b")
    assert "<script>" not in page and "<i>c1</i>" not in page and "<a>" not in page
    assert "&lt;script&gt;" in page and "&lt;i&gt;c1&lt;/i&gt;" in page and "&amp; b" in page


def test_a_forged_bounce_without_the_gms_message_id_marks_nothing(table):
    table.new_match()
    report = (f"From: MAILER-DAEMON@mx.example.test\nTo: {GM}\nSubject: Undelivered Mail\nMIME-Version: 1.0\n"
              'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
              "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.test\n\n"
              f"Final-Recipient: rfc822; {GEORGE}\nAction: failed\nStatus: 5.1.1\n--b--\n")
    table.send("x", raw=report.encode())
    table.pbem("process")
    assert table.show()["players"][0]["bounced"] is None
    assert kinds(table.mails(GEORGE)) == ["welcome"] and not (table.root / "mail" / "mailer-daemon@mx.example.test").exists()
    # With the Message-ID of the GM's own mail it counts.
    welcome_id = table.mails(GEORGE)[0]["Message-ID"]
    table.send("x", raw=report.replace("--b--", f"--b\nContent-Type: text/rfc822-headers\n\nMessage-ID: {welcome_id}\n"
                                                 "\n--b--").replace("Undelivered", "Undelivered again").encode())
    table.pbem("process")
    assert table.show()["players"][0]["bounced"]["diagnostic"]
