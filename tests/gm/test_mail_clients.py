"""Real mail clients: HTML-only, old charsets, quoted replies, signatures; and mail never answered."""
from __future__ import annotations

from email.message import EmailMessage

from conftest import BILL, GEORGE, GM, body, kinds

from pbem.store import Store


def raw_mail(sender, to, subject, *, text=None, html=None, charset="utf-8", headers=None, message_id=None):
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or f"<{abs(hash((sender, subject, text, html)))}@client.test>"
    for k, v in (headers or {}).items():
        msg[k] = v
    if text is not None:
        msg.set_content(text, charset=charset)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    else:
        msg.set_content(html, subtype="html", charset=charset)
    return msg.as_bytes()


def test_html_only_mail_from_a_webmail_client(table):
    table.new_match()
    html = ("<html><body><div>PLAY&nbsp;3&nbsp;5&nbsp;4</div><div><br></div>"
            "<blockquote type=\"cite\"><div>PLAY 4 4 5</div></blockquote></body></html>")
    table.send(GEORGE, raw=raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", html=html))
    table.pbem("process")
    ack = table.mails(GEORGE)[-1]
    assert ack["X-PBEM-Kind"] == "ack" and "PLAY 3 5 4" in body(ack)


def test_windows_1252_body_with_non_breaking_spaces(table):
    table.new_match()
    text = "play\u00a03 5 4\r\nspecial Blue +1 hole 2\r\n-- \r\nGeorge \u2018the putter\u2019\r\n"
    raw = raw_mail(GEORGE, table.reply_to(GEORGE), "RE: [m1] welcome", text=text, charset="windows-1252")
    assert b"charset=\"windows-1252\"" in raw or b"charset=windows-1252" in raw
    table.send(GEORGE, raw=raw)
    table.pbem("process")
    ack = table.mails(GEORGE)[-1]
    assert ack["X-PBEM-Kind"] == "ack"
    assert "PLAY 3 5 4" in body(ack) and "SPECIAL BLUE+1 HOLE 2" in body(ack)


def test_a_reply_quoting_the_report_reads_only_the_new_lines(table):
    table.new_match()
    table.order(GEORGE, "PLAY 3 5 4")
    table.order(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3")
    report = body(table.mails(GEORGE)[-1])
    quoted = "\n".join("> " + line for line in report.splitlines())
    text = ("PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4\n\nOn Mon, 30 Nov 2026 at 10:00, Golf GM\n<gm@example.test> wrote:\n"
            + quoted + "\n")
    acks = table.order(GEORGE, text)
    assert kinds(acks) == ["ack"], body(acks[0])
    assert "PLAY 3 4 5" in body(acks[0])


def test_iso_8859_1_forwarded_with_fwd_subject_and_password_lines(table):
    table.new_match()
    secret = table.secret(GEORGE)
    text = f"GAME m1\nPASSWORD {secret}\nPLAY 3 5 4\n\nSent from my iPhone\n"
    table.send(GEORGE, raw=raw_mail(f"Georges Lévêque <{GEORGE}>", GM, "Fwd: orders é", text=text,
                                    charset="iso-8859-1"))
    table.pbem("process")
    assert table.mails(GEORGE)[-1]["X-PBEM-Kind"] == "ack"


def test_auto_replies_bounces_and_list_mail_get_no_answer(table):
    table.new_match()
    secret = table.secret(GEORGE)
    orders = f"GAME m1\nPASSWORD {secret}\nPLAY 3 5 4\n"
    table.send(GEORGE, raw=raw_mail(GEORGE, GM, "Out of office", text=orders,
                                    headers={"Auto-Submitted": "auto-replied"}))
    table.send("MAILER-DAEMON@example.test", raw=raw_mail("MAILER-DAEMON@example.test", GM,
                                                           "Undelivered Mail", text=orders,
                                                           headers={"Return-Path": "<>"}))
    # List mail without the seat's secret (with it, George's own is read: test_screened_seat_mail).
    table.send(GEORGE, raw=raw_mail(GEORGE, GM, "[golf-list] orders", text="GAME m1\nPLAY 3 5 4\n",
                                    headers={"List-Id": "<golf.lists.example.test>", "Precedence": "list"}))
    table.send(GM, raw=raw_mail(f"Golf GM <{GM}>", GM, "loop", text=orders))
    table.pbem("process")
    assert kinds(table.mails(GEORGE)) == ["welcome"]
    assert not (table.root / "mail" / "mailer-daemon@example.test").exists()
    assert not (table.root / "mail" / GM / "new").exists() or not list((table.root / "mail" / GM / "new").iterdir())
    assert table.show()["to_move"] == [GEORGE, BILL]
    store = Store(table.root / "pbem.sqlite3")
    rows = store.db.execute("SELECT status, note, length(raw) FROM inbound").fetchall()
    store.close()
    assert len(rows) == 4 and all(r[0] == "screened" and r[2] > 0 for r in rows), rows
    assert {r[1].split(":")[0] for r in rows} == {"auto-submitted", "bounce", "precedence", "loop"}


def test_the_same_message_id_twice_is_handled_once(table):
    table.new_match()
    raw = raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", text="PLAY 3 5 4",
                   message_id="<same-one@client.test>")
    table.send(GEORGE, raw=raw)
    table.pbem("process")
    table.send(GEORGE, raw=raw)
    table.pbem("process")
    assert kinds(table.mails(GEORGE)) == ["welcome", "ack"]
    assert [e["kind"] for e in table.show()["history"]].count("orders") == 1


def test_deliver_from_an_mta_pipe(table):
    table.new_match()
    raw = raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", text="PLAY 3 5 4")
    code, _, _ = table.pbem("deliver", stdin=raw)
    assert code == 0
    assert kinds(table.mails(GEORGE)) == ["welcome", "ack"]


# --- replies as people write them: quotes skipped, reading goes on below them -----------------


def quoted(msg) -> str:
    return "\n".join(("> " + line).rstrip() for line in body(msg).splitlines())


def test_an_interleaved_gmail_reply_is_read_below_each_quote(table):
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    # The welcome's own example orders are quoted; the player's orders stand between the quotes.
    assert "PLAY 4 3 5" in body(welcome) and "SPECIAL BLUE-1 HOLE 2" in body(welcome)
    text = ("On Mon, 30 Nov 2026 at 10:00, Golf GM <\ngm@example.test> wrote:\n\n" + quoted(welcome).replace(
        "> Your secret password", "\nPLAY 4 4 5\n\n> Your secret password") + "\n\nSPECIAL RED-1 HOLE 3\n\n"
        "> Good golfing!\n")
    raw = raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", text=text,
                   headers={"In-Reply-To": welcome["Message-ID"]})
    table.send(GEORGE, raw=raw)
    table.pbem("process")
    ack = table.mails(GEORGE)[-1]
    assert ack["X-PBEM-Kind"] == "ack", body(ack)
    assert "PLAY 4 4 5" in body(ack) and "SPECIAL RED-1 HOLE 3" in body(ack)
    assert "BLUE-1" not in body(ack)  # the quoted example was never read


