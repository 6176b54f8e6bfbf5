"""From the text of a player's mail to the lines that are read as commands.

Players reply from phones and webmail: the commands sit above a quote of the
GM's last mail, or between its quoted lines (an interleaved reply), with a
greeting before them, a signature and client boilerplate after them, and their
characters are whatever the keyboard produced (no-break spaces, typographic
minus signs, fullwidth digits). Quoted lines and the attribution line before
them are skipped and reading goes on after them; reading stops at a signature,
END, or an original message that is not quoted. A quoted old order is never
read, so it can never be applied again. `read_lines` also says what it skipped
and where it stopped, so that an answer to a message with no commands can say
why it found none.

The text is hostile input as well: the work is linear in the length of the
mail and bounded (so many lines, so many characters a line), and a line that
an error mail quotes back carries no control character.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import islice

__all__ = ["command_lines", "read_lines", "Reading", "Skipped", "normalise_line", "is_stop_line",
           "resembles_command", "subject_game_id", "LongLine", "STOPS", "MAX_LINE_CHARS", "MAX_LINES",
           "QUOTE_CHARS"]

# Every command is far shorter: a longer line is chatter (or an attack), never a command or a
# reply header. No more than this is ever normalised (NFKC can make 18 characters of one).
MAX_LINE_CHARS = 1_000
# Orders, a signature and a quoted header fit many times over; past this, reading stops.
MAX_LINES = 2_000
# How much of an overlong line an error mail quotes.
QUOTE_CHARS = 60

# Invisible characters that keyboards and clients slip in; U+00AD, U+200E and
# U+200F are invisible too, so a line with them reads the same without them.
_INVISIBLE_CHARS = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"
_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE_CHARS))
_DASHES = dict.fromkeys(map(ord, "\u2212\u2013\u2012\u2010\u2011\ufe63\uff0d"), "-")
# Control characters (C0 but the tab, DEL, C1), the line and paragraph separators, the bidi
# embeddings, overrides and isolates, and lone surrogates (no mail can carry them) become
# U+FFFD: visible in the error mail that quotes the line, and never part of a valid command.
# Deleting them instead could make an order of a line the player did not write as one.
_CONTROLS = dict.fromkeys(
    [*range(0x00, 0x09), *range(0x0A, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029,
     *range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0xD800, 0xE000)], "\ufffd")
_AFTER_NFKC = {**_DASHES, **_CONTROLS}
_SPACES = re.compile(r"\s+")
# The Unicode spaces (not the controls among `\s`, which must stay visible): a line is
# measured without its padding, so an indented or tab-aligned line is not taken for a long one.
_SPACING = " \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_BLANKS = re.compile(f"[{_SPACING}]+")
# A character that survives normalisation: exactly the spacing and the invisible characters
# do not (checked over all of Unicode by a test), so a line without one of these is blank.
_INK = re.compile(f"[^\n{_SPACING}{_INVISIBLE_CHARS}]")
# Squeezing the padding out of this much of a line shows whether it is too long, unless the
# line is nearly all padding (then all of it is squeezed).
_SQUEEZE_CHARS = 4 * MAX_LINE_CHARS

_I = re.IGNORECASE
# A reply header opens with "On" in the client's language and ends with a colon after the
# verb "wrote": (opening word, verb, whether only the colon may follow the verb). The ending
# is tested apart from the opening, so a long line is never scanned more than once.
_REPLY_HEADERS = [
    ("on", "wrote", True),
    ("le", "a écrit", True),
    ("am", "schrieb", False),
    ("el", "escribió", True),
    ("op", "schreef", False),
    ("il", "ha scritto", True),
    ("em", "escreveu", True),
]
_REPLY_RULES = [(re.compile(rf"{opener}\b", _I),
                 re.compile(rf"\b{verb}\Z" if last else rf"\b{verb}\b", _I),
                 len(verb) + 1 if last else None)
                for opener, verb, last in _REPLY_HEADERS]
_REPLY_OPENERS = re.compile(r"^(on|le|am|el|op|il|em)\s", _I)

# What ends the reading of a message, and how an answer names it.
STOPS = {
    "signature": "the signature",
    "end": "END",
    "original": "the original message",
    "forwarded": "the forwarded message",
    "footer": "the mail program's footer",
}

# Each pattern is linear: anchored at the start, and no two quantifiers can take the same
# characters (the one `.*` before a literal ending backtracks a character at a time).
_STOP_LINES = [
    (re.compile(r"^--$"), "signature"),
    # iOS turns a typed "--" into an em dash.
    (re.compile(r"^\u2014$"), "signature"),
    (re.compile(r"^end$", _I), "end"),
    (re.compile(r"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}$", _I),
     "original"),
    (re.compile(r"^_{10,}$"), "original"),
    (re.compile(r"^begin forwarded message\s*:?$", _I), "forwarded"),
    (re.compile(r"^-{2,}\s*forwarded message\s*-{2,}$", _I), "forwarded"),
    (re.compile(r"^sent from my\b", _I), "footer"),
    (re.compile(r"^sent from mail for windows\b", _I), "footer"),
    (re.compile(r"^get outlook for\b", _I), "footer"),
    (re.compile(r"^envoyé de mon\b", _I), "footer"),
    (re.compile(r"^von meinem\b.*\bgesendet$", _I), "footer"),
    (re.compile(r"^enviado desde mi\b", _I), "footer"),
]

# Thunderbird's attribution names no date: "Golf GM wrote:", "Golf GM <gm@host> schrieb:". Only
# the end of a line is looked at (the longest verb and its colon fit in it), and only a line
# that a quote follows is one: "PRESS As Bill wrote:" above a line of text is no attribution.
_ATTRIBUTION_END = re.compile(
    r"(?:^|\s)(?:wrote|schrieb|a écrit|escribió|schreef|ha scritto|escreveu)\s?:$", _I)
_ATTRIBUTION_TAIL = 24

# The words of the commands of every game, the GM's commands among them: a line with one of them
# (or one mistyped), or with a digit, resembles a command and is never taken for a greeting, so
# that a mistyped order is refused rather than dropped.
COMMAND_WORDS = frozenset({
    "PLAY", "SPECIAL", "REVEAL", "DRAW", "KEEP", "DISCARD", "FLIP", "KNOCK", "PEEK", "IF",
    "HELP", "STATUS", "HISTORY", "RESIGN", "PRESS", "SET", "TIMEZONE", "ZONE", "TZ",
    "GAME", "PASSWORD", "PASS", "SECRET", "TURN", "END", "ENTER", "POLICY", "SHOT", "TRAP",
    "EXTEND", "DEADLINE", "PAUSE", "RESUME", "PROCESS", "REPLACE", "ABANDON", "WITHDRAW", "ABSENCE",
    "OBSERVE", "UNOBSERVE", "NEWSECRET",
})
# Shorter words are only taken as they are: "Hi Ed" is no mistyped END.
_LONG_COMMAND_WORDS = sorted(word for word in COMMAND_WORDS if len(word) >= 4)
# "Hi George," or "Dear GM": a greeting is short.
GREETING_CHARS = 60
_WORD = re.compile(r"[^\W\d_]+")

# Outlook quotes the original under a block of "From:/Sent:/To:/Subject:".
_OUTLOOK_FROM = re.compile(r"^(from|von|de)\s*:", _I)
_OUTLOOK_NEXT = re.compile(r"^(sent|date|gesendet|datum|envoyé|enviado|enviado el|fecha)\s*:", _I)
_OUTLOOK_WINDOW = 4


class LongLine(str):
    """A line longer than MAX_LINE_CHARS: never a command. The text is only the (normalised)
    start of it and an ellipsis, what an error mail may quote; `length` is the whole line's."""

    length: int

    def __new__(cls, start: str, length: int) -> "LongLine":
        line = super().__new__(cls, f"{start}\u2026")
        line.length = length
        return line


