"""The words the store's own rows keep: an inbound message's status, an outbox mail's, a game's,
and the kind of each event of a game's log.

Each is a StrEnum: a member is its text, so it is written to the store, compared and shown as
the plain word it always was, and a caller that passes the word itself still works.
"""
from __future__ import annotations

from enum import StrEnum


class InboundStatus(StrEnum):
    """What became of a message the GM received (`inbound.status`)."""
    NEW = "new"                # kept, not handled yet (or given back by `pbem inbox retry`)
    HANDLED = "handled"        # answered, or its orders taken
    REFUSED = "refused"        # answered with what is wrong with it
    IGNORED = "ignored"        # nothing to do and nothing to say
    SCREENED = "screened"      # a robot's, a list's or a bounce: never answered
    FAILED = "failed"          # its handling raised; kept for the GM (`pbem inbox`)
    # An outcome only, never kept: a copy of a message handled before keeps that one's status.
    DUPLICATE = "duplicate"


# A message's text is forgotten (`prune`) once it is one of these; new and failed mail keep theirs.
FORGETTABLE = (InboundStatus.HANDLED, InboundStatus.REFUSED, InboundStatus.IGNORED, InboundStatus.SCREENED)
# The outcomes that sent the sender an answer (counted against the strangers' limit).
ANSWERED = (InboundStatus.HANDLED, InboundStatus.REFUSED, InboundStatus.FAILED)


class OutboxStatus(StrEnum):
    """Where a mail the GM wrote stands (`outbox.status`)."""
    QUEUED = "queued"    # waiting for the wire (a retry too)
    SENT = "sent"        # the server took it
    FAILED = "failed"    # refused for good, or given up on; `pbem outbox retry` queues it again
    BOUNCED = "bounced"  # sent, then a bounce naming its Message-ID came back


class GameStatus(StrEnum):
    """Where a game stands (`games.status`)."""
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class LogEvent(StrEnum):
    """What an event of a game's log is (`events.kind`): the GM's record of the game, from which
    the game is replayed, exported, verified and rolled back. Not the engines' own events (what
    a turn did, told in the mail), which live in the game's state."""
    CREATED = "created"    # the game made: its players, options and course
    ORDERS = "orders"      # a seat's orders taken (a player's, or a robot's playing the seat)
    NMR = "nmr"            # orders the GM played for a seat that missed its deadline
    RESIGN = "resign"      # a seat resigned
    RESOLVED = "resolved"  # a turn (a hole, for tosses) resolved
    MOVE = "move"          # a move of round-the-table play, as the players were told it
    PRESS = "press"        # a player's press, passed on
    GM = "gm"              # a GM command on the game (EXTEND, PAUSE ...)
    REPLACE = "replace"    # a new player (or a robot) in a seat
    ROLLBACK = "rollback"  # the game went back to the start of a turn (the events after it undone)
    FINISHED = "finished"  # the game ended, with its result
    TAKEOVER = "takeover"      # the robot plays a seat whose player missed too many deadlines
    TAKEN_BACK = "taken back"  # that player wrote again: the seat is theirs once more


__all__ = ["ANSWERED", "FORGETTABLE", "GameStatus", "InboundStatus", "LogEvent", "OutboxStatus"]
