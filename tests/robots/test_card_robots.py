"""The card robot (golfdeck and golf): legal orders in random games, decisions from the view
alone, and `easy` as the missed-deadline play whatever it samples."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pbem.games import golf, golfdeck
from pbem.games.cards import HIDDEN
from pbem.games.rng import Generator, seed_from_int
from pbem.games import spec_for
from pbem.games.golf import robot as golf_robot
from pbem.games.golfdeck import robot as golfdeck_robot
from pbem.robots.programs import Program

NAMES = ["Ann", "Bob", "Cy", "Di"]
BOTS = Path(__file__).resolve().parents[2] / "contrib" / "bots"
VARIANTS = [
    (golfdeck, golfdeck.GolfDeck, {}),
    (golf, golf.Golf, {}),
    (golf, golf.Golf, {"layout": 6}),
]
# More of golf's house rules, for the easy robot (and a little of the strong one).
GOLF_RULES = [{"peek": "any2"}, {"peek": "one", "layout": 6}, {"peek": "paid"}, {"ending": "faceup"},
              {"replace_unseen_once": True}, {"jacks": "20skip"}, {"pairs": "rowcol", "layout": 6},
              {"one_eyed_jacks_wild": True, "jokers": True, "pairs": "any"}]


def decide(view: dict, seat: int, level: str, options: dict, rng) -> str:
    """The robot of the view's game, as the robots' door finds it."""
    return spec_for(view.get("type") or view["game"]).robot.decide(view, seat, level, options, rng)


def stream(n: int) -> Generator:
    return Generator(seed_from_int(n))


def play(module, engine, options, seed, robots: dict, players=4, holes=1):
    """A game with robot seats (`robots`: seat -> level) and random seats; every robot order is
    read as text, checked and applied. Returns the game and how many robot orders were played."""
    game = engine.new(NAMES[:players], {**options, "holes": holes}, seed, None)
    rng = random.Random(seed)
    made = 0
    for _ in range(5_000):
        if game.result() is not None:
            break
        seat = min(game.to_move())
        if seat in robots:
            view = game.view(seat)
            text = decide(view, seat, robots[seat], options, stream(seed * 10_000 + made))
            command = engine.command_from_text(text)
            assert str(command) == text
            game.check(seat, command)
            game.apply(seat, command)
            made += 1
        else:
            game.apply(seat, module.random_orders(game, seat, rng))
        game.drain_events()
    assert game.result() is not None
    return game, made


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_easy_robots_play_legal_orders(variant):
    module, engine, options = VARIANTS[variant]
    total = 0
    for seed in range(12):
        _, made = play(module, engine, options, seed, {seed % 4: "easy", (seed + 2) % 4: "easy"},
                       players=4 if seed % 3 else 2 + seed % 2, holes=1 + seed % 2)
        total += made
    assert total > 100


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_strong_robot_plays_legal_orders(variant):
    module, engine, options = VARIANTS[variant]
    total = 0
    for seed in range(3):
        _, made = play(module, engine, options, 100 + seed, {seed: "strong", 3: "easy"})
        total += made
    assert total > 10


@pytest.mark.slow
@pytest.mark.parametrize("rules", GOLF_RULES)
def test_robots_under_golf_house_rules(rules):
    for seed in range(3):
        play(golf, golf.Golf, rules, 200 + seed, {0: "easy", 1: "easy", 2: "strong" if seed == 0 else "easy"},
             players=3)


# -- easy is the missed-deadline play --------------------------------------------------------
def states(engine, options, seeds, module):
    """Positions of random games where the seat to move is in play (reveal phase excluded)."""
    out = []
    for seed in seeds:
        game = engine.new(NAMES, {**options, "holes": 1}, seed, None)
        rng = random.Random(seed)
        steps = rng.randrange(2, 40)
        for _ in range(steps):
            if game.result() is not None:
                break
            seat = min(game.to_move())
            game.apply(seat, module.random_orders(game, seat, rng))
        if game.result() is None and (engine is golf.Golf or not game.revealing):
            out.append(game)
    return out


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_easy_is_default_orders_whatever_it_samples(variant):
    module, engine, options = VARIANTS[variant]
    checked = 0
    for game in states(engine, options, range(40), module):
        seat = min(game.to_move())
        view = game.view(seat)
        want = str(game.default_orders(seat))
        answers = {decide(view, seat, "easy", options, stream(k)) for k in range(4)}
        assert answers == {want}
        checked += 1
    assert checked > 10


def test_golfdeck_easy_reveal_is_a_pair_from_its_own_stream():
    game = golfdeck.GolfDeck.new(NAMES, {"holes": 1}, 3, None)
    view = game.view(0)
    picks = {decide(view, 0, "easy", {}, stream(k)) for k in range(40)}
    assert len(picks) > 5 and all(p.startswith("REVEAL ") for p in picks)
    assert decide(view, 0, "easy", {}, stream(1)) == decide(view, 0, "easy", {}, stream(1))


# -- the view, only the view ------------------------------------------------------------------
def hide_differently(game, seat: int, rng: random.Random):
    """A copy of `game` that differs only in what `seat` cannot see: the stock's order, the
    pile below the discard top and every unseen card swapped about among themselves."""
    other = type(game).from_dict(game.to_dict())
    if isinstance(other, golf.Golf):
        grids, up = other.grids, other.up
        known = [[up[s][i] or (s == seat and other.known[s][i]) for i in range(other.size)]
                 for s in range(other.n)]
        pile = other.discard[:-1]
    else:
        grids, up = other.grid, other.up
        known = [list(u) for u in up]
        if other.revealing and other.reveals[seat]:
            for p in other.reveals[seat]:
                known[seat][p - 1] = True
        pile = other.discard[:-1]
    places = [(s, i) for s in range(other.n) for i in range(len(grids[s])) if not known[s][i]]
    hidden = [grids[s][i] for s, i in places] + list(other.stock) + pile
    rng.shuffle(hidden)
    for s, i in places:
        grids[s][i] = hidden.pop()
    stock_n = len(other.stock)
    other.stock = [hidden.pop() for _ in range(stock_n)]
    other.discard = hidden + other.discard[-1:]
    assert other.view(seat) == game.view(seat)
    return other


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_decisions_depend_on_the_view_alone(variant, level):
    module, engine, options = VARIANTS[variant]
    games = states(engine, options, range(300, 330 if level == "easy" else 308), module)
    changed = 0
    for n, game in enumerate(games):
        seat = min(game.to_move())
        other = hide_differently(game, seat, random.Random(n))
        changed += other.to_dict() != game.to_dict()
        a = decide(game.view(seat), seat, level, options, stream(n))
        b = decide(other.view(seat), seat, level, options, stream(n))
        assert a == b
    assert changed >= len(games) // 2 > 0


def test_rebuilt_state_shows_the_seat_its_view():
    for module, engine, options in VARIANTS:
        for game in states(engine, options, range(500, 520), module):
            seat = min(game.to_move())
            view = game.view(seat)
            for k in range(3):
                rebuilt = spec_for(engine.TYPE).robot.rebuild(view, seat, options, stream(k))
                mine = rebuilt.view(seat)
                # The position, not its past: a rebuilt state starts its record afresh.
                assert mine | {"events": view["events"]} == view and mine["events"] == []
                all_cards = sorted(sum(rebuilt.grids if engine is golf.Golf else rebuilt.grid, [])
                                   + rebuilt.stock + rebuilt.discard + ([rebuilt.drawn] if rebuilt.drawn else []))
                deck = golfdeck.DECK if engine is golfdeck.GolfDeck else rebuilt.deck
                assert all_cards == sorted(deck)
                assert HIDDEN not in all_cards


def test_golfdeck_rebuild_counts_the_pile_from_the_events():
    """Every discard is public: the rebuilt pile is the real one, card for card, and the stock
    and face-down cards are dealt from the rest (none of them a card known to lie in the pile)."""
    counted = 0
    for seed in range(900, 940):
        game = golfdeck.GolfDeck.new(NAMES[:2 + seed % 3], {"holes": 2}, seed, None)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 90)):
            if game.result() is not None:
                break
            game.apply(min(game.to_move()), golfdeck.random_orders(game, min(game.to_move()), rng))
        if game.result() is not None or game.revealing:
            continue
        seat = min(game.to_move())
        for k in range(2):
            rebuilt = spec_for("golfdeck").robot.rebuild(game.view(seat), seat, {}, stream(k))
            assert rebuilt.discard == game.discard
            counted += len(game.discard) > 1
    assert counted >= 20


def known_cards(game, seat: int) -> dict:
    """The seat's own cards that it knows (face up, or seen in golf), by position."""
    view = game.view(seat)
    known = {p: c for p, c in enumerate(view["grids"][seat], start=1) if c != HIDDEN}
    known.update({int(p): c for p, c in (view.get("seen") or {}).items()})
    return known


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_same_orders_play_alike_on_the_rebuilt_state(variant):
    """From a rebuilt state, the seat's own next orders (as the real game plays them) leave it
    the same known cards, and the same score where all its cards are known."""
    module, engine, options = VARIANTS[variant]
    for game in states(engine, options, range(600, 625), module):
        seat = min(game.to_move())
        rebuilt = spec_for(engine.TYPE).robot.rebuild(game.view(seat), seat, options, stream(7))
        for _ in range(2):
            if game.result() is not None or seat not in game.to_move():
                break
            order = game.default_orders(seat)
            if type(order).__name__ not in ("DrawDiscard", "Keep", "Discard"):
                break  # a draw, a flip or a look shows a card the sample dealt at random
            game.apply(seat, order)
            rebuilt.apply(seat, order)
            if game.result() is not None:
                break  # the hole's end shows every card, the sample's random ones too
            assert known_cards(rebuilt, seat) == known_cards(game, seat)
        size = len(game.view(seat)["grids"][seat])
        if game.result() is None and len(known_cards(game, seat)) == size:
            sample_scores = spec_for(engine.TYPE).robot.sample_scores
            assert sample_scores(rebuilt)[seat] == sample_scores(game)[seat]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_strong_is_the_same_move_from_the_same_stream(variant):
    module, engine, options = VARIANTS[variant]
    for n, game in enumerate(states(engine, options, range(700, 706), module)):
        seat = min(game.to_move())
        view = game.view(seat)
        assert (decide(view, seat, "strong", options, stream(n))
                == decide(view, seat, "strong", options, stream(n)))


