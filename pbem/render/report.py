"""The GM's own view of games, for `pbem show` and `pbem list` (everything, hidden cards included)."""
from __future__ import annotations

from pbem.games.base import TurnByTurn
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
    } | _holes(table) | _sheets(table)


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


def _holes(table) -> dict:
    """Card games: every finished hole's grids and scores, by player address."""
    if not isinstance(table.state, TurnByTurn):
        return {}
    holes = table.state.holes
    address = [seat_key(s) for s in table.seats]
    if table.type == "onpar":
        return _on_par(table, address)
    return {"holes": [{"hole": h["hole"],
                       "grids": {address[i]: list(g) for i, g in enumerate(h["grids"])},
                       "scores": {address[i]: p for i, p in enumerate(h["scores"])}} for h in holes]}


def _on_par(table, address: list[str]) -> dict:
    """On Par (CONTRACT section 9): the hole in play with every ball and hand, and every finished
    hole with where each ball stopped, the shots played, the strokes scored and the winner."""
    view = table.state.view(None)
    by_address = lambda values: {address[i]: v for i, v in enumerate(values)}  # noqa: E731
    holes = [{"hole": h["hole"], "par": h["par"], "course": h["course"], "finish": by_address(h["finish"]),
              "shots": by_address(h["shots"]), "strokes": by_address(h["strokes"]),
              "winner": address[h["winner"]] if h["winner"] is not None else None}
             for h in table.state.holes]
    return {"hole": view["hole"], "par": view["par"], "course": view["course"],
            "balls": by_address([{"space": b["space"], "strokes": b["strokes"]} for b in view["balls"]]),
            "hands": by_address([list(hand) for hand in view["hands"]]), "holes": holes}


def _sheets(table) -> dict:
    """Dice golf: every player's score sheet, by address (CONTRACT section 8)."""
    sheets = getattr(table.state, "sheets", None)
    if not callable(sheets):
        return {}
    return {"sheets": {seat_key(table.seats[i]): sheet for i, sheet in enumerate(sheets())}}


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
        return [table.seats[s].name or table.seats[s].address for s in sorted(table.state.to_move())
                if not table.seats[s].robot]
    except Exception:  # noqa: BLE001 - `pbem show` of that game says what is wrong with it
        return None


# What `scores()` counts in each game, as the players' own mail names it.
_SCORE_WORDS = {"matchplay": "holes won", "golf": "points", "golfdeck": "points", "onpar": "strokes"}


def game_text(data: dict) -> str:
    status = data["status"] + (", paused by the GM" if data.get("paused") else "")
    lines = [f"Game {data['id']} ({data['type']}), {status}, turn {data['turn']}, course {data['course']}"]
    score = _SCORE_WORDS.get(data["type"], "score")
    for p in data["players"]:
        who = f"robot:{p['robot']}" if p.get("robot") else p["address"]
        lines.append(f"  {p['name']} <{who}>  {score} {p['score']}")
        if p.get("bounced"):
            lines.append(f"    mail to this address bounced ({p['bounced']['at']}): {p['bounced']['diagnostic']}")
    lines.append(f"Deadline: {data['deadline'] or '-'}")
    lines.append(f"To move: {', '.join(data['to_move']) or '-'}")
    state = data["state"]
    if "grids" in state:
        lines += _card_lines(state, data)
    elif "sheets" in state:
        lines += _sheet_lines(state)
    elif "spans" in state:
        from pbem.render.pictures import course_picture
        lines += [f"Hole {state['hole']} of {state['holes_total']}, par {state['par']}"]
        lines += course_picture(state).splitlines()
        lines += [f"  {name}: {' '.join(hand)}" for name, hand in zip(state["names"], state["hands"])]
    else:
        lines += _match_lines(state)
    if data["result"]:
        lines.append(data["result"])
    return "\n".join(lines)


def _match_lines(state: dict) -> list[str]:
    lines = [state["match"]] if "match" in state else []
    if state.get("holes") and "table_names" in state:  # a MatchPlay view
        from pbem.render import environment  # the players' own hole table, so the GM reads what they read
        table = environment().get_template("matchplay/_holes.txt").module.hole_table(state["holes"], state)
        lines += [f"  {line}".rstrip() for line in str(table).strip("\n").splitlines()] + [""]
    for seat, v in state.get("seats", {}).items():
        lines.append(f"  {v['name']}: hand {' '.join(map(str, v['hand']))}; specials left {', '.join(v['specials_left'])}; "
                     f"pending {(v['orders'] or '-').replace(chr(10), ' / ')}")
    return lines


def _card_lines(state: dict, data: dict) -> list[str]:
    """A card game as the GM sees it: every grid with its face-down cards shown in brackets."""
    lines = [f"Hole {state['hole']} of {state['holes']}, {state['phase']}; stock {state['stock']}, "
             f"discard {state.get('discard') or '-'}"]
    for seat, name in enumerate(state["names"]):
        grid = state["grids"][seat]
        face_up = state["face_up"][seat]
        cards = " ".join(card if up else f"[{card}]" for card, up in zip(grid, face_up))
        lines.append(f"  {name}: {cards}  total {state['totals'][seat]}")
    for hole in data.get("holes", []):
        scores = ", ".join(f"{address} {points}" for address, points in hole["scores"].items())
        lines.append(f"  hole {hole['hole']}: {scores}")
    return lines


def _sheet_lines(state: dict) -> list[str]:
    """Dice golf: the score sheets as the players get them."""
    from pbem.render import environment
    sheets = environment().get_template("dicegolf/_sheet.txt").module.sheets(state)
    flags = " ".join(map(str, state["flags"]))
    return [f"Hole {state['hole']} of {state['holes']}, flags {flags}"] + [line.rstrip() for line in str(sheets).rstrip("\n").splitlines()]
