"""Players who vanish (issue 34, CONTRACT section 14): do the games still finish, how long do they
take, and how much mail does a player get, with pbem's features for it on and off?

    python bench/noshow.py [--players 40] [--p 0.3] [--gone 0.1] [--days 60] [--seed 1]
                           [--mode both|on|off] [--json]

The real pbem runs in a fresh folder over the local (Maildir) transport, in this process
(`pbem.cli.main`, as the golden transcripts drive it), with a simulated clock (`PBEM_NOW`) that
steps an hour at a time: each hour the players' mail due by then is written into the GM's
Maildir, one `pbem process` pass runs, and each player reads what came.

The players: every player plays one MatchPlay match (orders sent together, a deadline a turn)
and one four-player golfdeck game (round the table, a deadline a move); so 40 players make 20
matches and 10 card games. A tenth of them (drawn by the seed) are gone for good: they never
answer anything. Every other player misses each deadline with probability p, decided when the
move falls due; otherwise they answer it after a delay (exponential, mean 6 hours, at least 30
minutes, at the latest an hour before the deadline) with a legal move drawn at random
(the game's `random_orders` on the game's state). The missed-deadline policy is pbem's default
(`autoplay`).

Features off: no reminders (`games.reminder_before: off`), no takeover, no digests: a missed
deadline is only played by the policy. Features on: `games.takeover_after: 2` (the strong robot
plays a seat after two missed deadlines in a row, until its player writes again), reminders
12 hours before each deadline (`games.reminder_before: 12h`), and half of the players who are
not gone (drawn by the seed) send `SET DIGEST DAILY` in the first hours. A player whose seat the
robot took (the notice says so) writes `STATUS` to the game after the same kind of delay, which
gives the seat back. The players do not answer a reminder more often than a turn: p is the same
with reminders as without (the reminders' mail is counted, their help is not modelled).

Measured: the share of games finished by the horizon, the mean days a finished game took (by
type, and for the games with a player gone for good), and the mails per player per day over the
days that player had a game running: "asks" is a mail that asks something of its reader (a
welcome, turn, reminder, error, ack or other answer, a report, result or notice of a game in
which the reader owes a move right after the pass that sent it, and the reader's own notices that
a robot plays their seat and that it is theirs again), "other" the rest (a report of
a game in which the reader owes nothing, a result, a notice, a digest). For the digest readers
the most "other" mails on one day (UTC) is printed too (the target is at most 2), with the days
over 2, the kinds of such mail and the worst reader's worst day.

The field (who is gone, who plays whom, each game's seed) and the digest readers come from
random streams of their own, so both runs of one seed play the same games; the players' draws
(a miss, a delay, a move) follow what happens and part ways. Printed: a Markdown table, features
off and on side by side (`--json`: each run's figures).
"""
from __future__ import annotations

import argparse
import email.message
import email.parser
import email.policy
import email.utils
import json
import mailbox
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem import cli  # noqa: E402
from pbem.gm import games as gm_games  # noqa: E402
from pbem.gm.takeover import robot_played  # noqa: E402
from pbem.games.golfdeck.engine import random_orders as golfdeck_orders  # noqa: E402
from pbem.games.matchplay.engine import random_orders as matchplay_orders  # noqa: E402
from pbem.store import LogEvent, Store  # noqa: E402

GM = "gm@example.test"
START = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # a Monday morning
COURSE = "445 345 434 543 434 454"
# The kinds that ask something of their reader whatever the game's state (CONTRACT section 14:
# a turn, a reminder, an error, an answer to the reader's own message, a confirmation).
ASKING = frozenset({"welcome", "turn", "reminder", "error", "ack", "status", "history", "help", "table",
                    "ratings"})
