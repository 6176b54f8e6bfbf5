"""A corpus of hostile mail for pbem: every shape a broken client, a robot or an attacker sends.

Deterministic: the same context gives the same bytes (the little randomness there is comes from a
fixed seed). Each message has a class label, a short name and what pbem must make of it:

- `sender`: the address pbem must read as the sender; answers may go to that address only.
  None: there is no usable sender, so nobody may get an answer at all.
- `authentic`: the sender is a seat holder and the message carries that seat's secret, so it may
  change a game; a message that is not authentic must leave every game as it was.
- `answers`: when the contract fixes them, the exact kinds of the answers (robots: none).
- `slow`: huge or built to be slow; the tests run these in a subprocess with a timeout.

As a script, `python tests/hostile/corpus.py OUTDIR` writes each message to
OUTDIR/<class>-<name>.eml.
"""
from __future__ import annotations

import base64
import codecs
import random
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

GM = "gm@example.test"
GEORGE, BILL = "george@example.test", "bill@example.test"
ANN, BOB = "ann@example.test", "bob@example.test"
MALLORY = "mallory@evil.test"
CAROL = "carol@stranger.test"
PLAYERS = (GEORGE, BILL, ANN, BOB)
MATCH, CARDS = "m1", "c1"          # the MatchPlay match (George, Bill) and the golfdeck game (Ann, Bob)
CANARY = "xyzzy"                   # text of the sender's that a stranger's answer must never quote
DATE = "Tue, 01 Dec 2026 17:00:00 +0000"
CLASSES = ("mime", "charset", "address", "header", "body", "robot", "secret")
MB = 1 << 20
CRLF = b"\r\n"


@dataclass(frozen=True)
class Context:
    """What the corpus needs to know of the table it is thrown at."""
    secrets: dict          # seat address -> that seat's secret
    gm_message_id: str     # the Message-ID of a mail the GM sent to George (robots reply to it)
    abs_root: str          # an absolute folder that absolute-path addresses point into (a sandbox)


DEFAULT_CONTEXT = Context(
    secrets={GEORGE: "0123456789abcdef0123", BILL: "fedcba9876543210fedc", ANN: "00112233445566778899",
             BOB: "99887766554433221100"},
    gm_message_id="<welcome.0.m1@example.test>",
    abs_root="/tmp/pbem-hostile-sandbox")


@dataclass(frozen=True)
class Hostile:
    cls: str
    name: str
    raw: bytes = field(repr=False)
    sender: str | None
    authentic: bool = False
    slow: bool = False
    answers: tuple[str, ...] | None = None

    @property
    def label(self) -> str:
        return f"{self.cls}-{self.name}"

    @property
    def message_id(self) -> str:
        return f"<{self.label}@corpus.test>"


# -- building blocks ---------------------------------------------------------------------------

def _b(value) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")


def crlf(text) -> bytes:
    """Text with \\n line ends as wire bytes with CRLF."""
    return _b(text).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def message(mid: str | None, body: bytes = b"", *, frm="Carol <carol@stranger.test>", to=GM,
            subject=f"Re: [{MATCH}] your turn ({CANARY})", ctype="text/plain; charset=utf-8",
            cte=None, headers=(), date=DATE, blank_line=True) -> bytes:
    """Raw bytes, exactly as given: nothing is checked or cleaned (that is the point)."""
    fields = [("From", frm), ("To", to), ("Subject", subject), ("Date", date), ("Message-ID", mid),
              ("MIME-Version", "1.0"), ("Content-Type", ctype), ("Content-Transfer-Encoding", cte),
              *headers]
    head = b"".join(_b(k) + b": " + _b(v) + CRLF for k, v in fields if v is not None)
    return head + (CRLF if blank_line else b"") + body


class Shelf:
    """Collects the messages of one class, each with its own Message-ID."""

    def __init__(self, cls: str, ctx: Context):
        self.cls, self.ctx, self.items = cls, ctx, []

    def mid(self, name: str) -> str:
        return f"<{self.cls}-{name}@corpus.test>"

    def add(self, name: str, raw: bytes, sender: str | None, **kw) -> None:
        self.items.append(Hostile(self.cls, name, raw, sender, **kw))

    def secret(self, address: str) -> str:
        return self.ctx.secrets[address]

    def orders(self, *lines: str, who: str = GEORGE, game: str = MATCH) -> str:
        """Commands of a seat holder with the right secret."""
        return "\n".join([f"GAME {game}", f"PASSWORD {self.secret(who)}", *lines]) + "\n"


def stranger_text() -> str:
    return f"GAME {MATCH}\nSTATUS\nPRESS {CANARY} hello from a stranger\n"


def forged_text(shelf: Shelf) -> str:
    """What an attacker writes who has George's secret: orders and a press that must not pass."""
    return shelf.orders("PLAY 4 4 5", f"PRESS {CANARY} forged")


# -- MIME junk ---------------------------------------------------------------------------------

def _nested(depth: int, text: bytes) -> tuple[str, bytes]:
    body = b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + text
    for level in range(depth, 0, -1):
        b = f"n{level}".encode()
        body = (b"Content-Type: multipart/mixed; boundary=\"" + b + b"\"\r\n\r\n--" + b + CRLF + body
                + b"\r\n--" + b + b"--\r\n")
    head, _, rest = body.partition(b"\r\n\r\n")
    return head.split(b": ", 1)[1].decode(), rest


