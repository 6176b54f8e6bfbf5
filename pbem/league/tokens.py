"""A league player's own token: the `gm+<token>@` Reply-To of the league's mail to them.

It is made from `secrets`, begins with `l` (a game's secret is hex, a table's token begins with
`t`), and is kept per league and address: the same reader always gets the same one.
"""
from __future__ import annotations

import secrets
from typing import TypeGuard

from pbem.league import rows as league_rows

__all__ = ["TOKEN_PREFIX", "is_league_token", "token_for"]

TOKEN_PREFIX = "l"
_TOKEN_LENGTH = 17
_HEX = frozenset("0123456789abcdef")


def is_league_token(token: str | None) -> TypeGuard[str]:
    """Whether `token` has a league token's shape (a text check: the store is asked after)."""
    token = (token or "").lower()
    return len(token) == _TOKEN_LENGTH and token[0] == TOKEN_PREFIX and set(token[1:]) <= _HEX


def token_for(store, league_id: str, address: str) -> str:
    """The address's token in the league, made when first needed."""
    return league_rows.league_token(store, league_id, address, TOKEN_PREFIX + secrets.token_hex(8))
