"""Reading a reply against the mail it answers: the GM's own words, found again in the reply.

pbem knows, word for word, every mail it sent. A reply quotes that mail however its client
likes: under `>` or `|` or a tab, with no marks at all under a header block in any language,
rewrapped, or turned from HTML into text. So the reply's lines are compared with the original's
words: a run of three or more consecutive lines that stand in the same order in the original
(each line's words one after the other there, and each line close after the one before) is a
quote, and so is the attribution or header block just above it (its lines name the GM, the
original's date or subject, or look like a client's header fields). A player's own orders are never part of
such a run unless three of them stand in the original in the same order and close together, and
even then a run of lines that all read as orders is left to be read.

What is kept of an original is the hash of each word, in order (`Original.fingerprint`): enough
to recognise it, nothing to read it back from, so it outlives the mail's text under retention.
All the work is bounded: so many words an original, so many candidates a line.
"""
from __future__ import annotations

import re
import zlib
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from pbem.orders import reply_marks

__all__ = ["Original", "quoted_lines", "MOST_ORIGINALS"]

# The GM's longest mail (a card game's rules in its welcome) is a few thousand words.
_MOST_WORDS = 30_000
# A subject is one header line: so many characters of it are enough to know it.
_SUBJECT_CHARS = 200
# A line's words are looked for from its rarest word; past this many places, no more are tried.
_MOST_CANDIDATES = 64
# Consecutive lines of a quote stand this close in the original (in words): a quote keeps the
# original's order, dropping at most a short line or two.
_MOST_GAP = 20
# Mails a reply is compared with: the one it answers and a few of those before it.
MOST_ORIGINALS = 4
_RUN = 3
# How far above a quoted run its attribution or header block may begin.
_HEADING_LINES = 8
_WORD = re.compile(r"\w+")
# A field of a header block in a language with no row in the table: "Label: value".
_ANY_FIELD = re.compile(r"[^\W\d_][^:]{0,40}:(?:\s|$)")


def _hashes(text: str) -> array:
    """The hashes of the words of `text`, in order (a fresh array: the caller may keep it)."""
    if len(text) <= 200:  # a line of a reply: they recur (the GM's own lines quoted)
        return array("I", _line_hashes(text))
    return _word_hashes(text)


def _word_hashes(text: str) -> array:
    words = _WORD.findall(text.casefold())
    try:
        return array("I", map(zlib.crc32, map(str.encode, words)))
    except UnicodeEncodeError:  # a lone surrogate: hashed as its bytes would be
        return array("I", (zlib.crc32(w.encode("utf-8", "surrogatepass")) for w in words))


@lru_cache(maxsize=4096)
def _line_hashes(text: str) -> tuple[int, ...]:
    return tuple(_word_hashes(text))


@dataclass
class Original:
    """One mail the GM sent, as the hashes of its words in order and of its subject's words, and
    when it was written."""
    words: array
    sent: datetime | None = None
    subject: array = field(default_factory=lambda: array("I"))
    _places: dict[int, list[int]] | None = field(default=None, repr=False)

    @classmethod
    def of_text(cls, text: str, sent: datetime | None = None, subject: str = "") -> Original:
        return cls(_hashes(text[: _MOST_WORDS * 8])[:_MOST_WORDS], sent, _hashes(subject[:_SUBJECT_CHARS]))

    @classmethod
    def of_fingerprint(cls, data: bytes, sent: datetime | None = None) -> Original:
        """Read back `fingerprint()`: the number of the subject's words, their hashes, the text's."""
        chunk = data[: 4 * (1 + _SUBJECT_CHARS + _MOST_WORDS)]
        every = array("I")
        every.frombytes(chunk[: len(chunk) - len(chunk) % 4])
        count = min(every[0], len(every) - 1) if every else 0
        return cls(every[1 + count:][:_MOST_WORDS], sent, every[1: 1 + count])

    def fingerprint(self) -> bytes:
        return (array("I", [len(self.subject)]) + self.subject + self.words).tobytes()

    def _index(self) -> dict[int, list[int]]:
        if self._places is None:
            places: dict[int, list[int]] = {}
            for position, word in enumerate(self.words):
                places.setdefault(word, []).append(position)
            self._places = places
        return self._places

    def places(self, line: array) -> list[int]:
        """Where the words of `line` stand together in the original, in order (the first
        _MOST_CANDIDATES places, found from the line's rarest word)."""
        index = self._index()
        anchor, rarest = 0, None
        for k, word in enumerate(line):
            places = index.get(word)
            if places is None:
                return []
            if rarest is None or len(places) < len(rarest):
                anchor, rarest = k, places
        if rarest is None:
            return []
        width, words, found = len(line), self.words, []
        for place in rarest[: 4 * _MOST_CANDIDATES]:
            first = place - anchor
            if first >= 0 and words[first: first + width] == line:
                found.append(first)
                if len(found) == _MOST_CANDIDATES:
                    break
        return found

    def names_subject(self, line: str) -> bool:
        """Whether a line names this mail's subject ("Onderwerp: [m1] Welcome ..."): after its
        label, two words or more, all of them the subject's."""
        value = _hashes(line.split(":", 1)[1] if ":" in line else line)
        return len(value) >= 2 and set(value) <= set(self.subject)

    def names_date(self, line: str) -> bool:
        """Whether a line names the day this mail was written (its year and day of the month, a
        day either way for the reader's time zone), in any language's way of writing a date."""
        if self.sent is None:
            return False
        numbers = {int(n) for n in re.findall(r"\d{1,4}", line)}
        years = {self.sent.year, self.sent.year % 100}
        day = self.sent.day
        return bool(numbers & years) and bool(numbers & {day - 1, day, day + 1} - years)


