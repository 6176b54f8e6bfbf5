"""The GM's commands, issue 18: a report of a turn the GM closed says so (item 12), a seat can be
given a new secret (item 14), and EXTEND is capped as DEADLINE is, all its lines of one message
together (item 18)."""
from __future__ import annotations

import email.utils

from conftest import BILL, GEORGE, GM, body, kinds, too_wide
from test_admin import BOSS, START, admin_mail, new_match, with_admin


def flat(msg) -> str:
    return " ".join(body(msg).split())


# -- item 12: a forfeit the GM closed ------------------------------------------------------------
def test_a_forfeit_of_a_turn_the_gm_closed_says_the_gm_closed_it(table):
    new_match(table, "--option", "nmr=forfeit")
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    table.new_mails(BILL)
    table.pbem("gm", "PROCESS", "m1", now=START)
    report = [m for m in table.new_mails(BILL) if m["X-PBEM-Kind"] == "report"][0]
    text = flat(report)
    assert "F: forfeit, no orders before the GM closed the turn" in text
    assert "by the deadline" not in text and not too_wide(body(report))


def test_a_forfeit_at_the_deadline_still_says_the_deadline(table):
    new_match(table, "--option", "nmr=forfeit")
    table.order(GEORGE, "PLAY 3 5 4", now=START)
    table.new_mails(BILL)
    table.pbem("process", now="2026-12-03T18:00:01Z")
    report = [m for m in table.new_mails(BILL) if m["X-PBEM-Kind"] == "report"][0]
    assert "F: forfeit, no orders by the deadline" in flat(report)
    assert "GM closed" not in flat(report)


# -- item 14: a new secret for a seat ------------------------------------------------------------
def secret_of(msg) -> str:
    return email.utils.parseaddr(msg["Reply-To"])[1].split("@")[0].split("+", 1)[1]


def test_the_warning_names_what_to_ask_the_gm_for(table):
    new_match(table)
    table.send("mallory@example.test", f"GAME m1\nPASSWORD {table.secret(BILL)}\nPLAY 4 4 5")
    table.pbem("process", now=START)
    warning = table.mails(BILL)[-1]
    assert warning["Subject"] == "[m1] Someone used your password"
    assert "NEWSECRET m1 bill@example.test" in flat(warning) and not too_wide(body(warning))


def test_newsecret_by_mail_mails_the_seat_a_new_secret_and_the_old_one_stops_working(table):
    with_admin(table)
    new_match(table)
    old = table.secret(BILL)
    table.new_mails(BILL), table.new_mails(GEORGE)
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nNEWSECRET m1 bill@example.test")
    assert answer["X-PBEM-Kind"] == "ack" and "new secret for bill@example.test in m1" in flat(answer)
    assert old not in body(answer)
    notice = table.new_mails(BILL)
    assert kinds(notice) == ["notice"] and table.new_mails(GEORGE) == []  # the seat alone is told
    new = secret_of(notice[0])
    assert new != old and new in body(notice[0]) and old not in body(notice[0])
    assert "old one no longer works" in flat(notice[0]) and not too_wide(body(notice[0]))
    assert new not in body(answer) and new not in str(table.show())  # nobody else sees it
    # The old secret is refused, in the body or in the reply address; the new one plays.
    table.send(BILL, f"GAME m1\nPASSWORD {old}\nPLAY 4 4 5")
    table.send(BILL, "PLAY 4 4 5", subject="Re: [m1] your turn", to=f"gm+{old}@example.test")
    table.pbem("process", now=START)
    refused = table.new_mails(BILL)
    assert kinds(refused) == ["error", "error"] and all("password is wrong" in flat(m) for m in refused)
    assert table.show()["to_move"] == [GEORGE, BILL]
    table.send(BILL, "PLAY 4 4 5", subject="Re: [m1] your turn", to=email.utils.parseaddr(notice[0]["Reply-To"])[1])
    table.pbem("process", now=START)
    assert kinds(table.new_mails(BILL)) == ["ack"] and table.show()["to_move"] == [GEORGE]


def test_newsecret_from_the_cli_and_its_refusals(table):
    new_match(table)
    old = table.secret(GEORGE)
    _, out, _ = table.pbem("gm", "NEWSECRET", "m1", GEORGE, now=START)
    assert "new secret for george@example.test in m1" in out
    assert secret_of(table.mails(GEORGE)[-1]) != old
    code, _, err = table.pbem("gm", "NEWSECRET", "m1", "nobody@example.test", now=START, check=False)
    assert code == 2 and "nobody@example.test has no seat in game m1" in err
    assert "NEWSECRET m1 george@example.test" in err  # a suggestion that is itself taken
    table.pbem("gm", "NEWSECRET", "m1", "george@example.test", now=START)
    code, _, err = table.pbem("gm", "NEWSECRET", "m1", now=START, check=False)
    assert code == 2 and "NEWSECRET m1 bill@example.test" not in err and "NEWSECRET cup1" in err


