"""The robots' strength and speed, from one entry point (issue 20: "bench/robots.py: strength
and speed"). Run by hand from the project's root:

    python bench/robots.py matchplay [--games N] [--course parkland|random] [--procs P]
    python bench/robots.py cards [games] [workers]
    python bench/robots.py onpar [seconds] [most_games]
    python bench/robots.py dicegolf [games]
    python bench/robots.py peer [rounds] [seconds]
    python bench/robots.py pass [rounds]
    python bench/robots.py all [--matches N] [--holes N] [--onpar-seconds S] [--onpar-games N]
                               [--dice-games N] [--rounds R] [--seconds S] [--procs P]

`matchplay`, `cards` and `onpar` are the per-game benches (`bench/robots_<game>.py`), loaded
from their files and run with the arguments given, which they read as their own; what they print
is said in their docstrings. This file only calls them.

`dicegolf`: the strong dice robot (`pbem.robots.decide("dicegolf", ...)`, from its seat's view)
beside `POLICY BEST` on a copy of the game, every decision of every seat over N whole games of
four players (default 200; `lenient_first` off and on in turn). Printed: decisions compared,
mismatches (0 is the target: the robot enters exactly what BEST enters), and the median and 95th
percentile seconds of a decision.

`peer`: the card engines beside the open-source 6-card Golf engine `golfgame` (MIT; three files
kept unchanged in `../shared/peers/golfgame`, loaded from there at run time, never copied), in
one process: one-hole games of four players, every move drawn uniformly from the legal atomic
moves by a seeded `random.Random` (pbem's side by the engine's own `random_orders`, as
`bench/engine.py` plays; the peer's side by the same kind of draw over its actions), the deal
from a seed drawn from the same stream. Two pairs:

- pbem's `golfdeck` against the peer with `flip_mode="always"` (discarding a drawn card obliges
  a flip: golfdeck's DISCARD FLIP);
- pbem's `golf` with `layout=6` against the peer with `flip_mode="never"`.

Rounds alternate which side runs first, so the shared machine's noise falls on both (default 5
rounds of 2 s a side and pair). Printed: each round's holes per second, then for each pair the
median and best holes/s of each side, the ratio pbem/peer of the medians and of the best rounds
(the best round of each is the one the other work on the machine disturbed least; the project
aims at pbem >= 5x the peer), and the turns a hole on each side with the ratio of the medians
weighed by them (turns a second), since the two sides' holes are not of one length (below).
Before the rounds each side plays 0.2 s untimed, so imports and caches are not timed.

What is comparable: the shape of the work (a 52-card deck shuffled from a seed, four 2x3 grids,
two cards of each known at the start, draw from the stock or take the discard, keep or
discard, columns of a rank cancel, a hole ends after a full grid gives the others one more
turn), four seats, one hole a game, a uniform random player on each side, one core.
What is not: the card values (golfdeck's golf-deck cards, golf's classic values, the peer's
Two -2 ...), so scores are not compared, only speed; the end of a hole differs (golfdeck also
ends a hole when the stock is drawn out, where the peer reshuffles the discards; golf's default
`ending=knock` lets the random player KNOCK, so its holes are shorter than the peer's, which end
only on a full grid: see the turns a hole printed beside); golfdeck's two cards are chosen
(REVEAL), golf's `peek=near2` shows the near two to their owner only, the peer's
`initial_flips=2` turns up two chosen cards; pbem does more a move than the peer (checks every
order, keeps the events it narrates, records the chance for `pbem verify`, draws from a SHAKE
generator) and the peer, as it ships, makes a `uuid4` and 52 `Card` dataclasses a game, turns its
options into a dict for an event nobody listens to, and reseeds Python's global `random` from the
operating system after every shuffle (all counted: they are the peer's own cost). The random
player's draws are timed on both sides, as in `bench/engine.py`, which narrows the ratio a
little (pbem's side is the faster, so the same cost is a larger share of it). The peer's
deck takes its seed from Python's global `random`; so that its deals are replayable, the bench
seeds the global `random` from the policy stream before each peer hole (one `random.seed(int)`,
counted on the peer's side).

`pass`: one `pbem process` in which ten robots move (the target: under 3 s). In a fresh folder
with the local transport, ten games of a player against `robot:strong`, of the games a robot
plays in turn but dice golf (whose robot moves only when a hole closes); each player mails one
legal order (the engine's default); the pass that reads the ten mails is timed whole (reading,
checking, the ten players' answers, the robots' moves and the mail they cause, written to the
Maildirs). Printed: each round's seconds and the robot orders it played, and the median and
worst round (default 5 rounds).

`all`: each of the above with small sizes (a full run takes a few minutes), then a summary table
in Markdown for BENCHMARKS.md. The full targets: `all --matches 1000 --holes 2000 --onpar-games
2000 --onpar-seconds 3600 --dice-games 1000 --rounds 7 --seconds 2` (2,000 holes a card
variant, 1,000 matches). A per-game bench that fails is reported in the table and the run goes
on.
"""
from __future__ import annotations