# The kinds that ask something only when the reader owes a move in that game.
GAME_NEWS = frozenset({"report", "result", "notice", "standings", "press"})
# A player's own notices of a takeover (it asks them to write back for their seat) and of their
# return (it answers the mail that took the seat back): pbem sends both at once, as it does all
# mail that asks something of its reader (CONTRACT section 14), whatever the game waits for.
OWN_SEAT_NOTICES = ("A robot plays your seat now", "Your seat is yours again")
ORDERS = {"matchplay": matchplay_orders, "golfdeck": golfdeck_orders}
MILESTONES = (7, 14, 30)  # the share of games finished by these days is printed too
TRIES = 5  # a move answered more often than this (each refused) stops being answered: a bug to report


@dataclass
class Settings:
    players: int = 40
    p: float = 0.3
    gone: float = 0.1
    days: int = 60
    seed: int = 1
    features: bool = True
    matchplay_deadline: str = "2d"
    golfdeck_deadline: str = "1d"
    golfdeck_holes: int = 2
    card_seats: int = 4
    digest_share: float = 0.5
    takeover_after: int = 2
    mean_delay_h: float = 6.0  # a player's answer comes this long after the move falls due, on average
    gone_addresses: tuple[str, ...] | None = None  # who is gone for good (None: drawn by the seed)


@dataclass
class Game:
    id: str
    type: str
    players: list[str]  # addresses, seat by seat
    created: datetime
    finished: datetime | None = None


@dataclass
class Player:
    address: str
    name: str
    gone: bool
    digest: bool = False
    reply_to: dict[str, str] = field(default_factory=dict)  # game id -> the Reply-To with the secret
    seen: set[str] = field(default_factory=set)  # Maildir file names read
    asks: int = 0
    other: int = 0
    other_by_day: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    other_kinds: Counter = field(default_factory=Counter)  # the kinds of the mail that asked nothing
    log: list = field(default_factory=list)  # (when, game, kind, subject) of each such mail
    last_mail: datetime | None = None  # when the last mail came (a digest may come after the last game)


@dataclass
class Result:
    settings: Settings
    games: list[Game]
    players: list[Player]
    takeovers: int
    taken_back: int
    moves_sent: int
    refused: int
    wall: float
    passes: int

    def summary(self) -> dict:
        s = self.settings
        end = START + timedelta(days=s.days)
        gone = {p.address for p in self.players if p.gone}
        out: dict = {"features": "on" if s.features else "off", "players": s.players, "p": s.p,
                     "gone": sorted(gone), "days": s.days, "seed": s.seed, "games": len(self.games)}

        def block(games: list[Game]) -> dict:
            done = [g for g in games if g.finished is not None]
            days = [(g.finished - g.created).total_seconds() / 86400 for g in done]  # type: ignore[operator]
            by = {f"by_day_{d}": round(sum(1 for x in days if x <= d) / len(games), 3) if games else None
                  for d in MILESTONES if d < s.days}
            return {"games": len(games), "finished": len(done),
                    "share": round(len(done) / len(games), 3) if games else None, **by,
                    "mean_days": round(statistics.fmean(days), 2) if days else None,
                    "max_days": round(max(days), 2) if days else None}

        out["all"] = block(self.games)
        for kind in ("matchplay", "golfdeck"):
            out[kind] = block([g for g in self.games if g.type == kind])
        out["with_gone"] = block([g for g in self.games if gone & set(g.players)])
        out["without_gone"] = block([g for g in self.games if not gone & set(g.players)])

        def span_days(p: Player) -> float:
            mine = [g for g in self.games if p.address in g.players]
            last = max([g.finished or end for g in mine] + [p.last_mail or START])
            return max((last - START).total_seconds() / 86400, 1.0)

        def rates(players: list[Player]) -> dict:
            if not players:
                return {"players": 0}
            asks = [p.asks / span_days(p) for p in players]
            other = [p.other / span_days(p) for p in players]
            return {"players": len(players), "asks_per_day": round(statistics.fmean(asks), 2),
                    "other_per_day": round(statistics.fmean(other), 2),
                    "most_other_in_a_day": max(max(p.other_by_day.values(), default=0) for p in players),
                    "days_over_2": sum(1 for p in players for n in p.other_by_day.values() if n > 2),
                    "player_days": round(sum(span_days(p) for p in players))}

        active = [p for p in self.players if not p.gone]
        out["mail_all"] = rates(self.players)
        out["mail_digest_readers"] = rates([p for p in active if p.digest])
        out["mail_others_active"] = rates([p for p in active if not p.digest])
        out["mail_gone"] = rates([p for p in self.players if p.gone])
        out["kinds"] = dict(sum((p.kinds for p in self.players), Counter()))
        readers = [p for p in active if p.digest]
        out["digest_readers_other_kinds"] = dict(sum((p.other_kinds for p in readers), Counter()))
        worst = max(readers, key=lambda p: max(p.other_by_day.values(), default=0), default=None)
        if worst is not None and worst.other_by_day:
            day = max(worst.other_by_day, key=worst.other_by_day.__getitem__)
            out["digest_reader_worst_day"] = [f"{w:%m-%d %H:%M} {k} {subj}" for w, g, k, subj in worst.log
                                              if w.date() == day]
        out["takeovers"] = self.takeovers
        out["taken_back"] = self.taken_back
        out["moves_sent"] = self.moves_sent
        out["refused"] = self.refused
        out["passes"] = self.passes
        out["wall_s"] = round(self.wall, 1)
        return out


