"""The HTML part of a mail, made from its text part and from nothing else.

Gmail, Apple Mail and Outlook show the HTML part when there is one, and many of them show a
text part in a proportional font, where a table of cards or holes falls apart. So a mail whose
text has a table gets an HTML part beside it: every block of the text, in order, the tables and
the indented orders in monospace (`<pre>`), the prose as paragraphs. Being made from the text,
it can never say less than the text does (a separate template once left out the instructions).
"""
from __future__ import annotations

import html
import re

# A table lines its cells up with runs of spaces between them; prose never has two spaces
# after a word (the templates' text is tidied of trailing spaces).
_ALIGNED = re.compile(r"\S {2,}\S")
# Lines that the eye reads by their position: indented orders and examples, grid rows.
_INDENTED = re.compile(r"^ {2,}\S")
# Prose is wrapped at 72-76 columns (list items narrower, for their indent): a line was broken
# by the wrapping when the next line's first word would not have fitted within the narrowest of
# those; any other break was made on purpose.
_WRAP_WIDTH = 72
# A list item begins a line of its own: "- ", "* ", "(a) ", "1. ".
_ITEM = re.compile(r"^\s*(?:[-*] |\([a-z0-9]{1,2}\) |[0-9]{1,2}\. )")

_STYLE = "font-family: Menlo, Consolas, monospace; font-size: 13px; margin: 0 0 1em 0"


def has_table(text: str) -> bool:
    return any(_ALIGNED.search(line) for line in text.splitlines())


def html_part(text: str) -> str | None:
    """The HTML beside `text`, or None when the text has no table (then it reads well as it is)."""
    if not has_table(text):
        return None
    out = []
    for block in _blocks(text):
        if _INDENTED.match(block[0]) or any(_ALIGNED.search(line) for line in block):
            out.append(f'<pre style="{_STYLE}">' + html.escape("\n".join(block)) + "</pre>")
        else:
            out.append("<p>" + _prose(block) + "</p>")
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head>\n'
            '<body style="font-family: sans-serif; font-size: 14px">\n' + "\n".join(out) + "\n</body></html>\n")


def _blocks(text: str) -> list[list[str]]:
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _prose(block: list[str]) -> str:
    """Lines that wrapping broke flow again; a break made on purpose (a short line: a greeting,
    a name; or a new list item) stays a break."""
    items: list[list[str]] = []
    for n, line in enumerate(block):
        if not items or _ITEM.match(line) or not _wrapped(block[n - 1], line):
            items.append([])
        items[-1].append(html.escape(line.strip()))
    return "<br>\n".join(" ".join(item) for item in items)


def _wrapped(line: str, following: str) -> bool:
    word = following.split(None, 1)[0]
    return len(line.rstrip()) + 1 + len(word) > _WRAP_WIDTH
