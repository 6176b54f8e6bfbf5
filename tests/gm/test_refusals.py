"""Every refusal: an error mail that names the line and the rule, and a game left untouched."""
from __future__ import annotations

import pytest
from conftest import BILL, GEORGE, GM, body, kinds, too_wide

from pbem.games.matchplay import rule as cited


def play_turn_one(table, george="PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1", bill="PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1"):
    table.order(GEORGE, george)
    table.order(BILL, bill)


def refused(table, sender, text, *, line_no, line, rule, right=None, **kw):
    before = table.show()
    mails = table.order(sender, text, **kw)
    assert kinds(mails) == ["error"], kinds(mails)
    b = body(mails[0])
    assert f"Line {line_no}: {line}" in b, b
    # A MatchPlay rule as the welcome labels it (one letter); a long one wraps in the mail.
    assert f"Rule: {cited(rule) if len(rule) == 1 else rule}" in " ".join(b.split()), b
    assert "Nothing in it was applied" in b
    if right:
        assert "What would be right:" in b and right in b, b
    after = table.show()
    assert after["state"] == before["state"] and after["history"] == before["history"]
    return b


def test_a_stroke_card_no_longer_held(table):
    table.new_match()
    play_turn_one(table, george="PLAY 5 5 5\nSPECIAL BLUE+1 HOLE 1")
    b = refused(table, GEORGE, "PLAY 5 5 4\nSPECIAL BLUE-1 HOLE 4", line_no=1, line="PLAY 5 5 4",
                rule="h")
    assert "your stroke cards are:" in b


def test_two_specials_in_one_turn(table):
    table.new_match()
    refused(table, GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1\nSPECIAL BLUE-1 HOLE 2", line_no=3,
            line="SPECIAL BLUE-1 HOLE 2", rule="a")


def test_a_special_on_a_hole_outside_the_turn(table):
    table.new_match()
    refused(table, GEORGE, "PLAY 4 4 5\nSPECIAL RED+1 HOLE 7", line_no=2, line="SPECIAL RED+1 HOLE 7",
            rule="e")


def test_a_special_already_played(table):
    table.new_match()
    play_turn_one(table)
    refused(table, GEORGE, "PLAY 3 4 5\nSPECIAL BLUE+1 HOLE 5", line_no=2, line="SPECIAL BLUE+1 HOLE 5",
            rule="f")


def test_two_colours_in_turns_one_to_three(table):
    table.new_match()
    play_turn_one(table)
    refused(table, GEORGE, "PLAY 3 4 5\nSPECIAL RED-1 HOLE 5", line_no=2, line="SPECIAL RED-1 HOLE 5",
            rule="c")


def test_no_special_in_turns_one_and_two_is_refused_at_turn_two(table):
    table.new_match()
    play_turn_one(table, george="PLAY 4 4 5")
    refused(table, GEORGE, "PLAY 3 4 5", line_no=1, line="PLAY 3 4 5",
            rule="b", right="SPECIAL")


@pytest.mark.parametrize("text", ["PLAY 4 4", "PLAY 4 4 5 3"])
def test_the_wrong_number_of_cards(table, text):
    table.new_match()
    refused(table, GEORGE, text, line_no=1, line=text, rule="g",
            right="PLAY ")


def test_a_card_that_does_not_exist(table):
    table.new_match()
    refused(table, GEORGE, "PLAY 4 4 9", line_no=1, line="PLAY 4 4 9", rule="h")


def test_a_stale_turn(table):
    table.new_match()
    play_turn_one(table)
    b = refused(table, GEORGE, "TURN 1\nPLAY 3 4 5", line_no=1, line="TURN 1",
                rule="a TURN line must match the current turn")
    # Which turn is open and its holes; never the number to write instead (issue 31, item 10).
    assert "turn 2 is open now, and it plays holes 4, 5 and 6" in " ".join(b.split())
    assert "What would be right" not in b and "TURN 2" not in b


def test_every_wrong_line_is_listed_and_nothing_applies(table):
    table.new_match()
    before = table.show()
    mails = table.order(GEORGE, "PLAY 4 4 5\nSPECIAL GREEN+1 HOLE 2\nPRESS hello\nDANCE")
    b = body(mails[0])
    assert "Line 2: SPECIAL GREEN+1 HOLE 2" in b and "Line 4: DANCE" in b
    assert not [m for m in table.mails(BILL) if m["X-PBEM-Kind"] == "press"]  # PRESS did not apply
    assert table.show()["state"] == before["state"]


def test_two_play_lines_are_ambiguous(table):
    table.new_match()
    mails = table.order(GEORGE, "PLAY 4 4 5\nPLAY 5 4 4")
    b = body(mails[0])
    assert "Line 2: PLAY 5 4 4" in b and "ambiguous" in b


