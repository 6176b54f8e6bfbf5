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
from functools import lru_cache
from itertools import islice

from pbem.orders import reply_marks
from pbem.orders.original import Original, quoted_lines
from pbem.orders.punctuation import tidy

__all__ = ["command_lines", "read_lines", "command_like", "Reading", "Skipped", "normalise_line", "is_stop_line",
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

# What ends the reading of a message, and how an answer names it.
STOPS = {
    "signature": "the signature",
    "end": "END",
    "original": "the original message",
    "forwarded": "the forwarded message",
    "footer": "the mail program's footer",
}

# The language-free stops; the words of mail clients in every language are `reply_marks`'.
_STOP_LINES = [
    (re.compile(r"^--$"), "signature"),
    # iOS turns a typed "--" into an em dash.
    (re.compile(r"^\u2014$"), "signature"),
    (re.compile(r"^end$", _I), "end"),
    # Outlook's line above the header block of the original.
    (re.compile(r"^_{10,}$"), "original"),
]

# The words of the commands of every game, the GM's commands among them: a line with one of them
# (or one mistyped), or with a digit, resembles a command and is never taken for a greeting, so
# that a mistyped order is refused rather than dropped.
COMMAND_WORDS = frozenset({
    "PLAY", "SPECIAL", "REVEAL", "DRAW", "KEEP", "DISCARD", "FLIP", "KNOCK", "PEEK", "IF",
    "HELP", "STATUS", "HISTORY", "RESIGN", "PRESS", "SET", "TIMEZONE", "ZONE", "TZ",
    "GAME", "PASSWORD", "PASS", "SECRET", "TURN", "END", "ENTER", "POLICY", "SHOT", "TRAP",
    "EXTEND", "DEADLINE", "PAUSE", "RESUME", "PROCESS", "REPLACE", "ABANDON", "WITHDRAW", "ABSENCE",
    "OBSERVE", "UNOBSERVE", "NEWSECRET", "ROLLBACK", "JOIN", "LEAVE", "LIST", "RATINGS",
})
# Shorter words are only taken as they are: "Hi Ed" is no mistyped END. So are the open tables'
# words, which are a letter away from names ("Hi John," is no mistyped JOIN, "Dear Lisa" no LIST).
_EXACT_ONLY = frozenset({"JOIN", "LEAVE", "LIST"})
_LONG_COMMAND_WORDS = sorted(word for word in COMMAND_WORDS - _EXACT_ONLY if len(word) >= 4)
# "Hi George," or "Dear GM": a greeting is short, and so is a sign-off.
GREETING_CHARS = 60
# "Cheers," / "George", or "Thanks again," / "Carol" / "(club captain)".
SIGN_OFF_LINES = 3
# Said right under the last command, with no blank line between, a name ("George", "- Bill
# Smith", "Anne-Marie") or a thanks signs the message off too; a word in capitals does not.
_NAME_WORD = re.compile(r"[^\W\d_][\w'.-]*")
_THANKS = re.compile(r"^(?:thanks|thank you|thx|ta|cheers)(?: [^\W\d_]+)?[.!,]*$", _I)
_WORD = re.compile(r"[^\W\d_]+")

# The lines after a line that a header block or a wrapped attribution may take.
_WINDOW = reply_marks.HEADER_WINDOW
# Quote marks: ">" (most clients), "|" (some webmail); a leading tab (s-nail) becomes ">".
_QUOTE_MARKS = (">", "|")


class LongLine(str):
    """A line longer than MAX_LINE_CHARS: never a command. The text is only the (normalised)
    start of it and an ellipsis, what an error mail may quote; `length` is the whole line's."""

    length: int

    def __new__(cls, start: str, length: int) -> LongLine:
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


# Replies quote the GM's own mails, whose lines recur from one reply to the next: a short line
# read once is remembered (a pure function of its text; long lines are read afresh each time,
# so the memory holds at most _REMEMBERED lines of _REMEMBER_CHARS).
_REMEMBER_CHARS = 200
_REMEMBERED = 4096


def _read_line(raw: str) -> str:
    """The normalised line ("" when blank), or a LongLine when it is too long to be a command."""
    return _read_short_line(raw) if len(raw) <= _REMEMBER_CHARS else _read_any_line(raw)


def _read_any_line(raw: str) -> str:
    squeezed = _squeeze(raw[:_SQUEEZE_CHARS])
    if len(squeezed) <= MAX_LINE_CHARS and len(raw) > _SQUEEZE_CHARS:
        squeezed = _squeeze(raw)
    if len(squeezed) <= MAX_LINE_CHARS:
        line = normalise_line(squeezed)
        if len(line) <= MAX_LINE_CHARS:
            return line
    return LongLine(normalise_line(squeezed[:QUOTE_CHARS])[:QUOTE_CHARS], len(raw))


_read_short_line = lru_cache(maxsize=_REMEMBERED)(_read_any_line)


def _quotes(line: str | None) -> bool:
    return line is not None and line.startswith(_QUOTE_MARKS)


def resembles_command(line: str) -> bool:
    """Whether a line could be meant as a command: it has a digit, a command's word, or a word one
    slip of the keyboard away from one ("STAUTS", "KNOK"). Give it short lines."""
    if any(ch.isdigit() for ch in line):
        return True
    return any(command_like(word) for word in {word.upper() for word in _WORD.findall(line)})


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


def command_like(word: str) -> bool:
    """Whether a line that begins with `word` begins like a command (or a mistyped one)."""
    word = word.upper()
    return word in COMMAND_WORDS or (len(word) >= 3 and any(_one_slip(word, c) for c in _LONG_COMMAND_WORDS))


def _classify(line: str, later: list[str]) -> tuple[str | None, int]:
    """What a line is, and how many lines it takes: "quote", "attribution" (the lines before a
    quote that say who wrote it), "rule" (a horizontal rule), a kind of STOPS, or None for a line
    to read."""
    if _quotes(line):
        return "quote", 1
    if isinstance(line, LongLine):
        return None, 1  # nothing but a quote is this long
    for pattern, kind in _STOP_LINES:
        if pattern.match(line):
            return kind, 1
    separator = reply_marks.separator(line)
    if separator:
        return separator, 1
    if reply_marks.footer(line):
        return "footer", 1
    if reply_marks.is_rule(line):
        return "rule", 1
    span, strong = reply_marks.attribution_span([line, *later[:2]], command_like)
    if span:
        # An attribution with no quote below it heads the original message, unquoted.
        if _quotes(later[span - 1] if len(later) >= span else None):
            return "attribution", span
        if strong:
            return "original", 1
    if reply_marks.header_block(line, later):
        return "original", 1
    return None, 1


def is_stop_line(line: str, later: list[str] | None = None) -> bool:
    """Whether reading stops at ``line`` (normalised); ``later`` are the
    following non-blank normalised lines, needed for headers that span lines."""
    return _classify(line, later or [])[0] in STOPS


@dataclass(frozen=True)
class Skipped:
    """Lines of the message passed over: a "quote" (with its attribution), a "greeting" or a
    "sign-off"."""
    kind: str
    first: int
    last: int


@dataclass
class Reading:
    """What was read of a message, and what was not.

    `breaks` maps the number of a line read to what lies between it and the line read before it:
    "quote" (quoted lines were skipped there) or "paragraph" (a blank line). `written` maps the
    number of a line whose punctuation was taken off (`punctuation.tidy`) to the line as it was
    written, for an answer that quotes it. `stop` is the kind
    (of STOPS, or "limit") and the number of the line where reading stopped; `last` is the
    number of the last line with any text that was looked at (0: the message was empty)."""
    lines: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    breaks: dict[int, str] = field(default_factory=dict)
    written: dict[int, str] = field(default_factory=dict)
    stop: tuple[str, int] | None = None
    last: int = 0

    def explain(self) -> str:
        """Why these lines and no others were read, in words for the player ("" when nothing
        was passed over)."""
        if not self.last:
            return "the message was empty"
        clauses = [f"line {s.first} reads as a greeting, which I skip"
                   for s in self.skipped if s.kind == "greeting"]
        clauses += [(f"line {s.first} reads" if s.first == s.last else f"lines {s.first}-{s.last} read")
                    + " as a sign-off, which I skip" for s in self.skipped if s.kind == "sign-off"]
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


def read_lines(text: str, originals: list[Original] | tuple = (), gm_names: tuple[str, ...] = ()) -> Reading:
    """The lines of a message that are read as commands, numbered from 1, and what was not read;
    a line too long to be a command comes as a LongLine. At most MAX_LINES lines with text are
    looked at. `originals` are the GM's mails the message answers (`original.Original`): the
    lines that quote one of them, with the attribution or header block above, are skipped
    whatever the client and its language; `gm_names` are the GM's address and name as an
    attribution may name them (lower case)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    numbered = ((n, _marked(raw)) for n, raw in _inked_lines(text))
    # The few lines past the last one read are needed to see a header that spans lines.
    filled = list(islice(((n, line) for n, line in numbered if line), MAX_LINES + _WINDOW))
    quoted = quoted_lines([line for _, line in filled[:MAX_LINES]], list(originals), gm_names, command_like) \
        if originals else set()
    reading = Reading()
    between: str | None = None  # what lies since the last line read: "quote" or "paragraph"
    greeted = False
    pressing = False  # in the text of a bare PRESS line (it runs to the next quote): prose, kept as written
    index, end = 0, min(len(filled), MAX_LINES)
    while index < end:
        number, line = filled[index]
        kind, span = ("quote", 1) if index in quoted else _classify(line, _later(filled, index))
        if kind in STOPS:
            reading.stop, reading.last = (kind, number), number
            break
        if reading.last and number > reading.last + 1:
            between = between or "paragraph"
        last = filled[index + span - 1][0]
        if kind == "rule":
            between = between or "paragraph"
        elif kind is not None:
            _skip_quote(reading, number, last)
            between = "quote"
        elif not reading.lines and not greeted and _is_greeting(line, number, filled, index, quoted):
            reading.skipped.append(Skipped("greeting", number, number))
            greeted = True
        else:
            if between:
                reading.breaks[number] = between
            pressing = pressing and between != "quote"
            read = line if pressing or isinstance(line, LongLine) else tidy(line, COMMAND_WORDS)
            if read != line:
                reading.written[number] = line
            reading.lines.append((number, read))
            pressing = pressing or read.upper() == "PRESS"
            between = None
        reading.last = last
        index += span
    else:
        if len(filled) > MAX_LINES:
            reading.stop = ("limit", filled[MAX_LINES][0])
    if not pressing:
        _skip_sign_off(reading)
    return reading


def _signs(line: str) -> bool:
    """Whether a line alone under the commands signs them off: a name or a thanks."""
    words = line.lstrip("-~ ").split()
    named = 0 < len(words) <= 3 and all(_NAME_WORD.fullmatch(w) and w[0].isupper() and not w.isupper()
                                         for w in words)
    return named or bool(_THANKS.match(line))


def _skip_sign_off(reading: Reading) -> None:
    """Take the sign-off off the lines read: one to three short lines below the last line that
    resembles a command, set apart from it by a blank line or a quote ("Cheers," / "George",
    "Thanks, Carol"), or a name alone right under it. Anything like a command is never one."""
    lines = reading.lines
    last = next((i for i in range(len(lines) - 1, -1, -1)
                 if isinstance(lines[i][1], LongLine) or resembles_command(lines[i][1])), None)
    if last is None:
        return
    tail = lines[last + 1:]
    if not tail or len(tail) > SIGN_OFF_LINES:
        return
    if any(isinstance(line, LongLine) or len(line) > GREETING_CHARS or resembles_command(line)
           for _, line in tail):
        return
    apart = tail[0][0] in reading.breaks
    if not apart and not (len(tail) == 1 and _signs(tail[0][1])):
        return
    del lines[last + 1:]
    reading.skipped.append(Skipped("sign-off", tail[0][0], tail[-1][0]))
    reading.skipped.sort(key=lambda s: s.first)


def _marked(raw: str) -> str:
    """A raw line read: a line that a tab begins is quoted (s-nail and mailx quote so)."""
    line = _read_line(raw)
    return f"> {line}" if line and raw.startswith("\t") and not isinstance(line, LongLine) else line


def _later(filled: list[tuple[int, str]], index: int) -> list[str]:
    return [nxt for _, nxt in filled[index + 1: index + 1 + _WINDOW]]


def _skip_quote(reading: Reading, first: int, last: int) -> None:
    """Note quoted lines passed over: a quote goes on across blank lines, into the next quote."""
    previous = reading.skipped[-1] if reading.skipped else None
    if previous and previous.kind == "quote" and not (reading.lines and reading.lines[-1][0] > previous.last):
        reading.skipped[-1] = Skipped("quote", previous.first, last)
    else:
        reading.skipped.append(Skipped("quote", first, last))


def _is_greeting(line: str, number: int, filled: list[tuple[int, str]], index: int, quoted: set[int]) -> bool:
    """"Hi George," alone before the first command, set apart from what follows by a blank line
    or by the quote that follows it (Evolution puts "On ... wrote:" right under it)."""
    if isinstance(line, LongLine) or len(line) > GREETING_CHARS or resembles_command(line) \
            or index + 1 >= len(filled):
        return False
    if filled[index + 1][0] > number + 1 or index + 1 in quoted:
        return True
    return _classify(filled[index + 1][1], _later(filled, index + 1))[0] in ("quote", "attribution", *STOPS)


def command_lines(text: str, originals: list[Original] | tuple = (),
                  gm_names: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    """(1-based line number, normalised line) of each line that is read as a command (see
    `read_lines`)."""
    return read_lines(text, originals, gm_names).lines


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
