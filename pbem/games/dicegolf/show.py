"""Dice golf in the GM's own texts: the score sheets as the players get them (`pbem show`), and
every player's sheet by seat (`pbem show --json`, CONTRACT section 8)."""
from __future__ import annotations

from pbem.render import environment


def gm_lines(state: dict, data: dict) -> list[str]:
    sheets = environment().get_template("dicegolf/_sheet.txt").module.sheets(state)
    flags = " ".join(map(str, state["flags"]))
    drawn = [line.rstrip() for line in str(sheets).rstrip("\n").splitlines()]
    return [f"Hole {state['hole']} of {state['holes']}, flags {flags}", *drawn]


def json_extras(state, keys: list[str]) -> dict:
    return {"sheets": {keys[i]: sheet for i, sheet in enumerate(state.sheets())}}