def test_a_wrong_secret(table):
    table.new_match()
    before = table.show()
    table.send(GEORGE, "GAME m1\nPASSWORD nottheone\nPLAY 4 4 5")
    table.pbem("process")
    mails = table.new_mails(GEORGE)[1:]  # after the welcome
    assert kinds(mails) == ["error"] and "password is wrong" in body(mails[0])
    assert table.show()["state"] == before["state"]


def test_no_secret_at_all(table):
    table.new_match()
    table.send(GEORGE, "PLAY 4 4 5", subject="Re: [m1] orders")
    table.pbem("process")
    mails = table.mails(GEORGE)[1:]
    assert kinds(mails) == ["error"] and "no password" in body(mails[0])
    assert table.show()["to_move"] == [GEORGE, BILL]


def test_a_strangers_address_with_a_valid_secret_is_refused_and_the_owner_warned(table):
    table.new_match()
    before = table.show()
    secret = table.secret(GEORGE)
    table.send("mallory@example.test", f"GAME m1\nPASSWORD {secret}\nPLAY 4 4 5")
    table.pbem("process")
    to_mallory = table.mails("mallory@example.test")
    assert kinds(to_mallory) == ["error"] and "No seat in a game here matches" in body(to_mallory[0])
    # The answer names no game and quotes nothing: it is the same as for a wrong guess.
    assert secret not in str(to_mallory[0]) and "m1" not in str(to_mallory[0]) and "PLAY" not in body(to_mallory[0])
    warning = table.mails(GEORGE)[-1]
    assert "mallory@example.test" in body(warning) and "password" in body(warning)
    # It says what to do, and not "write to the GM" at the program's own address.
    assert "person who runs this GM" in " ".join(body(warning).split()) and GM not in body(warning)
    assert all(len(line) <= 78 for line in body(warning).splitlines())
    assert not [m for m in table.mails(BILL) if m["X-PBEM-Kind"] != "welcome"]
    assert table.show()["state"] == before["state"]


def test_the_opponents_secret_is_refused_and_its_owner_warned(table):
    table.new_match()
    table.send(BILL, f"GAME m1\nPASSWORD {table.secret(GEORGE)}\nPLAY 4 4 5")
    table.pbem("process")
    assert kinds(table.mails(BILL))[-1] == "error"
    assert BILL in body(table.mails(GEORGE)[-1])


def test_a_second_order_after_resign(table):
    table.new_match()
    table.order(GEORGE, "RESIGN")
    before = table.show()
    assert before["status"] == "finished"
    mails = table.order(GEORGE, "PLAY 4 4 5")
    assert kinds(mails) == ["error"] and "Line 1: PLAY 4 4 5" in body(mails[0])
    assert table.show()["state"] == before["state"]


def test_unknown_game_and_no_game(table):
    table.new_match()
    table.send(GEORGE, "GAME nosuch\nPLAY 4 4 5")
    table.send(GEORGE, "PLAY 4 4 5", subject="hello")
    table.pbem("process")
    errs = table.mails(GEORGE)[1:]
    assert kinds(errs) == ["error", "error"]
    texts = " ".join(body(m) for m in errs)
    assert "No seat in a game here matches" in texts and "does not say which game" in texts
    assert "nosuch" not in texts


def test_help_without_a_game(table):
    table.send("newcomer@example.test", "HELP")
    table.pbem("process")
    assert kinds(table.mails("newcomer@example.test")) == ["help"]
    help_mail = table.mails("newcomer@example.test")[0]
    assert help_mail["To"] == "newcomer@example.test" and help_mail["Auto-Submitted"] == "auto-replied"
    text = body(help_mail)
    assert "GAME <game id>" in text and not too_wide(text), too_wide(text)
    # Every command a stranger or a league player may send is named, with what it does.
    for command in ("OBSERVE <id>", "UNOBSERVE <id>", "SET ABSENCE <first day> TO <last day>",
                    "SET TIMEZONE <zone>", "STATUS", "PRESS <text>", "RESIGN", "END"):
        assert f"\n    {command}" in text, command
    assert not list((table.root / "mail" / GM / "new").iterdir())  # handled, moved out of new/


def test_cards_and_special_both_wrong_are_both_listed(table):
    table.new_match()
    mails = table.order(GEORGE, "PLAY 4 4 9\nSPECIAL BLUE+1 HOLE 7")
    b = body(mails[0])
    assert "Line 1: PLAY 4 4 9" in b and "Line 2: SPECIAL BLUE+1 HOLE 7" in b
    assert "What would be right: PLAY 4 4 5" in b


# --- a message with nothing to do in it says why --------------------------------------------


