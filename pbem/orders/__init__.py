"""Mail text to typed commands: the one reader of a player's text and the generic commands.

Each game's grammar lives in its folder and its spec names it (`GameSpec.grammar`).
"""
from __future__ import annotations

# The generic commands read time zones through the GM's schedule (`gm.schedule`), and the GM's
# modules read the commands: the GM is loaded first, so that whichever is imported first (a
# game's grammar, in a test) finds the commands whole.
import pbem.gm  # noqa: F401