def normalise_line(line: str) -> str:
    """One line as plain ASCII-ish text: the case is kept, spacing is not; control
    characters show as U+FFFD. Linear, but give it bounded lines (see `command_lines`)."""
    line = line.translate(_INVISIBLE)
    # NFKC turns fullwidth letters/digits and most Unicode spaces into ASCII.
    line = unicodedata.normalize("NFKC", line)
    line = line.translate(_AFTER_NFKC)
    return _SPACES.sub(" ", line).strip()


def _squeeze(raw: str) -> str:
    return _BLANKS.sub(" ", raw.translate(_INVISIBLE)).strip(" ")


def _read_line(raw: str) -> str:
    """The normalised line ("" when blank), or a LongLine when it is too long to be a command."""
    squeezed = _squeeze(raw[:_SQUEEZE_CHARS])
    if len(squeezed) <= MAX_LINE_CHARS and len(raw) > _SQUEEZE_CHARS:
        squeezed = _squeeze(raw)
    if len(squeezed) <= MAX_LINE_CHARS:
        line = normalise_line(squeezed)
        if len(line) <= MAX_LINE_CHARS:
            return line
    return LongLine(normalise_line(squeezed[:QUOTE_CHARS])[:QUOTE_CHARS], len(raw))


def _reply_header_span(line: str, following: str | None) -> int:
    """How many lines the reply header that starts at ``line`` takes (0: it starts none)."""
    if _is_one_line_reply_header(line):
        return 1
    # Gmail wraps a long header over two lines, often inside the <address>.
    if following and not isinstance(following, LongLine) and _REPLY_OPENERS.match(line):
        return 2 if _is_one_line_reply_header(f"{line} {following}") else 0
    return 0


