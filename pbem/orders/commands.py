"""The commands every game understands, and the reading of a whole message into commands.

A message is read in two steps: first the lines that say which game and who is writing
(`GAME`, `PASSWORD`, `TURN`), then, once the game is known, the rest with the game's grammar.
Parsing only parses; whether an order is allowed is the engine's business.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from dataclasses import dataclass, field
from collections.abc import Callable

from pbem.games.base import Resign
from pbem.games.errors import AmbiguousOrder, InvalidOrder, OrderError
from pbem.clock.schedule import (
    REMINDERS_EXAMPLE, ZONE_EXAMPLES, BadReminders, canonical_zone, read_reminders, reminder_words,
)
from pbem.orders.numbers import MAX_DIGITS, read_number
from pbem.orders.text import MAX_LINE_CHARS, QUOTE_CHARS, LongLine
from pbem.mail.clean import quoted

Line = tuple[int, str]


class UnknownCommand(InvalidOrder):
    """A line whose first word is no command at all (a greeting, a signature, chatter)."""


@dataclass(frozen=True)
class Help:
    def __str__(self) -> str:
        return "HELP"


@dataclass(frozen=True)
class Status:
    def __str__(self) -> str:
        return "STATUS"


@dataclass(frozen=True)
class History:
    def __str__(self) -> str:
        return "HISTORY"


@dataclass(frozen=True)
class Press:
    text: str

    def __str__(self) -> str:
        return f"PRESS {self.text}"


@dataclass(frozen=True)
class SetAbsence:
    """A player's days away (the first and the last): their deadlines inside move after."""
    first: date
    last: date

    def __str__(self) -> str:
        return f"SET ABSENCE {self.first.isoformat()} TO {self.last.isoformat()}"


@dataclass(frozen=True)
class AbsenceOff:
    """SET ABSENCE OFF: the player is back; their absence ends now."""

    def __str__(self) -> str:
        return "SET ABSENCE OFF"


@dataclass(frozen=True)
class SetAutoAbsence:
    """SET AUTOABSENCE ON|OFF: a missed deadline takes a day of the player's absence allowance."""
    on: bool

    def __str__(self) -> str:
        return f"SET AUTOABSENCE {'ON' if self.on else 'OFF'}"


# The commands the absences' layer keeps, in a game's mail or outside one.
ABSENCE_COMMANDS = (SetAbsence, AbsenceOff, SetAutoAbsence)


@dataclass(frozen=True)
class Observe:
    """A spectator's request to get a game's or a league's public mail (`target` None: the game
    the message names)."""
    target: str | None

    def __str__(self) -> str:
        return f"OBSERVE {self.target}" if self.target else "OBSERVE"


@dataclass(frozen=True)
class Unobserve:
    target: str | None

    def __str__(self) -> str:
        return f"UNOBSERVE {self.target}" if self.target else "UNOBSERVE"


SPECTATOR_COMMANDS = (Observe, Unobserve)
# A game's or a league's id, as the GM accepts them; a copy of the subject's "[id]" is read too.
_WATCHED = re.compile(r"\[?([A-Za-z0-9_-]{1,40})\]?")


@dataclass(frozen=True)
class SetTimezone:
    zone: str

    def __str__(self) -> str:
        return f"SET TIMEZONE {self.zone}"


@dataclass(frozen=True)
class SetCalendar:
    """SET CALENDAR ON|OFF: a text/calendar part with every mail that states a deadline."""
    on: bool

    def __str__(self) -> str:
        return f"SET CALENDAR {'ON' if self.on else 'OFF'}"


@dataclass(frozen=True)
class SetReminders:
    """SET REMINDERS <duration> ... | OFF: when before each deadline the player is reminded, in
    every game of theirs (an empty tuple: never)."""
    befores: tuple[timedelta, ...]

    def __str__(self) -> str:
        return "SET REMINDERS " + (" ".join(reminder_words((b,)) for b in self.befores) or "OFF")