class World:
    """One GM in `root` and its players, on a simulated clock."""

    def __init__(self, root: Path, s: Settings):
        self.root, self.s = root, s
        self.now = START
        # The field (who is gone, who plays whom, each game's seed) is drawn from a stream of its
        # own, so that both runs of one seed, features on and off, play the same games.
        self.field = random.Random(s.seed)
        self.rng = random.Random(f"players {s.seed}")
        self.moves_rng = random.Random(s.seed * 7919 + 1)
        config = (f"gm:\n  address: {GM}\n  name: Golf GM\n  admins: [steward@example.test]\n"
                  "store: ./pbem.sqlite3\ntransport: local\nlocal:\n  maildir: ./mail\nlog:\n  level: warning\n"
                  "limits:\n  messages_per_hour: 100000\n"
                  f"games:\n  reminder_before: '{'12h' if s.features else 'off'}'\n"
                  f"  takeover_after: {s.takeover_after if s.features else 0}\n")
        (root / "pbem.yaml").write_text(config)
        (root / "mail").mkdir()
        self.box = mailbox.Maildir(str(root / "mail" / GM), factory=None, create=True)
        self.counter = 0
        self.players: dict[str, Player] = {}
        self.games: dict[str, Game] = {}
        # (game, seat, deadline) -> when the player answers (None: this deadline is missed)
        self.plans: dict[tuple[str, int, str], datetime | None] = {}
        self.tries: Counter = Counter()
        self.comebacks: dict[tuple[str, str], datetime] = {}  # (address, game) -> when STATUS goes
        self.outgoing: list[tuple[datetime, str, str, str]] = []  # (when, address, game, text)
        self.takeovers = self.taken_back = self.moves_sent = self.refused = self.statuses = 0
        self.passes = 0
        self.refusals: list[str] = []  # the first few error mails' text, to say why
        self.parser = email.parser.BytesHeaderParser(policy=email.policy.default)

    # -- pbem itself --------------------------------------------------------------------------
    def pbem(self, *args: str) -> str:
        env = {"PBEM_CONFIG": str(self.root / "pbem.yaml"), "PBEM_NOW": self.now.strftime("%Y-%m-%dT%H:%M:%SZ")}
        code, out, err = cli.run_with(list(args), env)
        if code != 0:
            raise RuntimeError(f"pbem {' '.join(args)} -> {code}: {err}")
        return out

    # -- the field ----------------------------------------------------------------------------
    def setup(self) -> None:
        s = self.s
        seats = s.card_seats
        if s.players % 2 or s.players % seats:
            raise SystemExit(f"--players must be a multiple of 2 and of {seats}")
        addresses = [f"p{k:02d}@example.test" for k in range(s.players)]
        if s.gone_addresses is not None:
            gone = set(s.gone_addresses)
        else:
            gone = set(self.field.sample(addresses, round(s.players * s.gone)))
        for k, addr in enumerate(addresses):
            self.players[addr] = Player(addr, f"Player {k:02d}", addr in gone)
        active = [a for a in addresses if a not in gone]
        readers = random.Random(f"digests {s.seed}")
        if s.features:
            for addr in readers.sample(active, round(len(active) * s.digest_share)):
                self.players[addr].digest = True
        order = addresses[:]
        self.field.shuffle(order)
        for k in range(0, s.players, 2):
            self.new_game("matchplay", f"m{k // 2 + 1:02d}", order[k:k + 2], "--course", COURSE,
                          "--deadline", s.matchplay_deadline)
        self.field.shuffle(order)
        for k in range(0, s.players, seats):
            self.new_game("golfdeck", f"d{k // seats + 1:02d}", order[k:k + seats],
                          "--option", f"holes={s.golfdeck_holes}", "--deadline", s.golfdeck_deadline)
        self.read_mail()
        # The digest readers say so in the first hours, in a reply to their match's welcome.
        for p in self.players.values():
            if p.digest:
                game = next(g.id for g in self.games.values() if g.type == "matchplay" and p.address in g.players)
                self.outgoing.append((self.now + timedelta(minutes=readers.randint(10, 240)), p.address, game,
                                      "SET DIGEST DAILY"))

    def new_game(self, game_type: str, game_id: str, players: list[str], *extra: str) -> None:
        args = ["new-game", game_type, "--id", game_id, "--seed", str(self.field.randrange(1 << 30)), *extra]
        for addr in players:
            args += ["--player", f"{self.players[addr].name} <{addr}>"]
        self.pbem(*args)
        self.games[game_id] = Game(game_id, game_type, players, self.now)

    # -- mail ---------------------------------------------------------------------------------
    def send(self, addr: str, game_id: str, text: str) -> None:
        p = self.players[addr]
        self.counter += 1
        msg = email.message.EmailMessage()
        msg["From"] = f"{p.name} <{addr}>"
        msg["To"] = p.reply_to[game_id]
        msg["Subject"] = f"Re: [{game_id}] orders"
        msg["Date"] = email.utils.format_datetime(self.now)
        msg["Message-ID"] = f"<n{self.counter}@player.test>"
        msg.set_content(text + "\n")
        self.box.add(msg.as_bytes())

    def read_mail(self, owed: dict[str, set[int]] | None = None) -> list[tuple[str, str, str]]:
        """Each player reads the mail that came; returns (address, game, kind) of each."""
        got = []
        for p in self.players.values():
            folder = self.root / "mail" / p.address / "new"
            if not folder.is_dir():
                continue
            for name in sorted(os.listdir(folder)):
                if name in p.seen:
                    continue
                p.seen.add(name)
                with open(folder / name, "rb") as fh:
                    head = self.parser.parse(fh)
                kind, game_id = str(head["X-PBEM-Kind"] or ""), str(head["X-PBEM-Game"] or "")
                if game_id and game_id not in p.reply_to and head["Reply-To"] and kind != "digest":
                    p.reply_to[game_id] = email.utils.parseaddr(str(head["Reply-To"]))[1]
                p.kinds[kind] += 1
                asks = kind in ASKING
                if kind in GAME_NEWS and owed is not None and game_id in self.games:
                    seat = self.games[game_id].players.index(p.address)
                    asks = seat in owed.get(game_id, set()) or str(head["Subject"]).endswith(OWN_SEAT_NOTICES)
                when = email.utils.parsedate_to_datetime(str(head["Date"]))
                p.last_mail = max(p.last_mail or when, when)
                if asks:
                    p.asks += 1
                else:
                    p.other += 1
                    p.other_by_day[when.date()] += 1
                    p.other_kinds[kind] += 1
                    p.log.append((when, game_id, kind, str(head["Subject"])))
                if kind == "error":
                    self.refused += 1
                    if len(self.refusals) < 5:
                        body = email.message_from_bytes((folder / name).read_bytes(), policy=email.policy.default)
                        part = body.get_body(preferencelist=("plain",))
                        self.refusals.append(part.get_content() if part is not None else "")
                got.append((p.address, game_id, kind))
        return got

    # -- the clock ----------------------------------------------------------------------------
    def delay(self, deadline: datetime | None) -> datetime:
        wait = timedelta(hours=max(0.5, self.rng.expovariate(1 / self.s.mean_delay_h)))
        at = self.now + wait
        if deadline is not None:  # the pass an hour before the deadline takes it, the one at it no more
            at = min(at, deadline - timedelta(hours=1))
        return max(at, self.now)

    def look(self) -> dict[str, set[int]]:
        """What each game owes now, from the store, and each player's plan for a move newly owed.
        Returns the seats owing a move (their players', not the robot's), by game."""
        owed: dict[str, set[int]] = {}
        store = Store(self.root / "pbem.sqlite3")
        try:
            for g in self.games.values():
                if g.finished is not None:
                    continue
                table = gm_games.load(store, g.id)
                assert table is not None
                if table.row.status != "active":
                    g.finished = self.now
                    continue
                robots = robot_played(store, table)
                owing = set(table.state.to_move()) - robots
                owed[g.id] = owing
                deadline = table.row.deadline
                for seat in owing:
                    key = (g.id, seat, deadline.isoformat() if deadline else "")
                    if key in self.plans:
                        continue
                    p = self.players[g.players[seat]]
                    miss = p.gone or self.rng.random() < self.s.p
                    self.plans[key] = None if miss else self.delay(deadline)
                for seat in robots:
                    p = self.players[g.players[seat]]
                    if not p.gone and (p.address, g.id) not in self.comebacks:
                        self.comebacks[(p.address, g.id)] = self.delay(None)
        finally:
            store.close()
        return owed

    def act(self) -> None:
        """The players' mail due by now goes into the GM's Maildir."""
        due = [o for o in self.outgoing if o[0] <= self.now]
        self.outgoing = [o for o in self.outgoing if o[0] > self.now]
        for _, addr, game_id, text in due:
            self.send(addr, game_id, text)
        for (addr, game_id), when in list(self.comebacks.items()):
            if when <= self.now:
                self.send(addr, game_id, "STATUS")
                del self.comebacks[(addr, game_id)]
                self.statuses += 1
        if not any(at is not None and at <= self.now for at in self.plans.values()):
            return
        store = Store(self.root / "pbem.sqlite3")
        try:
            for key, at in list(self.plans.items()):
                if at is None or at > self.now:
                    continue
                game_id, seat, deadline = key
                g = self.games[game_id]
                table = gm_games.load(store, game_id)
                assert table is not None
                state = table.state
                current = table.row.deadline.isoformat() if table.row.deadline else ""
                if (g.finished is not None or seat not in state.to_move() or current != deadline
                        or self.tries[key] >= TRIES):
                    self.plans[key] = None
                    continue
                orders = ORDERS[g.type](state, seat, self.moves_rng)
                if orders is None:
                    self.plans[key] = None
                    continue
                self.send(g.players[seat], game_id, str(orders))
                self.moves_sent += 1
                self.tries[key] += 1
                # A move in two parts (a card drawn, then kept) is answered again an hour later.
                self.plans[key] = self.now + timedelta(hours=1)
        finally:
            store.close()

    def run(self) -> None:
        end = START + timedelta(days=self.s.days)
        owed = self.look()
        # After the last game ends the clock runs one more day, for the digests still held.
        while self.now < end:
            if all(g.finished is not None for g in self.games.values()):
                if self.now >= max(g.finished for g in self.games.values()) + timedelta(days=1):  # type: ignore[type-var]
                    break
            self.now += timedelta(hours=1)
            self.act()
            self.pbem("process")
            self.passes += 1
            owed = self.look()
            self.read_mail(owed)
        # The mail of the last pass has been read; count takeovers from the log.
        store = Store(self.root / "pbem.sqlite3")
        try:
            kinds = Counter(ev["kind"] for g in self.games.values() for ev in store.events(g.id))
            self.takeovers, self.taken_back = kinds[LogEvent.TAKEOVER], kinds[LogEvent.TAKEN_BACK]
        finally:
            store.close()