def test_a_forged_newsecret_changes_nothing_and_tells_nobody_but_the_sender(table):
    with_admin(table)
    new_match(table)
    old = table.secret(BILL)
    table.new_mails(BILL)
    table.send("mallory@example.test", "PASSWORD gm-secret-0123456789\nNEWSECRET m1 bill@example.test")
    table.send(BOSS, "PASSWORD guess\nNEWSECRET m1 bill@example.test", subject="forged")
    table.pbem("process", now=START)
    assert table.new_mails(BILL) == [] and table.secret(BILL) == old
    assert kinds(table.mails("mallory@example.test")) == ["error"]
    assert kinds(table.mails(BOSS)) == ["error"]
    assert all(kind is None for kind in kinds(table.mails(GM)))


# -- item 18: EXTEND capped as DEADLINE is ---------------------------------------------------------
def test_one_extend_past_a_year_is_refused_with_one_that_would_be_taken(table):
    new_match(table)  # deadline 2026-12-03 18:00
    code, _, err = table.pbem("gm", "EXTEND", "m1", "365d", now=START, check=False)
    assert code == 2 and "more than a year from now" in err and "Traceback" not in err
    assert table.show()["deadline"] == "2026-12-03T18:00:00Z"
    suggestion = err.split("(e.g. ")[1].rstrip(")\n")
    assert suggestion == "EXTEND m1 364d"
    table.pbem("gm", *suggestion.split(), now=START)
    assert table.show()["deadline"] == "2027-12-02T18:00:00Z"  # 366 days after START, the cap itself


def test_every_extend_line_of_one_message_counts_against_the_cap(table):
    with_admin(table)
    new_match(table)
    table.new_mails(BILL)
    lines = "\n".join(["EXTEND m1 365d"] * 99)
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\n" + lines)
    assert answer["X-PBEM-Kind"] == "error" and not too_wide(body(answer))
    text = flat(answer)
    assert "a year away at most" in text and "Line 2" in text  # the first line that goes past it
    assert table.show()["deadline"] == "2026-12-03T18:00:00Z"  # all or nothing
    assert table.new_mails(BILL) == []  # and the players heard of none of it
    # Two lines that fit together are taken; one more that does not is refused with the rest.
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 200d\nEXTEND m1 100d", now="2026-12-01T18:01:00Z")
    assert answer["X-PBEM-Kind"] == "ack" and table.show()["deadline"] == "2027-09-29T18:00:00Z"
    answer = admin_mail(table, "PASSWORD gm-secret-0123456789\nEXTEND m1 30d\nEXTEND m1 40d", now="2026-12-01T18:02:00Z")
    assert answer["X-PBEM-Kind"] == "error" and "Line 3" in flat(answer)
    assert "EXTEND m1 34d" in flat(answer)  # what the cap still takes after the first line
    assert table.show()["deadline"] == "2027-09-29T18:00:00Z"


def test_extend_while_paused_is_capped_too(table):
    new_match(table)
    table.pbem("gm", "PAUSE", "m1", now=START)  # 2 d left
    code, _, err = table.pbem("gm", "EXTEND", "m1", "365d", now=START, check=False)
    assert code == 2 and "more than a year from now" in err
    assert table.load().row.paused_left == 2 * 86400


def test_help_to_an_admin_lists_the_gm_commands_with_newsecret_and_nobody_else_gets_them(table):
    with_admin(table)
    table.send(BOSS, "HELP", subject="help")
    table.send("pat@example.test", "HELP", subject="help")
    table.pbem("process", now=START)
    boss, = table.mails(BOSS)
    pat, = table.mails("pat@example.test")
    assert boss["X-PBEM-Kind"] == "help" and pat["X-PBEM-Kind"] == "help"
    assert "NEWSECRET <game> <address>" in body(boss) and "EXTEND <game> <duration>" in body(boss)
    assert "NEWSECRET" not in body(pat) and not too_wide(body(boss))


def test_pbem_gm_help_names_newsecret(table):
    code, out, _ = table.pbem("gm", "--help", check=False)
    assert code == 0 and "NEWSECRET <game> <address>" in " ".join(out.split())
