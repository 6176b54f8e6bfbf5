"""P4: what an order costs pbem in a store of 100,000 games in play against one of 100, and the
store's size per finished game. No mail servers: the local transport, as `bench/own_work.py`.

    python bench/scale.py [--rounds R] [games ...]        # default: 3 rounds of 100 100000

For each size a fresh store gets that many MatchPlay games in play: one made by the GM, the rest
its copies (the game row, its seats with secrets of their own, its creation event) written
straight into the store, which is what a store that has seen that many games holds. One whole
turn of g0 (both orders, its reports) is played first and not measured (it pays for the imports
and the templates' first compile); then three turns of 99 other games (both players' orders for
each, drawn at random among the legal ones by one seeded generator: 594 orders, 297 turns
resolved, 594 reports; the same work at every size) are handed to `GM.receive`, and the CPU and
wall milliseconds an order are taken (the orders are written between the measured parts).

A round is one fresh process: it builds a store of each size, then hands their orders over in
turn, a message of one store and then a message of the other, so that what this shared machine
does meanwhile (its speed changes by half from one minute to the next) falls on both alike; the
store built first alternates over the rounds. Printed: each round's figures, the ratio of the
largest store's CPU an order to the smallest's in each round and its median (target: at most
1.1), and the medians. Last, 50
matches are played to their end in a fresh store and the store's growth is divided by them.
"""
from __future__ import annotations

import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
GM, GEORGE, BILL = "gm@example.test", "george@example.test", "bill@example.test"
ORDERS_FOR = 99  # games that get both players' orders in the measured part (g0 is the warm-up)
TURNS = 3  # turns each of them plays, measured


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
    from pbem.gm.courses import load_course
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


def orders(app, game_ids: list[str], rng: random.Random) -> list[bytes]:
    """Both players' orders for the turn each of `game_ids` is on (legal ones, drawn by `rng`)."""
    from mail_e2e import order_mail

    from pbem.games.matchplay import random_orders
    from pbem.gm import games as table_games
    raws = []
    for game in game_ids:
        seats = app.store.seats(game)
        state = table_games.load(app.store, game).state
        for seat in sorted(state.to_move()):
            raws.append(order_mail((GEORGE, BILL)[seat], game, seats[seat].secret,
                                   str(random_orders(state, seat, rng))))
    return raws


def measure(sizes: list[int]) -> list[dict]:
    """One store of each size, built first; then their orders handed over in turn, one message
    of each store after the other, so that whatever the machine does meanwhile falls on both."""
    stores = []
    for games in sizes:
        app = app_in(Path(tempfile.mkdtemp(prefix="pbem-p4-")))
        fill(app, games)
        chosen = [f"g{i}" for i in random.Random(1).sample(range(1, games), min(ORDERS_FOR, games - 1))]
        rng = random.Random(2)  # the games are copies: the same orders at every size
        # g0's turn pays for the imports and the templates' first compile; it is not measured
        assert [app.gm.receive(raw).status for raw in orders(app, ["g0"], rng)] == ["handled", "handled"]
        stores.append({"games": games, "app": app, "chosen": chosen, "rng": rng, "cpu": 0.0, "wall": 0.0,
                       "outcomes": []})
    for _ in range(TURNS):
        for s in stores:
            s["raws"] = orders(s["app"], s["chosen"], s["rng"])  # made between the measured parts
        for i in range(max(len(s["raws"]) for s in stores)):
            for s in stores:
                if i < len(s["raws"]):
                    wall, cpu = time.perf_counter(), time.process_time()
                    s["outcomes"].append(s["app"].gm.receive(s["raws"][i]).status)
                    s["cpu"] += time.process_time() - cpu
                    s["wall"] += time.perf_counter() - wall
    figures = []
    for s in stores:
        outcomes = s["outcomes"]
        assert outcomes.count("handled") == len(outcomes), {o: outcomes.count(o) for o in set(outcomes)}
        size = os.path.getsize(Path(s["app"].config.store))
        s["app"].close()
        figures.append({"games": s["games"], "orders": len(outcomes), "cpu_ms": 1000 * s["cpu"] / len(outcomes),
                        "wall_ms": 1000 * s["wall"] / len(outcomes), "store_mb": size / 1e6})
    return figures


def measure_apart(sizes: list[int]) -> list[dict]:
    """`measure(sizes)` in a fresh process of its own."""
    done = subprocess.run([sys.executable, __file__, "--one", *map(str, sizes)], check=True, capture_output=True,
                          text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def finished_size(matches: int = 50) -> dict:
    """The store's growth per MatchPlay match played to its end by mail (orders, mails kept)."""
    from mail_e2e import order_mail

    from pbem.gm.courses import load_course
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
    args = sys.argv[1:]
    if args[:1] == ["--one"]:
        print(json.dumps(measure([int(a) for a in args[1:]])))
        return
    rounds = 3
    if args[:1] == ["--rounds"]:
        rounds, args = int(args[1]), args[2:]
    sizes = [int(a) for a in args] or [100, 100_000]
    runs: dict[int, list[dict]] = {games: [] for games in sizes}
    for r in range(rounds):
        for figures in measure_apart(sizes if r % 2 == 0 else sizes[::-1]):  # who goes first alternates
            runs[figures["games"]].append(figures)
            print(f"round {r + 1}: {figures['games']:>7} games in play: {figures['cpu_ms']:.2f} ms CPU, "
                  f"{figures['wall_ms']:.2f} ms wall an order, {figures['orders']} orders "
                  f"(store {figures['store_mb']:.0f} MB)", flush=True)
    seen = [{"games": games, "cpu_ms": statistics.median(f["cpu_ms"] for f in runs[games]),
             "wall_ms": statistics.median(f["wall_ms"] for f in runs[games]), "runs": runs[games]}
            for games in sizes]
    for figures in seen:
        print(f"P4 {figures['games']:>7} games in play, median of {rounds}: {figures['cpu_ms']:.2f} ms CPU, "
              f"{figures['wall_ms']:.2f} ms wall an order")
    if len(seen) > 1:
        big, small = runs[sizes[-1]], runs[sizes[0]]
        ratios = [b["cpu_ms"] / s["cpu_ms"] for b, s in zip(big, small)]
        print(f"P4 CPU ratio, {sizes[-1]} over {sizes[0]} games, each round: "
              f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f} (target <= 1.1)")
        print(f"P4 ratio of the medians: CPU {seen[-1]['cpu_ms'] / seen[0]['cpu_ms']:.2f}, "
              f"wall {seen[-1]['wall_ms'] / seen[0]['wall_ms']:.2f}")
    size = finished_size()
    print(f"store per finished match: {size['kb_per_match']:.1f} kB ({size['matches']} matches played to the "
          "end by mail, every order and mail kept)")
    print(json.dumps({"p4": seen, "size": size}))


if __name__ == "__main__":
    main()
