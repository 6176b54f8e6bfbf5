"""P4: what an order costs pbem in a store of 100,000 games in play against one of 100, and the
store's size per finished game. No mail servers: the local transport, as `bench/own_work.py`.

    python bench/scale.py [games ...]        # default: 100 100000

For each size a fresh store gets that many MatchPlay games in play: one made by the GM, the rest
its copies (the game row, its seats with secrets of their own, its creation event) written
straight into the store, which is what a store that has seen that many games holds. Then 400
orders for 200 of those games (both players of each, so 200 turns resolve and 400 reports go
out) are handed to `GM.receive`, and the CPU and wall milliseconds an order are printed, with
the ratio of the largest store to the smallest (target: at most 1.1). Last, 50 matches are
played to their end in a fresh store and the store's growth is divided by them.
"""
from __future__ import annotations

import json
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
ORDERS_FOR = 200  # games that get both players' orders in the measured part


def app_in(folder: Path):
    from pbem.app import App
    from pbem.config import load
    (folder / "pbem.yaml").write_text(f"gm:\n  address: {GM}\n  name: Golf GM\nstore: ./pbem.sqlite3\n"
                                      "transport: local\nlocal:\n  maildir: ./mail\nlog:\n  level: warning\n"
                                      "limits:\n  messages_per_hour: 1000000\n")
    os.chdir(folder)
    return App.open(load(folder / "pbem.yaml"))


def fill(app, games: int) -> None:
    """`games` games in play: g0 made by the GM, the others its copies under new ids."""
    from pbem.courses import load_course
    app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], load_course("parkland"), seed=0,
                    game_id="g0", deadline="48h")
    conn = app.store.conn
    row = conn.execute("SELECT * FROM games WHERE id = 'g0'").fetchone()
    columns = [d[0] for d in conn.execute("SELECT * FROM games LIMIT 0").description]
    seats = conn.execute("SELECT * FROM seats WHERE game_id = 'g0' ORDER BY seat").fetchall()
    seat_columns = [d[0] for d in conn.execute("SELECT * FROM seats LIMIT 0").description]
    created = conn.execute("SELECT at, kind, seat, data FROM events WHERE game_id = 'g0'").fetchone()
    conn.execute("BEGIN IMMEDIATE")
    for start in range(1, games, 10_000):
        ids = [f"g{i}" for i in range(start, min(start + 10_000, games))]
        conn.executemany(f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         [(gid, *row[1:]) for gid in ids])
        conn.executemany(f"INSERT INTO seats ({', '.join(seat_columns)}) VALUES ({', '.join('?' * len(seat_columns))})",
                         [(gid, *seat[1:4], secrets.token_hex(8), *seat[5:]) for gid in ids for seat in seats])
        conn.executemany("INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
                         [(gid, *created) for gid in ids])
    conn.execute("UPDATE outbox SET status = 'sent'")
    conn.execute("COMMIT")


def orders(app, games: int) -> list[bytes]:
    from mail_e2e import order_mail
    chosen = random.Random(1).sample(range(games), min(ORDERS_FOR, games))
    raws = []
    for i in chosen:
        seats = app.store.seats(f"g{i}")
        raws.append(order_mail(GEORGE, f"g{i}", seats[0].secret, "PLAY 4 4 3"))
        raws.append(order_mail(BILL, f"g{i}", seats[1].secret, "PLAY 4 3 4\nSPECIAL BLUE+1 HOLE 2"))
    return raws


def measure(games: int) -> dict:
    app = app_in(Path(tempfile.mkdtemp(prefix="pbem-p4-")))
    fill(app, games)
    raws = orders(app, games)
    app.gm.receive(raws[0])  # the first message pays for the imports; it is not measured
    wall, cpu = time.perf_counter(), time.process_time()
    outcomes = [app.gm.receive(raw).status for raw in raws[1:]]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert outcomes.count("handled") == len(raws) - 1, {s: outcomes.count(s) for s in set(outcomes)}
    size = os.path.getsize("pbem.sqlite3")
    app.close()
    return {"games": games, "cpu_ms": 1000 * cpu / (len(raws) - 1), "wall_ms": 1000 * wall / (len(raws) - 1),
            "store_mb": size / 1e6}


def finished_size(matches: int = 50) -> dict:
    """The store's growth per MatchPlay match played to its end by mail (orders, mails kept)."""
    from mail_e2e import order_mail

    from pbem.courses import load_course
    from pbem.games.matchplay import random_orders
    from pbem.gm import games as table_games
    app = app_in(Path(tempfile.mkdtemp(prefix="pbem-p4-size-")))
    app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], load_course("parkland"), seed=0,
                    game_id="warm")
    app.store.conn.execute("VACUUM")
    before = os.path.getsize("pbem.sqlite3")
    rng = random.Random(2)
    for m in range(matches):
        game = app.gm.new_game("matchplay", [("George", GEORGE), ("Bill", BILL)], load_course("parkland"), seed=m,
                               game_id=f"f{m}")
        seats = app.store.seats(game)
        for _ in range(10):  # six turns make a match; a match closed early ends sooner
            table = table_games.load(app.store, game)
            if table.row.status != "active":
                break
            for seat in sorted(table.state.to_move()):
                text = str(random_orders(table.state, seat, rng))
                app.gm.receive(order_mail((GEORGE, BILL)[seat], game, seats[seat].secret, text))
        assert app.store.game(game).status == "finished"
    app.store.conn.execute("VACUUM")
    after = os.path.getsize("pbem.sqlite3")
    app.close()
    return {"matches": matches, "kb_per_match": (after - before) / matches / 1000}


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [100, 100_000]
    seen = []
    for games in sizes:
        figures = measure(games)
        seen.append(figures)
        print(f"P4 {games:>7} games in play: {figures['cpu_ms']:.2f} ms CPU, {figures['wall_ms']:.2f} ms wall an "
              f"order (store {figures['store_mb']:.0f} MB)", flush=True)
    if len(seen) > 1:
        print(f"P4 ratio, {seen[-1]['games']} over {seen[0]['games']} games: CPU "
              f"{seen[-1]['cpu_ms'] / seen[0]['cpu_ms']:.2f}, wall {seen[-1]['wall_ms'] / seen[0]['wall_ms']:.2f} "
              "(target <= 1.1)")
    size = finished_size()
    print(f"store per finished match: {size['kb_per_match']:.1f} kB ({size['matches']} matches played to the "
          "end by mail, every order and mail kept)")
    print(json.dumps({"p4": seen, "size": size}))


if __name__ == "__main__":
    main()
