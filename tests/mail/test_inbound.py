import base64
import hashlib
import quopri
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.inbound import Inbound, decode_bytes, html_to_text, parse
from pbem.orders.text import command_lines, subject_game_id

SAMPLES = Path(__file__).parent / "samples"


def sample(name: str) -> bytes:
    # Samples are kept with LF endings for reading; mail on the wire has CRLF.
    return (SAMPLES / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def single(body: bytes, headers: str = "", content_type: str = "text/plain; charset=utf-8", cte: str = "") -> bytes:
    head = (
        "From: George Player <george@example.org>\r\n"
        "To: gm@example.test\r\n"
        "Subject: orders\r\n"
        "Message-ID: <m1@example.org>\r\n"
        f"Content-Type: {content_type}\r\n"
    )
    if cte:
        head += f"Content-Transfer-Encoding: {cte}\r\n"
    return (head + headers + "MIME-Version: 1.0\r\n\r\n").encode("ascii") + body


# --- real client samples -----------------------------------------------------


def test_gmail_reply_prefers_plain_part_and_stops_at_wrapped_header():
    msg = parse(sample("gmail_reply.eml"))
    assert isinstance(msg, Inbound)
    assert msg.message_id == "<CAF3x9kq7Yw@mail.gmail.example>"
    assert msg.sender == "george.player@gmail.example"
    assert msg.sender_name == "George Player"
    assert msg.return_path == "george.player@gmail.example"
    assert msg.recipients == ("gm+k3y5ecret@example.test",)
    assert msg.subject == "Re: [golf-7] Turn 3: your move"
    assert msg.in_reply_to == "<turn3.golf-7.george@example.test>"
    assert msg.references == ("<turn3.golf-7.george@example.test>",)
    assert "\r" not in msg.text
    assert msg.text.startswith("PLAY 4 4 5\n")
    assert "> PLAY 3 5 4" in msg.text
    assert command_lines(msg.text) == [(1, "PLAY 4 4 5")]
    assert subject_game_id(msg.subject) == "golf-7"


def test_gmail_html_part_alone_reads_the_same():
    # The same reply as if the client had sent only its HTML part.
    raw = sample("gmail_reply.eml").decode()
    html = raw.split('Content-Type: text/html; charset="UTF-8"\r\n\r\n')[1].split("\r\n--0000")[0]
    text = html_to_text(html)
    assert "> PLAY 3 5 4" in text
    assert command_lines(text) == [(1, "PLAY 4 4 5")]


def test_outlook_html_only_is_read_through_its_text():
    msg = parse(sample("outlook_html.eml"))
    assert msg.sender == "anna@corp.example"
    assert msg.sender_name == "Smith, Anna"
    assert msg.recipients == ("gm@example.test", "referee@example.test")
    assert msg.references == ("<welcome.golf-7.anna@example.test>", "<turn3.golf-7.anna@example.test>")
    assert "MsoNormal" not in msg.text  # the <style> is not text
    assert "> PLAY 3 3 3" in msg.text
    lines = [line for _, line in command_lines(msg.text)]
    assert lines == ["PLAY 5 3 4", "SPECIAL RED -1 HOLE 8", "TURN 3"]


def test_apple_mail_quoted_printable_and_encoded_subject():
    msg = parse(sample("apple_mail.eml"))
    assert msg.subject == "Re: [golf-7] Turn 3: your move \u26f3"
    assert msg.message_id == "<8D1C2A3B-4E5F-6071-8293-A4B5C6D7E8F9@icloud.example>"
    assert "SPECIAL BLUE\u22121 HOLE 9" in msg.text
    assert command_lines(msg.text) == [(1, "PLAY 4 5 3"), (2, "SPECIAL BLUE-1 HOLE 9")]  # "Bea" signs it off


def test_bounce_body_is_the_notification_not_the_returned_message():
    msg = parse(sample("bounce.eml"))
    assert msg.return_path == ""
    assert msg.sender == "mailer-daemon@mx.example.test"
    assert msg.text.startswith("This is the mail system")
    assert "PLAY 3 3 3" not in msg.text


# --- charsets and transfer encodings ------------------------------------------


def test_windows_1252_curly_quote_and_en_dash():
    body = "Here\u2019s my turn \u2013 PLAY 4 4 5\r\n".encode("cp1252")
    msg = parse(single(body, content_type="text/plain; charset=windows-1252", cte="8bit"))
    assert msg.text == "Here\u2019s my turn \u2013 PLAY 4 4 5\n"


def test_iso_8859_1_body():
    body = "Am\u00e9lie says PLAY 3 4 5\n".encode("latin-1")
    msg = parse(single(body, content_type="text/plain; charset=iso-8859-1", cte="8bit"))
    assert msg.text == "Am\u00e9lie says PLAY 3 4 5\n"


def test_iso_8859_1_label_on_windows_1252_bytes():
    body = "\u201cPLAY 3 4 5\u201d\n".encode("cp1252")
    msg = parse(single(body, content_type="text/plain; charset=iso-8859-1", cte="8bit"))
    assert msg.text == "\u201cPLAY 3 4 5\u201d\n"


@pytest.mark.parametrize(
    "charset",
    ["", "; charset=x-no-such-charset", "; charset=us-ascii", "; charset=iso-8859-1", '; charset="base64"'],
)
def test_utf8_bytes_under_a_missing_or_wrong_charset(charset):
    body = "Ren\u00e9e \u2013 PLAY 3 4 5\n".encode("utf-8")
    msg = parse(single(body, content_type="text/plain" + charset, cte="8bit"))
    assert msg.text == "Ren\u00e9e \u2013 PLAY 3 4 5\n"


def test_undecodable_everywhere_falls_back_without_raising():
    body = b"PLAY \x81\x8d 3 4 5\n"  # invalid utf-8, unassigned in cp1252
    msg = parse(single(body, content_type="text/plain; charset=utf-8", cte="8bit"))
    assert msg.text.startswith("PLAY ")
    assert msg.text.endswith(" 3 4 5\n")


def test_quoted_printable_body():
    body = quopri.encodestring("PLAY 4 4 5\r\nPRESS Bonne journ\u00e9e \u00e0 tous\r\n".encode("utf-8"))
    msg = parse(single(body, cte="quoted-printable"))
    assert msg.text == "PLAY 4 4 5\nPRESS Bonne journ\u00e9e \u00e0 tous\n"


def test_base64_body_with_crlf():
    body = base64.encodebytes("PLAY\u00a04 4 5\r\nEND\r\n".encode("utf-8"))
    msg = parse(single(body, cte="base64"))
    assert msg.text == "PLAY\u00a04 4 5\nEND\n"
    assert command_lines(msg.text) == [(1, "PLAY 4 4 5")]


def test_decode_bytes_prefers_declared_charset_when_it_works():
    assert decode_bytes("\u0416".encode("koi8-r"), "koi8-r") == "\u0416"
    assert decode_bytes(b"caf\xe9", None) == "caf\u00e9"


# --- structure ---------------------------------------------------------------


def test_multipart_mixed_skips_attachment_and_nested_alternative():
    raw = (
        b"From: g@example.org\r\nTo: gm@example.test\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="outer"\r\n\r\n'
        b"--outer\r\n"
        b'Content-Type: text/plain; name="old-orders.txt"\r\n'
        b"Content-Disposition: attachment; filename=\"old-orders.txt\"\r\n\r\n"
        b"PLAY 3 3 3\r\n"
        b"--outer\r\n"
        b'Content-Type: multipart/alternative; boundary="inner"\r\n\r\n'
        b"--inner\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>HTML ONE</p>\r\n"
        b"--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPLAY 5 4 3\r\n"
        b"--inner--\r\n"
        b"--outer--\r\n"
    )
    # The CRLF before a boundary belongs to the boundary.
    assert parse(raw).text == "PLAY 5 4 3"


def test_html_escapes_are_undone():
    text = html_to_text("<div>- 1</div><div>+1</div><div>1. x</div><div>#3 *</div><div>a\\-b</div>")
    assert text.split("\n\n") == ["- 1", "+1", "1. x", "#3 *", "a\\-b"]


def test_missing_message_id_is_derived_from_the_raw_bytes():
    raw = b"From: g@example.org\r\nTo: gm@example.test\r\nSubject: x\r\n\r\nHELP\r\n"
    msg = parse(raw)
    assert msg.message_id == f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"
    assert parse(raw).message_id == msg.message_id
    assert msg.return_path is None
    assert msg.in_reply_to is None
    assert msg.references == ()


def test_message_id_whitespace_is_removed():
    raw = b"From: g@example.org\r\nMessage-ID:\r\n  <abc@x> \r\n\r\nHELP\r\n"
    assert parse(raw).message_id == "<abc@x>"


def test_folded_encoded_subject_and_display_name():
    raw = (
        b"From: =?iso-8859-1?q?Ren=E9e_Dupont?= <Renee@Example.ORG>\r\n"
        b"Subject: =?utf-8?q?Re=3A_=5Bgolf-7=5D_Tour_3_?=\r\n =?utf-8?q?=C3=A0_jouer?=\r\n"
        b"\r\nHELP\r\n"
    )
    msg = parse(raw)
    assert msg.sender == "renee@example.org"
    assert msg.sender_name == "Ren\u00e9e Dupont"
    assert msg.subject == "Re: [golf-7] Tour 3 \u00e0 jouer"


def test_recipients_from_every_header_deduplicated_in_order():
    raw = (
        b"From: g@example.org\r\nTo: Golf GM <GM@Example.test>, other@example.org\r\n"
        b"Cc: gm@example.test\r\nDelivered-To: gm+s3cret@example.test\r\n"
        b"X-Original-To: gm+s3cret@example.test\r\nEnvelope-To: alias@example.test\r\n\r\nHELP\r\n"
    )
    assert parse(raw).recipients == (
        "gm@example.test",
        "other@example.org",
        "gm+s3cret@example.test",
        "alias@example.test",
    )


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage with no headers at all",
        b"From: <<<@@@>>>\r\nTo: ,,,@\r\nContent-Type: multipart/mixed\r\n\r\n--x\r\n",
        b"Content-Type: text/plain; charset=\xff\xfe\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!*&^\r\n",
        b"From: George\r\nReturn-Path: <>\r\nMessage-ID: \r\n\r\nbody",
    ],
)
def test_broken_messages_still_parse(raw):
    msg = parse(raw)
    assert isinstance(msg, Inbound)
    assert msg.raw == raw
    assert msg.message_id.startswith("<") and msg.message_id.endswith(">")
    assert isinstance(msg.text, str)