@pytest.mark.slow
def test_strong_moves_can_differ_between_streams():
    """golfdeck's search samples from the robot's stream: on a close call another stream can
    choose another move (golf's card moves are exact; only its knocks sample)."""
    module, engine, options = VARIANTS[0]
    varied = 0
    for game in states(engine, options, range(800, 812), module):
        seat = min(game.to_move())
        view = game.view(seat)
        varied += len({decide(view, seat, "strong", options, stream(k)) for k in range(4)}) > 1
    assert varied >= 1


def test_golf_rebuild_gives_the_others_layouts_of_their_turns_so_far():
    """In golf with the knock ending the others' replaced cards lie face down; the rebuild
    plays their turns so far, so their layouts in the samples are as low as a real table's
    (a uniform deal would leave them at the pack's average)."""
    game = golf.Golf.new(NAMES, {"holes": 1}, 31, None)
    while game._turn < 33:
        seat = min(game.to_move())
        game.apply(seat, game.default_orders(seat))
    seat = min(game.to_move())
    view = game.view(seat)
    others = [o for o in range(4) if o != seat]
    totals = []
    for k in range(20):
        rebuilt = golf_robot.rebuild(view, seat, {}, stream(k))
        scores = golf_robot.sample_scores(rebuilt)
        totals += [scores[o] for o in others]
    assert sum(totals) / len(totals) < 12  # a uniform deal averages some 23 on four cards


