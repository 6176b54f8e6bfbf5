"""Leagues: a season of games that pbem pairs, times and tallies by itself.

A layer above the GM. These modules are pure: the caller reads the store and the clock and
passes what they hold (a plan, the games' records, the time).
"""
