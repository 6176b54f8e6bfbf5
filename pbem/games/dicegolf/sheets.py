"""Dice golf's score sheets as each reader may see them.

Everyone plays the hole in play at once, each on their own, so a sheet is shown in two parts:
the holes that have closed, which every player and spectator sees alike, and the hole in play,
which only its own player (and the GM) sees until every player has finished it. Once the game
is over every hole begun is on the table.

`Sheets` is a part of `dicegolf.DiceGolf`: it reads the state's `scorecards`, `holes`, `n` and
`_result`, and changes nothing.
"""
from __future__ import annotations

from pbem.games.base import Result


def _shown(card: dict) -> dict:
    """A hole begun, as its sheet shows it (CONTRACT section 8)."""
    out = {"flag": card["flag"], "tosses": [{"dice": list(t["dice"]), "entry": t["entry"]} for t in card["tosses"]],
           "score": card["score"]}
    if card.get("forfeit"):
        out["forfeit"] = True
    return out


class Sheets:
    scorecards: list[list[dict]]
    holes: list[dict]
    n: int
    _result: Result | None

    def sheet(self, seat: int, hole: int) -> dict | None:
        """One hole of `seat`'s sheet in the form of CONTRACT section 8 (None: not begun)."""
        cards = self.scorecards[seat]
        if hole > len(cards):
            return None
        return _shown(cards[hole - 1])

    def closed(self, seat: int) -> int:
        """How many holes of `seat`'s sheet everyone may see: those closed, or, once the game is
        over, every hole begun."""
        return len(self.scorecards[seat]) if self._result is not None else min(len(self.holes),
                                                                               len(self.scorecards[seat]))

    def closed_sheets(self) -> list[list[dict]]:
        return [[_shown(c) for c in self.scorecards[s][:self.closed(s)]] for s in range(self.n)]

    def closed_totals(self) -> list[int]:
        return [sum(c["score"] for c in cards[:self.closed(s)] if c["score"] is not None)
                for s, cards in enumerate(self.scorecards)]

    def sheet_in_play(self, seat: int) -> dict | None:
        """`seat`'s sheet of the hole in play (None when every hole it began has closed)."""
        shown = self.closed(seat)
        return self.sheet(seat, shown + 1) if shown < len(self.scorecards[seat]) else None

    def sheets(self) -> list[list[dict]]:
        """Every seat's sheet, one entry per hole begun (`pbem show --json` keys it by address)."""
        return [[_shown(c) for c in self.scorecards[s]] for s in range(self.n)]