def quoted_lines(lines: list[str], originals: list[Original], gm_names: tuple[str, ...],
                 command_like) -> set[int]:
    """The indexes of `lines` (normalised, non-blank) that quote one of `originals`, with the
    attribution or header block above each quoted run. `command_like(word)` tells a line that
    begins like an order: it never heads a quote."""
    if len(lines) < _RUN or not originals:
        return set()
    words = [_hashes(line) for line in lines]
    spoken = [i for i, w in enumerate(words) if w]  # lines with words; the others go along
    quoted: set[int] = set()
    for original in originals[:MOST_ORIGINALS]:
        places = {i: original.places(words[i]) for i in spoken}
        for k in range(len(spoken) - _RUN + 1):
            window = spoken[k: k + _RUN]
            if all(i in quoted for i in window) or not all(places[i] for i in window):
                continue
            if _in_order([(places[i], len(words[i])) for i in window]):
                quoted.update(range(window[0], window[-1] + 1))
    runs = _runs(sorted(quoted))
    skipped: set[int] = set()
    for first, last in runs:
        if all(_reads_as_order(lines[i], command_like) for i in range(first, last + 1)):
            continue  # three orders the original shows too, written as orders: read them
        top = _heading_above(lines, first, originals, gm_names, command_like)
        skipped.update(range(top, last + 1))
    return skipped


def _in_order(window: list[tuple[list[int], int]], end: int | None = None) -> bool:
    """Whether the lines of `window` (each: the places of its words in the original, and how
    many words it has) stand there one after the other, each within _MOST_GAP words of the end
    of the one before."""
    if not window:
        return True
    (places, width), rest = window[0], window[1:]
    start = 0 if end is None else bisect_left(places, end)
    for place in places[start:]:
        if end is not None and place - end > _MOST_GAP:
            return False
        if _in_order(rest, place + width):
            return True
    return False


def _runs(indexes: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for i in indexes:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _reads_as_order(line: str, command_like) -> bool:
    return not line.startswith((">", "|")) and bool(line.split()) and command_like(line.split(None, 1)[0])


def _heading_above(lines: list[str], first: int, originals: list[Original], gm_names: tuple[str, ...],
                   command_like) -> int:
    """The first line of the attribution or header block just above the run starting at `first`
    (`first` itself when there is none). Lines are taken upwards while they look like a client's
    heading; the block starts at the highest of them that names the GM, the original's date or
    subject, or is a separator, rule, attribution or known header field, and takes in the header
    fields ("Label: value") that stand right above that one."""
    top, fields = first, None  # `fields`: the header fields right above `top`, when it moved
    for i in range(first - 1, max(-1, first - 1 - _HEADING_LINES), -1):
        line = lines[i]
        head = line.split(None, 1)[0] if line.split() else ""
        if not line.startswith((">", "|")) and command_like(head):
            break
        if line.startswith((">", "|")) or _names_the_original(line, originals, gm_names):
            top, fields = i, i
        elif _ANY_FIELD.match(line):
            fields = i if fields == i + 1 else fields
        elif not line.endswith(":"):
            break
    return top if fields is None else min(top, fields)


def _names_the_original(line: str, originals: list[Original], gm_names: tuple[str, ...]) -> bool:
    folded = line.casefold()
    return bool(any(name and name in folded for name in gm_names)
                or any(o.names_date(line) or o.names_subject(line) for o in originals)
                or reply_marks.separator(line) or reply_marks.is_rule(line)
                or reply_marks.is_attribution_line(line)[0] or reply_marks.header_role(line))
