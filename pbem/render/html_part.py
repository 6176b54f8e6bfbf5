"""The HTML part of a mail, made from its text part and from nothing else.

Gmail, Apple Mail and Outlook show the HTML part when there is one, and many of them show a
text part in a proportional font, where a table of cards or holes falls apart. So a mail whose
text has a table gets an HTML part beside it: every block of the text, in order, the tables and
the indented orders in monospace (`<pre>`), the prose as paragraphs. Being made from the text,
it can never say less than the text does (a separate template once left out the instructions).
"""
from __future__ import annotations

import html

# Which line breaks the wrapping made, and which blocks are read by their lines' places, is
# told by the lines alone, as the flowed text part tells it.
from pbem.mail.flowed import ALIGNED, preformatted, wrapped

_STYLE = "font-family: Menlo, Consolas, monospace; font-size: 13px; margin: 0 0 1em 0"


def has_table(text: str) -> bool:
    return any(ALIGNED.search(line) for line in text.splitlines())


def html_part(text: str) -> str | None:
    """The HTML beside `text`, or None when the text has no table (then it reads well as it is)."""
    if not has_table(text):
        return None
    out = []
    for block in _blocks(text):
        if preformatted(block):
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
        if not items or not wrapped(block[n - 1], line):
            items.append([])
        items[-1].append(html.escape(line.strip()))
    return "<br>\n".join(" ".join(item) for item in items)