def simulate(s: Settings) -> Result:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbem-noshow-") as folder:
        world = World(Path(folder), s)
        world.setup()
        world.run()
        wall = time.perf_counter() - started
        return Result(s, list(world.games.values()), list(world.players.values()), world.takeovers,
                      world.taken_back, world.moves_sent, world.refused, wall, world.passes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--p", type=float, default=0.3, help="the chance a player misses a deadline")
    ap.add_argument("--gone", type=float, default=0.1, help="the share of players gone for good")
    ap.add_argument("--days", type=int, default=60, help="the horizon, simulated days")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=["both", "on", "off"], default="both")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    modes = {"both": [False, True], "on": [True], "off": [False]}[a.mode]
    out = []
    for features in modes:
        s = Settings(players=a.players, p=a.p, gone=a.gone, days=a.days, seed=a.seed, features=features)
        r = simulate(s).summary()
        out.append(r)
        if a.json:
            print(json.dumps(r, default=str), flush=True)
    if not a.json:
        print(table(out))
        for r in out:
            if r.get("digest_reader_worst_day"):
                print(f"\nfeatures {r['features']}: what asked nothing of the digest readers, by kind: "
                      f"{r['digest_readers_other_kinds']}; the worst reader's worst day:")
                print("\n".join("    " + line for line in r["digest_reader_worst_day"]))
    return 0