def _is_one_line_reply_header(line: str) -> bool:
    if not line.endswith(":"):
        return False
    for opener, verb, tail in _REPLY_RULES:
        start = opener.match(line)
        if not start:
            continue
        if tail is None:
            if verb.search(line, start.end(), len(line) - 1):
                return True
        else:
            # The verb closes the line: look only at its last characters (and the one before,
            # for the word boundary).
            body = line[start.end():-1].rstrip()
            if verb.search(body[-tail:]):
                return True
    return False


def _is_outlook_header(line: str, later: list[str]) -> bool:
    if not _OUTLOOK_FROM.match(line):
        return False
    return any(_OUTLOOK_NEXT.match(nxt) for nxt in later[:_OUTLOOK_WINDOW] if not isinstance(nxt, LongLine))


def _quotes(line: str | None) -> bool:
    return line is not None and line.startswith(">")


def resembles_command(line: str) -> bool:
    """Whether a line could be meant as a command: it has a digit, a command's word, or a word one
    slip of the keyboard away from one ("STAUTS", "KNOK"). Give it short lines."""
    if any(ch.isdigit() for ch in line):
        return True
    words = {word.upper() for word in _WORD.findall(line)}
    if words & COMMAND_WORDS:
        return True
    return any(_one_slip(word, command) for word in words if len(word) >= 3 for command in _LONG_COMMAND_WORDS)


def _one_slip(typed: str, word: str) -> bool:
    """Whether `typed` is `word` with one letter wrong, missing, added, or two swapped."""
    if abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        wrong = [i for i in range(len(word)) if typed[i] != word[i]]
        return len(wrong) == 1 or (len(wrong) == 2 and wrong[1] == wrong[0] + 1
                                   and typed[wrong[0]] == word[wrong[1]] and typed[wrong[1]] == word[wrong[0]])
    short, long = sorted((typed, word), key=len)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1:]


def _is_attribution(line: str) -> bool:
    """A line such as "Golf GM wrote:" (whether a quote follows is the caller's to see)."""
    if not _ATTRIBUTION_END.search(line[-_ATTRIBUTION_TAIL:]):
        return False
    return line.split(None, 1)[0].upper() not in COMMAND_WORDS