def _mime_shapes(text: bytes, forged: bytes) -> Iterator[tuple[str, list, bytes]]:
    plain = b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
    yield "boundary-mismatch", [("Content-Type", 'multipart/mixed; boundary="AAA"')], \
        b"--BBB\r\n" + plain + text + b"\r\n--BBB--\r\n"
    yield "boundary-unclosed", [("Content-Type", 'multipart/mixed; boundary="AAA"')], b"--AAA\r\n" + plain + text
    yield "boundary-empty", [("Content-Type", 'multipart/mixed; boundary=""')], \
        b"--\r\n" + plain + text + b"\r\n----\r\n"
    yield "boundary-missing", [("Content-Type", "multipart/mixed")], b"--AAA\r\n" + plain + text + b"\r\n--AAA--\r\n"
    long_b = b"B" * 500
    yield "boundary-500", [("Content-Type", b'multipart/mixed; boundary="' + long_b + b'"')], \
        b"--" + long_b + CRLF + plain + text + b"\r\n--" + long_b + b"--\r\n"
    yield "boundary-inside-text", [("Content-Type", 'multipart/mixed; boundary="x"')], \
        b"--x\r\n" + plain + text + b"--x\r\n--x--\r\nPRESS " + CANARY.encode() + b" after the end\r\n--x--\r\n"
    for depth in (50, 300):
        ctype, body = _nested(depth, text)
        yield f"nested-{depth}", [("Content-Type", ctype)], body
    yield "no-content-type-8bit", [], text + "ünïcödé \xff\xfe".encode("latin-1") + CRLF
    yield "ctype-garbage", [("Content-Type", ';;;;=";"\\ /')], text
    yield "ctype-nonascii", [("Content-Type", "tëxt/plàin; charset=utf-8")], text
    yield "ctype-2000-params", [("Content-Type", "text/plain; " + "a=b; " * 2000 + "charset=utf-8")], text
    yield "ctype-multipart-as-text", [("Content-Type", "multipart/alternative")], text
    yield "cte-unknown", [("Content-Type", "text/plain"), ("Content-Transfer-Encoding", "x-garbage")], text
    yield "cte-base64-garbage", [("Content-Type", "text/plain"), ("Content-Transfer-Encoding", "base64")], \
        b"!!!*** this is not base64 ***!!!\r\n" + text
    rng = random.Random(20261201)
    noise = bytes(rng.randrange(256) for _ in range(4096))
    yield "cte-base64-random-bytes", [("Content-Type", "text/plain; charset=utf-8"),
                                      ("Content-Transfer-Encoding", "base64")], \
        crlf(base64.encodebytes(noise).decode())
    yield "cte-base64-truncated", [("Content-Type", "text/plain; charset=utf-8"),
                                   ("Content-Transfer-Encoding", "base64")], base64.b64encode(text)[:-3] + CRLF
    yield "cte-qp-broken", [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Transfer-Encoding", "quoted-printable")], text + b"=ZZ=\r\n=\r\n=0"
    yield "cte-uuencode-garbage", [("Content-Type", "text/plain"), ("Content-Transfer-Encoding", "x-uuencode")], \
        b"begin 644 orders.txt\r\nM!!!!####$$$$\r\n`\r\nend\r\n" + text
    yield "cte-7bit-with-nul-and-8bit", [("Content-Type", "text/plain"), ("Content-Transfer-Encoding", "7bit")], \
        b"\x00\xff\xfe" + text + b"\x00" * 64 + CRLF
    inner = b"From: George <george@example.test>\r\nSubject: [m1] orders\r\n\r\n" + forged
    yield "rfc822-part", [("Content-Type", 'multipart/mixed; boundary="R"')], \
        b"--R\r\n" + plain + b"\r\n--R\r\nContent-Type: message/rfc822\r\n\r\n" + inner + b"\r\n--R--\r\n"
    yield "rfc822-top", [("Content-Type", "message/rfc822")], inner
    yield "empty-body", [("Content-Type", "text/plain")], b""
    yield "blank-lines-only", [("Content-Type", "text/plain")], CRLF * 50
    yield "only-attachment-binary", [("Content-Type", 'multipart/mixed; boundary="A"')], \
        (b"--A\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=x.bin\r\n"
         b"Content-Transfer-Encoding: base64\r\n\r\n" + crlf(base64.encodebytes(noise[:600]).decode())
         + b"--A--\r\n")
    yield "only-attachment-text", [("Content-Type", 'multipart/mixed; boundary="A"')], \
        (b"--A\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Content-Disposition: attachment; filename=\"../../../../etc/passwd\"\r\n\r\n" + text + b"\r\n--A--\r\n")
    yield "parts-2000", [("Content-Type", 'multipart/mixed; boundary="P"')], \
        b"".join(b"--P\r\nContent-Type: image/png\r\n\r\nx\r\n" for _ in range(2000)) \
        + b"--P\r\n" + plain + text + b"\r\n--P--\r\n"
    html = (b"<html><head><style>p{}</style><script>alert(1)</script></head><body>&#0;&#x110000;&#xD800;"
            b"<p>" + text.replace(CRLF, b"<br>") + b"</p><img src=x onerror=alert(1)></body></html>")
    yield "html-script-and-bad-entities", [("Content-Type", "text/html; charset=utf-8")], html
    yield "alternative-empty-plain", [("Content-Type", 'multipart/alternative; boundary="L"')], \
        (b"--L\r\n" + plain + b"\r\n--L\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + b"\r\n--L--\r\n")


def mime(ctx: Context) -> list[Hostile]:
    shelf = Shelf("mime", ctx)
    forged = crlf(forged_text(shelf))
    for who, sender, text in (("g", GEORGE, crlf(shelf.orders("STATUS"))), ("s", CAROL, crlf(stranger_text()))):
        frm = "George <george@example.test>" if sender == GEORGE else "Carol <carol@stranger.test>"
        for name, headers, body in _mime_shapes(text, forged):
            name = f"{name}-{who}"
            shelf.add(name, message(shelf.mid(name), body, frm=frm, ctype=None, headers=headers), sender,
                      authentic=sender == GEORGE)
    shelf.add("headers-only-g", message(shelf.mid("headers-only-g"), frm=GEORGE, blank_line=False), GEORGE)
    return shelf.items


# -- charsets ----------------------------------------------------------------------------------

def _charset_shapes(text: str) -> Iterator[tuple[str, bytes, bytes]]:
    """(name, charset parameter, payload)"""
    utf8 = text.encode()
    yield "unknown-8bit", b"unknown-8bit", utf8
    yield "x-unknown", b"x-unknown", text.encode("latin-1") + "é".encode("latin-1")
    yield "punycode", b"punycode", (text + "ü").encode("punycode")
    yield "punycode-garbage", b"punycode", b"\xff\xfe" + utf8 + b"-!!"
    yield "idna", b"idna", utf8
    yield "utf-7", b"utf-7", text.encode("utf-7")
    yield "utf-7-broken", b"utf-7", b"+AGcAYQBtAGU-+!!!-\r\n+" + utf8
    yield "rot13", b"rot13", codecs.encode(text, "rot13").encode()
    yield "undefined", b"undefined", utf8
    yield "unicode-escape", b"unicode_escape", rb"GAME m1\nSTATUS\x00\u2028\N{NULL}\r\nPRESS x\nq" + b"\\"
    yield "raw-unicode-escape", b"raw_unicode_escape", rb"\u0000\uffff\U0010ffff" + utf8
    yield "base64-codec", b"base64", base64.b64encode(utf8)
    yield "zlib-codec", b"zlib", zlib.compress(utf8)
    yield "hex-codec", b"hex", utf8.hex().encode()
    yield "uu-codec", b"uu", codecs.encode(utf8, "uu")
    yield "utf-16-no-bom-le", b"utf-16", text.encode("utf-16-le")
    yield "utf-16-no-bom-be", b"utf-16", text.encode("utf-16-be")
    yield "utf-16-as-utf-8", b"utf-8", text.encode("utf-16-le")
    yield "utf-16-odd-length", b"utf-16", text.encode("utf-16-le")[:-1]
    yield "utf-32-truncated", b"utf-32", text.encode("utf-32-le")[:-2]
    yield "latin-1-as-utf-8", b"utf-8", text.encode("latin-1") + "Jörg Müller".encode("latin-1")
    yield "utf-8-as-iso-2022-jp", b"iso-2022-jp", "日本語 ".encode() + utf8
    yield "shift-jis-as-ascii", b"us-ascii", "ゴルフ ".encode("shift_jis") + utf8
    yield "gb18030-as-big5", b"big5", "高尔夫 ".encode("gb18030") + utf8
    yield "charset-empty", b"", utf8
    yield "charset-nul", b"utf-8\x00", utf8
    yield "charset-5000", b"x" * 5000, utf8
    yield "charset-unterminated-quote", b'"utf-8', utf8
    yield "charset-mbcs", b"mbcs", utf8
    yield "charset-cp65001", b"cp65001", utf8
    yield "utf-8-sig-double-bom", b"utf-8-sig", codecs.BOM_UTF8 * 2 + utf8


def charset(ctx: Context) -> list[Hostile]:
    shelf = Shelf("charset", ctx)
    for who, sender, text in (("g", GEORGE, shelf.orders("STATUS")), ("s", CAROL, stranger_text())):
        text = text.replace("\n", "\r\n")
        for name, cs, payload in _charset_shapes(text):
            name = f"{name}-{who}"
            ctype = b'text/plain; charset="' + cs + b'"' if not cs.startswith(b'"') else b"text/plain; charset=" + cs
            shelf.add(name, message(shelf.mid(name), payload, frm=sender, ctype=ctype, cte="8bit"), sender,
                      authentic=sender == GEORGE)
        # RFC 2231 parameters and charsets in encoded words
        name = f"rfc2231-charset-{who}"
        shelf.add(name, message(shelf.mid(name), text.encode(), frm=sender,
                                ctype="text/plain; charset*=x-evil''%FF%FE%00"), sender, authentic=sender == GEORGE)
    for name, subject in (("subject-punycode", "=?punycode?q?[m1]_bcher-kva?="),
                          ("subject-utf-7", "=?utf-7?q?+AFs-m1+AF0-?= orders"),
                          ("subject-rot13", "=?rot13?q?[z1]_beqref?="),
                          ("subject-unknown", "=?x-nothing?b?W20xXQ==?= orders"),
                          ("subject-idna", "=?idna?q?[m1]?=")):
        shelf.add(name, message(shelf.mid(name), crlf(stranger_text()), frm=CAROL, subject=subject), CAROL)
    shelf.add("name-utf-7", message(shelf.mid("name-utf-7"), crlf(stranger_text()),
                                    frm="=?utf-7?q?+AEI-ill?= <carol@stranger.test>"), CAROL)
    return shelf.items


# -- addresses ---------------------------------------------------------------------------------

def address(ctx: Context) -> list[Hostile]:
    shelf = Shelf("address", ctx)
    forged = crlf(forged_text(shelf))
    absolute = ctx.abs_root.rstrip("/")
    cases: list[tuple[str, object, str | None]] = [
        ("non-ascii", "<jörg@x.test>", "jörg@x.test"),
        ("non-ascii-latin-1-name", "J\xf6rg <joerg@x.test>".encode("latin-1"), "joerg@x.test"),
        ("nul-inside", "<mal\x00lory@evil.test>", None),
        ("nul-after", "<mallory@evil.test\x00>", None),
        ("dotdot-2", "<../../x@y.test>", None),
        ("dotdot-4", "<../../../../x@y.test>", None),
        ("dotdot-6", "<../../../../../../x@y.test>", None),
        ("absolute", f"<{absolute}/x@y.test>", None),
        ("absolute-dotdot", f"<{absolute}/../x@y.test>", None),
        ("into-bill", "<x/../bill@example.test>", None),
        ("george-into-bill", "<george@example.test/../bill@example.test>", None),
        ("slash-local", "<a/b@evil.test>", None),
        ("backslash", '<"x\\\\..\\\\y"@evil.test>', None),
        ("backslash-bare", "<x\\y@evil.test>", None),
        ("long-local-5000", f"<{'a' * 5000}@evil.test>", None),
        ("long-domain-300", f"<m@{'d' * 300}.test>", None),
        ("long-labels", f"<m@{'.'.join(['l' * 63] * 5)}>", None),
        ("empty", "", None),
        ("empty-angle", "<>", None),
        ("no-at", "mallory", None),
        ("two-at", '<"george@example.test"@evil.test>', None),
        ("group-empty", "undisclosed-recipients:;", None),
        ("group-two", "friends: george@example.test, mallory@evil.test;", None),
        ("group-one", "team: mallory@evil.test;", None),
        ("george-display-mallory-angle", "george@example.test <mallory@evil.test>", MALLORY),
        ("quoted-george-display", '"george@example.test" <mallory@evil.test>', MALLORY),
        ("comment-george", "mallory@evil.test (george@example.test)", MALLORY),
        ("encoded-george-display",
         "=?utf-8?q?George_=3Cgeorge=40example.test=3E?= <mallory@evil.test>", MALLORY),
        ("two-angles", "<george@example.test> <mallory@evil.test>", None),
        ("two-angles-reversed", "<mallory@evil.test> <george@example.test>", None),
        ("list-of-two", "George <george@example.test>, Mallory <mallory@evil.test>", None),
        ("list-of-500", ", ".join(f"p{i}@evil.test" for i in range(500)), None),
        ("encoded-address", "=?utf-8?q?mallory=40evil.test?=", None),
        ("upper-case-forged", "GEORGE@EXAMPLE.TEST", GEORGE),
        ("route-addr", "<@evil.test,@relay.test:mallory@evil.test>", MALLORY),
    ]
    for name, frm, sender in cases:
        # the body carries George's secret: from George himself it is his own, authentic mail
        shelf.add(name, message(shelf.mid(name), forged, frm=frm), sender, authentic=sender == GEORGE)
    both = b"From: George <george@example.test>\r\nFrom: Mallory <mallory@evil.test>\r\n"
    shelf.add("two-from-headers", both + message(shelf.mid("two-from-headers"), forged, frm=None), None)
    both = b"From: Mallory <mallory@evil.test>\r\nFrom: George <george@example.test>\r\n"
    shelf.add("two-from-headers-reversed", both + message(shelf.mid("two-from-headers-reversed"), forged, frm=None),
              None)
    shelf.add("no-from-header", message(shelf.mid("no-from-header"), forged, frm=None), None)
    shelf.add("sender-header-only", message(shelf.mid("sender-header-only"), forged, frm=None,
                                            headers=[("Sender", "george@example.test")]), None)
    return shelf.items


# -- headers -----------------------------------------------------------------------------------

def header(ctx: Context) -> list[Hostile]:
    shelf = Shelf("header", ctx)
    george = crlf(shelf.orders("STATUS"))
    stranger = crlf(stranger_text())

    def as_george(name: str, *, mid=True, **kw) -> None:
        kw.setdefault("frm", "George <george@example.test>")
        shelf.add(name, message(shelf.mid(name) if mid else None, george, **kw), GEORGE, authentic=True)

    def as_stranger(name: str, *, sender=CAROL, mid=True, **kw) -> None:
        kw.setdefault("frm", f"Carol <{CAROL}>")
        shelf.add(name, message(shelf.mid(name) if mid else None, stranger, **kw), sender)

    for who, add in (("g", as_george), ("s", as_stranger)):
        add(f"mid-non-ascii-{who}", mid=False, headers=[("Message-ID", f"<jörg.{who}@x.test>")])
        add(f"mid-nul-{who}", mid=False, headers=[("Message-ID", f"<a\x00b.{who}@x.test>")])
        add(f"mid-10000-{who}", mid=False, headers=[("Message-ID", f"<{'i' * 10000}.{who}@x.test>")])
        add(f"mid-lone-cr-{who}", mid=False, headers=[("Message-ID", f"<a\rb.{who}@x.test>")])
        add(f"mid-encoded-crlf-{who}", mid=False,
            headers=[("Message-ID", f"=?utf-8?q?=3Ca.{who}=0D=0ABcc=3A_mallory=40evil.test=3E?=")])
        add(f"mid-no-angles-{who}", mid=False, headers=[("Message-ID", f"just some words {who}")])
        add(f"mid-two-{who}", mid=False, headers=[("Message-ID", f"<one.{who}@x.test>"),
                                                  ("Message-ID", f"<two.{who}@x.test>")])
        add(f"references-5000-{who}", headers=[("References", " ".join(f"<r{i}@x.test>" for i in range(5000)))])
        add(f"references-nul-{who}", headers=[("References", "<a\x00b@x.test> <c@x.test>")])
        add(f"references-encoded-crlf-{who}",
            headers=[("References", "=?utf-8?q?=3Ca=40b=3E=0D=0ABcc:_mallory=40evil.test?=")])
        add(f"references-one-20000-{who}", headers=[("References", f"<{'r' * 20000}@x.test>")])
        add(f"in-reply-to-junk-{who}", headers=[("In-Reply-To", "\x01\x02 junk ]]] <<< " * 500)])
        add(f"in-reply-to-nul-{who}", headers=[("In-Reply-To", "<a\x00b@x.test>")])
        add(f"in-reply-to-non-ascii-{who}", headers=[("In-Reply-To", "<ünï@cödé.test>")])
        add(f"in-reply-to-encoded-crlf-{who}",
            headers=[("In-Reply-To", "=?utf-8?q?=3Cx=40y=3E=0D=0AReply-To:_mallory=40evil.test?=")])
        add(f"in-reply-to-2000-ids-{who}", headers=[("In-Reply-To", " ".join(f"<i{n}@x>" for n in range(2000)))])
    # (":" is =3A inside an encoded word: a bare colon in a phrase would start a group)
    for name, word in (("name-cr-reply-to", "=?utf-8?q?Bill=0DReply-To=3A_=3Cmallory=40evil.test=3E?="),
                       ("name-lf-reply-to", "=?utf-8?q?Bill=0AReply-To=3A_=3Cmallory=40evil.test=3E?="),
                       ("name-crlf-reply-to", "=?utf-8?q?Bill=0D=0AReply-To=3A_=3Cmallory=40evil.test=3E?="),
                       ("name-nul", "=?utf-8?q?Bill=00Reply-To=3A_=3Cmallory=40evil.test=3E?="),
                       ("name-colon-group-confusion", "=?utf-8?q?Bill=0AReply-To:_=3Cmallory=40evil.test=3E?="),
                       ("name-tab-vt-ff", "=?utf-8?q?Bill=09=0B=0C=1B[2J?="),
                       ("name-b64-crlf-bcc", "=?utf-8?b?" + base64.b64encode(
                           b"Bill\r\nBcc: victim@example.test\r\n\r\nbody").decode() + "?="),
                       ("name-10000", "N" * 10000),
                       ("name-2000-non-ascii", "=?utf-8?b?" + base64.b64encode(("ö" * 2000).encode()).decode() + "?="),
                       ("name-raw-lone-cr", '"Bill\rReply-To: <mallory@evil.test>"')):
        as_stranger(name, sender=MALLORY, frm=f"{word} <mallory@evil.test>")
    for who, add in (("g", as_george), ("s", as_stranger)):
        add(f"subject-encoded-crlf-{who}", subject="=?utf-8?q?[m1]_x=0D=0ABcc:_mallory=40evil.test?=")
        add(f"subject-encoded-nul-{who}", subject="=?utf-8?q?[m1]_x=00y?=")
        add(f"subject-raw-lone-cr-{who}", subject="[m1] x\rBcc: mallory@evil.test")
        add(f"subject-10000-{who}", subject="[m1] " + "s" * 10000)
        add(f"subject-bad-utf-8-{who}", subject=b"[m1] \xff\xfe\xc3")
        add(f"tag-control-{who}", subject="[m1\x01] orders")
        add(f"tag-nul-{who}", subject="[m1\x00] orders")
        add(f"tag-escape-{who}", subject="[\x1b[31mm1\x1b[0m] orders")
        add(f"tag-10000-brackets-{who}", subject="[" * 10000)
        add(f"tag-unclosed-{who}", subject="Re: [m1 orders")
        add(f"tag-nested-{who}", subject="[[m1]] [c1] [../../x]")
    as_stranger("header-100k", headers=[("X-Junk", "j" * 100_000)])
    as_stranger("headers-10000", headers=[(f"X-H{i}", "v") for i in range(10000)])
    as_stranger("header-name-non-ascii", headers=[("Fröm", "george@example.test")])
    shelf.add("header-without-colon", b"This line is no header\r\n" + message(shelf.mid("header-without-colon"),
                                                                             stranger, frm=CAROL), CAROL)
    shelf.add("header-starts-folded", b" folded: first\r\n" + message(shelf.mid("header-starts-folded"),
                                                                      stranger, frm=CAROL), CAROL)
    as_stranger("date-junk", date="99 Foo 99999 99:99:99 +9999")
    as_stranger("to-1000", to=", ".join(f"r{i}@example.test" for i in range(1000)))
    as_stranger("return-path-junk", headers=[("Return-Path", "<<<\x00>>> " * 100)])
    as_stranger("two-subjects", headers=[("Subject", "[c1] other")])
    as_stranger("two-content-types", headers=[("Content-Type", "text/html")])
    return shelf.items


# -- body commands -----------------------------------------------------------------------------

def body(ctx: Context) -> list[Hostile]:
    shelf = Shelf("body", ctx)

    def as_george(name: str, text, **kw) -> None:
        shelf.add(name, message(shelf.mid(name), crlf(text), frm="George <george@example.test>"), GEORGE,
                  authentic=True, **kw)

    def as_ann(name: str, text, **kw) -> None:
        shelf.add(name, message(shelf.mid(name), crlf(text), frm="Ann <ann@example.test>",
                                subject=f"Re: [{CARDS}] your turn"), ANN, authentic=True, **kw)

    def as_stranger(name: str, text, **kw) -> None:
        shelf.add(name, message(shelf.mid(name), crlf(text), frm=CAROL), CAROL, **kw)

    digits = "9" * 5000
    o = shelf.orders
    as_george("turn-tai-lue-digit", o("TURN \u19da", "PLAY 4 4 5"))
    as_george("turn-ethiopic-digit", o("TURN \u1369", "PLAY 4 4 5"))
    as_george("play-ethiopic-digits", o("PLAY \u136c \u136c \u136d"))
    as_george("hole-ethiopic-digit", o("PLAY 4 4 5", "SPECIAL BLUE+1 HOLE \u1369"))
    as_george("turn-superscript", o("TURN \u00b9", "PLAY 4 4 5"))
    as_george("turn-5000-digits", o(f"TURN {digits}", "PLAY 4 4 5"))
    as_george("play-5000-digits", o(f"PLAY {digits} 4 5"))
    as_george("hole-5000-digits", o("PLAY 4 4 5", f"SPECIAL RED+1 HOLE {digits}"))
    as_george("turn-negative-huge", o(f"TURN -{digits}", "PLAY 4 4 5"))
    as_ann("reveal-5000-digits", o(f"REVEAL {digits} 1", who=ANN, game=CARDS))
    as_ann("draw-discard-5000-digits", o(f"DRAW DISCARD {digits}", who=ANN, game=CARDS))
    as_ann("draw-if-5000-digits", o(f"DRAW STOCK IF <= {digits} KEEP 1 ELSE FLIP 2", who=ANN, game=CARDS))
    as_ann("reveal-control-chars", o("REVEAL 1\x00 2\x07", who=ANN, game=CARDS))
    as_george("control-vertical-tab", o("PLAY 4\x0b4\x0c5"))
    as_george("control-ansi-escape", o("\x1b[2J\x1b[31mPLAY 4 4 5\x1b[0m"))
    as_george("control-nul-in-line", o("PLAY 4 4 5\x00", "STATUS\x00"))
    as_george("control-bell-backspace", o("ST\x08\x08STATUS\x07"))
    as_george("control-nel-and-line-separator",
              f"GAME m1\x85PASSWORD {shelf.secret(GEORGE)}\u2028STATUS\u2029PLAY 4 4 5\n")
    as_george("control-del-and-c1", o("\x7f\x9bPLAY 4 4 5"))
    as_george("game-nul", f"GAME m1\x00\nPASSWORD {shelf.secret(GEORGE)}\nSTATUS\n")
    as_stranger("game-nul-stranger", f"GAME m1\x00{CANARY}\nSTATUS\n")
    as_stranger("game-10000-stranger", f"GAME {CANARY * 2000}\nSTATUS\n")
    as_stranger("game-path-stranger", "GAME ../../../etc/passwd\nSTATUS\n")
    as_george("password-twice", o(f"PASSWORD {'f' * 40}", "STATUS"))
    as_george("press-1000", o(*[f"PRESS {CANARY} {i}" for i in range(1000)]), slow=True, answers=("error",))
    as_george("status-101", o(*["STATUS"] * 101), answers=("error",))
    as_george("status-20000", o(*["STATUS"] * 20000), slow=True, answers=("error",))
    as_george("help-20000", o(*["HELP"] * 20000), slow=True, answers=("error",))
    as_stranger("help-20000-stranger", "HELP\n" * 20000, slow=True)
    as_george("history-500", o(*["HISTORY"] * 500), answers=("error",))
    as_george("play-101", o(*["PLAY 4 4 5"] * 101), answers=("error",))
    as_george("blank-lines-500000", o("STATUS") + "\n" * 500_000, slow=True)
    as_george("line-2mb", o("PLAY " + "4 " * MB), slow=True)
    as_george("am-schrieb-200000", "am " + "schrieb " * 200_000 + "\n" + o("STATUS"), slow=True)
    as_george("am-schrieb-100000", o("STATUS") + "am " + "schrieb " * 100_000 + "\n", slow=True)
    as_george("on-wrote-100000", o("STATUS") + "On " + "x wrote " * 100_000 + "\n", slow=True)
    as_george("on-wrote-two-lines", o("STATUS") + "On " + "x " * 50_000 + "\n" + "wrote " * 50_000 + "\n",
              slow=True)
    as_george("outlook-from-50000", o("STATUS") + "From: x\n" * 50_000, slow=True)
    as_george("fdfa-900k", o("STATUS") + "\ufdfa" * 300_000 + "\n", slow=True)
    as_george("fdfa-20mb", o("STATUS") + "\ufdfa" * (20 * MB // 3) + "\n", slow=True)
    as_stranger("text-1200k-stranger", (f"GAME m1\nSTATUS\n{CANARY} " + "blah " * 240_000)[: 1_200_000], slow=True)
    as_george("text-1100k", o("STATUS") + ("The quick brown fox. " * 53_000), slow=True)
    html = ("<html><body><p>" + o("STATUS").replace("\n", "<br>") + "</p>"
            + "<div><b>x</b></div>" * (5 * MB // 19) + "</body></html>")
    shelf.add("html-only-5mb", message(shelf.mid("html-only-5mb"), crlf(html), frm=GEORGE,
                                       ctype="text/html; charset=utf-8"), GEORGE, authentic=True, slow=True)
    deep = "<div>" * 80_000 + o("STATUS").replace("\n", "<br>") + "</div>" * 80_000
    shelf.add("html-deep-80000", message(shelf.mid("html-deep-80000"), crlf(deep), frm=GEORGE,
                                          ctype="text/html; charset=utf-8"), GEORGE, authentic=True, slow=True)
    shelf.add("punycode-900k", message(shelf.mid("punycode-900k"), b"a-" + b"b" * 900_000, frm=GEORGE,
                                       ctype="text/plain; charset=punycode", cte="8bit"), GEORGE, slow=True)
    return shelf.items


# -- robots ------------------------------------------------------------------------------------

def robot(ctx: Context) -> list[Hostile]:
    shelf = Shelf("robot", ctx)
    gm_id = ctx.gm_message_id
    away = crlf("I am out of the office until 4 January with no access to my mail.\n"
                "For urgent matters please contact my colleague.\n\nKind regards\nGeorge\n")
    reply = [("In-Reply-To", gm_id), ("References", gm_id)]

    def add(name: str, raw: bytes, sender: str | None) -> None:
        shelf.add(name, raw, sender, answers=())

    for name, frm, sender, subject in (
            ("ooo-george", "George <george@example.test>", GEORGE, "Out of Office: [m1] Your turn"),
            ("ooo-bill", "Bill <bill@example.test>", BILL, "Automatic reply: [m1] Your turn"),
            ("ooo-ann", "Ann <ann@example.test>", ANN, "Abwesenheitsnotiz: [c1] Your turn"),
            ("ooo-stranger", "Carol <carol@stranger.test>", CAROL, "Réponse automatique : [m1] Your turn"),
            ("ooo-george-plain-subject", "George <george@example.test>", GEORGE, "Re: [m1] Your turn")):
        add(name, message(shelf.mid(name), away, frm=frm, subject=subject, headers=reply), sender)
    robot_headers = [
        ("auto-submitted-replied", [("Auto-Submitted", "auto-replied")]),
        ("auto-submitted-generated", [("Auto-Submitted", "auto-generated")]),
        ("auto-submitted-notified-caps", [("Auto-Submitted", "AUTO-NOTIFIED; owner-email=\"x@y\"")]),
        ("auto-submitted-folded", [("Auto-Submitted", "\r\n auto-replied")]),
        ("x-autoreply", [("X-Autoreply", "yes")]),
        ("x-auto-response-suppress", [("X-Auto-Response-Suppress", "OOF, AutoReply")]),
        ("precedence-auto-reply", [("Precedence", "auto_reply")]),
        ("x-pbem-kind-loop", [("X-PBEM-Kind", "error"), ("X-PBEM-Game", "m1")]),
        ("list-id-auto-generated", [("List-Id", "<golf.lists.example.test>"), ("Auto-Submitted", "auto-generated")]),
    ]
    # What a group adds to a person's mail (a GM address that is a Google group): George's own
    # mail with his secret is read through it, and answered at his address alone.
    group_headers = [
        ("precedence-bulk", [("Precedence", "bulk")]),
        ("list-id", [("List-Id", "<golf.lists.example.test>")]),
        ("list-unsubscribe", [("List-Unsubscribe", "<mailto:leave@lists.example.test>")]),
    ]
    george_orders = crlf(shelf.orders("PLAY 4 4 5", f"PRESS {CANARY} from a robot"))
    for name, headers in robot_headers:
        add(name, message(shelf.mid(name), george_orders, frm="George <george@example.test>",
                          headers=reply + headers), GEORGE)
    for name, headers in group_headers:
        shelf.add(name, message(shelf.mid(name), george_orders, frm="George <george@example.test>",
                                headers=reply + headers + [("Reply-To", "golf@lists.example.test")]), GEORGE,
                  authentic=True, answers=("ack",))
        add(f"{name}-stranger", message(shelf.mid(f"{name}-stranger"), crlf(stranger_text()), headers=headers),
            CAROL)
    add("from-gm-itself", message(shelf.mid("from-gm-itself"), george_orders, frm=f"Golf GM <{GM}>"), GM)
    plus = f"gm+{ctx.secrets[GEORGE]}@example.test"
    add("from-gm-plus-address", message(shelf.mid("from-gm-plus-address"), george_orders, frm=plus), plus)
    # Bounces: a delivery report carrying the GM's own mail (with George's secret in its Reply-To)
    original = (f"From: Golf GM <{GM}>\r\nTo: george@example.test\r\nReply-To: Golf GM <{plus}>\r\n"
                f"Subject: [m1] Your turn\r\nX-PBEM-Game: m1\r\nX-PBEM-Kind: turn\r\nMessage-ID: {gm_id}\r\n\r\n"
                f"GAME m1\r\nPASSWORD {ctx.secrets[GEORGE]}\r\nPLAY 4 4 5\r\n").encode()
    report = (b"--R\r\nContent-Type: text/plain\r\n\r\nThis is the mail system. Delivery failed.\r\n"
              b"--R\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\n"
              b"Final-Recipient: rfc822; george@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\n"
              b"--R\r\nContent-Type: message/rfc822\r\n\r\n" + original + b"\r\n--R--\r\n")
    dsn = 'multipart/report; report-type=delivery-status; boundary="R"'
    add("bounce-mailer-daemon", message(shelf.mid("bounce-mailer-daemon"), report, ctype=dsn,
                                        frm="Mail Delivery System <MAILER-DAEMON@mx.example.test>",
                                        subject="Undelivered Mail Returned to Sender"),
        "mailer-daemon@mx.example.test")
    add("bounce-postmaster", message(shelf.mid("bounce-postmaster"), report, ctype=dsn,
                                     frm="postmaster@mx.example.test", subject="Delivery Status Notification"),
        "postmaster@mx.example.test")
    add("bounce-bare-mailer-daemon", message(shelf.mid("bounce-bare-mailer-daemon"), crlf(
        "Your message could not be delivered.\n") + original, frm="MAILER-DAEMON (Mail Delivery System)",
        subject="Undelivered Mail Returned to Sender"), None)
    add("bounce-null-return-path", message(shelf.mid("bounce-null-return-path"), original,
                                           frm="George <george@example.test>", headers=[("Return-Path", "<>")]),
        GEORGE)
    add("bounce-report-from-person", message(shelf.mid("bounce-report-from-person"), report, ctype=dsn,
                                             frm="George <george@example.test>"), GEORGE)
    return shelf.items


# -- secrets -----------------------------------------------------------------------------------

def secret(ctx: Context) -> list[Hostile]:
    shelf = Shelf("secret", ctx)
    g, b, a = ctx.secrets[GEORGE], ctx.secrets[BILL], ctx.secrets[ANN]
    mallory = "Mallory <mallory@evil.test>"
    play = f"PLAY 4 4 5\nPRESS {CANARY} forged\n"

    def add(name: str, text: str, sender: str, frm: str = mallory, to: str = GM, **kw) -> None:
        shelf.add(name, message(shelf.mid(name), crlf(text), frm=frm, to=to, **kw), sender)

    guesses = [("wrong", "deadbeef"), ("sql-quote", "' OR '1'='1"), ("sql-comment", "x' --"),
               ("like-percent", "%"), ("like-underscore", "_" * len(g)), ("glob-star", "*"),
               ("empty", ""), ("nul", "\x00"), ("10000-chars", "f" * 10000), ("unicode", "ＰＡＳＳ１２３"),
               ("prefix-of-right", g[:4]), ("right-plus-junk", g + "0"), ("bill-secret-for-george", b)]
    for name, guess in guesses:
        add(f"stranger-guess-{name}", f"GAME m1\nPASSWORD {guess}\n" + play, MALLORY)
    add("stranger-right-secret-line", f"GAME m1\nPASSWORD {g}\n" + play, MALLORY)
    add("stranger-right-secret-upper", f"GAME m1\nPASSWORD {g.upper()}\n" + play, MALLORY)
    add("stranger-right-secret-no-game", f"PASSWORD {g}\n" + play, MALLORY, subject="orders")
    add("stranger-right-secret-plus", play, MALLORY, to=f"gm+{g}@example.test")
    add("stranger-right-secret-cc", play, MALLORY, headers=[("Cc", f"gm+{g}@example.test")])
    add("stranger-right-secret-delivered-to", play, MALLORY, headers=[("Delivered-To", f"gm+{g}@example.test")])
    add("stranger-right-secret-resign", f"GAME m1\nPASSWORD {g}\nRESIGN\n", MALLORY)
    add("stranger-right-secret-c1", f"GAME c1\nPASSWORD {a}\nREVEAL 1 2\nPRESS {CANARY}\n", MALLORY,
        subject="[c1] orders")
    add("stranger-display-george", f"GAME m1\nPASSWORD {g}\n" + play, MALLORY,
        frm="George <mallory@evil.test>")
    add("forged-george-no-secret", "GAME m1\n" + play, GEORGE, frm="George <george@example.test>")
    add("forged-george-subject-only", play, GEORGE, frm="George <george@example.test>")
    add("forged-george-bill-secret", f"GAME m1\nPASSWORD {b}\n" + play, GEORGE, frm="George <george@example.test>")
    add("forged-george-bill-plus", play, GEORGE, frm="George <george@example.test>", to=f"gm+{b}@example.test")
    add("forged-bill-resign", "GAME m1\nRESIGN\n", BILL, frm="Bill <bill@example.test>")
    add("forged-george-ann-secret-c1", f"GAME c1\nPASSWORD {a}\nREVEAL 1 2\n", GEORGE,
        frm="George <george@example.test>", subject="[c1] orders")
    for name, to in (("plus-dotdot", "gm+../../x@example.test"), ("plus-percent", "gm+%@example.test"),
                     ("plus-empty", "gm+@example.test"), ("plus-5000", f"gm+{'a' * 5000}@example.test"),
                     ("plus-nul", "gm+\x00@example.test"), ("plus-other-domain", f"gm+{g}@evil.test")):
        add(f"stranger-{name}", play, MALLORY, to=to)
    return shelf.items


BUILDERS = {"mime": mime, "charset": charset, "address": address, "header": header, "body": body,
            "robot": robot, "secret": secret}


def generate(ctx: Context = DEFAULT_CONTEXT) -> list[Hostile]:
    """The whole corpus, in a fixed order (class by class)."""
    corpus = [h for cls in CLASSES for h in BUILDERS[cls](ctx)]
    labels = [h.label for h in corpus]
    assert len(set(labels)) == len(labels), "corpus labels must be unique"
    return corpus


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python tests/hostile/corpus.py OUTDIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    corpus = generate()
    for h in corpus:
        (out / f"{h.label}.eml").write_bytes(h.raw)
    print(f"wrote {len(corpus)} messages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
