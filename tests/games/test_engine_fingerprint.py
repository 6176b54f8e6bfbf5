"""The card engines play the very same games, pure or compiled (scripts/native.py): a small run of
bench/engine_fingerprint.py (every order, refusal, event, view, record and reload hashed) must
give the digests below. The suite runs it pure, and again in its compiled tier (scripts/test.sh).
A change meant to change the games changes them: run `python bench/engine_fingerprint.py` before
and after, and write the new small digests here with the reason in the commit."""
from __future__ import annotations

from pathlib import Path

from loading import load_script

ROOT = Path(__file__).resolve().parents[2]

# fingerprints(1, 1): games, moves and digest per game type.
SMALL = {
    "golfdeck": (24, 1105, "5cd70dc1388cb00fccf1e7e97f50ab9e4c3dd0815d195544b497813e613ead5d"),
    "golf": (180, 4519, "f115e7d7fb6fb3b14e9db4cdf911224c4ef62b75a15ea3e64db95ea0a9a29422"),
}




def test_the_card_engines_play_the_games_they_always_played():
    assert load_script("bench/engine_fingerprint.py", "pbem_engine_fingerprint").fingerprints(1, 1) == SMALL