def test_a_thunderbird_reply_with_orders_below_the_quote(table):
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    for attribution in ("Golf GM wrote:", "Golf GM <gm@example.test> wrote:"):
        text = f"{attribution}\n{quoted(welcome)}\n\nPLAY 3 4 5\n"
        acks = table.order(GEORGE, text)
        assert kinds(acks) == ["ack"], body(acks[0])
        assert "PLAY 3 4 5" in body(acks[0])


def test_a_greeting_before_the_orders_is_skipped(table):
    table.new_match()
    acks = table.order(GEORGE, "Hi George,\n\nPLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1\n\nCheers,\nBill\n")
    assert kinds(acks) == ["ack"], body(acks[0])
    assert "PLAY 4 4 5" in body(acks[0]) and "SPECIAL BLUE+1 HOLE 1" in body(acks[0])


def test_a_quoted_old_order_is_never_applied(table):
    """George's orders of turn 1, quoted in his reply to the report, are not orders for turn 2."""
    table.new_match()
    table.order(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1")
    table.order(BILL, "PLAY 4 4 5")
    report = table.mails(GEORGE)[-1]
    text = ("Golf GM wrote:\n> PLAY 4 4 5\n> SPECIAL BLUE+1 HOLE 1\n" + quoted(report)
            + "\n\nPLAY 3 4 5\n\n> SPECIAL BLUE-1 HOLE 5\n")
    acks = table.order(GEORGE, text)
    assert kinds(acks) == ["ack"], body(acks[0])
    assert "PLAY 3 4 5" in body(acks[0]) and "SPECIAL" not in body(acks[0])
    table.order(BILL, "PLAY 3 4 5\nSPECIAL BLUE+1 HOLE 4")
    history = table.show()["history"]
    assert [e["orders"] for e in history if e["kind"] == "orders" and e["seat"] == 0] == [
        "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1", "PLAY 3 4 5"]


def test_an_html_reply_with_orders_below_the_blockquote(table):
    table.new_match()
    html = ("<html><body><div>Hi GM,</div><div><br></div>"
            "<div class=\"gmail_quote\">On Mon, 30 Nov 2026 at 10:00 Golf GM &lt;gm@example.test&gt; wrote:<br>"
            "<blockquote type=\"cite\"><div>PLAY 4 3 5</div><div>SPECIAL BLUE-1 HOLE 2</div></blockquote></div>"
            "<div>PLAY&nbsp;3&nbsp;5&nbsp;4</div></body></html>")
    table.send(GEORGE, raw=raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", html=html))
    table.pbem("process")
    ack = table.mails(GEORGE)[-1]
    assert ack["X-PBEM-Kind"] == "ack", body(ack)
    assert "PLAY 3 5 4" in body(ack) and "SPECIAL" not in body(ack)


def test_a_reply_to_the_gms_mail_with_only_quoted_text_is_not_answered(table):
    """An auto-responder that quotes the GM's mail: no command, so no answer (no mail loop)."""
    table.new_match()
    welcome = table.mails(GEORGE)[0]
    text = f"Thank you for your message.\n\nOn Mon, 30 Nov 2026, Golf GM wrote:\n{quoted(welcome)}\n"
    table.send(GEORGE, raw=raw_mail(GEORGE, table.reply_to(GEORGE), "Re: [m1] welcome", text=text,
                                    headers={"In-Reply-To": welcome["Message-ID"]}))
    table.pbem("process")
    assert kinds(table.mails(GEORGE)) == ["welcome"]
