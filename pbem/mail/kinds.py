"""The kinds of mail the GM sends: the `X-PBEM-Kind` header of each (CONTRACT section 5).

A StrEnum: a member is its word, so it is written to the header, to the outbox's `kind` column
and to a template's name as the plain word it always was, and a caller that passes the word
itself is given the member (`Letter` takes the word and keeps the member).
"""
from __future__ import annotations

from enum import StrEnum


class MailKind(StrEnum):
    """What a mail is, for the reader's filters and for the GM's own lists (`pbem outbox`)."""
    WELCOME = "welcome"      # a game's (or a league's) first mail: the secret, the rules, the first move
    ACK = "ack"              # orders or a request taken
    ERROR = "error"          # a message refused, every wrong line with what would be right
    TURN = "turn"            # your move, a new turn opens
    REPORT = "report"        # a turn resolved
    REMINDER = "reminder"    # a deadline is near and orders are owed
    RESULT = "result"        # the game is over
    STATUS = "status"        # the game as the reader sees it (asked for, or news of a change)
    HISTORY = "history"      # the game's public story so far
    HELP = "help"            # the commands
    PRESS = "press"          # a player's message passed on
    STANDINGS = "standings"  # a league's table
    NOTICE = "notice"        # a change the GM made: a rollback, a replacement, a pause
    TABLE = "table"          # an open table's confirmations, lists and start
    RATINGS = "ratings"      # a player's ratings, asked for by mail
    DIGEST = "digest"        # a day's mail that asked nothing of its reader, gathered into one (SET DIGEST)


# Answers to a player's own message are auto-replied; everything the GM starts is auto-generated
# (an open table's mail is either: the answer to a JOIN, or the news that the table started).
ANSWER_KINDS = frozenset({MailKind.ACK, MailKind.ERROR, MailKind.STATUS, MailKind.HISTORY, MailKind.HELP,
                          MailKind.TABLE, MailKind.RATINGS})

# The mail of a game that asks nothing of a reader who owes nothing in it now: it may wait for
# the reader's daily digest (CONTRACT section 14), as every spectator's mail may.
DIGEST_KINDS = frozenset({MailKind.REPORT, MailKind.RESULT, MailKind.NOTICE, MailKind.STANDINGS})

__all__ = ["ANSWER_KINDS", "DIGEST_KINDS", "MailKind"]