import argparse
import copy
import datetime
import importlib
import importlib.util
import io
import random
import runpy
import statistics
import sys
import time
import traceback
from pathlib import Path

from pbem import robots
from pbem.games import golf, golfdeck
from pbem.games.dicegolf import DiceGolf, Policy
from pbem.games.rng import MIN_SEED_BYTES, seed_from_int

BENCH = Path(__file__).resolve().parent
PEER = Path(__file__).resolve().parents[2] / "shared" / "peers" / "golfgame"
PER_GAME = {"matchplay": "robots_matchplay", "cards": "robots_cards", "onpar": "robots_onpar"}
NAMES = ["Ann", "Bob", "Cy", "Di"]


# -- the per-game benches, called, never copied -------------------------------------------------
def per_game(name: str, args: list[str]) -> None:
    """Run `bench/robots_<game>.py` with `args` as its command line: its `main()` when it has
    one, else the file as `__main__`."""
    stem = PER_GAME[name]
    path = BENCH / f"{stem}.py"
    module = sys.modules.get(stem)
    if module is None:
        spec = importlib.util.spec_from_file_location(stem, path)
        module = importlib.util.module_from_spec(spec)
        # Registered under its own name, so that worker processes can find its functions.
        sys.modules[stem] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[stem]
            raise
    saved = sys.argv
    sys.argv = [str(path), *args]
    try:
        if callable(getattr(module, "main", None)):
            module.main()
        else:
            runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved


# -- dice golf: the robot against POLICY BEST ----------------------------------------------------
def dicegolf_check(games: int) -> tuple[int, int, list[float]]:
    """(decisions compared, mismatches, seconds a decision) over `games` whole games of four."""
    decisions = mismatches = 0
    times: list[float] = []
    for seed in range(games):
        game = DiceGolf.new(NAMES, {"lenient_first": seed % 2 == 1}, seed)
        moves = [0] * len(NAMES)
        while game.result() is None:
            if game.ready():
                game.resolve()
                continue
            for seat in sorted(game.to_move()):
                hole, toss = game.hole_no - 1, game.position(seat)[2] - 1
                twin = copy.deepcopy(game)
                twin.apply(seat, Policy("BEST"))  # a standing policy answers the waiting toss first
                stream = robots.robot_generator(seed_from_int(seed), seat, moves[seat])
                moves[seat] += 1
                started = time.perf_counter()
                text = robots.decide("dicegolf", game.view(seat), seat, "strong", dict(game.options), stream)
                times.append(time.perf_counter() - started)
                game.apply(seat, DiceGolf.command_from_text(text))
                decisions += 1
                mine = game.scorecards[seat][hole]["tosses"][toss]["entry"]
                mismatches += mine != twin.scorecards[seat][hole]["tosses"][toss]["entry"]
    return decisions, mismatches, times


