"""What a player of On Par may do now, and what the GM picks: the legal orders with where each
takes the ball, the default for a missed deadline, the suggestions of error mails, random play;
and the `handicap` option read into one number of spaces per seat.

Hints here are made from the legal orders as computed, never by playing an order on a copy:
an engine error builds its hint, and playing a wrong hint would build another.
"""
from __future__ import annotations

from itertools import combinations
from collections.abc import Sequence

from pbem.games.onpar import course as oc
from pbem.games.base import written
from pbem.games.errors import BadOption
from pbem.games.onpar.orders import DiscardCard, Pass, PlaySkill, Shot, Trap

HANDICAP_MOST = 4  # so a ball that counts as holed is always on The Green
# Which skill shot a tie spends first: keep the Power Shot for when it is needed.
_SPEND = ("SLICE", "FADE", "POWER")


# -- the handicap option ----------------------------------------------------------------------
def read_handicaps(value, names: Sequence[str], addresses: Sequence[str] = ()) -> list[int]:
    """Spaces of handicap per seat from `<who>:<spaces>,...`, where <who> is a seat number
    (from 1), a player's address (when `addresses` are given) or a player's name."""
    out = [0] * len(names)
    given: set[int] = set()
    # A league file may list them (`[1:2, 3:1]`) or map them (`{1: 2, 3: 1}`): the same entries.
    if isinstance(value, dict):
        value = [f"{written(k, quoted=False)}:{written(v, quoted=False)}" for k, v in value.items()]
    items = value if isinstance(value, (list, tuple)) else [value] if value else []
    text = ",".join(written(v) if isinstance(v, bool) else str(v) for v in items)
    for entry in text.split(","):
        entry = entry.strip()
        if not entry:
            continue
        who, colon, spaces = entry.rpartition(":")
        if not colon or not who.strip():
            raise BadOption(f"option handicap: {written(entry)} is not <player>:<spaces>, e.g. 1:2")
        n = spaces.strip()
        if not (n.isascii() and n.isdigit()) or not 0 <= int(n) <= HANDICAP_MOST:
            raise BadOption(f"option handicap: {written(entry)}: a handicap is 0 to {HANDICAP_MOST} spaces")
        seat = _seat_of(who.strip(), names, addresses)
        if seat in given:
            raise BadOption(f"option handicap: {names[seat]} has two handicaps")
        given.add(seat)
        out[seat] = int(n)
    return out


def handicap_option(value, names: Sequence[str], addresses: Sequence[str] = ()) -> str:
    """The option in its stored form, by seat number (`1:2,3:1`; "" for none): the GM passes the
    addresses so that `--option handicap=ann@example.org:2` reaches the engine as `1:2`."""
    spaces = read_handicaps(value, names, addresses)
    return ",".join(f"{s + 1}:{h}" for s, h in enumerate(spaces) if h)


def _seat_of(who: str, names: Sequence[str], addresses: Sequence[str]) -> int:
    if who.isascii() and who.isdigit():
        if 1 <= int(who) <= len(names):
            return int(who) - 1
        raise BadOption(f"option handicap: there is no seat {who} (seats 1-{len(names)})")
    folded = " ".join(who.split()).casefold()
    by_address = [s for s, a in enumerate(addresses) if a.casefold() == folded]
    by_name = [s for s, n in enumerate(names) if " ".join(n.split()).casefold() == folded]
    found = by_address or by_name
    if len(found) == 1:
        return found[0]
    if found:
        raise BadOption(f"option handicap: {len(found)} players are called {who}: give a seat number")
    raise BadOption(f"option handicap: no player {who} in this game")


