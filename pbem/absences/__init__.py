"""Absences for any game (CONTRACT section 14): a player's days away move the deadlines of every
game they play, within an allowance per address and calendar year; AUTOABSENCE spends a day of
it when a deadline passes. A layer above the GM (`layer`), with its own tables (`rows`)."""