def dicegolf(games: int) -> dict:
    decisions, mismatches, times = dicegolf_check(games)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"dicegolf, {robots.version('dicegolf')}: {games} whole games of {len(NAMES)} "
          f"(lenient_first off and on in turn): {decisions:,} decisions compared with POLICY BEST, "
          f"{mismatches} mismatches; decision median {statistics.median(times) * 1e6:.0f} us, "
          f"p95 {p95 * 1e6:.0f} us", flush=True)
    return {"games": games, "decisions": decisions, "mismatches": mismatches}


# -- the peer engine, side by side ---------------------------------------------------------------
def load_peer():
    """The peer's `game` module, imported from its folder (which is on the path only meanwhile)."""
    if not (PEER / "game.py").is_file():
        raise SystemExit(f"the peer engine is not at {PEER} (see DESIGN.md: ../shared/peers/golfgame)")
    folder = str(PEER)
    sys.path.insert(0, folder)
    try:
        module = importlib.import_module("game")
    finally:
        sys.path.remove(folder)
    if Path(module.__file__).resolve().parent != PEER.resolve():
        raise SystemExit(f"`import game` found {module.__file__}, not the peer's game.py")
    return module


def pbem_hole(module, engine, options: dict):
    """One random-player one-hole game of four on pbem's engine; its turns (after the reveals)."""
    random_orders = module.random_orders
    reveals = len(NAMES) if engine is golfdeck.GolfDeck else 0

    def play(policy: random.Random) -> int:
        game = engine.new(NAMES, {**options, "holes": 1}, policy.randbytes(MIN_SEED_BYTES), None)
        while game.result() is None:
            seat = min(game.to_move())
            game.apply(seat, random_orders(game, seat, policy))
            game.drain_events()
        return game.turn - 1 - reveals
    return play


def peer_hole(peer, flip_mode: str):
    """One random-player one-hole game of four on the peer's engine; its turns. The draws mirror
    golfdeck's `random_orders`: 6 takes of the discard (one a position) and the stock; after a
    stock card 6 keeps, and a discard (with `always`, one a face-down card to turn)."""
    Game, Player, options = peer.Game, peer.Player, peer.GameOptions(flip_mode=flip_mode)
    in_play = (peer.GamePhase.PLAYING, peer.GamePhase.FINAL_TURN)
    always = flip_mode == "always"
    ids = [f"p{i}" for i in range(len(NAMES))]

    def play(policy: random.Random) -> int:
        draw = policy.random
        random.seed(policy.randrange(1 << 30))  # the peer's deck seeds itself from the global random
        game = Game()
        for pid, name in zip(ids, NAMES):
            game.add_player(Player(pid, name))
        game.start_game(1, 1, options)
        for pid in ids:
            first, second = int(draw() * 6), int(draw() * 5)
            if not game.flip_initial_cards(pid, [first, second + (second >= first)]):
                raise RuntimeError("the peer refused an initial flip")
        turns = 0
        while game.phase in in_play:
            player = game.current_player()
            pid = player.id
            turns += 1
            k = int(draw() * 7)
            if k < 6 and game.discard_pile:
                game.draw_card(pid, "discard")
                if game.swap_card(pid, k) is None:
                    raise RuntimeError("the peer refused a swap")
                continue
            if game.draw_card(pid, "deck") is None:
                if game.phase in in_play:
                    raise RuntimeError("the peer refused a draw")
                break  # stock and discards drawn out: the peer ends the round
            down = [i for i, card in enumerate(player.cards) if not card.face_up] if always else ()
            k = int(draw() * (6 + (len(down) if always else 1)))
            if k < 6:
                ok = game.swap_card(pid, k) is not None
            else:
                ok = game.discard_drawn(pid)
                if ok and down:
                    ok = game.flip_and_end_turn(pid, down[k - 6])
            if not ok:
                raise RuntimeError("the peer refused a move")
        return turns
    return play