@pytest.mark.parametrize("text, why", [
    ("", "the message was empty"),
    ("Hi GM,\n\nOn Mon, 30 Nov 2026, Golf GM <gm@example.test> wrote:\n> PLAY 4 4 5\n> SPECIAL BLUE+1 HOLE 1\n",
     "line 1 reads as a greeting, which I skip; everything after line 2 was quoted text, which I skip"),
    ("-- \nGeorge\nPLAY 4 4 5\n", "reading stopped at the signature on line 1"),
    ("Hi GM,\n\nEND\nPLAY 4 4 5\n", "line 1 reads as a greeting, which I skip; reading stopped at END on line 3"),
])
def test_a_message_without_commands_is_told_why(table, text, why):
    table.new_match()
    before = table.show()
    mails = table.order(GEORGE, text)
    assert kinds(mails) == ["error"]
    flat = " ".join(body(mails[0]).split())
    assert f"this message has no commands: {why}" in flat, body(mails[0])
    assert "What would be right: HELP" in flat
    assert table.show()["state"] == before["state"]


def test_a_message_of_quotes_says_where_to_write(table):
    table.new_match()
    mails = table.order(GEORGE, "Golf GM wrote:\n> PLAY 4 4 5\n")
    flat = " ".join(body(mails[0]).split())
    assert "all of it was quoted text, which I skip" in flat
    assert "write your commands above or below the quoted text, never inside it" in flat


def test_a_message_of_game_and_password_only(table):
    table.new_match()
    table.send(GEORGE, f"GAME m1\nPASSWORD {table.secret(GEORGE)}\n\n-- \nGeorge\n", subject="hello")
    table.pbem("process")
    flat = " ".join(body(table.mails(GEORGE)[-1]).split())
    assert ("this message has no commands: its only lines say which game it is for and who writes "
            "(GAME, PASSWORD, TURN); reading stopped at the signature on line 4") in flat


# --- the error mail fits 78 columns, whatever the player wrote --------------------------------


def assert_fits(text: str) -> None:
    wide = [line for line in text.splitlines() if len(line) > 78]
    assert not wide, wide


def test_an_error_mail_quotes_a_long_line_only_as_far_as_it_fits(table):
    table.new_match()
    long_line = "PLAY 4 4 5 " + "and then some more words " * 12
    mails = table.order(GEORGE, f"{long_line}\nSPECIAL GREEN+1 HOLE {'9' * 70}\nSET TIMEZONE Mars/{'x' * 90}")
    text = body(mails[0])
    assert_fits(text)
    lines = text.splitlines()
    first = next(line for line in lines if line.startswith("Line 1: "))
    assert len(first) == 78 and first.endswith("\u2026") and long_line.startswith(first[len("Line 1: "):-1])
    assert "Line 2: SPECIAL GREEN+1 HOLE 999" in text
    assert any(line.startswith("Line 3: SET TIMEZONE Mars/xxx") for line in lines)
    # The preamble, once one line of 88 columns, is wrapped.
    assert "I could not accept your message. Nothing in it was applied: game m1 is\nexactly as it was." in text


def test_an_error_mail_to_a_player_with_a_long_name_fits(table):
    name = "Georgina Alexandra Montgomery-Fairweather of the Royal and Ancient Golf Club"
    table.pbem("new-game", "matchplay", "--player", f"{name} <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--course", "445 345 434 543 434 454", "--id", "m1")
    mails = table.order(GEORGE, "PLAY 4 4 9\nSPECIAL BLUE+1 HOLE 7\nDANCE " + "x" * 200)
    assert kinds(mails) == ["error"]
    assert_fits(body(mails[0]))
    assert name in " ".join(body(mails[0]).split())


def test_a_line_that_fits_is_quoted_whole(table):
    table.new_match()
    line = "PLAY 4 4 9 " + "x" * (78 - len("Line 1: PLAY 4 4 9 "))
    mails = table.order(GEORGE, line)
    assert f"Line 1: {line}\n" in body(mails[0])