def table(runs: list[dict]) -> str:
    """The runs side by side, one row a figure (Markdown)."""
    first = runs[0]
    rows: list[tuple[str, list]] = []

    def share(block: dict, key: str = "share") -> str:
        return f"{block['finished'] if key == 'share' else ''}{'/' + str(block['games']) if key == 'share' else ''}" \
               f" ({block[key]:.0%})" if block.get(key) is not None else "-"

    rows.append((f"games finished by day {first['days']}", [share(r["all"]) for r in runs]))
    for d in MILESTONES:
        if f"by_day_{d}" in first["all"]:
            rows.append((f"... by day {d}", [f"{r['all'][f'by_day_{d}']:.0%}" for r in runs]))
    for key, label in (("matchplay", "MatchPlay"), ("golfdeck", "golfdeck"), ("with_gone", "with a player gone"),
                       ("without_gone", "without")):
        rows.append((f"{label}: finished", [share(r[key]) for r in runs]))
        rows.append((f"{label}: mean (max) days", [f"{r[key]['mean_days']} ({r[key]['max_days']})"
                                                   if r[key]["mean_days"] is not None else "-" for r in runs]))
    for key, label in (("mail_all", "everyone"), ("mail_digest_readers", "digest readers"),
                       ("mail_others_active", "other players still here"), ("mail_gone", "players gone")):
        rows.append((f"mails a day, {label}: asks + other",
                     [f"{r[key]['asks_per_day']} + {r[key]['other_per_day']} (n={r[key]['players']})"
                      if r[key]["players"] else "-" for r in runs]))
        rows.append((f"most 'other' in a day, {label}; days with more than 2, of player-days",
                     [f"{r[key]['most_other_in_a_day']}; {r[key]['days_over_2']} of {r[key]['player_days']}"
                      if r[key]["players"] else "-" for r in runs]))
    rows.append(("robot took over / seat taken back", [f"{r['takeovers']} / {r['taken_back']}" for r in runs]))
    rows.append(("moves sent by players / mails refused", [f"{r['moves_sent']} / {r['refused']}" for r in runs]))
    rows.append(("passes / wall seconds", [f"{r['passes']} / {r['wall_s']}" for r in runs]))
    head = "| | " + " | ".join(f"features {r['features']}" for r in runs) + " |"
    lines = [head, "|---" * (len(runs) + 1) + "|"]
    lines += [f"| {label} | " + " | ".join(map(str, cells)) + " |" for label, cells in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