def rate(play, seconds: float) -> tuple[float, float]:
    """(holes a second, turns a hole) of `play` for about `seconds`, from a fixed stream."""
    policy = random.Random(2026)
    holes = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            turns += play(policy)
        holes += 50
    return holes / (time.perf_counter() - start), turns / holes


def peer(rounds: int, seconds: float) -> list[dict]:
    game = load_peer()
    pairs = [("golfdeck", "always", pbem_hole(golfdeck, golfdeck.GolfDeck, {}), peer_hole(game, "always")),
             ("golf layout=6", "never", pbem_hole(golf, golf.Golf, {"layout": 6}), peer_hole(game, "never"))]
    rates = {(name, side): [] for name, *_ in pairs for side in ("pbem", "peer")}
    turns = {}
    for _, _, ours, theirs in pairs:  # warm up: imports, caches and tables built before timing
        rate(ours, 0.2)
        rate(theirs, 0.2)
    for r in range(rounds):
        for name, mode, ours, theirs in pairs:
            order = [("pbem", ours), ("peer", theirs)]
            for side, play in order if r % 2 == 0 else order[::-1]:
                per_second, per_hole = rate(play, seconds)
                rates[name, side].append(per_second)
                turns[name, side] = per_hole
            print(f"round {r + 1}, {name} v peer flip_mode={mode}: pbem {rates[name, 'pbem'][-1]:,.0f}, "
                  f"peer {rates[name, 'peer'][-1]:,.0f} holes/s", flush=True)
    out = []
    for name, mode, *_ in pairs:
        ours, theirs = rates[name, "pbem"], rates[name, "peer"]
        row = {"name": name, "mode": mode, "rounds": rounds, "seconds": seconds,
               "pbem": statistics.median(ours), "pbem_best": max(ours),
               "peer": statistics.median(theirs), "peer_best": max(theirs),
               "turns_pbem": turns[name, "pbem"], "turns_peer": turns[name, "peer"]}
        row["ratio"], row["ratio_best"] = row["pbem"] / row["peer"], row["pbem_best"] / row["peer_best"]
        row["ratio_turns"] = row["ratio"] * row["turns_pbem"] / row["turns_peer"]
        out.append(row)
        print(f"{name}, 4 players, random one-hole games, v peer flip_mode={mode}: "
              f"pbem {row['pbem']:,.0f} holes/s median ({row['pbem_best']:,.0f} best), "
              f"peer {row['peer']:,.0f} ({row['peer_best']:,.0f} best): pbem/peer {row['ratio']:.2f}x by "
              f"the medians, {row['ratio_best']:.2f}x by the bests ({rounds} alternating rounds of "
              f"{seconds:g} s a side, one core); turns a hole pbem {row['turns_pbem']:.1f}, "
              f"peer {row['turns_peer']:.1f}, so by turns a second {row['ratio_turns']:.2f}x "
              f"(medians)", flush=True)
    return out


# -- all of it, and the table ----------------------------------------------------------------
class Tee(io.TextIOBase):
    """What is printed goes to the terminal and is kept, line by line, for the summary."""
    def __init__(self, out):
        self.out, self.text = out, []

    def write(self, s: str) -> int:
        self.out.write(s)
        self.text.append(s)
        return len(s)

    def flush(self) -> None:
        self.out.flush()

    def lines(self) -> list[str]:
        return [line.strip() for line in "".join(self.text).splitlines() if line.strip()]


