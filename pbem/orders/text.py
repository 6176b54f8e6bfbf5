"""From the text of a player's mail to the lines that are read as commands.

Players reply from phones and webmail: the commands sit above a quote of the
GM's last mail, a signature and client boilerplate, and their characters are
whatever the keyboard produced (no-break spaces, typographic minus signs,
fullwidth digits). Reading stops before anything the player did not type as
an order, so an old quoted order can never be applied again.

The text is hostile input as well: the work is linear in the length of the
mail and bounded (so many lines, so many characters a line), and a line that
an error mail quotes back carries no control character.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import islice

__all__ = ["command_lines", "normalise_line", "is_stop_line", "subject_game_id", "LongLine",
           "MAX_LINE_CHARS", "MAX_LINES", "QUOTE_CHARS"]

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

# Each pattern is linear: anchored at the start, and no two quantifiers can take the same
# characters (the one `.*` before a literal ending backtracks a character at a time).
_STOP_LINES = [
    re.compile(r"^>"),
    re.compile(r"^--$"),
    # iOS turns a typed "--" into an em dash.
    re.compile(r"^\u2014$"),
    re.compile(r"^end$", _I),
    re.compile(r"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}$", _I),
    re.compile(r"^_{10,}$"),
    re.compile(r"^begin forwarded message\s*:?$", _I),
    re.compile(r"^-{2,}\s*forwarded message\s*-{2,}$", _I),
    re.compile(r"^sent from my\b", _I),
    re.compile(r"^sent from mail for windows\b", _I),
    re.compile(r"^get outlook for\b", _I),
    re.compile(r"^envoyé de mon\b", _I),
    re.compile(r"^von meinem\b.*\bgesendet$", _I),
    re.compile(r"^enviado desde mi\b", _I),
]

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


def _is_reply_header(line: str, following: str | None) -> bool:
    if _is_one_line_reply_header(line):
        return True
    # Gmail wraps a long header over two lines, often inside the <address>.
    if following and not isinstance(following, LongLine) and _REPLY_OPENERS.match(line):
        return _is_one_line_reply_header(f"{line} {following}")
    return False


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


def is_stop_line(line: str, later: list[str] | None = None) -> bool:
    """Whether reading stops at ``line`` (normalised); ``later`` are the
    following non-blank normalised lines, needed for headers that span lines."""
    if isinstance(line, LongLine):
        return line.startswith(">")  # a quote is a quote however long; nothing else is this long
    later = later or []
    if any(p.match(line) for p in _STOP_LINES):
        return True
    return _is_reply_header(line, later[0] if later else None) or _is_outlook_header(line, later)


def command_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, normalised line) of each non-blank line before the stop, at most
    MAX_LINES of them; a line too long to be a command comes as a LongLine."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    numbered = ((n, _read_line(raw)) for n, raw in _inked_lines(text))
    # The few lines past the last one read are needed to see a header that spans lines.
    filled = list(islice(((n, line) for n, line in numbered if line), MAX_LINES + _OUTLOOK_WINDOW))
    result: list[tuple[int, str]] = []
    for index, (number, line) in enumerate(filled[:MAX_LINES]):
        later = [nxt for _, nxt in filled[index + 1 : index + 1 + _OUTLOOK_WINDOW]]
        if is_stop_line(line, later):
            break
        result.append((number, line))
    return result


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
