"""Scripted games whose mail, as players read it, makes the golden transcripts.

One scenario per game type sends every kind of mail at least once (welcome,
ack, error, turn, report, reminder, NMR note, result, status, history, help,
press). The GM runs in-process over the local (Maildir) transport in a fresh
folder, with the clock set by `PBEM_NOW` and open seeds, so a transcript is the
same on every run; the players' secrets, drawn at random, are masked.

`scripts/transcripts.py` writes the transcripts; `tests/test_transcripts.py`
compares them.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import mailbox
import random
import re
import tempfile
import textwrap
import urllib.parse
from datetime import UTC, datetime, timedelta
from html import escape, unescape
from pathlib import Path

from pbem import cli
from pbem.digests.letter import is_digest_token
from pbem.mail.flowed import unflow
from pbem.mail.inbound import html_to_text

GM = "gm@example.test"
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
WIDTH = 78
RULE = "=" * WIDTH



def _as_shown(lines: list[str]) -> list[str]:
    """The HTML part's text as a reader's window of 78 columns shows it: its paragraphs flow
    (HTML has no line width), so a prose line is wrapped there, a list item under its bullet;
    a preformatted block (a table, orders), which the converter marks by four spaces more,
    keeps its own lines, as the <pre> shows them. A gap between blocks is one blank line, as a
    browser leaves one margin (the converter writes two around a block)."""
    out = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        if line.startswith("    "):
            out.append(line[4:])
        elif len(line) <= WIDTH or line.startswith(" "):
            out.append(line)
        else:
            bullet = "- " if line.startswith("- ") else ""
            out += textwrap.wrap(line, WIDTH, subsequent_indent=" " * len(bullet),
                                 break_long_words=False, break_on_hyphens=False)
    return out


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[dh]\b([^>]*)>(.*?)</t[dh]>", re.S)


def _tables_laid_out(page: str) -> str:
    """The HTML part with each table as a reader's window shows it, for the converter to text,
    which would run a row's cells together: its rows one a line, each column as wide as its
    cells (one far longer than the rest runs on into the next, as in the text), two spaces
    apart, on the right where the table puts them there, the last column wrapped within the
    window. Spaces as &nbsp; keep the converter from squeezing them; four more before each row
    are the indent that `_as_shown` takes from a preformatted line."""
    def rows(table) -> str:
        return "".join(escape("    " + line).replace(" ", "&nbsp;") + "<br>\n" for line in _laid_out(table[0]))
    return _TABLE.sub(rows, page)


def _laid_out(table: str) -> list[str]:
    rows = [[(unescape(re.sub(r"<br>", "\n", body)).split("\n"), 'align="right"' in attributes)
             for attributes, body in _CELL.findall(row)] for row in _ROW.findall(table)]
    columns = max(map(len, rows))
    widths = []
    for k in range(columns):
        sizes = sorted((len(line) for row in rows if k < len(row) for line in row[k][0]), reverse=True) + [0, 0]
        widths.append(sizes[1] if k < columns - 1 and sizes[0] > sizes[1] + 10 else sizes[0])
    room = WIDTH - sum(widths[:-1]) - 2 * (columns - 1)
    if widths[-1] > room >= 20:
        for row in rows:
            if len(row) == columns:
                row[-1] = ([part for line in row[-1][0] for part in textwrap.wrap(line, room) or [""]], row[-1][1])
        widths[-1] = room
    starts = [sum(widths[:k]) + 2 * k for k in range(columns)]
    out = []
    for row in rows:
        for n in range(max(len(lines) for lines, _ in row)):
            line = ""
            for k, (lines, right) in enumerate(row):
                cell = lines[n] if n < len(lines) else ""
                if cell:
                    at = max(starts[k] + (widths[k] - len(cell) if right else 0), len(line) + 2 if line else 0)
                    line = line.ljust(at) + cell
            out.append(line)
    return out


class Transcript:
    """A GM in a temporary folder and the record of every mail in and out, in order."""

    def __init__(self, root: Path, contact: str | None = None):
        self.root = root
        self.now = START
        self.lines: list[str] = []
        self.mails: list[tuple[str, str, str, str | None]] = []  # (to, kind, text, html as text)
        # Each mail with an HTML part, as sent (secrets unmasked): (to, kind, text, the HTML).
        self.pages: list[tuple[str, str, str, str]] = []
        self.messages: list[email.message.EmailMessage] = []  # each of those mails whole, as parsed
        self.raws: list[bytes] = []  # and as it came
        # Each mail with a calendar part: (to, kind, the type of its first part, the calendar).
        self.calendars: list[tuple[str, str, str, str]] = []
        self.seen: dict[str, int] = {}
        self.players: dict[str, str] = {}  # address -> name
        self.spectators: set[str] = set()  # the addresses among them that watch, with no seat
        self.counter = 0
        (root / "pbem.yaml").write_text(
            f"gm:\n  address: {GM}\n  name: Golf GM\n" + (f"  contact: {contact}\n" if contact else "")
            + "store: ./pbem.sqlite3\ntransport: local\nlocal:\n  maildir: ./mail\ngames:\n  reminder_before: 12h\n")

    # -- driving the GM ----------------------------------------------------------------------
    def pbem(self, *args: str) -> str:
        env = {"PBEM_CONFIG": str(self.root / "pbem.yaml"),
               "PBEM_NOW": self.now.strftime("%Y-%m-%dT%H:%M:%SZ")}
        code, out, err = cli.run_with(list(args), env)
        if code != 0:
            raise RuntimeError(f"pbem {' '.join(args)} -> {code}: {err}")
        return out

    def wait(self, **delta) -> None:
        self.now += timedelta(**delta)

    def new_game(self, game_type: str, game_id: str, players: list[tuple[str, str]], *extra: str) -> None:
        args = ["new-game", game_type, "--id", game_id, *extra]
        for name, addr in players:
            if not addr.startswith("robot"):  # a robot's seat has no mail to read
                self.players[addr] = name
            args += ["--player", f"{name} <{addr}>"]
        self.step(f"The GM starts the game: pbem {' '.join(args[:2])} ...")
        self.pbem(*args)
        self.collect()

    def send(self, addr: str, text: str, game_id: str, subject: str | None = None, to: str | None = None,
             answering: str | None = None, flowed: bool = False) -> None:
        """`addr` replies to the GM's mail (to the Reply-To with the secret; `to`: to that address,
        `answering`: the Message-ID it answers; `flowed`: as Thunderbird sends it, format=flowed,
        its long lines wrapped at 72 columns with a space at each soft break), and a pass runs."""
        self.counter += 1
        msg = email.message.EmailMessage()
        msg["From"] = f"{self.players[addr]} <{addr}>"
        msg["To"] = to or self.reply_to(addr, game_id)
        msg["Subject"] = subject or f"Re: [{game_id}] orders"
        if answering:
            msg["In-Reply-To"] = answering
        msg["Date"] = email.utils.format_datetime(self.now)
        msg["Message-ID"] = f"<t{self.counter}@player.test>"
        if flowed:
            text = "\n".join(_flowed(line) for line in text.split("\n"))
        msg.set_content(text)
        if flowed:
            msg.set_param("format", "flowed")
        self.step(f"{self.players[addr]} writes" + (" (flowed: a soft break ends in a space):" if flowed
                                                   else ":"))
        if not text.strip():  # the mail says what it says by where it goes and its subject
            masks = self.secrets()
            self.lines += [f"    | To: {_mask(str(msg['To']), masks)}", f"    | Subject: {_mask(subject or '', masks)}",
                           "    | (no text)"]
        self.lines += ["    | " + line for line in text.rstrip("\n").splitlines()] + [""]
        (self.root / "mail").mkdir(exist_ok=True)
        box = mailbox.Maildir(str(self.root / "mail" / GM), factory=None, create=True)
        box.add(msg.as_bytes())
        box.close()
        self.process()

    def process(self, label: str | None = None) -> None:
        if label:
            self.step(label)
        self.pbem("process")
        self.collect()

    def state(self, game_id: str):
        from pbem.gm import games
        from pbem.store import Store
        store = Store(self.root / "pbem.sqlite3")
        try:
            return games.load(store, game_id).state
        finally:
            store.close()

    # -- reading what the players got --------------------------------------------------------
    def _messages(self, addr: str) -> list[email.message.EmailMessage]:
        return [m for _, m in self._raw_messages(addr)]

    def _raw_messages(self, addr: str) -> list[tuple[bytes, email.message.EmailMessage]]:
        folder = self.root / "mail" / addr
        files = [p for sub in ("new", "cur") if (folder / sub).is_dir() for p in (folder / sub).iterdir()]
        raws = [p.read_bytes() for p in files]
        msgs = [(raw, email.message_from_bytes(raw, policy=email.policy.default)) for raw in raws]
        # Each player's mails carry strictly increasing Dates, in the order they were written.
        return sorted(msgs, key=lambda pair: email.utils.parsedate_to_datetime(pair[1]["Date"]))

    def reply_to(self, addr: str, game_id: str = "") -> str:
        """The reply address of `addr`'s first mail about `game_id` (else about any game): its secret."""
        msgs = self._messages(addr)
        first = next((m for m in msgs if game_id and m["X-PBEM-Game"] == game_id),
                     next((m for m in msgs if m["X-PBEM-Game"]), msgs[0]))
        return email.utils.parseaddr(first["Reply-To"])[1]

    def last(self, addr: str):
        """The last mail `addr` got."""
        return self._messages(addr)[-1]

    def reply(self, addr: str, text: str = "", quote: bool = False, mail=None) -> None:
        """`addr` answers the last mail they got (or `mail`), as a mail client's Reply does;
        `quote`: with that mail quoted below, under the client's attribution line."""
        mail = mail or self.last(addr)
        if quote:
            # Quoted as a client rewraps a quote, to 72 columns with its marks (so the transcript's
            # "    | " before each line keeps it within 78), the flowed text read as flowed first.
            part = mail.get_body(preferencelist=("plain",))
            original = part.get_content()
            quoted = _rewrapped(unflow(original) if part.get_param("format") == "flowed" else original)
            when = email.utils.parsedate_to_datetime(mail["Date"])
            text += (f"\n\nOn {when:%a, %d %b %Y at %H:%M}, Golf GM <{GM}> wrote:\n"
                     + "\n".join(f"> {line}" if line else ">" for line in quoted) + "\n")
        self.send(addr, text, "", subject=f"Re: {mail['Subject']}", to=email.utils.parseaddr(mail["Reply-To"])[1],
                  answering=mail["Message-ID"])

    def unsubscribe(self, addr: str) -> None:
        """`addr`'s mail program mails the List-Unsubscribe of the last mail as it is (RFC 2369):
        to its address, with its subject, and no text."""
        uri = urllib.parse.urlsplit(str(self.last(addr)["List-Unsubscribe"]).strip("<>"))
        to, subject = urllib.parse.unquote(uri.path), urllib.parse.parse_qs(uri.query)["subject"][0]
        self.send(addr, "", "", subject=subject, to=to)

    def secrets(self) -> dict[str, str]:
        """The tokens in the players' reply addresses, drawn at random, each with its mask: a
        game's secret, an open table's token (a JOIN's one-time one, or a seat's), a spectator's
        (an OBSERVE's one-time one, or the spectator's own)."""
        out = {}
        for addr, name in self.players.items():  # a digest's own token (SET DIGEST), whoever reads it
            for m in self._messages(addr):
                local = email.utils.parseaddr(m["Reply-To"] or "")[1].split("@")[0]
                token = local.split("+", 1)[1] if "+" in local else None
                if token and token not in out and is_digest_token(token):
                    out[token] = f"<{name}'s digest token>"
        for addr in sorted(self.spectators):
            for m in self._messages(addr):
                local = email.utils.parseaddr(m["Reply-To"] or "")[1].split("@")[0]
                token = local.split("+", 1)[1] if "+" in local else None
                if token and token not in out:
                    what = "one-time token" if "Confirm:" in str(m["Subject"]) else "spectator token"
                    out[token] = f"<{self.players[addr]}'s {what}>"
        for addr, name in self.players.items():
            if addr in self.spectators:
                continue
            msgs = self._messages(addr)
            if not any(m["X-PBEM-Game"] for m in msgs):
                continue
            local = self.reply_to(addr).split("@")[0]
            out[local.split("+", 1)[1]] = f"<{name}'s secret>"
            for m in msgs:  # the secrets of later games (a league's), numbered
                local = email.utils.parseaddr(m["Reply-To"] or "")[1].split("@")[0]
                token = local.split("+", 1)[1] if "+" in local else None
                if token and token not in out and m["X-PBEM-Game"] and m["X-PBEM-Kind"] != "table":
                    out[token] = f"<{name}'s secret {sum(1 for v in out.values() if f'{name}s secret' in v) + 2}>"
        for addr, name in self.players.items():
            for m in self._messages(addr):
                local = email.utils.parseaddr(m["Reply-To"] or "")[1].split("@")[0]
                token = local.split("+", 1)[1] if "+" in local else None
                if token and token not in out and m["X-PBEM-Kind"] == "table":
                    out[token] = f"<{name}'s table token {sum(1 for v in out.values() if name in v) + 1}>"
                elif token and token not in out and m["X-PBEM-League"]:
                    out[token] = f"<{name}'s league token>"
        return out

    def collect(self) -> None:
        masks = self.secrets()
        for addr, name in self.players.items():
            msgs = self._raw_messages(addr)
            for raw, m in msgs[self.seen.get(addr, 0):]:
                self._record(addr, name, m, masks)
                self.raws.append(raw)
            self.seen[addr] = len(msgs)

    def _record(self, addr: str, name: str, m, masks: dict[str, str]) -> None:
        part = m.get_body(preferencelist=("plain",))
        flowed = part.get_param("format") == "flowed"
        # A flowed part's lines as they go, without the marks of the format: a soft break's space
        # at the end, which no reader shows, and the space stuffed before a line that begins with
        # a space, ">" or "From ", which a reader of the format takes off (the To line says which).
        plain = part.get_content()
        if flowed:
            plain = "\n".join((line[1:] if line.startswith(" ") else line).rstrip(" ") for line in plain.split("\n"))
        html = m.get_body(preferencelist=("html",)) if m.is_multipart() else None
        html_text = html_to_text(html.get_content()) if html is not None else None
        text_of = lambda s: _mask(s, masks) if s is not None else None  # noqa: E731
        self.mails.append((addr, m["X-PBEM-Kind"], text_of(plain), text_of(html_text)))
        if html is not None:
            self.pages.append((addr, m["X-PBEM-Kind"], plain, html.get_content()))
        self.messages.append(m)
        text_kind = "Text: format=flowed" if flowed else "Text: fixed"
        self.lines += [RULE, f"To: {name} <{addr}>    Kind: {m['X-PBEM-Kind']}    {text_kind}",
                       f"Subject: {_mask(str(m['Subject']), masks)}"]
        # What a mail the reader follows says of its list (RFC 2919, RFC 2369).
        self.lines += [f"{field}: {_mask(str(m[field]), masks)}" for field in ("List-Id", "List-Unsubscribe")
                       if m[field]] + [""]
        self.lines += text_of(plain).rstrip("\n").splitlines()
        if html is not None:
            self.lines += ["", "-" * 30 + " HTML part, as text " + "-" * 28, ""]
            shown = html_to_text(_tables_laid_out(html.get_content()))
            self.lines += _as_shown(text_of(shown).rstrip("\n").splitlines())
        for calendar in (p for p in m.walk() if p.get_content_type() == "text/calendar"):
            first = next(p for p in m.walk() if not p.is_multipart()).get_content_type()
            ics = calendar.get_content().replace("\r\n", "\n")
            self.calendars.append((addr, m["X-PBEM-Kind"], first, ics))
            name = calendar.get_filename() or ""
            label = f" text/calendar part ({name}) "
            self.lines += ["", "-" * 26 + label + "-" * (WIDTH - 26 - len(label)), ""]
            self.lines += _calendar_lines(ics)
        self.lines.append("")

    def step(self, label: str) -> None:
        assert len(f"# Mon 01 Dec 09:00 UTC - {label}") <= WIDTH, label
        self.lines += ["", "#" * WIDTH, f"# {self.now:%a %d %b %H:%M} UTC - {label}", "#" * WIDTH, ""]

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines).strip("\n") + "\n"


