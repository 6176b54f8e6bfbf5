"""One message, one answer: the answers a player's message earned, written as one mail.

A message may ask for several things at once (orders, STATUS, HISTORY, HELP, a time zone, a
press). Each answer is written from its own template, as if alone; this puts them in one mail:
the main answer (an error, else the orders' acknowledgement, else the first) whole, and below it
each other answer under its own heading (what its subject would have been), without its
greeting and signature, and the GM's name once at the end. The mail keeps the main answer's
kind, subject (naming what else it holds) and Reply-To.
"""
from __future__ import annotations

import dataclasses
import textwrap

from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter

__all__ = ["one_answer"]

WIDTH = 78
# What a part of the mail is called in its subject ("... (with status, help)").
_CALLED = {"status": "status", "history": "history", "help": "help", "timezone": "time zone", "press_ack": "press",
           "press_unread": "press not passed on", "absence": "absence", "digest_set": "digest", "ack": "orders",
           "turn": "next move"}


def one_answer(parts: list[tuple[Letter, str]], gm_name: str, gm_address: str) -> Letter:
    """The answers (letter, topic) to one message, to one reader, as one letter."""
    if len(parts) == 1:
        return parts[0][0]
    main = min(range(len(parts)), key=lambda n: (_rank(*parts[n]), n))
    (first, _), rest = parts[main], parts[:main] + parts[main + 1:]
    text = _without_signature(first.text, gm_name, gm_address)
    for letter, _ in rest:
        body = _without_signature(_without_greeting(letter.text), gm_name, gm_address)
        text += "\n\n" + _heading(_subject_of(letter)) + "\n\n" + body
    extras = ", ".join(_CALLED.get(topic, topic) for _, topic in rest)
    # A calendar part rides on whichever answer it came with: the latest event written, and every
    # withdrawal (each was written once, and is not written again).
    letters = [letter for letter, _ in parts]
    event = next((p for p in reversed(letters) if p.calendar), first)
    return dataclasses.replace(first, text=text.rstrip("\n") + f"\n\n{gm_name}\n",
                               subject=f"{first.subject} (with {extras})", html=None,
                               secret=first.secret or next((p.secret for p, _ in rest if p.secret), None),
                               calendar=event.calendar, calendar_name=event.calendar_name,
                               calendar_cancels=tuple(c for p in letters for c in p.calendar_cancels))


def _rank(letter: Letter, topic: str) -> int:
    """Which answer leads: a refusal, then what the orders did, then any other acknowledgement."""
    if letter.kind == MailKind.ERROR:
        return 0
    if letter.kind in (MailKind.ACK, MailKind.TURN) and topic == letter.kind:
        return 1
    return 2 if letter.kind == MailKind.ACK else 3


def _subject_of(letter: Letter) -> str:
    """The subject without the game's `[id]`, which the mail's own subject carries."""
    subject = letter.subject
    if letter.game_id and subject.startswith(f"[{letter.game_id}] "):
        subject = subject[len(letter.game_id) + 3:]
    return subject


def _heading(title: str) -> str:
    """One line, as a heading reads in a text mail and in its HTML part alike."""
    return "\n".join(textwrap.wrap(f"== {title} ==", WIDTH, break_long_words=False, break_on_hyphens=False))


def _paragraphs(text: str) -> list[str]:
    return text.strip("\n").split("\n\n")


def _without_greeting(text: str) -> str:
    paragraphs = _paragraphs(text)
    if len(paragraphs) > 1 and paragraphs[0].startswith("Hello") and paragraphs[0].endswith(","):
        paragraphs = paragraphs[1:]
    return "\n\n".join(paragraphs)


def _without_signature(text: str, gm_name: str, gm_address: str) -> str:
    paragraphs = _paragraphs(text)
    if len(paragraphs) > 1 and paragraphs[-1].strip() in (gm_name, f"{gm_name} <{gm_address}>"):
        paragraphs = paragraphs[:-1]
    return "\n\n".join(paragraphs)
