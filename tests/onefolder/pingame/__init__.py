"""Closest to the Pin: a game of two, three holes, one club a hole; the ball nearest the pin wins
the hole. The proof that a game is one folder: this folder and its `SPEC` are all of it."""
