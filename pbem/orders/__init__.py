"""Mail text to typed commands: the one reader of a player's text and the generic commands.

Each game's grammar lives in its folder and its spec names it (`GameSpec.grammar`).
"""
