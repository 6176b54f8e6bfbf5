"""The lines a mail client writes around the mail a reply answers, told by their patterns.

An attribution ("On <date>, <name> wrote:", "Am ... schrieb ...:", "<date> <name> <addr>:"),
maybe wrapped over two or three lines; a header block ("From:/Sent:/To:/Subject:" in any of the
languages of `reply_words`, starting with any of its fields); a separator ("-----Original
Message-----", "-------- Oprindelig meddelelse --------", "---- On ... wrote ----"); a phone's
footer; a horizontal rule. The words come from one table (`reply_words.LANGUAGES`); this module
only compiles them. Lines come normalised (`text.normalise_line`) and bounded in length; every
pattern is anchored or scans a line once.
"""
from __future__ import annotations

import re

from pbem.orders.reply_words import LANGUAGES

__all__ = ["attribution_span", "header_block", "separator", "footer", "is_rule", "header_role",
           "is_attribution_line", "HEADER_WINDOW"]

_I = re.IGNORECASE


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


def _bounded(words) -> str:
    """An alternation of words that stand as words: Chinese and Japanese write no spaces, so
    their words are found anywhere."""
    spaced = [w for w in words if not _unspaced(w)]
    unspaced = [w for w in words if _unspaced(w)]
    return rf"(?<!\w)(?:{_alternation(spaced)})(?!\w)" + (f"|{_alternation(unspaced)}" if unspaced else "")


def _unspaced(word: str) -> bool:
    return "\u2e80" <= word[0] <= "\u9fff"


_VERB = re.compile(_bounded([v for lang in LANGUAGES for v in lang.verbs]), _I)
_OPENER = re.compile(rf"(?:{_alternation(o for lang in LANGUAGES for o in lang.openers)})\s", _I)
_ROLES = {label.casefold(): role for lang in LANGUAGES for role, labels in lang.fields.items() for label in labels}
# A header field: a label of at most four words, then a colon ("Envoyé le :", "Date d'envoi:").
# Outlook's plain text shows bold labels between stars: "*From:* Golf GM".
_FIELD = re.compile(r"\*{0,2}([^\W\d_][^\s:*]*(?: [^\s:*]+){0,3}?)\s?:")
_PHRASES = {**{p.casefold(): "original" for lang in LANGUAGES for p in lang.originals},
            **{p.casefold(): "forwarded" for lang in LANGUAGES for p in lang.forwarded}}
_FOOTER = re.compile(rf"(?:{_alternation(f for lang in LANGUAGES for f in lang.footers)})(?!\w)", _I)
# "-------- Original message --------", "---- On ... wrote ----", "------------------ 原始邮件 ---".
_FRAMED = re.compile(r"[-_=*~\u2014\u2500]{2,} ?(\S.{0,300}?) ?[-_=*~\u2014\u2500]{2,}")
# A horizontal rule: "---", "* * *" (html2text's <hr>), "=====", "~~~", box-drawing lines.
_RULE = re.compile(r"(?:[-_=*~#\u2014\u2015\u2500\u2501\u2550] ?){3,}")
_MAILBOX = re.compile(r"[^\s<>()\[\]@,;:\"]+@[^\s<>()\[\]@,;:\"]+")
# The end of an attribution that names no verb (Gmail in Russian or Japanese): "<addr>:" or "(addr):".
_MAILBOX_COLON = re.compile(r"@[^\s<>()\[\]@]+[>)\]]?\s?:\Z")
# mutt's: "* Golf GM <gm@example.test> [2026-12-02 10:00]:".
_MUTT = re.compile(r"\* .*@.*\[[^\[\]]*\d[^\[\]]*\]:\Z")

# A header block's fields stand within this many lines of each other.
HEADER_WINDOW = 6
# No attribution or separator is longer (a longer line is looked at no further); a field's label
# and its colon stand within the first characters of its line.
_ATTRIBUTION_CHARS = 400
_LABEL_CHARS = 60


def header_role(line: str) -> str | None:
    """The role ("from", "date", "to", "subject") of a header field line ("Verzonden: ..."), else None."""
    match = _FIELD.match(line[:_LABEL_CHARS])
    return _ROLES.get(match.group(1).casefold()) if match else None


def header_block(line: str, later: list[str]) -> bool:
    """Whether a header block starts at `line`: a field, and a field of another role among the next
    lines (one or two lines of a wrapped field may stand between)."""
    role = header_role(line)
    if role is None:
        return False
    roles, misses = {role}, 0
    for nxt in later[:HEADER_WINDOW - 1]:
        other = header_role(nxt)
        if other is None:
            misses += 1
            if misses > 2:
                break
        else:
            roles.add(other)
    # Every client's block names when the original was sent or what it was about.
    return len(roles) >= 2 and bool(roles & {"date", "subject"})


def separator(line: str) -> str | None:
    """"original" or "forwarded" for a separator line above an original or forwarded mail."""
    if len(line) > _ATTRIBUTION_CHARS:
        return None
    match = _FRAMED.fullmatch(line)
    if match:
        inner = match.group(1).strip(" :")
        kind = _PHRASES.get(inner.casefold())
        if kind:
            return kind
        if _VERB.search(inner) or _MAILBOX.search(inner):  # Zoho: "---- On ... wrote ----"
            return "original"
        return None
    bare = line.rstrip(" :").casefold()
    return "forwarded" if bare in _PHRASES and _PHRASES[bare] == "forwarded" and line.endswith(":") else None


def footer(line: str) -> bool:
    return bool(_FOOTER.match(line[:_LABEL_CHARS]))


def is_rule(line: str) -> bool:
    return len(line) <= _ATTRIBUTION_CHARS and bool(_RULE.fullmatch(line))


def is_attribution_line(line: str) -> tuple[bool, bool]:
    """(an attribution, a strong one): a line that says who wrote what follows. A strong one (it
    names a date, an address, or opens with "On"/"Am"/... in its language) may head an unquoted
    original; a bare "<name> wrote:" is one only when a quote follows it."""
    if not line.endswith(":") or len(line) > _ATTRIBUTION_CHARS:
        return False, False
    address = _MAILBOX.search(line) is not None
    dated = any(ch.isdigit() for ch in line)
    if _VERB.search(line):
        return True, bool(address or dated or _OPENER.match(line))
    if address and dated and (_MAILBOX_COLON.search(line) or _MUTT.match(line)):
        return True, True
    return False, False


def attribution_span(lines: list[str], command_like) -> tuple[int, bool]:
    """(how many of `lines` the attribution at their head takes, whether it is strong); (0, False)
    when none starts there. `command_like(word)` says whether a first word is a command's: a line
    that begins like an order never begins an attribution, so an order just above one is read."""
    first = lines[0]
    if not first or command_like(first.split(None, 1)[0]):
        return 0, False
    found, strong = is_attribution_line(first)
    if found:
        return 1, strong
    # Wrapped over two or three lines (Gmail breaks inside the <address>): the first line opens
    # like an attribution, and no line of it begins like an order.
    if not (_OPENER.match(first) or "@" in first or "<" in first or any(ch.isdigit() for ch in first)):
        return 0, False
    joined = first
    for span, nxt in enumerate(lines[1:3], start=2):
        if not nxt or nxt.startswith((">", "|")) or command_like(nxt.split(None, 1)[0]):
            return 0, False
        joined = f"{joined} {nxt}"
        if nxt.endswith(":"):
            found, strong = is_attribution_line(joined)
            return (span, True) if found and strong else (0, False)
    return 0, False
