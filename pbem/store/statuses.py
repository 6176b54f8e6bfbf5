"""The statuses the store's own rows keep: an inbound message's, an outbox mail's, a game's.

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


__all__ = ["ANSWERED", "FORGETTABLE", "GameStatus", "InboundStatus", "OutboxStatus"]