@dataclass(frozen=True)
class SetDigest:
    """SET DIGEST DAILY [<HH:MM>] | SET DIGEST OFF: the mail that asks nothing of the reader,
    gathered into one mail a day at `at` (the reader's time), or (`at` None) one by one again."""
    at: str | None

    def __str__(self) -> str:
        return f"SET DIGEST DAILY {self.at}" if self.at else "SET DIGEST OFF"


@dataclass
class Order:
    """One command read from the mail, with the lines it came from (`parts` maps a part of the
    command, such as "cards" or "special", to its line, so an engine error lands on the right one)."""
    command: object
    lines: list[Line]
    parts: dict[str, Line] = field(default_factory=dict)

    def line_for(self, part: str | None) -> Line:
        if part and part in self.parts:
            return self.parts[part]
        return self.lines[0]


@dataclass
class Heading:
    """What the message says about itself: the game, the secret, the turn."""
    game_id: str | None = None
    password: str | None = None
    turn: int | None = None
    body: list[Line] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)


# The colon and the spaces around it never compete for the same characters (linear).
# ISO dates only: an absence names days, and only one spelling of a day is unambiguous.
_ABSENCE = re.compile(r"^SET\s+ABSENCE\s+(\S+)\s+TO\s+(\S+)$", re.I)
ABSENCE_EXAMPLE = "SET ABSENCE 2026-12-20 TO 2026-12-27"
_ABSENCE_OFF = re.compile(r"^SET\s+ABSENCE\s+OFF$", re.I)
_AUTOABSENCE = re.compile(r"^SET\s+AUTOABSENCE(?:\s+(\S+))?$", re.I)
_CALENDAR = re.compile(r"^SET\s+CALENDAR(?:\s+(\S+))?$", re.I)
CALENDAR_EXAMPLE = "SET CALENDAR ON"
_DIGEST = re.compile(r"^SET\s+DIGEST(?:\s+(\S+))?(?:\s+(\S+))?$", re.I)
_CLOCK_TIME = re.compile(r"([01]?[0-9]|2[0-3])[:.h]([0-5][0-9])", re.I)
DIGEST_EXAMPLE = "SET DIGEST DAILY 18:00"
DIGEST_DEFAULT = "18:00"
DIGEST_RULE = ("SET DIGEST DAILY, with a time of day HH:MM (24-hour, your time zone) or none for 18:00; "
               "or SET DIGEST OFF")
_TIMEZONE = re.compile(r"^(?:SET\s+)?(?:TIMEZONE|TIME\s+ZONE|TZ)(?:\s*:\s+|\s+)(\S+)$", re.I)
TIMEZONE_EXAMPLE = "SET TIMEZONE Europe/Paris"
# SET REMINDERS and its times, split at spaces and commas ("24h, 4h and 1h" reads too).
_REMINDERS = re.compile(r"^SET\s+REMINDERS?\b\s*:?(.*)$", re.I)
_REMINDER_WORDS = re.compile(r"[\s,]+|\band\b", re.I)


def first_word(line: str) -> tuple[str, str]:
    """The line's first word in capitals, and the rest of it ("" and "" for an empty line)."""
    parts = line.split(None, 1)
    if not parts:
        return "", ""
    return parts[0].upper(), parts[1].strip() if len(parts) > 1 else ""


