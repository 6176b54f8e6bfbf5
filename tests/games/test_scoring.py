"""What several games share about a game's end (`pbem.games.scoring`)."""
from __future__ import annotations

from pbem.games.scoring import share_the_win


def test_the_lowest_total_wins_and_a_tie_shares_the_win():
    assert share_the_win(["A", "B", "C"], [5, 3, 7]) == ("B wins with 3", (1,))
    assert share_the_win(["A", "B", "C"], [3, 3, 3]) == ("A, B and C share the win with 3", (0, 1, 2))
    assert share_the_win(["A", "B", "C"], [4, 3, 3]) == ("B and C share the win with 3", (1, 2))
