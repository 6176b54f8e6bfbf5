"""Open tables: the GM opens a table, players sign up for it by mail, and it becomes a game
(CONTRACT section 13). A layer above the GM (`gm.layers`), registered by the app; the GM knows
nothing of it.

    book      the tables, seats and waiting JOINs in the store
    opening   `pbem table open|list|close`: checked input, the listing, closing
    words     what a message says to the tables (JOIN, LEAVE, LIST)
    signup    the answers by mail: the JOIN's question, its confirmation, LEAVE, LIST
    start     a table becomes a game, or closes, and the clock that starts it
    letters   the tables' own mail (kind `table`)
    layer     the hooks the GM calls
"""
