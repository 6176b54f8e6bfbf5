"""A league's season as the GM runs it: kept in the store, its rounds opened when their time
comes (the games created through the GM, like `pbem new-game`), its standings derived each time
from the games' own stored results, and mailed to every player (and every spectator of the
league) when a round has ended.

The pure parts (the plan, the pairings, the standings) are the other modules of this package;
this one reads and writes the store and the mail, so `pbem process` and `pbem run` drive a
whole season with nothing else from the GM.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from pbem.errors import BadValue
from pbem.games.rng import new_seed
from pbem.gm import games as table_games
from pbem.gm import robot_seats, spectators
from pbem.gm.courses import load_course
from pbem.gm.observers import list_headers, spectator_token
from pbem.mail.clean import clean, quoted
from pbem.mail.kinds import MailKind
from pbem.ratings import ratings
from pbem.ratings.reliability import WINDOW, Orders, below, count, percent, reliability
from pbem.store import LogEvent, from_iso, moment
from pbem.league import notices
from pbem.league import rows as league_rows
from pbem.league.rows import SeasonEvent
from pbem.league.pairings import schedule
from pbem.league.plan import LeaguePlan, read_plan
from pbem.league.records import GameRecord, Replacement, Withdrawal
from pbem.league.standings import columns, standings

log = logging.getLogger("pbem")

ENDED = ("finished", "abandoned")


class LeagueRefused(BadValue):
    """`pbem league` refused: what was asked (a league file, a league id), and why, in one line."""


class Season:
    def __init__(self, gm):
        self.gm = gm
        self.store = gm.store

    # -- creating ---------------------------------------------------------------------------
    def create(self, text: str) -> str:
        """Check the league file, keep the league, and mail every player the schedule."""
        plan = read_plan(text, gm_address=self.gm.gm_address)
        league_id = plan.id or self._next_id()
        if league_rows.league(self.store, league_id):
            raise LeagueRefused(f"a league with id {quoted(league_id)} exists already")
        taken = [g.id for g in league_rows.league_games(self.store, league_id)]
        if taken:
            raise LeagueRefused(f"games with this league's ids exist already ({taken[0]}): choose another id")
        postman = self.gm.postman()
        self._reliable_enough(plan, postman.now)
        names = {p.address: p.name for p in plan.players}
        with self.store.transaction():
            league_rows.add_league(self.store, league_id, plan.name, plan.to_dict(), postman.now)
            for player in plan.players:
                notices.welcome(postman, league_id, plan, player.address, player.address, player.name,
                                row_names=names, gone=set())
        log.info("league %s created: %s, %d players, %d rounds", league_id, plan.game, len(plan.players),
                 plan.rounds)
        return league_id

    def _reliable_enough(self, plan: LeaguePlan, now: datetime) -> None:
        """`min_on_time:` refuses the league while a player of it met fewer of their deadlines
        (over the last 365 days, every game) than it asks; one who owed none yet is let in."""
        if plan.min_on_time is None:
            return
        kept = reliability(self.store, now)
        short = [(p, kept[p.address]) for p in plan.players if not p.robot
                 and below(kept.get(p.address), plan.min_on_time)]
        if short:
            who = ", ".join(f"{p.name} <{p.address}> {percent(o.share or 0)} of {o.owed}" for p, o in short)
            raise LeagueRefused(f"min_on_time: {percent(plan.min_on_time)} of the deadlines of the last "
                                f"{WINDOW.days} days met is asked, and {who} fell short")

    def _next_id(self) -> str:
        n = 1
        while league_rows.league(self.store, f"league-{n}"):
            n += 1
        return f"league-{n}"

    # -- the clock --------------------------------------------------------------------------
    def due(self, now: datetime) -> bool:
        return any(self._work(league, now) for league in league_rows.leagues(self.store, "active"))

    def _work(self, league: league_rows.League, now: datetime) -> bool:
        plan = self.plan(league["id"])
        return plan.round_at(now) > league["opened"] or league["reported"] < league["opened"]

    def tick(self, now: datetime) -> list[str]:
        """Open the rounds whose time has come; mail the standings of every round that has ended."""
        done = []
        for league in league_rows.leagues(self.store, "active"):
            try:
                done += self._open_rounds(league, now)
                done += self._report(league["id"], now)
            except Exception as e:  # one league's trouble never stops the pass
                log.error("league %s: %s: %s", league["id"], type(e).__name__, e)
        return done

    def _open_rounds(self, league: league_rows.League, now: datetime) -> list[str]:
        plan = self.plan(league["id"])
        done = []
        rounds = schedule(plan)
        for number in range(league["opened"] + 1, plan.round_at(now) + 1):
            course = _course(plan.course_for(number))
            gone = withdrawn(self.store, league["id"])
            robots = robot_levels(self.store, league["id"])
            for pairing in rounds[number - 1].games:
                addresses = [self._address(league["id"], a) for a in pairing.players]
                players = [(self._name(league["id"], plan, a), _spec(address, robots))
                           for a, address in zip(pairing.players, addresses) if address not in gone]
                if len(players) < max(plan.min_table, 2 if plan.format == "round-robin" else 1):
                    continue  # a withdrawn player's match is scored from the schedule
                options = dict(plan.options)
                if all(address in robots for address in addresses if address not in gone):
                    options["robots_only"] = "true"  # two robot rows meet: the schedule says so
                game_id = pairing.game_id(league["id"])
                self.gm.new_game(plan.game, players, course, options=options,
                                 seed=new_seed(), game_id=game_id,
                                 deadline=plan.deadline, zones=self._zones(plan, pairing.players, addresses))
                done.append(f"league {league['id']}: opened {game_id}")
            if plan.bye == "robot":
                for address in rounds[number - 1].byes:
                    done += self._bye_game(league["id"], plan, number, address, course, gone | set(robots))
            with self.store.transaction():
                league_rows.update_league(self.store, league["id"], opened=number)
            log.info("league %s: round %d opened (%d games)", league["id"], number, len(rounds[number - 1].games))
        return done

    def _bye_game(self, league_id: str, plan: LeaguePlan, number: int, row: str, course,
                  skipped: set[str]) -> list[str]:
        """`bye: robot`: the player with the round's bye plays a match against a robot (strong)
        instead, under a handle no league row has ever had; it counts in the player's row only."""
        address = self._address(league_id, row)
        game_id = bye_game_id(league_id, number)
        if address in skipped or self.store.game_exists(game_id):
            return []  # a robot row sits its bye out; a withdrawn player has no more games
        handle = free_handle(self.store, league_id)
        level = robot_seats.DEFAULT_LEVEL
        players = [(self._name(league_id, plan, row), address), (robot_seats.robot_name(level), f"{handle}:{level}")]
        self.gm.new_game(plan.game, players, course, options=dict(plan.options), seed=new_seed(), game_id=game_id,
                         deadline=plan.deadline, zones=self._zones(plan, [row], [address]))
        return [f"league {league_id}: opened {game_id} (the bye, against a robot)"]

    def _report(self, league_id: str, now: datetime) -> list[str]:
        """The standings of each round whose games have all ended, once, to every player."""
        league = league_rows.known_league(self.store, league_id)
        plan = self.plan(league_id)
        games = league_rows.league_games(self.store, league_id)
        done = []
        for number in range(league["reported"] + 1, league["opened"] + 1):
            of_round = [g for g in games if round_of(league_id, g.id) == number]
            if any(g.status not in ENDED for g in of_round):
                break
            postman = self.gm.postman()
            with self.store.transaction():
                data = self.standings_data(league_id, now)
                finished = number >= plan.rounds
                table = dict(round=number, finished=finished, rows=data["standings"], columns=columns(plan),
                             next_open=not finished and plan.opens(number + 1) <= now)
                players, gone = set(), withdrawn(self.store, league_id)
                for player in plan.players:
                    address = self._address(league_id, player.address)
                    players.add(address)
                    if address not in gone:  # a player withdrawn was told it was their last
                        self._mail(postman, league_id, plan, MailKind.STANDINGS, address,
                                   self._name(league_id, plan, player.address), **table)
                self._to_spectators(postman, league_id, plan, players, table)
                league_rows.update_league(self.store, league_id, reported=number,
                                          **({"status": "finished"} if finished else {}))
            done.append(f"league {league_id}: standings after round {number}")
        return done

    def _to_spectators(self, postman, league_id: str, plan: LeaguePlan, players: set[str], table: dict) -> None:
        """The standings, once, to each address that watches the league (OBSERVE), its players
        left out (they have their own). A spectator's copy never stops the players' mail."""
        spectator = {"targets": [{"id": league_id, "kind": "league"}]}
        for row in spectators.observers(self.store, [league_id]):
            if row["address"] in players:
                continue
            try:
                token = spectator_token(self.store, row["address"], postman.now)
                self._mail(postman, league_id, plan, MailKind.STANDINGS, row["address"], None, spectator=spectator,
                           secret=token, headers=list_headers(postman.gm_address, token, league_id, "league"),
                           **table)
            except Exception as e:  # noqa: BLE001 - a barrier, as for the games' spectators
                log.error("league %s: standings mail to spectator %s failed: %s: %s", league_id,
                          clean(row["address"], 100), type(e).__name__, clean(e, 200))

    # -- reading -----------------------------------------------------------------------------
    def plan(self, league_id: str) -> LeaguePlan:
        league = league_rows.known_league(self.store, league_id)
        return read_plan(dict(league["plan"], id=league_id))

    def records(self, league_id: str) -> list[GameRecord]:
        out = []
        for row in league_rows.league_games(self.store, league_id):
            table = _table(self.store, row.id)
            result = table.state.result()
            events = self.store.events(row.id)
            ended = next((from_iso(ev["at"]) for ev in reversed(events) if ev["kind"] == LogEvent.FINISHED), None)
            out.append(GameRecord(
                id=row.id, round=round_of(league_id, row.id), type=row.type,
                players=tuple(s.address for s in table.seats), status=row.status, result=row.result,
                winners=tuple(result.winners) if result else (), scores=tuple(table.state.scores()),
                ended=ended, orders=_orders(table.seats, events)))
        return out

    def changes(self, league_id: str) -> tuple[list[Replacement], list[Withdrawal]]:
        replaced, withdrawn = [], []
        for ev in league_rows.league_events(self.store, league_id):
            if ev["kind"] == SeasonEvent.REPLACE:
                replaced.append(Replacement(ev["old"], ev["new"], ev["name"], moment(ev["at"])))
            elif ev["kind"] == SeasonEvent.WITHDRAW:
                withdrawn.append(Withdrawal(ev["address"], moment(ev["at"])))
        return replaced, withdrawn

    def standings_data(self, league_id: str, now: datetime) -> dict:
        plan = self.plan(league_id)
        records = self.records(league_id)
        replaced, withdrawn = self.changes(league_id)
        rows = standings(plan, records, now=now, replacements=replaced, withdrawals=withdrawn)
        ordinals = self._ordinals(league_id, plan)
        return {"standings": [row.to_dict() | {"ordinal": ordinals.get(row.address)} for row in rows],
                "records": records}

    def _ordinals(self, league_id: str, plan: LeaguePlan) -> dict[str, float]:
        """Each row's rating ordinal for the league's game type, over every finished game of
        that type here (CONTRACT section 13): a robot row's is its level's."""
        by_key = {r["address"] or r["name"]: r["ordinal"] for r in ratings(self.store, plan.game)}
        levels = robot_levels(self.store, league_id)
        out = {}
        for address in current_addresses(self.store, league_id) | set(plan.addresses):
            key = robot_seats.robot_name(levels[address]) if address in levels else address
            if key in by_key:
                out[address] = by_key[key]
        return out

    def show(self, league_id: str, now: datetime) -> dict:
        """`pbem league show --json` (CONTRACT section 10)."""
        league = league_rows.known_league(self.store, league_id)
        plan = self.plan(league_id)
        games = {g.id: g for g in league_rows.league_games(self.store, league_id)}
        seats = {gid: [s.address for s in self.store.seats(gid)] for gid in games}

        def games_shown(gid: str, players: list[str]) -> dict:
            return {"id": gid, "players": players, "status": games[gid].status, "result": games[gid].result}
        gone = withdrawn(self.store, league_id)
        rounds = []
        for one in schedule(plan):
            ids = [p.game_id(league_id) for p in one.games]
            bye = bye_game_id(league_id, one.number)
            made = [games[i] for i in ids + [bye] if i in games]
            status = ("waiting" if one.number > league["opened"]
                      else "closed" if made and all(g.status in ENDED for g in made) else "open")
            shown = [games_shown(gid, seats[gid]) if gid in games else self._unmade(league_id, plan, gid, p, gone)
                     for gid, p in zip(ids, one.games)]
            byes = [self._address(league_id, a) for a in one.byes]
            if bye in games:  # `bye: robot`: the bye is a match against a robot, no longer a round sat out
                shown.append(games_shown(bye, seats[bye]))
                byes = [a for a in byes if a not in seats[bye]]
            rounds.append({
                "round": one.number, "opens": plan.opens(one.number).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "status": status, "games": shown, "byes": byes})
        return {"id": league_id, "name": plan.name, "game": plan.game, "status": league["status"],
                "rounds": rounds, "standings": self.standings_data(league_id, now)["standings"]}

    def _unmade(self, league_id: str, plan: LeaguePlan, game_id: str, pairing, gone: set[str]) -> dict:
        """A game of the schedule not made (yet): waiting, or, when a player of it has withdrawn,
        what it counts as (`forfeit` or `void`), for it will never be made."""
        seated = {self._address(league_id, a): self._name(league_id, plan, a) for a in pairing.players}
        staying = [a for a in seated if a not in gone]
        shown = {"id": game_id, "players": list(seated), "status": "waiting", "result": None}
        if len(staying) == len(seated):
            return shown
        if plan.format != "round-robin":
            shown["players"] = staying  # a table is made without them, when enough are left
            if len(staying) >= plan.min_table:
                return shown
        who = ", ".join(name for a, name in seated.items() if a in gone)
        if plan.withdrawn == "forfeit" and plan.format == "round-robin" and staying:
            result = f"Result: {seated[staying[0]]} wins by forfeit ({who} withdrew)"
            return shown | {"status": "forfeit", "result": result}
        return shown | {"status": "void", "result": f"Not played: {who} withdrew"}

    # -- who plays a league row now ------------------------------------------------------------
    def _address(self, league_id: str, address: str) -> str:
        for ev in league_rows.league_events(self.store, league_id):
            if ev["kind"] == SeasonEvent.REPLACE and ev["old"] == address:
                address = ev["new"]
        return address

    @staticmethod
    def _zones(plan: LeaguePlan, rows: Sequence[str], addresses: Sequence[str]) -> dict[str, str]:
        """The time zones the league file gives its players, by the address each plays from now
        (a newcomer in a row plays in UTC until SET TIMEZONE)."""
        zones = {}
        for row, address in zip(rows, addresses):
            player = plan.player(row)
            if player is not None and player.timezone and row == address:
                zones[address] = player.timezone
        return zones

    def _name(self, league_id: str, plan: LeaguePlan, address: str) -> str:
        player = plan.player(address)
        name = player.name if player else address.split("@")[0]
        for ev in league_rows.league_events(self.store, league_id):
            if ev["kind"] == SeasonEvent.REPLACE and ev["old"] in (address, self._address(league_id, address)):
                name = ev["name"]
        return name

    def _mail(self, postman, league_id: str, plan: LeaguePlan, kind: MailKind, address: str, name: str | None,
              secret: str | None = None, **extra) -> None:
        notices.league_mail(postman, league_id, plan, kind, address, name, secret=secret, **extra)


