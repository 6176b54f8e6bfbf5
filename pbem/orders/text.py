"""From the text of a player's mail to the lines that are read as commands.

Players reply from phones and webmail: the commands sit above a quote of the
GM's last mail, a signature and client boilerplate, and their characters are
whatever the keyboard produced (no-break spaces, typographic minus signs,
fullwidth digits). Reading stops before anything the player did not type as
an order, so an old quoted order can never be applied again.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["command_lines", "normalise_line", "is_stop_line", "subject_game_id"]

# Invisible characters that keyboards and clients slip in; U+00AD, U+200E and
# U+200F are invisible too, so a line with them reads the same without them.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"))
_DASHES = dict.fromkeys(map(ord, "\u2212\u2013\u2012\u2010\u2011\ufe63\uff0d"), "-")
_SPACES = re.compile(r"\s+")

_I = re.IGNORECASE
# A reply header ends with the verb "wrote" in the client's language.
_REPLY_HEADERS = [
    re.compile(r"^on\b.*\bwrote\s*:$", _I),
    re.compile(r"^le\b.*\ba écrit\s*:$", _I),
    re.compile(r"^am\b.*\bschrieb\b.*:$", _I),
    re.compile(r"^el\b.*\bescribió\s*:$", _I),
    re.compile(r"^op\b.*\bschreef\b.*:$", _I),
    re.compile(r"^il\b.*\bha scritto\s*:$", _I),
    re.compile(r"^em\b.*\bescreveu\s*:$", _I),
]
_REPLY_OPENERS = re.compile(r"^(on|le|am|el|op|il|em)\s", _I)

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


def normalise_line(line: str) -> str:
    """One line as plain ASCII-ish text: the case is kept, spacing is not."""
    line = line.translate(_INVISIBLE)
    # NFKC turns fullwidth letters/digits and most Unicode spaces into ASCII.
    line = unicodedata.normalize("NFKC", line)
    line = line.translate(_DASHES)
    return _SPACES.sub(" ", line).strip()


def _is_reply_header(line: str, following: str | None) -> bool:
    if any(p.match(line) for p in _REPLY_HEADERS):
        return True
    # Gmail wraps a long header over two lines, often inside the <address>.
    if following and _REPLY_OPENERS.match(line):
        joined = f"{line} {following}"
        return any(p.match(joined) for p in _REPLY_HEADERS)
    return False


def _is_outlook_header(line: str, later: list[str]) -> bool:
    if not _OUTLOOK_FROM.match(line):
        return False
    return any(_OUTLOOK_NEXT.match(nxt) for nxt in later[:_OUTLOOK_WINDOW])


def is_stop_line(line: str, later: list[str] | None = None) -> bool:
    """Whether reading stops at ``line`` (normalised); ``later`` are the
    following non-blank normalised lines, needed for headers that span lines."""
    later = later or []
    if any(p.match(line) for p in _STOP_LINES):
        return True
    return _is_reply_header(line, later[0] if later else None) or _is_outlook_header(line, later)


def command_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, normalised line) of each non-blank line before the stop."""
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(n, normalise_line(line)) for n, line in enumerate(raw_lines, start=1)]
    filled = [(n, line) for n, line in numbered if line]
    result: list[tuple[int, str]] = []
    for index, (number, line) in enumerate(filled):
        later = [nxt for _, nxt in filled[index + 1 : index + 1 + _OUTLOOK_WINDOW]]
        if is_stop_line(line, later):
            break
        result.append((number, line))
    return result


# --- subject -----------------------------------------------------------------

_PREFIX = r"(?:re|fwd?|aw|tr|sv|wg|antw|vs|rv|rif|enc)\s*(?:\[\d+\]|\(\d+\))?\s*:"
_LEADING = re.compile(rf"\s*(?:(?P<prefix>{_PREFIX})|\[(?P<tag>[^\[\]]*)\])", _I)
_GAME_ID = re.compile(r"[A-Za-z0-9_.-]+")
_ANY_TAG = re.compile(r"\[([A-Za-z0-9_.-]+)\]")


def subject_game_id(subject: str) -> str | None:
    """The game id of a subject "[<id>] ...", behind any reply/forward prefixes.

    Gateways prepend tags of their own ("[EXTERNAL] Re: [golf-7] ..."), so the
    id is the first tag after the last reply prefix of the leading run.
    """
    subject = unicodedata.normalize("NFKC", subject or "")
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