def test_sender_without_domain_is_no_sender():
    msg = parse(b"From: George\r\nReturn-Path: <>\r\n\r\nbody")
    assert msg.sender == ""
    assert msg.return_path == ""
    assert msg.text == "body"


def test_non_text_message_has_empty_text():
    raw = b"From: g@example.org\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
    assert parse(raw).text == ""


def test_inbound_is_frozen():
    msg = parse(b"From: g@example.org\r\n\r\nHELP\r\n")
    with pytest.raises(AttributeError):
        msg.sender = "x@example.org"  # type: ignore[misc]


def test_unparseable_recipients_are_left_out():
    raw = b"From: g@example.org\r\nTo: ,,,@, undisclosed-recipients:;\r\nCc: gm@example.test\r\n\r\nHELP\r\n"
    assert parse(raw).recipients == ("gm@example.test",)


# --- never raises ------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_parse(raw):
    msg = parse(raw)
    assert msg.raw == raw
    assert "\r" not in msg.text


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["utf-8", "iso-8859-1", "windows-1252", "us-ascii", "bogus", "utf-16"]),
    st.sampled_from(["8bit", "quoted-printable", "base64", "7bit"]),
    st.binary(max_size=200),
)
def test_any_body_under_any_declared_encoding(charset, cte, body):
    msg = parse(single(body, content_type=f"text/plain; charset={charset}", cte=cte))
    assert msg.sender == "george@example.org"
    assert isinstance(msg.text, str) and "\r" not in msg.text


def test_an_empty_text_part_beside_the_html_gives_way_to_the_html():
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "george@example.test", "gm@example.test", "Re: [m1] hi"
    msg.set_content(" \n\n")
    msg.add_alternative("<div>PLAY 3 5 4</div><blockquote>PLAY 4 4 5</blockquote>", subtype="html")
    assert command_lines(parse(msg.as_bytes()).text) == [(1, "PLAY 3 5 4")]
    msg = EmailMessage()
    msg.set_content("PLAY 5 4 3\n")
    msg.add_alternative("<div>PLAY 3 5 4</div>", subtype="html")
    assert command_lines(parse(msg.as_bytes()).text) == [(1, "PLAY 5 4 3")]  # a text part with text wins