def one_pass() -> tuple[float, int, int]:
    """(seconds of the timed pass, robot orders it played, robots that moved in it)."""
    import contextlib
    import email.message
    import json
    import mailbox
    import os
    import tempfile
    from pbem import cli
    from pbem.robots import robot_types
    # Dice golf's robot moves only when a hole closes, so the pass would not always move it.
    kinds = [t for t in ("matchplay", "onpar", "golfdeck", "golf") if t in robot_types()]
    with tempfile.TemporaryDirectory() as root:
        config = Path(root) / "pbem.yaml"
        config.write_text("gm: {address: gm@example.test, name: Golf GM}\nstore: ./pbem.sqlite3\n"
                          "transport: local\nlocal: {maildir: ./mail}\n")
        os.environ["PBEM_CONFIG"], os.environ["PBEM_NOW"] = str(config), "2026-12-01T10:00:00Z"
        quiet = io.StringIO()

        def pbem(*args: str) -> str:
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(quiet):
                cli.main(list(args))
            return out.getvalue()

        players = []
        for n in range(10):
            kind, address = kinds[n % len(kinds)], f"p{n}@example.test"
            extra = ["--option", "holes=2"] if kind in ("onpar", "golf", "golfdeck") else []
            pbem("new-game", kind, "--player", address, "--player", "robot:strong", "--id", f"g{n}", *extra)
            players.append((f"g{n}", address))
        box = mailbox.Maildir(str(Path(root) / "mail" / "gm@example.test"), factory=None, create=True)
        before = []
        for game, address in players:
            shown = json.loads(pbem("show", game, "--json"))
            before.append(sum(1 for ev in shown["history"] if ev.get("robot")))
            from pbem.gm import games
            from pbem.store import Store
            store = Store(Path(root) / "pbem.sqlite3")
            table = games.load(store, game)
            order = _whole_move(table.state)
            secret = table.seats[0].secret
            store.close()
            msg = email.message.EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = address, "gm@example.test", f"[{game}] orders"
            msg["Message-ID"] = f"<{game}@bench.test>"
            msg.set_content(f"PASSWORD {secret}\n{order}\n")
            box.add(msg.as_bytes())
        os.environ["PBEM_NOW"] = "2026-12-01T10:05:00Z"
        start = time.perf_counter()
        pbem("process")
        seconds = time.perf_counter() - start
        after = [sum(1 for ev in json.loads(pbem("show", g, "--json"))["history"] if ev.get("robot"))
                 for g, _ in players]
    return seconds, sum(after) - sum(before), sum(1 for b, a in zip(before, after) if a > b)


def _whole_move(state) -> str:
    """Seat 0's whole move as one mail: its default orders until the move is its no more (a
    card game's DRAW STOCK and then KEEP), so that the robot after it owes a move in the pass."""
    scratch, lines = type(state).from_dict(state.to_dict()), []
    while 0 in scratch.to_move() and len(lines) < 6 and scratch.result() is None:
        order = scratch.default_orders(0)
        lines.append(str(order))
        scratch.apply(0, order)
        if hasattr(scratch, "drain_events"):
            scratch.drain_events()
        if any(s != 0 for s in scratch.to_move()):
            break
    return "\n".join(lines)