def test_an_unreadable_turn_line_suggests_no_number_and_the_orders_keep_theirs(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    table.order(GEORGE, "PLAY 3 4 5\nSPECIAL BLUE+1 HOLE 4")
    table.order(BILL, "PLAY 4 4 5")
    assert table.show()["turn"] == 3
    got = table.order(GEORGE, "TURN two\nPLAY 4 4 4\nSPECIAL GREEN+1 HOLE 8")
    text = " ".join(body(got[-1]).split())
    assert kinds(got) == ["error"]
    assert "What would be right: TURN" not in text and "TURN 2" not in text and "TURN 3" not in text
    assert "TURN takes the number of the turn these orders are for" in text
    special = text.split("Line 3:")[1]
    assert "What would be right: PLAY" in special and "TURN" not in special


def test_time_zone_and_orders_in_one_mail_get_one_answer_with_both(table):
    table.new_match()
    got = table.order(GEORGE, "PLAY 3 5 4\nSET TIMEZONE Europe/Paris")
    assert kinds(got) == ["ack"], [m["Subject"] for m in got]
    text = body(got[0])
    assert text.index("PLAY 3 5 4") < text.index("== Time zone set to Europe/Paris ==")
    # The zone was set first: the orders' answer writes its deadline in it already.
    assert "CET" in text.split("== Time zone")[0]


# --- lines are checked against the game as the message found it (issue 18, item 6) ----------
@pytest.mark.parametrize("text, resign_line", [("PLAY 4 4 3\nRESIGN", 2), ("RESIGN\nPLAY 4 4 3", 1)])
def test_resign_beside_orders_is_refused_and_the_orders_are_judged_on_the_game_as_it_is(table, text,
                                                                                         resign_line):
    table.new_match()
    before = table.show()
    mails = table.order(GEORGE, text)
    assert kinds(mails) == ["error"]
    b = body(mails[0])
    flat = " ".join(b.split())
    assert f"Line {resign_line}: RESIGN" in b and "cannot share a message" in flat
    # The PLAY line is legal in the match as the message found it: no word of it being over.
    assert "match is over" not in flat and f"Line {3 - resign_line}: PLAY" not in b, b
    after = table.show()
    assert after["status"] == "active" and after["state"] == before["state"]


# --- every wrong line is named (issue 18, item 8) ---------------------------------------------
def test_two_specials_both_wrong_each_line_is_named(table):
    table.new_match()
    b = refused(table, GEORGE, "PLAY 4 4 6\nSPECIAL BLUE+1 HOLE 5\nSPECIAL RED-1 HOLE 1", line_no=1,
                line="PLAY 4 4 6", rule="h")
    flat = " ".join(b.split())
    assert "Line 2: SPECIAL BLUE+1 HOLE 5" in b, b
    assert "hole 5 is not in this turn" in flat and f"Rule: {cited('e')}" in flat
    assert "Line 3: SPECIAL RED-1 HOLE 1" in b and f"Rule: {cited('a')}" in flat
    # One correction for the whole set, itself legal: it is accepted as written.
    right = b.split("What would be right: ")[1].split("\n\n")[0]
    orders = "\n".join(line.strip() for line in right.splitlines())
    assert orders.startswith("PLAY 4 4 5"), orders
    assert kinds(table.order(GEORGE, orders)) == ["ack"]


def test_three_specials_every_line_past_the_first_is_named(table):
    table.new_match()
    b = refused(table, GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1\nSPECIAL BLUE-1 HOLE 2\nSPECIAL RED+1 HOLE 3",
                line_no=3, line="SPECIAL BLUE-1 HOLE 2", rule="a")
    assert "Line 4: SPECIAL RED+1 HOLE 3" in b and "Line 2:" not in b and "Line 1:" not in b


def test_a_wrong_special_and_a_second_one_on_the_same_turn(table):
    table.new_match()
    b = refused(table, GEORGE, "PLAY 4 4 5\nSPECIAL GREEN+1 HOLE 2\nSPECIAL BLUE+1 HOLE 9",
                line_no=3, line="SPECIAL BLUE+1 HOLE 9", rule="e")
    assert "Line 2: SPECIAL GREEN+1 HOLE 2" in b and "unreadable" in b
    assert "Line 3: SPECIAL BLUE+1 HOLE 9" in b and "hole 9 is not in this turn" in " ".join(b.split())


# --- an answer to mail that proved no seat says each thing once (issue 18, item 12) ----------
def repeated_phrases(text: str, n: int = 5) -> set[str]:
    """The runs of `n` words said more than once in a mail."""
    words = [w.strip(".,:;()").casefold() for w in text.split()]
    runs = [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]
    return {run for run in runs if runs.count(run) > 1}


@pytest.mark.parametrize("sender, text, subject, says", [
    ("stranger@example.test", "GAME m1\nPLAY 4 4 5", "orders", "No seat in a game here matches"),
    ("stranger@example.test", "PLAY 4 4 5", "orders", "does not say which game"),
    (GEORGE, "PLAY 4 4 5", "Re: [m1] orders", "carries no password"),
    (GEORGE, "GAME m1\nPASSWORD nottheone\nPLAY 4 4 5", "orders", "password is wrong"),
    ("stranger@example.test", "PAUSE m1", "orders", "taken only from the GM's admin addresses"),
])
def test_an_unproven_message_is_answered_once_each_thing_said_once(table, sender, text, subject, says):
    table.new_match()
    start = len(table.mails(sender))
    table.send(sender, text, subject=subject)
    table.pbem("process")
    got = table.mails(sender)[start:]
    assert kinds(got) == ["error"]
    b = body(got[0])
    flat = " ".join(b.split())
    assert flat.count(says) == 1, b
    assert not repeated_phrases(b), (repeated_phrases(b), b)
    assert "PLAY 4 4 5" not in b and not too_wide(b)