def _spec(address: str, robots: dict[str, str]) -> str:
    """How a row's holder sits at a new game: a robot as `robot-<k>:<level>`, so that its seat
    keeps the league's handle (the records find the row by it)."""
    return f"{address}:{robots[address]}" if address in robots else address


def bye_game_id(league_id: str, round_no: int) -> str:
    """The id of a round's match against a robot (`bye: robot`): number 0, which no game of the
    schedule has (they count from 1)."""
    return f"{league_id}-r{round_no}-0"


def _course(name: str):
    return load_course(name)


def _table(store, game_id: str) -> table_games.Table:
    """A game of the league, known to be kept (`league_games` lists it): KeyError if not."""
    table = table_games.load(store, game_id)
    if table is None:
        raise KeyError(game_id)
    return table


def round_of(league_id: str, game_id: str) -> int:
    return int(game_id[len(league_id) + 2:].split("-")[0])


def _orders(seats, events: list[dict]) -> dict[str, Orders]:
    """Each player's orders owed and sent in time (`reliability.count`), by the address that
    holds the seat now: a league row counts its seat's whole game."""
    counted = count(events).by_seat()
    return {s.address: counted.get(s.seat, Orders()) for s in seats}


def current_addresses(store, league_id: str) -> set[str]:
    """The addresses that play a row of the league now (after replacements and withdrawals)."""
    league = league_rows.known_league(store, league_id)
    plan = read_plan(dict(league["plan"], id=league_id))
    current = set(plan.addresses)
    for ev in league_rows.league_events(store, league_id):
        if ev["kind"] == SeasonEvent.REPLACE and ev["old"] in current:
            current = (current - {ev["old"]}) | {ev["new"]}
        elif ev["kind"] == SeasonEvent.WITHDRAW:
            current.discard(ev["address"])
    return current