# -- the legal orders ---------------------------------------------------------------------------
def legal_shots(state, seat: int) -> list[tuple[Shot, oc.Outcome]]:
    """Every legal club shot from `seat`'s hand (each set of cards once, highest card first)."""
    hand, ball, layout = state.hands[seat], state.balls[seat], state.layout
    handicap = state.handicaps[seat]
    out, seen = [], set()
    value, outcome_of = oc.VALUES.__getitem__, layout.outcome
    for letter in "DIWP":
        of_club = oc.CLUB_CARDS[letter]
        mine = sorted((c for c in hand if c in of_club), key=value, reverse=True)
        for k in range(1, oc.MOST_CARDS[letter] + 1):
            for cards in combinations(mine, k):
                if cards in seen:
                    continue
                seen.add(cards)
                outcome = outcome_of(ball, letter, sum(map(value, cards)), handicap)
                if outcome is not None:
                    out.append((Shot(cards), outcome))
    return out


def legal_skills(state, seat: int) -> list[tuple[PlaySkill, oc.Outcome]]:
    out = []
    for card in _SPEND:
        if card in state.hands[seat]:
            try:
                out.append((PlaySkill(card), state.layout.skill_shot(state.balls[seat], card, state.handicaps[seat])))
            except oc.Refusal:
                pass
    return out