def test_refuses_a_seat_that_owes_nothing():
    game = golf.Golf.new(NAMES, {"holes": 1}, 1, None)
    idle = (game.current + 1) % 4
    with pytest.raises(ValueError):
        decide(game.view(idle), idle, "easy", {}, stream(0))


def test_golf_six_card_knock_must_beat_waiting(monkeypatch):
    """cards-3: in the 2x3 layout a knock must win more sampled tables than playing them out
    without knocking; an edge no knock can reach forbids it there, and leaves the square alone."""
    def view_at(options, turn):
        game = golf.Golf.new(NAMES, {**options, "holes": 1}, 41, None)
        while game._turn < turn:
            seat = min(game.to_move())
            game.apply(seat, game.default_orders(seat))
        seat = min(game.to_move())
        return game.view(seat), seat

    six, seat6 = view_at({"layout": 6}, 21)
    assert golf_robot._knock_wins(six) == pytest.approx(golf_robot.KNOCK_VS_WAIT[6][0])
    monkeypatch.setattr(golf_robot, "KNOCK_EDGE", 2.0)
    assert not any(golf_robot.knock_pays(six, seat6, {"layout": 6}, stream(k)) for k in range(3))
    four, seat4 = view_at({}, 21)
    monkeypatch.setattr(golf_robot, "KNOCK_WINS", 0.0)
    assert golf_robot.knock_pays(four, seat4, {}, stream(0))


