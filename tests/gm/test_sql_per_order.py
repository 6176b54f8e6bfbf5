"""What a handled order costs the store, counted in SQL statements with sqlite3's trace callback
(issue 23's target: at most 25 an order, the pass's own reading and sending included). A count,
not a time: the same on a busy machine as on an idle one."""
from __future__ import annotations

import random
import sqlite3

from conftest import kinds

from pbem.games.matchplay import random_orders

MOST_PER_ORDER = 25
MATCHES = 10


def counted(monkeypatch) -> list[str]:
    """Every statement run on any connection opened from now on."""
    statements: list[str] = []
    connect = sqlite3.connect

    def tracing(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(sqlite3, "connect", tracing)
    return statements


def test_a_pass_of_orders_costs_at_most_25_statements_an_order(table, monkeypatch):
    table.pbem("process", now="2026-12-01T09:00:00Z")  # the store made and migrated before counting
    rng = random.Random(3)
    for n in range(MATCHES):
        table.pbem("new-game", "matchplay", "--player", f"p{n}a@example.test", "--player", f"p{n}b@example.test",
                   "--id", f"m{n}", "--deadline", "48h", now="2026-12-01T09:00:00Z")
    orders = 0
    for n in range(MATCHES):
        state = table.load(f"m{n}").state
        for seat, side in enumerate("ab"):
            address = f"p{n}{side}@example.test"
            table.send(address, str(random_orders(state, seat, rng)), subject=f"Re: [m{n}] orders",
                       to=table.reply_to_game(address, f"m{n}"))
            orders += 1
    statements = counted(monkeypatch)
    table.pbem("process", now="2026-12-01T10:00:00Z")
    statements = statements[:]  # the pass's own; the checks below open the store again
    # Every order was played and every turn resolved: the count is of real work.
    assert all(table.show(f"m{n}")["turn"] == 2 for n in range(MATCHES))
    assert kinds(table.mails("p0a@example.test")).count("report") == 1
    assert len(statements) / orders <= MOST_PER_ORDER, (len(statements) / orders, statements[:80])