# What a transcript shows of a calendar part: what a calendar program does with it and to which
# entry. Its UID and DTSTAMP are left out: the UID carries the install's random id.
_SHOWN = ("METHOD", "SUMMARY", "DTSTART", "SEQUENCE", "STATUS")


def _calendar_lines(ics: str) -> list[str]:
    lines: list[str] = []
    for line in ics.rstrip("\n").split("\n"):  # unfolded (RFC 5545 section 3.1)
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += line[1:]
        else:
            lines.append(line)
    return [line for line in lines if line.partition(":")[0].partition(";")[0] in _SHOWN]


def _rewrapped(text: str, width: int = 70) -> list[str]:
    """A mail's text as a client quotes it rewrapped: each paragraph of prose refilled to `width`,
    a paragraph with an indented line (a table, an example) kept line by line."""
    lines: list[str] = []
    for block in text.rstrip("\n").split("\n\n"):
        rows = block.split("\n")
        if any(row.startswith(" ") for row in rows):
            lines += [part for row in rows for part in (textwrap.wrap(row, width, break_long_words=False) or [""])]
        else:
            lines += textwrap.wrap(" ".join(rows), width, break_long_words=False) or [""]
        lines.append("")
    return lines[:-1]


def _flowed(line: str, width: int = 72) -> str:
    """A line as a flowing client sends it: cut at spaces to `width` columns, each cut marked by
    the space left at the end of the line (RFC 3676)."""
    if len(line) <= width or line.startswith(">"):
        return line
    return textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False).replace("\n", " \n")