def read_heading(lines: list[Line]) -> Heading:
    """Take out GAME, PASSWORD and TURN; everything else stays in `body` for the grammar."""
    h = Heading()
    for lineno, line in lines:
        word, rest = ("", "") if isinstance(line, LongLine) else first_word(line)
        if word == "GAME":
            _set_once(h, "game_id", rest, lineno, line, "GAME <id>, e.g. GAME smoke")
        # A bare PASS is On Par's order; PASS with a value is the password, as it always was.
        elif word in ("PASSWORD", "SECRET") or (word == "PASS" and rest.strip()):
            _set_once(h, "password", rest, lineno, line, "PASSWORD <your secret>")
        elif word == "TURN":
            turn = read_number(rest)
            if turn is None:
                # No number is suggested: the turn the orders were meant for is the player's to
                # say, and the open turn's number would make them that turn's orders unread.
                h.errors.append(InvalidOrder(
                    f"TURN takes the number of the turn these orders are for, in the digits 0-9 (at most "
                    f"{MAX_DIGITS})", line=line, lineno=lineno))
            else:
                _set_once(h, "turn", turn, lineno, line, "TURN <n>")
        else:
            h.body.append((lineno, line))
    return h


def _set_once(h: Heading, attr: str, value, lineno: int, line: str, hint: str) -> None:
    if value in ("", None):
        h.errors.append(InvalidOrder(f"{first_word(line)[0]} needs a value", line=line, lineno=lineno, hint=hint))
        return
    if getattr(h, attr) not in (None, value):
        h.errors.append(AmbiguousOrder(f"a second, different {first_word(line)[0]} line", line=line,
                                       lineno=lineno, hint="one per message"))
        return
    setattr(h, attr, value)


def read_generic(body: list[Line], breaks: dict[int, str] | None = None
                 ) -> tuple[list[Order], list[Line], list[OrderError]]:
    """Take out the commands every game has; return them, the lines left for the game, and the
    generic lines that were wrong. `breaks` says where blank lines and quotes were (see
    `text.Reading.breaks`): a bare PRESS line's text keeps its paragraphs and ends at a quote."""
    breaks = breaks or {}
    orders: list[Order] = []
    rest: list[Line] = []
    errors: list[OrderError] = []
    i = 0
    while i < len(body):
        lineno, line = body[i]
        if isinstance(line, LongLine):
            errors.append(too_long(line, lineno))
            i += 1
            continue
        word, arg = first_word(line)
        if word == "PRESS":
            if arg:
                orders.append(Order(Press(arg), [(lineno, line)]))
            else:
                end = _press_end(body, i, breaks)
                order, wrong = _bare_press(body[i:end], breaks)
                orders += [order] if order else []
                errors += wrong
                i = end
                continue
        elif _ABSENCE_OFF.match(line):
            orders.append(Order(AbsenceOff(), [(lineno, line)]))
        elif m_auto := _AUTOABSENCE.match(line):
            said = (m_auto.group(1) or "").upper()
            if said in ("ON", "OFF"):
                orders.append(Order(SetAutoAbsence(said == "ON"), [(lineno, line)]))
            else:
                errors.append(InvalidOrder("SET AUTOABSENCE takes ON or OFF", line=line, lineno=lineno,
                                           hint="SET AUTOABSENCE ON\nSET AUTOABSENCE OFF"))
        elif word == "SET" and arg.upper().startswith("ABSENCE"):
            found = _ABSENCE.match(line)
            try:
                first, last = (date.fromisoformat(found.group(1)), date.fromisoformat(found.group(2))) if found \
                    else (None, None)
            except ValueError:
                first = last = None
            if first is None or last is None or last < first:
                errors.append(InvalidOrder("SET ABSENCE takes two ISO dates, the first day away and the last, "
                                           "the second not before the first (or OFF, to end it now)",
                                           line=line, lineno=lineno, hint=ABSENCE_EXAMPLE))
            else:
                orders.append(Order(SetAbsence(first, last), [(lineno, line)]))
        elif m_calendar := _CALENDAR.match(line):
            said = (m_calendar.group(1) or "").upper()
            if said in ("ON", "OFF"):
                orders.append(Order(SetCalendar(said == "ON"), [(lineno, line)]))
            else:
                errors.append(InvalidOrder("SET CALENDAR takes ON or OFF", line=line, lineno=lineno,
                                           hint=f"{CALENDAR_EXAMPLE}\nSET CALENDAR OFF"))
        elif m_reminders := _REMINDERS.match(line):
            words = [w for w in _REMINDER_WORDS.split(m_reminders.group(1).strip().rstrip(".")) if w]
            try:
                orders.append(Order(SetReminders(read_reminders(words)), [(lineno, line)]))
            except BadReminders as e:
                errors.append(InvalidOrder(str(e), line=line, lineno=lineno,
                                           hint=f"{REMINDERS_EXAMPLE}\nSET REMINDERS OFF"))
        elif word == "SET" and arg.upper().startswith("DIGEST"):
            order, mistake = _digest_line(line, lineno)
            orders += [order] if order else []
            errors += [mistake] if mistake else []
        elif m_zone := _TIMEZONE.match(line):
            zone = m_zone.group(1)
            try:
                orders.append(Order(SetTimezone(canonical_zone(zone)), [(lineno, line)]))
            except ValueError:
                shown = zone if len(zone) <= QUOTE_CHARS else zone[:QUOTE_CHARS] + "\u2026"
                errors.append(InvalidOrder(f"unknown time zone {quoted(shown)}: use a name like {ZONE_EXAMPLES}",
                                           line=line, lineno=lineno, hint=TIMEZONE_EXAMPLE))
        elif word in ("OBSERVE", "UNOBSERVE"):
            order, mistake = _spectator_line(word, arg, lineno, line)
            orders += [order] if order else []
            errors += [mistake] if mistake else []
        elif word in ("HELP", "STATUS", "HISTORY", "RESIGN") and not arg:
            command = {"HELP": Help, "STATUS": Status, "HISTORY": History, "RESIGN": Resign}[word]()
            orders.append(Order(command, [(lineno, line)]))
        else:
            rest.append((lineno, line))
        i += 1
    return orders, rest, errors