def _classify(line: str, later: list[str]) -> tuple[str | None, int]:
    """What a line is, and how many lines it takes: "quote", "attribution" (the line before a
    quote that says who wrote it), a kind of STOPS, or None for a line to read."""
    if _quotes(line):
        return "quote", 1
    if isinstance(line, LongLine):
        return None, 1  # nothing but a quote is this long
    for pattern, kind in _STOP_LINES:
        if pattern.match(line):
            return kind, 1
    following = later[0] if later else None
    span = _reply_header_span(line, following)
    if span:
        # A reply header with no quote below it heads the original message, unquoted.
        return ("attribution", span) if _quotes(later[span - 1] if len(later) >= span else None) \
            else ("original", 1)
    if _is_outlook_header(line, later):
        return "original", 1
    if _quotes(following) and _is_attribution(line):
        return "attribution", 1
    return None, 1


def is_stop_line(line: str, later: list[str] | None = None) -> bool:
    """Whether reading stops at ``line`` (normalised); ``later`` are the
    following non-blank normalised lines, needed for headers that span lines."""
    return _classify(line, later or [])[0] in STOPS


@dataclass(frozen=True)
class Skipped:
    """Lines of the message passed over: a "quote" (with its attribution) or a "greeting"."""
    kind: str
    first: int
    last: int


@dataclass
class Reading:
    """What was read of a message, and what was not.

    `breaks` maps the number of a line read to what lies between it and the line read before it:
    "quote" (quoted lines were skipped there) or "paragraph" (a blank line). `stop` is the kind
    (of STOPS, or "limit") and the number of the line where reading stopped; `last` is the
    number of the last line with any text that was looked at (0: the message was empty)."""
    lines: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    breaks: dict[int, str] = field(default_factory=dict)
    stop: tuple[str, int] | None = None
    last: int = 0

    def explain(self) -> str:
        """Why these lines and no others were read, in words for the player ("" when nothing
        was passed over)."""
        if not self.last:
            return "the message was empty"
        clauses = [f"line {s.first} reads as a greeting, which I skip"
                   for s in self.skipped if s.kind == "greeting"]
        quotes = [s for s in self.skipped if s.kind == "quote"]
        tail = quotes.pop() if quotes and quotes[-1].last == self.last and self.stop is None else None
        if quotes:
            spans = [str(q.first) if q.first == q.last else f"{q.first}-{q.last}" for q in quotes[:3]]
            if len(quotes) > 3:
                spans.append(f"{len(quotes) - 3} more")
            one = len(quotes) == 1 and quotes[0].first == quotes[0].last
            listed = spans[0] if len(spans) == 1 else f"{', '.join(spans[:-1])} and {spans[-1]}"
            clauses.append(f"{'line' if one else 'lines'} {listed} {'was' if one else 'were'} quoted text, "
                           "which I skip")
        if tail:
            clauses.append("all of it was quoted text, which I skip" if tail.first == 1 else
                           f"everything after line {tail.first - 1} was quoted text, which I skip")
        if self.stop:
            kind, number = self.stop
            clauses.append(f"reading stopped after {MAX_LINES:,} lines" if kind == "limit" else
                           f"reading stopped at {STOPS[kind]} on line {number}")
        return "; ".join(clauses)