def folded(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def seats_called(names: Sequence[str], player: str) -> list[int]:
    """The seats `player` names: a name (any case and spacing), or `#<seat number>`, which
    tells apart two players of one name."""
    text = str(player).strip()
    if text[:1] == "#" and text[1:].isascii() and text[1:].isdigit() and 1 <= int(text[1:]) <= len(names):
        return [int(text[1:]) - 1]
    return [s for s, name in enumerate(names) if folded(name) == folded(text)]


def called(names: Sequence[str], seat: int) -> str:
    """How an order names `seat`: its name, or `#<n>` when another player has the same."""
    return names[seat] if len(seats_called(names, names[seat])) == 1 else f"#{seat + 1}"


def trap_victims(state, seat: int) -> list[int]:
    """The seats a trap from `seat` may fall on, the ball furthest on first."""
    seats = [s for s in range(state.n) if s != seat and not state.resigned[s]
             and not state.layout.on_green(state.balls[s])]
    return sorted(seats, key=lambda s: (-state.balls[s], s))


def legal_traps(state, seat: int) -> list[Trap]:
    cards = [c for c in oc.TRAPS if c in state.hands[seat]]
    return [Trap(card, called(state.names, s)) for card in cards for s in trap_victims(state, seat)]


def may_pass(state, seat: int) -> bool:
    return len(state.hands[seat]) < oc.HAND and not legal_shots(state, seat)


def legal_orders(state, seat: int) -> list:
    """Every order `seat` may give now (nothing when it is not their move)."""
    if seat not in state.to_move():
        return []
    shots = legal_shots(state, seat)
    orders: list = [shot for shot, _ in shots]
    orders += [skill for skill, _ in legal_skills(state, seat)]
    orders += legal_traps(state, seat)
    hand = state.hands[seat]
    if len(hand) >= oc.HAND:
        orders += [DiscardCard(c) for c in sorted(set(hand), key=oc.CODES.index)]
    if len(hand) < oc.HAND and not shots:  # `may_pass`, on the shots found above
        orders.append(Pass())
    return orders


def choices(state, seat: int) -> list[dict]:
    """The legal orders of `seat` for its turn mail, with where each shot takes the ball."""
    out = []
    for order, outcome in sorted([*legal_shots(state, seat), *legal_skills(state, seat)], key=_rank, reverse=True):
        out.append({"order": str(order), "space": outcome.space, "holed": outcome.holed, "note": outcome.note})
    out += [{"order": str(o)} for o in legal_orders(state, seat) if type(o) in (Trap, DiscardCard, Pass)]
    return out


# -- the GM's choices -----------------------------------------------------------------------
def _rank(pair) -> tuple:
    """How good a shot is: furthest first; then fewest cards; then the lowest cards spent."""
    order, outcome = pair
    if type(order) is PlaySkill:
        return (outcome.space, 0, -_SPEND.index(order.card))
    return (outcome.space, -len(order.cards), -sum(oc.value(c) for c in order.cards))


def best_of(pairs) -> object:
    return max(pairs, key=_rank)[0]


def highest(cards: Sequence[str]) -> str:
    """The card a default discard throws away: the longest distance card (a Driver before an
    Iron of the same number); skill shots and traps go last."""
    def worth(card: str) -> tuple:
        return (oc.value(card), -"DIWP".index(oc.club(card))) if oc.is_distance(card) else (0, 0)
    return max(cards, key=worth)


def discard_highest(state, seat: int) -> DiscardCard:
    return DiscardCard(highest(state.hands[seat]))


def default_orders(state, seat: int):
    """The longest legal shot toward the hole (a skill shot only when no club moves the ball),
    else a discard of the highest card, else the shot the rules force, else PASS."""
    ball = state.balls[seat]
    shots = legal_shots(state, seat)
    onward = [p for p in shots if p[1].space > ball]
    if onward:
        return best_of(onward)
    skills = [p for p in legal_skills(state, seat) if p[1].space > ball]
    if skills:
        return best_of(skills)
    if len(state.hands[seat]) >= oc.HAND:
        return discard_highest(state, seat)
    return best_of(shots) if shots else Pass()


def forfeit_orders(state, seat: int):
    """A missed turn under `nmr=forfeit`: nothing played where the rules allow that."""
    if len(state.hands[seat]) >= oc.HAND:
        return discard_highest(state, seat)
    return Pass() if may_pass(state, seat) else default_orders(state, seat)


# -- suggestions --------------------------------------------------------------------------------
def _default_text(state, seat: int) -> str | None:
    order = state.default_orders(seat)
    return None if order is None else str(order)


def orders_like(state, seat: int, word: str | None) -> list:
    """Orders of the kind `word` names, the likeliest first (the caller checks them)."""
    if seat not in state.to_move():
        return []
    shots = legal_shots(state, seat)
    best = [best_of([p for p in shots if p[1].space > state.balls[seat]] or shots)] if shots else []
    if word == "SHOT":
        return best
    if word == "PLAY":
        return [s for s, _ in legal_skills(state, seat)] + best
    if word == "TRAP":
        return legal_traps(state, seat)
    if word == "DISCARD":
        return [discard_highest(state, seat)] if len(state.hands[seat]) >= oc.HAND else []
    if word == "PASS":
        return [Pass()]
    return []


def best_shot_from(state, seat: int, cards: Sequence[str]) -> str | None:
    """The best legal shot made of some of `cards` (a refused shot's nearest fix), else the
    GM's own choice."""
    pool = list(cards)
    mine = []
    for pair in legal_shots(state, seat):
        left = list(pool)
        try:
            for card in pair[0].cards:
                left.remove(card)
        except ValueError:
            continue
        mine.append(pair)
    return str(best_of(mine)) if mine else _default_text(state, seat)


def hint_for_card(state, seat: int, card: str | None) -> str | None:
    """For a card given to the wrong order: the order that plays it, where that is legal."""
    if card in oc.SKILL_SHOTS:
        found = [str(s) for s, _ in legal_skills(state, seat) if s.card == card]
    elif card in oc.TRAPS:
        found = [str(t) for t in legal_traps(state, seat) if t.card == card]
    elif card in oc.DISTANCE_CODES:
        return best_shot_from(state, seat, [card])
    else:
        found = []
    return found[0] if found else _default_text(state, seat)


def trap_hint(state, seat: int, card: str) -> str | None:
    found = [t for t in legal_traps(state, seat) if t.card == card]
    return str(found[0]) if found else _default_text(state, seat)


def hint_like(state, seat: int, command) -> str | None:
    """For an order naming a card not in the hand: an order of the same kind that is legal."""
    if seat not in state.to_move():
        return None
    kind = {Shot: "SHOT", PlaySkill: "PLAY", Trap: "TRAP", DiscardCard: "DISCARD"}.get(type(command))
    found = orders_like(state, seat, kind)
    return str(found[0]) if found else _default_text(state, seat)


def random_orders(state, seat: int, rng) -> object:
    """A uniformly chosen legal order for `seat` now (None when the seat owes nothing)."""
    orders = legal_orders(state, seat)
    return orders[int(rng.random() * len(orders))] if orders else None