def _mask(text: str, masks: dict[str, str]) -> str:
    for secret, label in masks.items():
        text = text.replace(secret, label)
    return text


# -- the scenarios -------------------------------------------------------------------------
GEORGE, BILL = "george@example.test", "bill@example.test"
FAN = "fan@example.test"
STEWARD = "steward@example.test"  # the GM's admin (gm.admins), in the takeover scenario
ANN, BOB, CY, DI = "ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"
CAROL = "carol@example.test"


def matchplay(t: Transcript) -> None:
    t.new_game("matchplay", "m1", [("George", GEORGE), ("Bill", BILL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "1")
    t.wait(hours=1)
    t.send(GEORGE, "HELP", "m1")
    # Refused above a quote of the welcome: the error says what was read and what was skipped.
    t.send(GEORGE, "PLAY 4 4 9\nSPECIAL GREEN+1 HOLE 2\n\nOn Tue, 1 Dec 2026 at 09:00, Golf GM\n"
           "<gm@example.test> wrote:\n> Reply to this mail with your orders, for example:\n>\n"
           ">     PLAY 4 4 5\n", "m1")
    # Thunderbird's default: format=flowed, a long press wrapped at 72 columns, and a sign-off.
    t.send(GEORGE, "Play: 4, 4, 5.\nSPECIAL BLUE-1 HOLE 2\nPRESS Good luck, Bill. I hear the wind is going to "
           "pick up on the back nine by the afternoon, so bring a spare sleeve of balls.\n\nCheers,\nGeorge",
           "m1", flowed=True)
    t.send(BILL, "PRESS Good luck, George. May the best putter win.", "m1")
    # A spectator asks to watch and confirms: the reports of the turns come with List-Id and a
    # List-Unsubscribe, which the spectator's mail program mails after turn 2, as it is.
    t.players[FAN] = "Fan"
    t.spectators.add(FAN)
    t.wait(hours=1)
    t.send(FAN, "OBSERVE m1", "", subject="Can I watch?", to=GM)
    t.reply(FAN)
    t.wait(hours=2)
    t.send(BILL, "PLAY 5 3 4\nSPECIAL RED+1 HOLE 1", "m1")
    t.send(GEORGE, "STATUS", "m1")
    # Turn 2: George orders, Bill stays silent: a reminder, then the deadline plays for him.
    t.send(GEORGE, "PLAY 5 3 4\nSPECIAL BLUE+1 HOLE 4\nSTATUS", "m1")  # one answer: the ack, the status below
    t.wait(hours=37)
    t.process("A pass twelve hours before the deadline")
    t.wait(hours=12)
    t.process("A pass after the deadline")
    t.send(BILL, "HISTORY", "m1")
    t.unsubscribe(FAN)
    rng = random.Random(7)
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    for _ in range(8):
        state = t.state("m1")
        if state.result() is not None:
            break
        for seat, addr in ((0, GEORGE), (1, BILL)):
            if seat in t.state("m1").to_move():
                t.wait(hours=2)
                t.send(addr, str(module.random_orders(t.state("m1"), seat, rng)), "m1")
    _league_absence(t)


def _league_absence(t: Transcript) -> None:
    """A league (CONTRACT section 10): George answers its welcome, before round 1, with the days
    he is away, and round 1's deadline moves past them."""
    opens = t.now + timedelta(days=3)
    (t.root / "winter.yaml").write_text(
        f"id: winter\nname: Winter League\ngame: matchplay\ncourse: parkland\nplayers:\n"
        f"  - George <{GEORGE}>\n  - Bill <{BILL}>\nstart: {opens:%Y-%m-%dT%H:%M:%SZ}\nround_length: 7d\n"
        "deadline: 48h\nformat: round-robin\nabsence_days: 10\n")
    t.step("The GM: pbem league create winter.yaml")
    t.pbem("league", "create", str(t.root / "winter.yaml"))
    t.collect()
    t.wait(hours=2)
    first, last = (opens + timedelta(days=1)).date(), (opens + timedelta(days=3)).date()
    t.reply(GEORGE, f"SET ABSENCE {first} TO {last}\n\nThanks,\nGeorge", quote=True,
            mail=next(m for m in t._messages(GEORGE) if m["X-PBEM-League"] == "winter"))
    t.wait(days=3)
    # A league's game is seeded at random when its round opens; here, as in every scenario, openly.
    from pbem.games.rng import seed_from_int
    from pbem.league import season
    drawn = season.new_seed
    season.new_seed = lambda: seed_from_int(9)
    try:
        t.process("Round 1 of the league opens")
    finally:
        season.new_seed = drawn


def _past_the_deadline(t: Transcript) -> None:
    """A two-day deadline runs out: a pass twelve hours before it (the reminder), one after it."""
    t.wait(hours=36)
    t.process("A pass twelve hours before the deadline")
    t.wait(hours=13)
    t.process("A pass after the deadline")


def _play_cards(t: Transcript, game_id: str, module_name: str, seats: list[str], seed: int,
                limit: int = 400) -> None:
    module = __import__(f"pbem.games.{module_name}", fromlist=["random_orders"])
    rng = random.Random(seed)
    for _ in range(limit):
        state = t.state(game_id)
        if state.result() is not None:
            return
        seat = min(state.to_move())
        t.wait(minutes=30)
        t.send(seats[seat], str(module.random_orders(state, seat, rng)), game_id)
    raise RuntimeError(f"{game_id} did not end")


def golfdeck(t: Transcript) -> None:
    seats = [ANN, BOB, CY]
    t.new_game("golfdeck", "d1", [("Ann", ANN), ("Bob", BOB), ("Cy", CY)],
               "--seed", "11", "--option", "holes=2", "--deadline", "2d")
    t.wait(hours=1)
    t.send(ANN, "HELP", "d1")
    t.send(ANN, "REVEAL 1 1", "d1")
    t.send(ANN, "REVEAL 1 5\nSTATUS\nHISTORY\nHELP", "d1")  # one answer, all four in it
    t.send(BOB, "REVEAL 2 6", "d1")
    t.send(CY, "Hi all,\n\nPRESS\nHello both. Short game today.\n\nSee you on the green!\n\n-- \nCy", "d1")
    _past_the_deadline(t)
    t.send(BOB, "STATUS", "d1")
    state = t.state("d1")
    seat = min(state.to_move())
    t.send(seats[seat], "DRAW STOCK", "d1")
    _play_cards(t, "d1", "golfdeck", seats, seed=11)
    t.send(ANN, "HISTORY", "d1")


def golf(t: Transcript) -> None:
    seats = [ANN, BOB]
    t.new_game("golf", "g1", [("Ann", ANN), ("Bob", BOB)],
               "--seed", "12", "--option", "holes=2", "--option", "ending=knock",
               "--option", "peek=paid", "--deadline", "2d")
    t.wait(hours=1)
    t.send(BOB, "HELP", "g1")
    state = t.state("g1")
    seat = min(state.to_move())
    t.send(seats[seat], "DRAW DISCARD 7", "g1")
    t.send(seats[seat], "DRAW STOCK IF <= 4 KEEP 1 ELSE DISCARD", "g1")
    t.send(seats[1 - seat], "PRESS Nice draw.\nHISTORY", "g1")
    _past_the_deadline(t)
    t.send(ANN, "STATUS", "g1")
    _play_cards(t, "g1", "golf", seats, seed=12)
    t.send(BOB, "HISTORY", "g1")


def dicegolf(t: Transcript) -> None:
    """Two players: Ann answers by hand (a wrong entry, a reminder and a missed deadline among
    it), Bob sets POLICY BEST in his first mail and plays no more."""
    t.new_game("dicegolf", "dg1", [("Ann", ANN), ("Bob", BOB)], "--seed", "5", "--deadline", "2d")
    t.wait(hours=1)
    t.send(BOB, "POLICY BEST", "dg1")
    t.send(ANN, "HELP", "dg1")
    t.send(ANN, "ENTER 13", "dg1")
    t.send(BOB, "PRESS Your dice, Ann: mine are on autopilot.\nSTATUS", "dg1")
    _answer(t, "dg1", ANN, lowest=True, times=3)
    t.send(ANN, "STATUS", "dg1")
    _past_the_deadline(t)
    _answer(t, "dg1", ANN, lowest=False, times=40)
    t.send(ANN, "ENTER SUM", "dg1")  # the game is over: refused, nothing changes
    t.send(ANN, "HISTORY", "dg1")


def _answer(t: Transcript, game_id: str, addr: str, lowest: bool, times: int) -> None:
    """Answer the tosses that wait for seat 0 by hand: the lowest or the highest entry."""
    for _ in range(times):
        state = t.state(game_id)
        if state.result() is not None or 0 not in state.to_move():
            return
        choices = state.choices(0)
        t.wait(minutes=30)
        t.send(addr, (choices[-1] if lowest else choices[0])["order"], game_id)


def onpar(t: Transcript) -> None:
    """Three players over two holes: an illegal shot, a trap (its victim told at once), a press,
    a reminder and a missed deadline, then random legal play to the end."""
    seats = [ANN, BOB, CY]
    t.new_game("onpar", "op1", [("Ann", ANN), ("Bob", BOB), ("Cy", CY)],
               "--seed", "1", "--option", "holes=1", "--deadline", "2d")  # a seed that deals a trap early
    t.wait(hours=1)
    t.send(ANN, "HELP", "op1")
    t.send(ANN, "SHOT P4", "op1")  # a putter off The Green
    _onpar_moves(t, seats, 2)
    t.send(CY, "PRESS Fore!\nSTATUS", "op1")
    state = t.state("op1")
    seat = min(state.to_move())
    trap = next((c["order"] for c in state.view(seat)["choices"] if c["order"].startswith("TRAP")), None)
    if trap:
        t.send(seats[seat], trap, "op1")
    t.send(BOB, "STATUS", "op1")
    _past_the_deadline(t)
    _play_defaults(t, "op1", dict(enumerate(seats)))  # then the longest legal shot, as the GM would
    t.send(CY, "HISTORY", "op1")


def _play_defaults(t: Transcript, game_id: str, seats: dict[int, str]) -> None:
    """Every player's move the default order, half an hour apart, to the end of the game."""
    for _ in range(200):
        state = t.state(game_id)
        if state.result() is not None:
            return
        seat = min(state.to_move())
        t.wait(minutes=30)
        t.send(seats[seat], str(state.default_orders(seat)), game_id)
    raise RuntimeError(f"{game_id} did not end")


def _onpar_moves(t: Transcript, seats: list[str], moves: int) -> None:
    module = __import__("pbem.games.onpar", fromlist=["random_orders"])
    rng = random.Random(7)
    for _ in range(moves):
        state = t.state("op1")
        seat = min(state.to_move())
        t.wait(minutes=30)
        t.send(seats[seat], str(module.random_orders(state, seat, rng)), "op1")


def robots(t: Transcript) -> None:
    """On Par with a robot beside two players (CONTRACT section 12): the robot's moves as the
    players read them, a press that goes to the human only, a silent player's move played by
    the strong robot at the deadline (nmr=robot), then the GM handing that seat to a robot."""
    seats = {0: ANN, 2: BOB}
    t.new_game("onpar", "rb1", [("Ann", ANN), ("Caddie", "robot:strong"), ("Bob", BOB)],
               "--seed", "5", "--option", "holes=1", "--option", "nmr=robot", "--deadline", "2d")
    t.wait(hours=1)
    t.send(ANN, "HELP", "rb1")
    t.send(BOB, "PRESS Shall we let the robot win?", "rb1")
    state = t.state("rb1")
    seat = min(state.to_move())
    t.send(seats[seat], "SHOT P4", "rb1")  # a putter off The Green
    t.send(seats[seat], str(state.default_orders(seat)), "rb1")
    t.send(ANN, "STATUS", "rb1")
    _past_the_deadline(t)
    t.step("The GM: pbem gm REPLACE rb1 bob@example.test robot")
    t.pbem("gm", "REPLACE", "rb1", BOB, "robot")
    t.collect()
    _play_defaults(t, "rb1", seats)
    t.send(ANN, "HISTORY", "rb1")
    _robot_ends_the_hole(t)


def _robot_ends_the_hole(t: Transcript) -> None:
    """Golfdeck, Ann against an easy robot, one hole that ends on the robot's draw: Ann's last
    mail (the result) tells her that draw before the hole's report (CONTRACT section 5)."""
    t.new_game("golfdeck", "rb2", [("Ann", ANN), ("Caddie", "robot:easy")],
               "--seed", "12", "--option", "holes=1", "--deadline", "2d")
    _play_cards(t, "rb2", "golfdeck", [ANN], seed=12)


def rollback(t: Transcript) -> None:
    """MatchPlay with the GM's rollbacks (CONTRACT section 13): Bill's orders went astray and the
    deadline played for him, so the GM rolls the turn back and both order again; at the end the
    finished match is rolled back too, and its last turn played again. George has his deadlines
    as calendar entries (SET CALENDAR ON): a rollback moves them."""
    t.new_game("matchplay", "rb1", [("George", GEORGE), ("Bill", BILL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "2")
    t.wait(hours=1)
    t.send(GEORGE, "HELP", "rb1")
    t.send(GEORGE, "SET CALENDAR ON", "rb1")  # George's deadlines come as calendar entries too
    t.send(GEORGE, "PLAY 4 4 9", "rb1")
    t.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2", "rb1")
    t.send(BILL, "PRESS My orders are on their way.", "rb1")
    _past_the_deadline(t)
    t.wait(hours=1)
    t.step("The GM: pbem gm ROLLBACK rb1")
    t.pbem("gm", "ROLLBACK", "rb1")
    t.collect()
    t.wait(hours=1)
    t.send(BILL, "PLAY 5 3 4\nSPECIAL RED+1 HOLE 1", "rb1")
    t.send(GEORGE, "STATUS", "rb1")
    t.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2", "rb1")
    rng = random.Random(3)
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    for _ in range(8):
        if t.state("rb1").result() is not None:
            break
        for seat, addr in ((0, GEORGE), (1, BILL)):
            if seat in t.state("rb1").to_move():
                t.wait(hours=2)
                t.send(addr, str(module.random_orders(t.state("rb1"), seat, rng)), "rb1")
    t.wait(hours=2)
    t.step("The GM: pbem gm ROLLBACK rb1 (the finished match)")
    t.pbem("gm", "ROLLBACK", "rb1")
    t.collect()
    for seat, addr in ((0, GEORGE), (1, BILL)):
        t.wait(hours=2)
        t.send(addr, str(t.state("rb1").default_orders(seat)), "rb1")
    t.send(BILL, "HISTORY", "rb1")


def digest(t: Transcript) -> None:
    """A digest day (CONTRACT section 14): George plays two matches and takes the mail that asks
    nothing of him once a day, at 18:00 in Paris; Fan watches one of them with a digest too, and
    turns it off with the digest's unsubscribe button. Whatever asks something of George (the
    turn he owes, an error, an answer, a press, a reminder) comes at once."""
    t.new_game("matchplay", "d1", [("George", GEORGE), ("Bill", BILL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "4")
    t.new_game("matchplay", "d2", [("George", GEORGE), ("Ann", ANN)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "5")
    t.players[FAN] = "Fan"
    t.spectators.add(FAN)
    t.wait(hours=1)
    t.send(GEORGE, "HELP", "d1")
    t.send(GEORGE, "SET TIMEZONE Europe/Paris\nSET DIGEST DAILY", "d1")
    t.send(FAN, "OBSERVE d1", "", subject="Can I watch?", to=GM)
    t.reply(FAN)
    t.reply(FAN, "Set digest: daily 20:00.\n\nSent from my iPhone")
    t.wait(hours=1)
    t.send(GEORGE, "PLAY 3 5 4", "d1")
    t.send(BILL, "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 3", "d1")  # the turn George owes next comes at once
    t.send(BILL, "PRESS Well played. I may not see this through.", "d1")
    t.wait(hours=1)
    welcome = next(m for m in t._messages(GEORGE) if m["X-PBEM-Game"] == "d2")
    t.reply(GEORGE, "PLAY 4 4 9", mail=welcome)  # refused at once
    t.reply(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2", mail=welcome)
    t.send(ANN, "PLAY 3 5 4", "d2")
    t.wait(hours=1)
    t.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 4", "d1")
    t.send(BILL, "RESIGN", "d1")  # the result asks nothing of George: it waits for his digest
    t.wait(hours=4)
    t.process("A pass at 17:00 UTC, 18:00 in Paris: George's digest")
    t.wait(hours=3)
    t.process("A pass at 20:00 UTC: Fan's digest")
    t.unsubscribe(FAN)
    t.wait(hours=16)
    t.reply(GEORGE, "STATUS", mail=welcome)
    t.send(ANN, "HISTORY", "d2")
    t.wait(hours=12)
    t.process("12 hours before d2's deadline: the reminders, at once")
    t.wait(hours=12)
    t.process("A pass after d2's deadline: its report, at once")


def tables(t: Transcript) -> None:
    """An open table (CONTRACT section 13): Ann asks what is open and joins; Bob joins by the
    game's name, leaves and joins again; Cy's seat fills it, and the game starts: a short card
    game with every kind of mail, as any other game. (A table's game is seeded at random when it
    starts; here, as in every scenario, by an open seed.)"""
    from pbem.games.rng import seed_from_int
    from pbem.tables import start
    drawn = start.new_seed
    start.new_seed = lambda: seed_from_int(5)
    try:
        _table_game(t)
    finally:
        start.new_seed = drawn


def _table_game(t: Transcript) -> None:
    for name, addr in (("Ann", ANN), ("Bob", BOB), ("Cy", CY), ("Di", DI)):
        t.players[addr] = name
    t.step("The GM: pbem table open golfdeck --seats 3 ...")
    t.pbem("table", "open", "golfdeck", "--seats", "3", "--deadline", "2d", "--option", "holes=1")
    t.wait(hours=1)
    t.send(ANN, "LIST", "", subject="Which games are open?", to=GM)
    t.send(ANN, "JOIN table-1", "", subject="A seat, please", to=GM)
    t.reply(ANN)
    t.wait(hours=1)
    t.send(BOB, "JOIN golfdeck", "", subject="join", to=GM)
    t.reply(BOB, "Count me in.")
    # Di asks, thinks better of it and says so above the quoted question: no seat is taken.
    t.send(DI, "JOIN table-1", "", subject="join", to=GM)
    t.reply(DI, "LEAVE table-1\n\nSorry, I can't make it after all.\nDi", quote=True)
    t.wait(hours=2)
    t.reply(BOB, "LEAVE table-1")
    t.send(BOB, "JOIN table-1", "", subject="join again", to=GM)
    t.reply(BOB)
    t.wait(hours=1)
    t.send(CY, "JOIN table-1", "", subject="join", to=GM)
    t.reply(CY)
    seats = [ANN, BOB, CY]
    t.wait(hours=1)
    t.send(ANN, "HELP", "table-1")
    t.send(ANN, "REVEAL 1 1", "table-1")
    t.send(ANN, "REVEAL 1 5\nSTATUS", "table-1")
    t.send(BOB, "REVEAL 2 6", "table-1")
    t.send(CY, "PRESS Thanks for the game, both.", "table-1")
    _past_the_deadline(t)
    _play_cards(t, "table-1", "golfdeck", seats, seed=5)
    t.send(BOB, "HISTORY", "table-1")


def absences(t: Transcript) -> None:
    """Absence across two games (CONTRACT section 14): George plays Bill in m1 and Carol in m2.
    One mail about m1 sets his days away and AUTOABSENCE: both games' deadlines move and Bill and
    Carol are told; a line that asks for more than a year's days is refused; he comes back early
    (SET ABSENCE OFF, from his phone, in m2's mail) and misses the deadlines: AUTOABSENCE takes a
    day in each game. He plays m1 out; in m2 he sends nothing, and after three days in a row the
    game's rule for missed deadlines plays for him."""
    t.players[CAROL] = "Carol"
    t.new_game("matchplay", "m1", [("George", GEORGE), ("Bill", BILL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "1")
    t.new_game("matchplay", "m2", [("George", GEORGE), ("Carol", CAROL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "2")
    t.wait(hours=1)
    t.send(GEORGE, "SET ABSENCE 2026-12-02 TO 2026-12-04\nSET AUTOABSENCE ON\n\nThanks,\nGeorge", "m1")
    t.wait(hours=1)
    t.send(GEORGE, "SET ABSENCE 2026-12-20 TO 2027-01-31", "m1")
    t.wait(hours=2)
    t.send(BILL, "HELP", "m1")
    t.send(BILL, "PLAY 4 4 5", "m1")
    t.send(CAROL, "PLAY 4 4 5", "m2")
    t.wait(days=2)
    m2 = next(m for m in t._messages(GEORGE) if m["X-PBEM-Game"] == "m2")
    t.send(GEORGE, "SET ABSENCE OFF\n\nSent from my iPhone", "m2", to=email.utils.parseaddr(m2["Reply-To"])[1])
    t.wait(hours=35, minutes=1)
    t.process("A pass after the deadlines, which George missed")
    t.wait(hours=3)
    t.send(GEORGE, "PLAY 4 4 5\nPRESS Back from the hills, Bill. Sorry for the wait.", "m1")
    rng = random.Random(3)
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    for _ in range(8):
        if t.state("m1").result() is not None:
            break
        for seat, addr in ((0, GEORGE), (1, BILL)):
            if seat in t.state("m1").to_move():
                t.wait(hours=1)
                t.send(addr, str(module.random_orders(t.state("m1"), seat, rng)), "m1")
    # m2 waits for George at its moved deadline, 2026-12-06 00:00 (a reminder went out at noon).
    for day in (6, 7, 8):
        t.now = datetime(2026, 12, day, 0, 1, tzinfo=UTC)
        t.process("A pass after m2's deadline" + (" (three days taken)" if day == 8 else ""))
    t.wait(hours=1)
    t.send(CAROL, "STATUS", "m2")
    t.send(CAROL, "HISTORY", "m2")


def takeover(t: Transcript) -> None:
    """MatchPlay with reminders and a takeover (CONTRACT section 14): Bill asks to be reminded
    three times before each deadline (a wrong time first); pbem is not running when one of them
    comes, so that one is not sent late. Bill then misses two deadlines in a row, and the game's
    option takeover_after=2 hands his seat to the strong robot: Bill, George and the GM's admin
    are told, and the robot plays Bill's turns at once, until Bill's own orders take the seat
    back."""
    config = t.root / "pbem.yaml"
    config.write_text(config.read_text().replace("  name: Golf GM\n", f"  name: Golf GM\n  admins: [{STEWARD}]\n"))
    t.new_game("matchplay", "tk1", [("George", GEORGE), ("Bill", BILL)],
               "--course", "445 345 434 543 434 454", "--deadline", "2d", "--seed", "3",
               "--option", "takeover_after=2")
    t.players[STEWARD] = "Steward"
    t.spectators.add(STEWARD)  # no seat, and no secret of theirs in any mail to mask
    t.wait(hours=1)
    t.send(GEORGE, "HELP", "tk1")
    t.send(BILL, "SET REMINDERS 24h 10m", "tk1")
    t.send(BILL, "Set reminders: 24h, 4h and 1h.\n\nThanks,\nBill", "tk1")
    t.send(GEORGE, "PLAY 4 4 5\nSPECIAL BLUE-1 HOLE 2", "tk1")
    t.wait(hours=23)  # the deadline is Thu 09:00
    t.process("24 hours before the deadline: Bill's first reminder")
    t.wait(hours=22)
    t.process("Two hours before: pbem was not running at the 4h one")
    t.wait(hours=1)
    t.process("An hour before the deadline: the last reminder")
    t.wait(hours=1, seconds=1)
    t.process("A pass after the deadline: Bill's first miss")
    rng = random.Random(5)
    module = __import__("pbem.games.matchplay", fromlist=["random_orders"])
    t.wait(hours=3)
    t.send(GEORGE, str(module.random_orders(t.state("tk1"), 0, rng)), "tk1")
    t.wait(days=2)  # no pass runs at Bill's reminder times of turn 2
    t.process("After the next deadline: Bill's second miss in a row")
    t.send(GEORGE, "STATUS", "tk1")  # the robot has sent Bill's orders for turn 3 already
    t.wait(hours=3)
    t.send(GEORGE, str(module.random_orders(t.state("tk1"), 0, rng)), "tk1")
    t.wait(hours=5)
    t.send(BILL, str(module.random_orders(t.state("tk1"), 1, rng)) + "\nPRESS Sorry, I was away: I am back now.\n"
           "STATUS\n\nBill", "tk1")
    for _ in range(4):  # both by hand to the end
        if t.state("tk1").result() is not None:
            break
        for seat, addr in ((0, GEORGE), (1, BILL)):
            if seat in t.state("tk1").to_move():
                t.wait(hours=1)
                t.send(addr, str(module.random_orders(t.state("tk1"), seat, rng)), "tk1")
    t.send(GEORGE, "HISTORY", "tk1")


# The scenarios whose GM names a person to write to (`gm.contact`); the others name nobody.
CONTACTS = {"matchplay": "jane.steward@example.test"}

SCENARIOS = {"matchplay": matchplay, "golfdeck": golfdeck, "golf": golf, "dicegolf": dicegolf, "onpar": onpar,
             "robots": robots, "rollback": rollback, "tables": tables, "absences": absences, "takeover": takeover,
             "digest": digest}


def play(name: str) -> Transcript:
    with tempfile.TemporaryDirectory(prefix="pbem-transcript-") as folder:
        t = Transcript(Path(folder), contact=CONTACTS.get(name))
        SCENARIOS[name](t)
        return t