def read_lines(text: str) -> Reading:
    """The lines of a message that are read as commands, numbered from 1, and what was not read;
    a line too long to be a command comes as a LongLine. At most MAX_LINES lines with text are
    looked at."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    numbered = ((n, _read_line(raw)) for n, raw in _inked_lines(text))
    # The few lines past the last one read are needed to see a header that spans lines.
    filled = list(islice(((n, line) for n, line in numbered if line), MAX_LINES + _OUTLOOK_WINDOW))
    reading = Reading()
    between: str | None = None  # what lies since the last line read: "quote" or "paragraph"
    greeted = False
    index, end = 0, min(len(filled), MAX_LINES)
    while index < end:
        number, line = filled[index]
        later = [nxt for _, nxt in filled[index + 1: index + 1 + _OUTLOOK_WINDOW]]
        kind, span = _classify(line, later)
        if kind in STOPS:
            reading.stop, reading.last = (kind, number), number
            break
        if reading.last and number > reading.last + 1:
            between = between or "paragraph"
        last = filled[index + span - 1][0]
        if kind is not None:
            _skip_quote(reading, number, last)
            between = "quote"
        elif not reading.lines and not greeted and _is_greeting(line, number, _following_number(filled, index)):
            reading.skipped.append(Skipped("greeting", number, number))
            greeted = True
        else:
            if between:
                reading.breaks[number] = between
            reading.lines.append((number, line))
            between = None
        reading.last = last
        index += span
    else:
        if len(filled) > MAX_LINES:
            reading.stop = ("limit", filled[MAX_LINES][0])
    return reading


def _following_number(filled: list[tuple[int, str]], index: int) -> int | None:
    return filled[index + 1][0] if index + 1 < len(filled) else None


def _skip_quote(reading: Reading, first: int, last: int) -> None:
    """Note quoted lines passed over: a quote goes on across blank lines, into the next quote."""
    previous = reading.skipped[-1] if reading.skipped else None
    if previous and previous.kind == "quote" and not (reading.lines and reading.lines[-1][0] > previous.last):
        reading.skipped[-1] = Skipped("quote", previous.first, last)
    else:
        reading.skipped.append(Skipped("quote", first, last))


def _is_greeting(line: str, number: int, next_number: int | None) -> bool:
    """"Hi George," alone before the first command, set apart from what follows by a blank line."""
    return (next_number is not None and next_number > number + 1 and not isinstance(line, LongLine)
            and len(line) <= GREETING_CHARS and not resembles_command(line))


def command_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, normalised line) of each line that is read as a command (see
    `read_lines`)."""
    return read_lines(text).lines


def _inked_lines(text: str):
    """(1-based number, raw line) of each line that is not blank. Blank lines are skipped by the
    regex engine, not one by one: a mail of a million empty lines costs one scan."""
    number, start, pos = 1, 0, 0  # `number` is the number of the line that begins at `start`
    while ink := _INK.search(text, pos):
        begin = text.rfind("\n", pos, ink.start()) + 1
        number += text.count("\n", start, begin)
        end = text.find("\n", ink.start())
        end = len(text) if end < 0 else end
        yield number, text[begin:end]
        start, pos = begin, end


# --- subject -----------------------------------------------------------------

# Only the ASCII digits of a counter ("Re[2]:"); the optional counter and the spaces around it
# never compete for the same characters, so a run of spaces is crossed once.
_PREFIX = r"(?:re|fwd?|aw|tr|sv|wg|antw|vs|rv|rif|enc)(?:\s*(?:\[[0-9]+\]|\([0-9]+\)))?\s*:"
_LEADING = re.compile(rf"\s*(?:(?P<prefix>{_PREFIX})|\[(?P<tag>[^\[\]]*)\])", _I)
_GAME_ID = re.compile(r"[A-Za-z0-9_.-]+")
_ANY_TAG = re.compile(r"\[([A-Za-z0-9_.-]+)\]")


def subject_game_id(subject: str) -> str | None:
    """The game id of a subject "[<id>] ...", behind any reply/forward prefixes.

    Gateways prepend tags of their own ("[EXTERNAL] Re: [golf-7] ..."), so the
    id is the first tag after the last reply prefix of the leading run. Only the
    first MAX_LINE_CHARS characters are read: the tag sits at the start.
    """
    subject = unicodedata.normalize("NFKC", (subject or "")[:MAX_LINE_CHARS])
    tags_after_prefix: list[str] = []
    all_leading: list[str] = []
    pos = 0
    while match := _LEADING.match(subject, pos):
        pos = match.end()
        if match.group("prefix"):
            tags_after_prefix = []
            continue
        tag = match.group("tag").strip()
        if _GAME_ID.fullmatch(tag):
            tags_after_prefix.append(tag)
            all_leading.append(tag)
    if tags_after_prefix:
        return tags_after_prefix[0]
    if all_leading:
        return all_leading[0]
    # Past the leading run, so the "[2]" of "Re[2]:" is never taken for an id.
    anywhere = _ANY_TAG.search(subject, pos)
    return anywhere.group(1) if anywhere else None
