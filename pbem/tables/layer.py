"""The open tables as the GM hears of them (`gm.layers`): the mail they answer themselves
(JOIN, LEAVE, LIST and the answers to a table's mail), and the clock (tables to start)."""
from __future__ import annotations

from datetime import datetime

from pbem.gm.layers import Layer
from pbem.tables import words
from pbem.tables.book import has_open_tables
from pbem.tables.signup import answer
from pbem.tables.start import tick


class TablesLayer(Layer):
    name = "tables"

    def mail(self, door, msg, lines: list, token: str | None):
        # Asked of every message, a player's orders too: a text check first, the store only after.
        table_token = token if token is not None and words.is_table_token(token) else None
        if table_token is None and words.first_verb(lines) not in words.WORDS:
            return None
        if token is not None and table_token is None and words.read(lines).problems:
            return None  # a player's mail to a game ("Leave the flag in ..."): the game's to answer
        return answer(door, msg, lines, table_token)

    def tick(self, gm, now: datetime) -> list[str]:
        if not has_open_tables(gm.store):
            return []
        return tick(gm, now)
