"""pbem's own errors: one family, so that a caller can tell pbem's refusal of a value, a setting
or a server's answer from a bug (which is any other exception).

Each error is defined beside the code that raises it; this module holds only the root and the
branches several modules share, and imports nothing, so that any module may import it.
"""
from __future__ import annotations


class PbemError(Exception):
    """The root: something pbem refuses or cannot do, said in words meant for the GM or a player."""


class BadValue(PbemError, ValueError):
    """A value pbem was given (an argument, a setting, a time, an address) that it cannot take;
    the message says which and why, in one line. A ValueError too, as it always was."""


__all__ = ["BadValue", "PbemError"]