def test_golf_knock_reads_the_others_layouts_from_the_public_events(monkeypatch):
    """cards-4: the knock is weighed only when the seat leads every other layout as the public
    events show it; a card another seat took from the pile counts at its points there."""
    game = golf.Golf.new(NAMES[:2], {"holes": 1}, 41, None)
    while game._turn < 9:
        seat = min(game.to_move())
        game.apply(seat, game.default_orders(seat))
    seat = min(game.to_move())
    view = game.view(seat)
    other = 1 - seat
    took = [e for e in view["events"] if e.get("kind") == "played" and e.get("seat") == other]
    assert took, "the other seat has played"
    monkeypatch.setattr(golf_robot, "LEAD_MOST", {4: 100.0})
    monkeypatch.setattr(golf_robot, "LEAD_BY", -100.0)
    assert golf_robot.events_lead(view, seat)
    monkeypatch.setattr(golf_robot, "LEAD_BY", 100.0)
    assert not golf_robot.events_lead(view, seat)
    assert golf_robot.strong_move(view, seat, {}, stream(0)) != golf_robot._KNOCK
    # What the events say the other seat took is what it is counted at: four tens put there
    # leave the seat ahead, four Kings (0 points) do not.
    monkeypatch.setattr(golf_robot, "LEAD_BY", 0.0)

    def took_all(card: str) -> dict:
        extra = [{"kind": "played", "seat": other, "what": "took", "pos": p, "card": card,
                  "discarded": "9H", "discarded_from": "grid"} for p in range(1, 5)]
        return dict(view, events=list(view["events"]) + extra)
    assert golf_robot.events_lead(took_all("10S"), seat)
    assert not golf_robot.events_lead(took_all("KS"), seat)


def _two_seat_view(turns: int, seed: int = 41):
    """A two-seat golf hole played `turns` turns by the missed-deadline player."""
    game = golf.Golf.new(NAMES[:2], {"holes": 1}, seed, None)
    while game._turn < turns:
        seat = min(game.to_move())
        game.apply(seat, game.default_orders(seat))
    return game


def test_golf_reading_deals_what_the_events_show():
    """cards-5: a card another seat took from the pile lies where the events put it in every
    sample; a drawn card it kept lies below what it replaced as that seat knew it; the cards
    it never replaced come from the cards the reader has not seen."""
    from pbem.games.golf import reading
    game = _two_seat_view(15)
    seat = min(game.to_move())
    other = 1 - seat
    view = game.view(seat)
    r = reading.read(view, seat)
    plays = [e for e in view["events"] if e.get("kind") == "played" and e.get("seat") == other]
    took = {}
    for e in plays:  # the last card put at each place
        if e.get("what") in ("took", "kept"):
            took[e["pos"]] = e.get("card")
    assert plays and r.others[other].turns
    points = game.points
    for k in range(12):
        sample = r.sample(stream(k))
        assert sample.weight >= 0
        cards = [sample.values[x] for x in r.others[other].refs]
        for pos, card in took.items():
            if card is not None:
                assert cards[pos - 1] == points[card]
        for x, limit in r.bound.items():
            assert sample.values[x] < limit
        assert len(sample.stock) == view["stock"]


def test_golf_knocks_when_it_surely_wins_and_not_when_it_surely_loses():
    """cards-5: the knock weighs the chance of winning after the other's last turn; four known
    Kings (0 points) win whatever the other holds, four known Queens (40) cannot."""
    for card, wins in (("K", True), ("Q", False)):
        game = _two_seat_view(9)
        seat = min(game.to_move())
        game.grids[seat] = [card + s for s in "SHDC"]
        game.known[seat] = [True] * 4
        view = game.view(seat)
        chance = golf_robot.knock_chance(view, seat, stream(3))
        if wins:
            assert chance > 0.99
            assert golf_robot.strong_move(view, seat, {}, stream(3)) == golf_robot._KNOCK
        else:
            assert chance == 0.0
            assert golf_robot.strong_move(view, seat, {}, stream(3)) != golf_robot._KNOCK


