"""The GM's own view of games, for `pbem show` and `pbem list` (everything, hidden cards included)."""
from __future__ import annotations

from pbem.games.registry import spec_for
from pbem.gm import games
from pbem.store import Store, iso


def game_json(store: Store, game_id: str) -> dict | None:
    table = games.load(store, game_id)
    if table is None:
        return None
    state = table.state
    row = table.row
    scores = state.scores()
    bounced = store.outbox.bounces([s.address for s in table.seats if not s.robot])
    return {
        "id": row.id, "type": row.type, "status": row.status, "turn": row.turn,
        "players": [_player(s, scores[s.seat], bounced) for s in table.seats],
        "result": row.result,
        # A robot moves in the pass in which it comes to owe a move: it is never waited for.
        "to_move": [table.seats[s].address for s in sorted(state.to_move()) if not table.seats[s].robot]
        if row.status == "active" else [],
        "deadline": iso(row.deadline), "paused": _paused(row), "course": row.course, "options": row.options,
        # The seed stays secret while the game runs; its commitment is public (CONTRACT 11).
        "seed": _seed_shown(row), "seed_commitment": row.commitment,
        "created": iso(row.created),
        "history": history(store, game_id),
        "state": state.view(None),
    } | spec_for(table.type).json_extras(state, [seat_key(s) for s in table.seats])


def history(store: Store, game_id: str) -> list[dict]:
    """Every event of the game, in order; those a rollback undid stay, marked `rolled_back`."""
    out = []
    for ev in store.events(game_id, undone=True):
        ev.pop("id")
        if ev.pop("undone") is not None:
            ev["rolled_back"] = True
        out.append(ev)
    return out


def seat_key(seat) -> str:
    """A seat in the maps keyed by address: its address, or `robot-<n>` for a robot's seat
    (n its seat from 1; CONTRACT section 12)."""
    return f"robot-{seat.seat + 1}" if seat.robot else seat.address


def _player(seat, score, bounced: dict) -> dict:
    if seat.robot:
        return {"name": seat.name, "address": None, "robot": seat.robot, "score": score}
    return {"name": seat.name, "address": seat.address, "score": score, "bounced": bounced.get(seat.address)}


def _paused(row) -> bool:
    """Only a game in play can be paused: one that ended while paused has no clock to stop."""
    return bool(row.paused) and row.status == "active"


def _seed_shown(row):
    if row.status not in ("finished", "abandoned"):
        return None
    return row.seed_hex if row.seed_hex else row.seed


def list_json(store: Store) -> list[dict]:
    return [{"id": r.id, "type": r.type, "status": r.status, "turn": r.turn, "deadline": iso(r.deadline),
             "paused": _paused(r), "result": r.result, "waiting_for": _waiting_for(store, r)}
            for r in store.games()]


def _waiting_for(store: Store, row) -> list[str] | None:
    """The names of the seats that owe orders now (`to_move` of `pbem show`, by name); None for
    a game whose state cannot be read, so that one game cannot stop the listing of the rest."""
    if row.status != "active":
        return []
    try:
        table = games.load(store, row.id)
        if table is None:
            return None
        return [table.seats[s].name or table.seats[s].address for s in sorted(table.state.to_move())
                if not table.seats[s].robot]
    except Exception:  # noqa: BLE001 - `pbem show` of that game says what is wrong with it
        return None


def game_text(data: dict) -> str:
    status = data["status"] + (", paused by the GM" if data.get("paused") else "")
    lines = [f"Game {data['id']} ({data['type']}), {status}, turn {data['turn']}, course {data['course']}"]
    spec = spec_for(data["type"])
    score = spec.score_words  # what `scores()` counts, as the players' own mail names it
    for p in data["players"]:
        who = f"robot:{p['robot']}" if p.get("robot") else p["address"]
        lines.append(f"  {p['name']} <{who}>  {score} {p['score']}")
        if p.get("bounced"):
            lines.append(f"    mail to this address bounced ({p['bounced']['at']}): {p['bounced']['diagnostic']}")
    lines.append(f"Deadline: {data['deadline'] or '-'}")
    lines.append(f"To move: {', '.join(data['to_move']) or '-'}")
    lines += spec.gm_lines(data["state"], data)
    if data["result"]:
        lines.append(data["result"])
    return "\n".join(lines)
