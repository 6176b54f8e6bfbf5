import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.dsn import MOST_BOUNCES, Bounce, read_bounce
from pbem.mail.inbound import parse

SAMPLES = Path(__file__).parent / "samples"


def raw_sample(name: str) -> bytes:
    # Samples are kept with LF endings for reading; mail on the wire has CRLF.
    return (SAMPLES / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def bounces(raw: bytes | str, **kw) -> list[Bounce]:
    if isinstance(raw, str):
        raw = raw.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
    return read_bounce(parse(raw, **kw))


def summary(found: list[Bounce]) -> list[tuple]:
    return [(b.recipient, b.status, b.permanent, b.message_id) for b in found]


# --- the samples --------------------------------------------------------------------


@pytest.mark.parametrize("name, expected", [
    ("dsn_postfix.eml", [("alice.typo@example.test", "5.1.1", True, "<179611077542.30049.1803107@example.test>")]),
    ("dsn_exim.eml", [("bob@dead.example.test", "5.2.1", True, "<179611077543.30049.1803108turn@example.test>")]),
    ("dsn_gmail.eml", [("carol.player@example.test", "5.1.1", True,
                        "<179611077544.30049.1803109ack@example.test>")]),
    ("dsn_exchange.eml", [("dave.player@corp.example.test", "5.1.10", True,
                           "<179611077545.30049.1803110@example.test>")]),
    # Text only: the original's headers are quoted after "Original message headers:".
    ("dsn_exchange_text.eml", [("erin.player@corp.example.test", "5.1.1", True,
                                "<179611077547.30049.1803112turn@example.test>")]),
    ("dsn_qmail.eml", [("frank@old.example.test", "5.1.1", True,
                        "<179611077548.30049.1803113turn@example.test>")]),
    # "(generated from g.player@...)": the address the GM wrote to, not the alias target.
    ("dsn_exim_text.eml", [("g.player@example.test", "5.1.1", True,
                            "<179611077549.30049.1803114turn@example.test>")]),
    ("dsn_sendmail_text.eml", [("h.player@old.example.test", "5.1.1", True,
                                "<179611077550.30049.1803115turn@example.test>")]),
    ("dsn_sendmail.eml", [("ivan@mx.example.test", "5.1.1", True,
                           "<179611077551.30049.1803116turn@example.test>")]),
    # Two failed, one delivered; Original-Recipient (the GM's own spelling) wins over Final-Recipient.
    ("dsn_two_recipients.eml", [
        ("judy@example.test", "5.1.1", True, "<179611077552.30049.1803117news@example.test>"),
        ("kim.player@example.test", "5.2.2", True, "<179611077552.30049.1803117news@example.test>"),
    ]),
    ("dsn_delayed.eml", [("mia@slow.example.test", "4.4.1", False, "<179611077553.30049.1803118turn@example.test>")]),
    ("dsn_delivered.eml", []),
    ("dsn_postfix_text.eml", [
        ("zoe.player@example.test", "5.1.1", True, "<179611077555.30049.1803120turn@example.test>"),
        ("yan@gone.example.test", None, True, "<179611077555.30049.1803120turn@example.test>"),
    ]),
    ("bounce.eml", [("nobody@example.test", "5.1.1", True, None)]),
])
def test_samples(name, expected):
    assert summary(bounces(raw_sample(name))) == expected


@pytest.mark.parametrize("name, diagnostic", [
    ("dsn_postfix.eml", "550 5.1.1 <alice.typo@example.test>: Recipient address rejected: User unknown in local "
                        "recipient table"),
    ("dsn_exchange.eml", "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup"),
    ("dsn_exchange_text.eml", "550 5.1.1 RESOLVER.ADR.RecipNotFound; not found"),
    ("dsn_exim_text.eml", "550 5.1.1 <grace@example.test>: Recipient address rejected: User unknown"),
    ("dsn_sendmail_text.eml", "550 5.1.1 <henry@old.example.test>... User unknown"),
    ("dsn_delayed.eml", "connect to mx.slow.example.test[192.0.2.40]:25: Connection timed out"),
    ("dsn_qmail.eml", "550 5.1.1 <frank@old.example.test>... User unknown Giving up on 192.0.2.90."),
])
def test_diagnostics_are_short_single_lines(name, diagnostic):
    found = bounces(raw_sample(name))
    assert found[0].diagnostic == diagnostic


def test_every_diagnostic_is_clean_and_bounded():
    for path in SAMPLES.glob("dsn_*.eml"):
        for bounce in bounces(raw_sample(path.name)):
            assert bounce.diagnostic and len(bounce.diagnostic) <= 200
            assert not any(ch in bounce.diagnostic for ch in "\r\n\t\x00")


def test_gmail_text_without_report_part():
    raw = raw_sample("dsn_gmail.eml")
    msg = parse(raw)
    # Only the notice text: drop the delivery-status and the returned headers.
    msg.headers.set_payload(msg.headers.get_payload()[:1])
    (bounce,) = read_bounce(msg)
    assert bounce.recipient == "carol.player@example.test" and bounce.permanent
    assert bounce.status == "5.1.1"
    assert bounce.message_id == "<179611077544.30049.1803109ack@example.test>"  # from In-Reply-To


def test_junk_report_never_raises_and_keeps_what_it_can():
    found = bounces(raw_sample("dsn_junk.eml"))
    # Non-ASCII and "<>" recipients are no address (one entry for both); "wibble" with status 9.9.9
    # is no failure; the x400 delay has no address either and a failure wins over it.
    assert summary(found) == [(None, "5.1.1", True, None), ("pat@example.test", "5.1.1", True, None)]
    assert found[1].diagnostic == "550 5.1.1 mailbox unavailable with a tab and a folded line"


# --- no bounce at all ---------------------------------------------------------------


def player_mail(body: str = "PLAY 4 4 5\n", headers: str = "") -> str:
    return ("From: George Player <george@example.org>\nTo: gm+s3cret@example.test\n"
            "Subject: Re: [golf-7] Turn 3\nMessage-ID: <p1@example.org>\n" + headers + "\n" + body)


@pytest.mark.parametrize("name", ["out_of_office.eml", "gmail_reply.eml", "outlook_html.eml", "apple_mail.eml",
                                  "list_mail.eml"])
def test_ordinary_mail_is_no_bounce(name):
    assert bounces(raw_sample(name)) == []


def test_player_orders_are_no_bounce():
    assert bounces(player_mail()) == []


def test_a_player_quoting_a_bounce_is_no_bounce():
    # A person pasting a bounce into their mail is not the mail system speaking.
    body = ("PLAY 4 4 5\n\nI got this, what is it?\n\n"
            + raw_sample("dsn_qmail.eml").decode().split("\r\n\r\n", 1)[1])
    assert bounces(player_mail(body)) == []


def test_unknown_form_from_mailer_daemon_gives_nothing():
    raw = ("Return-Path: <>\nFrom: MAILER-DAEMON@mx.example.test\nTo: gm@example.test\n"
           "Subject: Warning\n\nSomething happened to a message of yours. Contact your administrator.\n"
           "Ask nobody@example.test about it.\n")
    assert bounces(raw) == []


def test_read_receipt_report_is_no_bounce():
    raw = ("From: Pat <pat@example.test>\nTo: gm@example.test\nSubject: Read: turn 3\nMIME-Version: 1.0\n"
           "Content-Type: multipart/report; report-type=disposition-notification; boundary=R\n\n"
           "--R\nContent-Type: text/plain\n\nYour message was displayed.\n"
           "--R\nContent-Type: message/disposition-notification\n\n"
           "Final-Recipient: rfc822; pat@example.test\nDisposition: manual-action/MDN-sent-manually; displayed\n"
           "--R--\n")
    assert bounces(raw) == []


# --- other text forms ----------------------------------------------------------------


def robot_mail(body: str, sender: str = "MAILER-DAEMON@mx.example.test", headers: str = "") -> str:
    return f"Return-Path: <>\nFrom: {sender}\nTo: gm@example.test\nSubject: failure\n{headers}\n{body}"


def test_exim_delay_warning_text():
    body = """This message was created automatically by mail delivery software.
A message that you sent has not yet been delivered to one or more of its
recipients after more than 24 hours on the queue on relay.example.test.

The message identifier is:     1KxYz9-0003Bb-2X
The subject of the message is: [golf-7] Turn 3: your move

The address to which the message has not yet been delivered is:

  slow@example.test
    host mx.example.test [192.0.2.25]
    Delay reason: SMTP error from remote mail server after RCPT TO:<slow@example.test>:
    451 4.7.1 Greylisted, try again later

No action is required on your part. Delivery attempts will continue for
some time, and this warning may be repeated at intervals if the message
remains undelivered. Eventually the mail delivery software will give up,
and when that happens, the message will be returned to you.
"""
    (bounce,) = bounces(robot_mail(body))
    assert (bounce.recipient, bounce.status, bounce.permanent) == ("slow@example.test", "4.7.1", False)
    assert bounce.diagnostic == "451 4.7.1 Greylisted, try again later"


def test_old_gmail_text_forms():
    failed = ("Delivery to the following recipient failed permanently:\n\n     Old.Friend@example.test\n\n"
              "Technical details of permanent failure:\nThe email account that you tried to reach does not exist.\n\n"
              "----- Original message -----\n\nFrom: Golf GM <gm@example.test>\n"
              "Message-ID: <179611077556.30049.1803121@example.test>\nSubject: hi\n\nbody\n")
    assert summary(bounces(robot_mail(failed, "mailer-daemon@googlemail.com"))) == [
        ("old.friend@example.test", None, True, "<179611077556.30049.1803121@example.test>")]
    delayed = ("Delivery to the following recipient has been delayed:\n\n     slow@example.test\n\n"
               "Message will be retried for 2 more day(s)\n")
    assert summary(bounces(robot_mail(delayed, "mailer-daemon@googlemail.com"))) == [
        ("slow@example.test", None, False, None)]
    temporary = "There was a temporary problem delivering your message to slow@example.test. Gmail will retry.\n"
    assert [b.permanent for b in bounces(robot_mail(temporary, "mailer-daemon@googlemail.com"))] == [False]


def test_office365_single_recipient_text():
    body = ("Your message to pat@corp.example.test couldn't be delivered.\n"
            "pat wasn't found at corp.example.test.\n")
    found = bounces(robot_mail(body, "Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@"
                                     "corp.example.test>",
                               "In-Reply-To: <179611077557.30049.1803122@example.test>\n"))
    assert summary(found) == [("pat@corp.example.test", None, True, "<179611077557.30049.1803122@example.test>")]


def test_sendmail_transient_errors_are_no_failure():
    body = ("   ----- The following addresses had transient non-fatal errors -----\n<slow@example.test>\n"
            "    (reason: 451 4.4.1 reply: read error from mx.example.test.)\n\n"
            "   ----- Transcript of session follows -----\n")
    assert summary(bounces(robot_mail(body))) == [("slow@example.test", "4.4.1", False, None)]


def test_postfix_delay_text_without_report():
    body = ("This is the mail system at host mail.example.test.\n\n"
            "# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\n\n"
            "<mia@slow.example.test>: connect to mx.slow.example.test[192.0.2.40]:25: Connection timed out\n")
    assert [(b.recipient, b.permanent) for b in bounces(robot_mail(body))] == [("mia@slow.example.test", False)]


def test_x_failed_recipients_when_the_text_is_unknown():
    body = "Diese Nachricht konnte nicht zugestellt werden.\n"
    found = bounces(robot_mail(body, headers="X-Failed-Recipients: Ute@example.test, <not an address>\n"))
    assert [(b.recipient, b.permanent) for b in found] == [("ute@example.test", True)]


# --- report shapes ----------------------------------------------------------------------


def report(status_part: str, *, ds_type: str = "message/delivery-status", extra: str = "") -> str:
    return ("Return-Path: <>\nFrom: MAILER-DAEMON@mx.example.test\nTo: gm@example.test\nSubject: bounce\n"
            "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=B\n\n"
            "--B\nContent-Type: text/plain\n\nSorry.\n"
            f"--B\nContent-Type: {ds_type}\n\n{status_part}\n" + extra + "--B--\n")


def block(address: str, action: str = "failed", status: str = "5.1.1") -> str:
    return f"Final-Recipient: rfc822; {address}\nAction: {action}\nStatus: {status}\n\n"


def test_delivery_status_left_as_text():
    msg = parse(raw_sample("dsn_postfix.eml"))
    part = msg.headers.get_payload()[1]
    assert part.get_content_type() == "message/delivery-status"
    part.set_payload("Reporting-MTA: dns; x\n\nFinal-Recipient: rfc822; Text@Example.test\n"
                     "Action: failed\nStatus: 5.1.2\n")
    assert summary(read_bounce(msg)) == [
        ("text@example.test", "5.1.2", True, "<179611077542.30049.1803107@example.test>")]


def test_global_delivery_status():
    # RFC 6533: the stdlib does not know it and parses it like a message; UTF-8 addresses are no
    # plain address and give None.
    found = bounces(report("Reporting-MTA: dns; x\n\n" + block("ascii@example.test") + block("jörg@example.test"),
                           ds_type="message/global-delivery-status"))
    assert [(b.recipient, b.permanent) for b in found] == [("ascii@example.test", True), (None, True)]


def test_missing_action_is_read_from_the_status_class():
    body = ("Final-Recipient: rfc822; a@example.test\nStatus: 5.1.1\n\n"
            "Final-Recipient: rfc822; b@example.test\nStatus: 4.2.2\n\n"
            "Final-Recipient: rfc822; c@example.test\nStatus: 2.0.0\n\n"
            "Final-Recipient: rfc822; d@example.test\nDiagnostic-Code: smtp; 550 no such user\n")
    found = bounces(report(body))
    assert [(b.recipient, b.status, b.permanent) for b in found] == [
        ("a@example.test", "5.1.1", True), ("b@example.test", "4.2.2", False), ("d@example.test", None, True)]


@pytest.mark.parametrize("value", ["rfc822; bad\x00@example.test", "rfc822; jösé@exämple.test",
                                   "rfc822; a@b@example.test", "rfc822; " + "x" * 5000 + "@example.test",
                                   "rfc822; <script>@example.test", "rfc822; ../../etc/passwd"])
def test_unreadable_final_recipient_gives_none(value):
    raw = report(f"Reporting-MTA: dns; x\n\nFinal-Recipient: {value}\nAction: failed\nStatus: 5.1.1\n")
    assert [b.recipient for b in bounces(raw)] in ([None], [])


def test_raw_nul_and_8bit_bytes_in_a_report():
    raw = report("Final-Recipient: rfc822; ok@example.test\nAction: failed\nStatus: 5.1.1\n").encode()
    raw = raw.replace(b"ok@", b"o\x00k\xff\xfe@")
    assert [b.recipient for b in read_bounce(parse(raw))] in ([None], [])


def test_ten_thousand_recipient_blocks_give_at_most_fifty():
    body = "Reporting-MTA: dns; x\n\n" + "".join(block(f"p{i}@example.test") for i in range(10_000))
    raw = report(body).replace("\n", "\r\n").encode()
    start = time.monotonic()
    found = read_bounce(parse(raw, max_bytes=None))
    assert 0 < len(found) <= MOST_BOUNCES
    assert found[0].recipient == "p0@example.test"
    assert time.monotonic() - start < 10


def test_a_line_of_tabs_is_no_quadratic_work():
    # Regexes with blank runs on both sides of an optional part once took minutes on this.
    for notice in ("Delivery has failed to these recipients or groups:\n", "The response was:",
                   "   ----- The following addresses had permanent fatal errors -----\n", ""):
        for filler in ("\t" * 200_000, "-" * 200_000, "\n" * 200_000, "a@" * 100_000):
            start = time.monotonic()
            read_bounce(parse(robot_mail(notice + filler).encode(), max_bytes=None))
            assert time.monotonic() - start < 5


def test_many_unreadable_blocks_give_one_entry():
    body = "".join(block(f"bad{i}\x01@example.test") for i in range(500))
    assert [b.recipient for b in bounces(report(body))] == [None]


@pytest.mark.parametrize("where", ["status", "text", "original", "recipient"])
def test_a_five_megabyte_part_stays_bounded(where):
    big = "A" * (5 << 20)
    status = block("five@example.test")
    extra = ""
    if where == "status":
        status = "Diagnostic-Code: smtp; " + big + "\n\n" + status
    elif where == "recipient":
        status = block(big + "@example.test") + status
    elif where == "text":
        extra = f"--B\nContent-Type: text/plain\n\n{big}\n"
    else:
        extra = f"--B\nContent-Type: message/rfc822\n\nMessage-ID: <m@example.test>\nX-Big: {big}\n\nbody\n"
    raw = report(status, extra=extra).encode()
    start = time.monotonic()
    found = read_bounce(parse(raw, max_bytes=None))
    assert time.monotonic() - start < 10
    assert len(found) <= 2
    assert "five@example.test" in [b.recipient for b in found] or where == "status"


def test_oversized_bounce_still_gives_its_report():
    # The whole returned original (megabytes of attachment) makes the mail too large to parse;
    # the report at its start is still read.
    raw = raw_sample("dsn_postfix.eml").replace(b"Welcome to golf-7.", b"x" * (3 << 20))
    msg = parse(raw)
    assert msg.oversized
    assert summary(read_bounce(msg)) == [
        ("alice.typo@example.test", "5.1.1", True, "<179611077542.30049.1803107@example.test>")]


def test_broken_boundary_is_read_as_text():
    raw = raw_sample("dsn_postfix.eml").replace(b'boundary="4Zk2Lq1xyzz9', b'boundary="WRONG')
    found = bounces(raw)
    assert [(b.recipient, b.status, b.permanent) for b in found] == [("alice.typo@example.test", "5.1.1", True)]


@pytest.mark.parametrize("cut", [200, 900, 1500, 2100, 2600])
def test_truncated_reports_never_raise(cut):
    raw = raw_sample("dsn_gmail.eml")[:cut]
    assert len(bounces(raw)) <= 1


@pytest.mark.parametrize("depth, found", [(3, ["deep@example.test"]), (300, [])])
def test_nesting_is_walked_only_so_deep(depth, found):
    raw = "Return-Path: <>\nFrom: MAILER-DAEMON@x.example.test\nMIME-Version: 1.0\n"
    for level in range(depth):
        raw += f"Content-Type: multipart/mixed; boundary=b{level}\n\n--b{level}\n"
    raw += "Content-Type: message/delivery-status\n\n" + block("deep@example.test")
    assert [b.recipient for b in bounces(raw)] == found


def test_message_id_must_be_well_formed():
    raw = raw_sample("dsn_sendmail.eml").replace(b"<179611077551.30049.1803116turn@example.test>",
                                                 b"<bad id with spaces@example.test>")
    assert [b.message_id for b in bounces(raw)] == [None]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(p.name for p in SAMPLES.glob("dsn_*.eml"))),
       st.lists(st.tuples(st.integers(0, 4000), st.binary(max_size=40)), max_size=6))
def test_mangled_samples_never_raise(name, edits):
    raw = bytearray(raw_sample(name))
    for at, junk in edits:
        at = min(at, len(raw))
        raw[at:at + len(junk)] = junk
    found = read_bounce(parse(bytes(raw)))
    assert isinstance(found, list) and len(found) <= MOST_BOUNCES
    for bounce in found:
        assert bounce.recipient is None or bounce.recipient == bounce.recipient.lower()
        assert len(bounce.diagnostic) <= 200


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=2000))
def test_any_text_from_a_robot_never_raises(body):
    assert isinstance(bounces(robot_mail(body)), list)