def test_golf_last_turn_is_played_for_the_win():
    """cards-5: after the other's knock the seat's last turn takes a low discard where it
    turns a loss into a win, and keeps a drawn card only where it helps."""
    game = _two_seat_view(9)
    knocker = min(game.to_move())
    seat = 1 - knocker
    game.apply(knocker, golf.Golf.command_from_text("KNOCK"))
    assert game.current == seat and game.final == []
    view = game.view(seat)
    move = golf_robot.strong_move(view, seat, {}, stream(5))
    assert str(move) in game.legal_orders(seat)
    assert golf_robot.strong_move(view, seat, {}, stream(5)) == move
    # A King on the pile, and a seat that knows its cards, a Queen the highest: the King
    # replaces the Queen.
    game.discard[-1] = "KH"
    game.grids[seat] = ["QH", "2H", "3H", "AH"]
    game.known[seat] = [True] * 4
    view = game.view(seat)
    assert str(golf_robot.strong_move(view, seat, {}, stream(5))) == "DRAW DISCARD 1"


def test_golfdeck_tells_a_greedy_seat_from_an_easy_one():
    """cards-6: each other seat's chance of playing as robot:easy, read from its moves in the
    public events (`_styles`): the tuned greedy player (contrib/bots) reads as greedy, the
    missed-deadline play as easy, and the seat itself as neither."""
    greedy = Program([sys.executable, str(BOTS / "golfdeck_greedy.py")], 10.0)
    styles = golfdeck_robot._styles
    read = []
    try:
        for seed in range(8):
            game = golfdeck.GolfDeck.new(NAMES[:3], {"holes": 1}, seed, None)
            last = None
            while game.result() is None:
                seat = min(game.to_move())
                view = game.view(seat)
                if seat == 0:
                    text = greedy.ask({"view": view, "seat": 0, "legal": game.legal_orders(0)})
                    command = golfdeck.GolfDeck.command_from_text(text)
                else:
                    command = game.default_orders(seat)
                if seat == 2 and view["phase"] == "play":
                    last = styles(view, 2)
                game.apply(seat, command)
                game.drain_events()
            assert last is not None and last[2] == 0.0
            read.append(last)
    finally:
        greedy.stop()
    assert all(easy[0] < 0.1 for easy in read), read
    assert sum(easy[1] > 0.8 for easy in read) >= 6, read


def _greedy_move():
    """contrib/bots/golf_greedy.py's `move`, in this process (the module, not its loop)."""
    path = BOTS / "golf_greedy.py"
    space: dict = {}
    exec(compile(path.read_text().split("for word in sys.argv")[0], str(path), "exec"), space)
    return space["move"]


@pytest.mark.parametrize("layout", [4, 6])
def test_golf_reply_foresees_the_greedy_knock_on_the_true_table(layout):
    """cards-7: on the table as it lies (every hidden card and the stock), the reply model
    (`reply`) says whether the greedy player knocks at its next turn after the robot's move,
    and the greedy player, asked, does exactly that, in every such turn of these holes."""
    import json
    from pbem.games.cards.orders import DrawStock, card_command
    from pbem.games.golf import reading, reply
    from pbem.games.golf.scoring import game_tables
    move = _greedy_move()
    checked = knocks = 0
    for seed in range(8):
        game = golf.Golf.new(NAMES[:2], {"holes": 1, "layout": layout}, 700 + seed, None)
        me = seed % 2
        pending = None
        for _ in range(500):
            if game.result() is not None:
                break
            seat = game.current
            if seat != me:
                view = json.loads(json.dumps(game.view(seat), default=str))
                order = card_command(move({"view": view, "seat": seat, "legal": game.legal_orders(seat)}))
                if pending is not None:
                    assert pending == (str(order) == "KNOCK")
                    checked += 1
                    knocks += pending
                    pending = None
                game.apply(seat, order)
                continue
            view = game.view(seat)
            order = golf_robot.golf_card_move(view, seat)
            if view["knocker"] is None and not view["last_round"] and not isinstance(order, DrawStock):
                r = reading.read(view, seat)
                tables = game_tables(view["options"], 1)
                points = tables.points
                deck = [points[c] for c in tables.deck]
                values = list(r.fixed)
                for p, x in enumerate(r.mine):
                    values[x] = points[game.grids[seat][p]]
                for o, other in r.others.items():
                    for p, x in enumerate(other.refs):
                        values[x] = points[game.grids[o][p]]
                sample = reading.Sample(values, [points[c] for c in game.stock], 1.0, [True, True])
                ctx = reply._Ctx(view, seat, r, reply._Public(view, points), sum(deck), len(deck))
                drawn = view.get("drawn")
                took = drawn is None
                card = points[view["discard"]] if took else points[drawn]
                opt = getattr(order, "pos", 0) or 0
                pending = bool(ctx.play(sample, card, opt, sample.stock, took)[1])
            game.apply(seat, order)
    assert checked > 40 and knocks >= 3