def _digest_line(line: str, lineno: int) -> tuple[Order | None, OrderError | None]:
    """SET DIGEST DAILY [<HH:MM>] or SET DIGEST OFF (CONTRACT section 14)."""
    found = _DIGEST.match(line)
    how, when = ((found.group(1) or "").upper(), found.group(2)) if found else ("", None)
    if how == "OFF" and when is None:
        return Order(SetDigest(None), [(lineno, line)]), None
    clock = _CLOCK_TIME.fullmatch(when) if when else None
    if how == "DAILY" and (when is None or clock):
        at = f"{int(clock.group(1)):02d}:{clock.group(2)}" if clock else DIGEST_DEFAULT
        return Order(SetDigest(at), [(lineno, line)]), None
    why = "a time of day as HH:MM, from 00:00 to 23:59" if how == "DAILY" else "DAILY (with a time or none) or OFF"
    return None, InvalidOrder(f"SET DIGEST takes {why}", line=line, lineno=lineno, rule=DIGEST_RULE,
                              hint=f"{DIGEST_EXAMPLE}\nSET DIGEST OFF")


def _spectator_line(word: str, arg: str, lineno: int, line: str) -> tuple[Order | None, OrderError | None]:
    """OBSERVE or UNOBSERVE, with the id of a game or a league, or bare (the message's game)."""
    command = Observe if word == "OBSERVE" else Unobserve
    found = _WATCHED.fullmatch(arg) if arg else None
    if arg and not found:
        return None, InvalidOrder(f"{word} takes the id of one game or league (letters, digits, - and _, at most "
                                  "40), as the subject of its mail shows it in brackets", line=line, lineno=lineno)
    return Order(command(found.group(1) if found else None), [(lineno, line)]), None


def _press_end(body: list[Line], start: int, breaks: dict[int, str]) -> int:
    """Where the text of the bare PRESS at `start` ends: at a quote, or with the message."""
    end = start + 1
    while end < len(body) and breaks.get(body[end][0]) != "quote":
        end += 1
    return end