def robot_pass(rounds: int) -> dict:
    import logging
    logging.disable(logging.INFO)
    times = []
    for r in range(rounds):
        seconds, orders, robots_moved = one_pass()
        times.append(seconds)
        print(f"round {r + 1}: {seconds:.2f} s, {robots_moved} robots moved, {orders} robot orders in the pass",
              flush=True)
    result = {"median": statistics.median(times), "worst": max(times), "rounds": rounds}
    print(f"a pass of ten players' orders and their robots' replies: median {result['median']:.2f} s, "
          f"worst {result['worst']:.2f} s over {rounds} rounds (target: under 3 s)")
    return result


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def run_all(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="robots.py all")
    ap.add_argument("--matches", type=int, default=40, help="matchplay matches an opponent (target 1000)")
    ap.add_argument("--holes", type=int, default=20, help="card one-hole games a variant (target 2000)")
    ap.add_argument("--onpar-seconds", type=float, default=60.0)
    ap.add_argument("--onpar-games", type=int, default=40, help="On Par one-hole games (target 2000)")
    ap.add_argument("--dice-games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3, help="peer rounds")
    ap.add_argument("--seconds", type=float, default=1.0, help="peer seconds a side a round")
    ap.add_argument("--procs", type=int, default=1, help="worker processes of matchplay and cards")
    args = ap.parse_args(argv)
    today = datetime.date.today().isoformat()
    rows: list[tuple[str, str, str, str]] = []
    started = time.perf_counter()
    runs = [("matchplay", ["--games", str(args.matches), "--procs", str(args.procs)]),
            ("cards", [str(args.holes), str(args.procs)]),
            ("onpar", [str(args.onpar_seconds), str(args.onpar_games)])]
    for name, sub in runs:
        command = f"`python bench/robots.py {name} {' '.join(sub)}`"
        print(f"\n## {name}: {command}", flush=True)
        tee, saved = Tee(sys.stdout), sys.stdout
        sys.stdout = tee
        try:
            per_game(name, sub)
            failure = None
        except (Exception, SystemExit) as error:  # someone's half-edited bench: say so, go on
            traceback.print_exc(file=saved)
            failure = f"failed: {type(error).__name__}: {error}"
        finally:
            sys.stdout = saved
        for i, line in enumerate(tee.lines()):
            rows.append((name, f"as printed by {command}" if i == 0 else "same", line, ""))
        if failure:
            rows.append((name, command, failure, ""))
    print(f"\n## dicegolf: `python bench/robots.py dicegolf {args.dice_games}`", flush=True)
    d = dicegolf(args.dice_games)
    rows.append(("dicegolf", f"strong enters what POLICY BEST enters, {d['games']} whole games of 4: "
                 "mismatches / decisions", f"**{d['mismatches']}** / {d['decisions']:,}", "0 (exactly)"))
    print(f"\n## peer: `python bench/robots.py peer {args.rounds} {args.seconds:g}`", flush=True)
    for p in peer(args.rounds, args.seconds):
        rows.append((f"{p['name']} v peer golfgame (flip_mode={p['mode']})",
                     f"random one-hole games of 4, holes/s pbem / peer, medians (bests); {p['rounds']} "
                     f"alternating rounds of {p['seconds']:g} s; turns a hole pbem / peer, and the "
                     "ratio by turns a second (medians)",
                     f"{p['pbem']:,.0f} / {p['peer']:,.0f} ({p['pbem_best']:,.0f} / {p['peer_best']:,.0f}): "
                     f"**{p['ratio']:.2f}x** ({p['ratio_best']:.2f}x); {p['turns_pbem']:.1f} / "
                     f"{p['turns_peer']:.1f}, {p['ratio_turns']:.2f}x",
                     ">= 5x"))
    print("\n## pass: `python bench/robots.py pass 5`", flush=True)
    p = robot_pass(5)
    rows.append(("all", "one pbem process: ten players' orders, ten robots' replies (matchplay, onpar, "
                 f"golfdeck, golf in turn), seconds: median / worst of {p['rounds']}",
                 f"**{p['median']:.2f}** / {p['worst']:.2f}", "< 3 s"))
    print(f"\n## summary ({time.perf_counter() - started:.0f} s)\n")
    print("| date | game | figure | measured | target |")
    print("|---|---|---|---|---|")
    for game_name, figure, measured, target in rows:
        print(f"| {today} | {cell(game_name)} | {cell(figure)} | {cell(measured)} | {cell(target)} |")


def main() -> None:
    commands = (*PER_GAME, "dicegolf", "peer", "pass", "all")
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        raise SystemExit(f"usage: python bench/robots.py {'|'.join(commands)} [args]\n\n{__doc__}")
    command, args = sys.argv[1], sys.argv[2:]
    if command in PER_GAME:
        per_game(command, args)
    elif command == "dicegolf":
        dicegolf(int(args[0]) if args else 200)
    elif command == "peer":
        peer(int(args[0]) if args else 5, float(args[1]) if len(args) > 1 else 2.0)
    elif command == "pass":
        robot_pass(int(args[0]) if args else 5)
    else:
        run_all(args)


if __name__ == "__main__":
    main()