def holders(store, league_id: str) -> dict[str, tuple[str, str]]:
    """Each league row, by its address in the league file: (name, address) of who holds it now."""
    league = league_rows.known_league(store, league_id)
    plan = read_plan(dict(league["plan"], id=league_id))
    out = {p.address: (p.name, p.address) for p in plan.players}
    for ev in league_rows.league_events(store, league_id):
        if ev["kind"] == SeasonEvent.REPLACE:
            out = {row: ((ev["name"], ev["new"]) if held[1] == ev["old"] else held) for row, held in out.items()}
    return out


def robot_levels(store, league_id: str) -> dict[str, str]:
    """Every robot that holds or held a league row, by its handle: its level. The file's robot
    players, and those that took over a row (`withdrawn: robot`, `REPLACE ... robot`)."""
    league = league_rows.known_league(store, league_id)
    out = dict(read_plan(dict(league["plan"], id=league_id)).robots)
    for ev in league_rows.league_events(store, league_id):
        if ev["kind"] == SeasonEvent.REPLACE and ev.get("robot"):
            out[ev["new"]] = ev["robot"]
    return out


def free_handle(store, league_id: str) -> str:
    """A robot handle that no row and no seat of the league has ever had: `robot-<k>`, the
    lowest such k. A robot that takes a row, or plays a bye's match, is told apart by it."""
    league = league_rows.known_league(store, league_id)
    used = set(read_plan(dict(league["plan"], id=league_id)).addresses)
    used |= {ev["new"] for ev in league_rows.league_events(store, league_id) if ev["kind"] == SeasonEvent.REPLACE}
    used |= {s.address for row in league_rows.league_games(store, league_id) for s in store.seats(row.id)}
    k = 1
    while f"robot-{k}" in used:
        k += 1
    return f"robot-{k}"


def withdrawn(store, league_id: str) -> set[str]:
    return {ev["address"] for ev in league_rows.league_events(store, league_id) if ev["kind"] == SeasonEvent.WITHDRAW}
