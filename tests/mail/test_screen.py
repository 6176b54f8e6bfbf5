from pathlib import Path

import pytest

from pbem.mail.inbound import parse
from pbem.mail.screen import (
    RULES,
    AutoReplyHeaders,
    AutoSubmitted,
    Bounce,
    ListMail,
    NoSender,
    OwnMail,
    Precedence,
    screen,
)

SAMPLES = Path(__file__).parent / "samples"
GM = {"gm@example.test"}


def sample(name: str):
    return parse((SAMPLES / name).read_bytes().replace(b"\n", b"\r\n"))


def mail(headers: str = "", sender: str = "George Player <george@example.org>"):
    head = f"From: {sender}\r\n" if sender is not None else ""
    head += "To: gm+s3cret@example.test\r\nSubject: Re: [golf-7] Turn 3\r\nMessage-ID: <p1@example.org>\r\n"
    return parse((head + headers + "\r\nPLAY 4 4 5\r\n").encode("utf-8"))


# --- player mail passes ------------------------------------------------------


@pytest.mark.parametrize("name", ["gmail_reply.eml", "outlook_html.eml", "apple_mail.eml"])
def test_player_replies_pass(name):
    assert screen(sample(name), GM) is None


def test_plain_player_mail_passes_every_rule():
    msg = mail("Auto-Submitted: no\r\nPrecedence: normal\r\nX-Auto-Response-Suppress: DR, RN\r\n")
    assert [rule.name for rule in RULES if rule.check(msg, GM)] == []
    assert screen(msg, GM) is None


# --- each rule ---------------------------------------------------------------


def test_out_of_office_is_auto_submitted():
    assert screen(sample("out_of_office.eml"), GM) == "auto-submitted: Auto-Submitted: auto-replied"


@pytest.mark.parametrize("value", ["auto-generated", "auto-replied", "auto-notified; owner-email=x@y", "AUTO-REPLIED"])
def test_auto_submitted_values(value):
    assert AutoSubmitted().check(mail(f"Auto-Submitted: {value}\r\n"), GM) == f"Auto-Submitted: {value}"


@pytest.mark.parametrize(
    "header",
    [
        "X-Autoreply: yes",
        "X-Autorespond: Out of office",
        "X-Auto-Response-Suppress: All",
        "X-Auto-Response-Suppress: DR, OOF",
        "X-Auto-Response-Suppress: autoreply",
    ],
)
def test_autoreply_headers(header):
    reason = screen(mail(header + "\r\n"), GM)
    assert reason == f"autoreply: {header}"


def test_auto_response_suppress_without_oof_passes():
    assert AutoReplyHeaders().check(mail("X-Auto-Response-Suppress: DR, RN, NRN\r\n"), GM) is None


@pytest.mark.parametrize("value", ["bulk", "junk", "list", "auto_reply", "Bulk"])
def test_precedence(value):
    assert screen(mail(f"Precedence: {value}\r\n"), GM) == f"precedence: Precedence: {value}"


def test_precedence_first_class_passes():
    assert Precedence().check(mail("Precedence: first-class\r\n"), GM) is None


def test_list_mail_sample():
    assert screen(sample("list_mail.eml"), GM) == "list: List-Id header"


@pytest.mark.parametrize(
    "header", ["List-Unsubscribe: <mailto:u@l.example>", "List-Post: NO", "List-Archive: <https://l.example>", "Mailing-List: contact golfers"]
)
def test_list_headers(header):
    name = header.split(":")[0]
    assert ListMail().check(mail(header + "\r\n"), GM) == f"{name} header"


def test_bounce_sample_is_screened_even_though_it_quotes_gm_mail():
    msg = sample("bounce.eml")
    assert screen(msg, GM) is not None
    assert Bounce().check(msg, GM) == "null return path <>"


@pytest.mark.parametrize(
    "headers, sender",
    [
        ("Return-Path: <>\r\n", "george@example.org"),
        ("", "MAILER-DAEMON@mx.example.org"),
        ("", "Mail Delivery Subsystem <Postmaster@example.org>"),
        ("", "MAILER-DAEMON (Mail Delivery System)"),
        ('Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n', "george@example.org"),
    ],
)
def test_bounce_forms(headers, sender):
    msg = mail(headers, sender=sender)
    assert Bounce().check(msg, GM)
    assert screen(msg, GM).startswith("bounce: ")


def test_return_path_of_a_person_is_not_a_bounce():
    assert Bounce().check(mail("Return-Path: <george@example.org>\r\n"), GM) is None


@pytest.mark.parametrize("sender", ["gm@example.test", "Golf GM <GM@Example.Test>", "gm+secret@example.test"])
def test_own_mail(sender):
    assert screen(mail(sender=sender), GM) == f"loop: sent by the GM address {sender.split('<')[-1].rstrip('>').lower()}"


def test_own_mail_with_plus_addressed_gm_address():
    assert OwnMail().check(mail(sender="gm@example.test"), {"GM+admin@example.test"})


def test_similar_address_is_not_own_mail():
    assert OwnMail().check(mail(sender="gm@example.test.evil"), GM) is None
    assert OwnMail().check(mail(sender="gmx@example.test"), GM) is None


def test_pbem_kind_header_means_our_own_mail():
    assert screen(mail("X-PBEM-Kind: report\r\n"), GM) == "loop: X-PBEM-Kind: report"


def test_no_sender():
    assert screen(mail(sender=None), GM) == "no-sender: no sender address in From"
    assert NoSender().check(mail(sender="undisclosed-recipients:;"), GM)


def test_first_rule_wins():
    msg = mail("Auto-Submitted: auto-generated\r\nList-Id: <x.example>\r\n", sender="gm@example.test")
    assert screen(msg, GM).startswith("auto-submitted: ")
    assert screen(msg, GM, rules=[ListMail(), OwnMail()]) == "list: List-Id header"


def test_every_rule_has_a_distinct_name():
    names = [rule.name for rule in RULES]
    assert len(set(names)) == len(names) == 7


def test_broken_headers_do_not_break_screening():
    msg = parse(b"From: \xff\xfe<<>>\r\nAuto-Submitted: \xffauto\r\n\r\nx")
    assert screen(msg, GM).startswith("auto-submitted: ")