def _bare_press(lines: list[Line], breaks: dict[int, str]) -> tuple[Order | None, list[OrderError]]:
    """A PRESS line alone, and the lines below it as the text, a blank line between paragraphs."""
    (lineno, line), text_lines = lines[0], lines[1:]
    if not text_lines:
        return None, [InvalidOrder("PRESS needs a message: on the same line, or on the lines below it",
                                   line=line, lineno=lineno, hint="PRESS Good luck!")]
    # An overlong line would reach the other players cut short: the sender fixes it.
    errors = [too_long(ln, no) for no, ln in text_lines if isinstance(ln, LongLine)]
    text: list[str] = []
    for no, ln in text_lines:
        if text and breaks.get(no) == "paragraph":
            text.append("")
        text.append(ln)
    return Order(Press("\n".join(text)), lines), errors


def drop_sign_off(text: str, name: str) -> str:
    """The press text without a last line that only signs it with the sender's name (or first
    name): the press mail signs it, once."""
    lines = text.rstrip("\n").split("\n")
    last = lines[-1].strip(" -\u2013\u2014~.,!").casefold()
    names = {name.strip().casefold(), *(word.casefold() for word in name.split()[:1])}
    if len(lines) > 1 and last and last in names:
        return "\n".join(lines[:-1]).rstrip("\n")
    return text


def too_long(line: LongLine, lineno: int) -> OrderError:
    """The error for a line too long to be read: it quotes only the start of the line."""
    return UnknownCommand(f"a line of {line.length:,} characters is no command (a command fits in "
                          f"{MAX_LINE_CHARS:,})", line=line, lineno=lineno,
                          hint="one command a line; break long press text into shorter lines")


def _without_signature(orders: list[Order], errors: list[OrderError]) -> list[OrderError]:
    """Unknown lines after the last command, set apart by a blank line, are a signature
    (a name, a phone number, a sign-off that lacks the `-- ` line): they are not orders."""
    if not orders:
        return errors
    last = max(no for o in orders for no, _ in o.lines)
    unknown = sorted(e.lineno for e in errors
                     if isinstance(e, UnknownCommand) and e.lineno is not None and e.lineno > last)
    tail_ok = all(isinstance(e, UnknownCommand) for e in errors if (e.lineno or 0) > last)
    if unknown and tail_ok and unknown[0] > last + 1:
        return [e for e in errors if (e.lineno or 0) <= last]
    return errors


Grammar = Callable[[list[Line]], tuple[list[Order], list[OrderError]]]


def read_body(body: list[Line], grammar: Grammar | None, breaks: dict[int, str] | None = None
              ) -> tuple[list[Order], list[OrderError]]:
    """All the commands of the message, and every line that could not be read (`breaks`: see
    `read_generic`)."""
    orders, rest, errors = read_generic(body, breaks)
    if grammar is not None:
        game_orders, game_errors = grammar(rest)
        orders += game_orders
        errors += game_errors
    else:
        errors += [UnknownCommand("not a command", line=ln, lineno=no,
                                  hint="name your game first: GAME <id> (or keep [<id>] in the subject)")
                   for no, ln in rest]
    errors = _without_signature(orders, errors)
    if any(isinstance(o.command, Resign) for o in orders) and len(orders) > 1:
        no, ln = next(o.lines[0] for o in orders if isinstance(o.command, Resign))
        errors.append(AmbiguousOrder("RESIGN cannot share a message with other commands", line=ln, lineno=no,
                                     hint="send RESIGN alone, once you are sure"))
    watching = [(o.lines[0], o.command) for o in orders if isinstance(o.command, SPECTATOR_COMMANDS)]
    if watching and len(watching) < len(orders):
        for (no, ln), command in watching:  # a spectator's request is answered apart, without a seat's secret
            errors.append(AmbiguousOrder(f"{str(command).split()[0]} goes in a mail of its own, with no "
                                         "other command beside it", line=ln, lineno=no,
                                         hint=str(command) if command.target else None))
    errors.sort(key=lambda e: e.lineno or 0)
    return orders, errors
