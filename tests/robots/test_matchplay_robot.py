"""MatchPlay Golf's robot: legal every turn, decides from its view alone, easy = the default
orders, strong draws from a mixed strategy (different streams, different orders) and learns an
opponent's fixed habits from its public plays."""
from __future__ import annotations

import random

import pytest

from pbem.gm.courses import load_course
from pbem.games.course import Course
from pbem.games.matchplay import MatchPlay, Play, Special, random_orders
from pbem.games.matchplay import robot
from pbem.robots import robot_generator

PARKLAND = load_course("parkland")


def course(rnd: random.Random) -> Course:
    if rnd.random() < 0.5:
        return PARKLAND
    return Course("random", tuple(rnd.choice((3, 4, 4, 5)) for _ in range(18)))


def stream(n: int, seat: int = 0, move: int = 0):
    return robot_generator(n.to_bytes(16, "big"), seat, move)


def positions(games: int, seed: int):
    """(state, seat to decide) before each turn of random games, both seats."""
    rnd = random.Random(seed)
    for _ in range(games):
        g = MatchPlay.new(["Ann", "Bob"], {}, 0, course(rnd))
        while not g.finished:
            yield g, rnd.randrange(2)
            for seat in (0, 1):
                g.apply(seat, random_orders(g, seat, rnd))
            g.resolve()


@pytest.mark.slow
@pytest.mark.parametrize("level", ["strong", "easy"])
def test_orders_are_legal_every_turn_of_many_random_games(level):
    rnd = random.Random(5)
    for n in range(30 if level == "strong" else 100):
        g = MatchPlay.new(["Ann", "Bob"], {}, 0, course(rnd))
        mine = n % 2
        move = 0
        while not g.finished:
            if rnd.random() < 0.5:  # the opponent's orders are in (or not) when the robot decides
                g.apply(1 - mine, random_orders(g, 1 - mine, rnd))
            text = robot.decide(g.view(mine), mine, level, {}, stream(n, mine, move))
            order = MatchPlay.command_from_text(text)
            assert isinstance(order, Play) and str(order) == text
            g.check(mine, order)
            g.apply(mine, order)
            if g.pending[1 - mine] is None:
                g.apply(1 - mine, random_orders(g, 1 - mine, rnd))
            g.resolve()
            move += 1


def test_the_rebuilt_state_is_the_state_but_the_pending_orders():
    for g, seat in positions(30, 1):
        rebuilt = robot.rebuild(g.view(seat)).to_dict()
        real = g.to_dict()
        rebuilt.pop("options"), real.pop("options")  # the rules do not read them
        rebuilt.pop("log"), real.pop("log")  # the position, not its past: the robot starts no record
        assert rebuilt == real
        assert robot.rebuild(g.view(seat)).hand_cards(seat) == g.view(seat)["seats"][seat]["hand"]


def test_easy_plays_the_default_orders():
    for g, seat in positions(40, 2):
        text = robot.decide(g.view(seat), seat, "easy", {}, stream(0))
        assert text == str(g.default_orders(seat))
        assert robot.decide(g.view(seat), seat, "easy", {}, stream(9)) == text


@pytest.mark.slow
def test_a_decision_does_not_depend_on_the_opponents_pending_orders():
    rnd = random.Random(3)
    checked = 0
    for n, (g, seat) in enumerate(positions(25, 4)):
        for level in ("strong", "easy"):
            other = 1 - seat
            silent = robot.decide(g.view(seat), seat, level, {}, stream(n))
            a, b = MatchPlay.from_dict(g.to_dict()), MatchPlay.from_dict(g.to_dict())
            a.apply(other, random_orders(a, other, rnd))
            b.apply(other, a.default_orders(other))
            assert a.view(seat)["ordered"][other] and a.pending[other] is not None
            assert robot.decide(a.view(seat), seat, level, {}, stream(n)) == silent
            assert robot.decide(b.view(seat), seat, level, {}, stream(n)) == silent
            checked += 1
    assert checked > 100


def distinct(orders, enough: int) -> int:
    """How many different orders `orders` yields, drawn only until `enough` are seen: the
    assertions below ask for at least so many, and every decision of the strong robot is a search,
    so the streams after the answer is known are not played."""
    seen = set()
    for order in orders:
        seen.add(order)
        if len(seen) >= enough:
            break
    return len(seen)


@pytest.mark.slow
def test_strong_is_not_a_fixed_strategy():
    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    for seat in (0, 1):  # at least 4 different openings among 30 streams
        openings = (robot.decide(g.view(seat), seat, "strong", {}, stream(n, seat)) for n in range(30))
        assert distinct(openings, 4) >= 4
    # In at least 20 of the positions before each turn of 12 random games, two of 12 streams differ.
    varied = 0
    for n, (g, seat) in enumerate(positions(12, 6)):
        decisions = (robot.decide(g.view(seat), seat, "strong", {}, stream(k, seat, n)) for k in range(12))
        varied += distinct(decisions, 2) > 1
        if varied >= 20:
            break
    assert varied >= 20
    # the same stream gives the same order
    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    assert robot.decide(g.view(0), 0, "strong", {}, stream(7)) == robot.decide(g.view(0), 0, "strong", {}, stream(7))


def test_strong_beats_the_default_orders_it_has_seen():
    """An opponent that played the default orders so far is expected to go on: the robot plays
    orders that beat them, e.g. a stroke under the default card on most holes."""
    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    g.apply(0, random_orders(g, 0, random.Random(1)))
    g.apply(1, g.default_orders(1))
    g.resolve()
    expected = g.default_orders(1)
    for n in range(5):
        play = MatchPlay.command_from_text(robot.decide(g.view(0), 0, "strong", {}, stream(n)))
        mine = [c + sum(-1 if s.card == "BLUE-1" else 1 if s.card == "BLUE+1" else 0
                        for s in play.specials if s.hole == h) for c, h in zip(play.cards, (4, 5, 6))]
        theirs = [c + sum(1 if s.card == "RED+1" else -1 if s.card == "RED-1" else 0
                          for s in play.specials if s.hole == h) for c, h in zip(expected.cards, (4, 5, 6))]
        wins = sum(m < t for m, t in zip(mine, theirs)) - sum(m > t for m, t in zip(mine, theirs))
        assert wins >= 1


def test_required_special_is_played():
    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    for t in range(2):  # one special in turns 1 and 2: the second is due in turn 3
        cards = tuple(g.default_orders(0).cards)
        g.apply(0, Play(cards, (Special("BLUE-1", 1),) if t == 0 else ()))
        g.apply(1, g.default_orders(1))
        g.resolve()
    assert g._special_options(0) == (True, ["BLUE+1"])
    for n in range(10):
        play = MatchPlay.command_from_text(robot.decide(g.view(0), 0, "strong", {}, stream(n)))
        assert len(play.specials) == 1 and isinstance(play.specials[0], Special)
        g.check(0, play)


@pytest.mark.slow
def test_the_opponent_model_tells_random_orders_from_deliberate_ones():
    """Uniformly random orders raise the chance the robot gives the random model; the default
    orders (deliberate) and the robot's own orders lower it."""
    def belief(other: str, games: int = 6) -> float:
        rnd = random.Random(8)
        total = 0.0
        for n in range(games):
            g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
            for move in range(3):
                g.apply(0, random_orders(g, 0, rnd))
                if other == "random":
                    g.apply(1, random_orders(g, 1, rnd))
                else:
                    g.apply(1, MatchPlay.command_from_text(
                        robot.decide(g.view(1), 1, "strong", {}, stream(n, 1, move))))
                g.resolve()
            total += robot._random_belief(g.view(0), 1)
        return total / games

    assert belief("random") > robot.RANDOM_PRIOR > belief("strong")


def _habit_orders(state: MatchPlay, seat: int, lowest: bool) -> Play:
    """Fixed habits: the three lowest (or highest) cards, a helpful special as soon as allowed
    (a due harmful one on the first hole)."""
    hand = state.hand_cards(seat)
    cards = tuple(hand[:3] if lowest else hand[-3:])
    legal = state._legal_specials(seat)
    required, _ = state._special_options(seat)
    helpful = [s for s in legal if s.card in robot.HELPFUL]
    if helpful:
        return Play(cards, (helpful[0],))
    return Play(cards, (legal[0],) if required else ())


@pytest.mark.parametrize("lowest", [True, False])
def test_the_opponent_model_learns_fixed_habits(lowest):
    """An opponent that always plays its lowest (highest) cards is soon given to the learnt model,
    with a negative (positive) weight on the stroke total; a random one is not."""
    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    rnd = random.Random(4)
    for _ in range(4):
        g.apply(0, random_orders(g, 0, rnd))
        g.apply(1, _habit_orders(g, 1, lowest))
        g.resolve()
    p_random, p_fitted, theta = robot._beliefs(g.view(0), 1)
    assert p_fitted > 0.5 > p_random
    assert (theta[0] < -1) if lowest else (theta[0] > 1)

    g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
    for _ in range(5):
        for seat in (0, 1):
            g.apply(seat, random_orders(g, seat, rnd))
        g.resolve()
    p_random, p_fitted, _ = robot._beliefs(g.view(0), 1)
    assert p_random > p_fitted


def _strong_points(matches: int, opponent) -> float:
    """The strong robot's match points over `matches` matches, seats alternated, against
    `opponent(game, seat, n)`, the orders of match n's other seat."""
    points = 0.0
    for n in range(matches):
        g = MatchPlay.new(["Ann", "Bob"], {}, 0, PARKLAND)
        mine = n % 2
        move = 0
        while not g.finished:
            g.apply(mine, MatchPlay.command_from_text(
                robot.decide(g.view(mine), mine, "strong", {}, stream(n, mine, move))))
            g.apply(1 - mine, opponent(g, 1 - mine, n))
            g.resolve()
            move += 1
        winners = g.result().winners
        points += 1.0 if winners == (mine,) else 0.5 if len(winners) == 2 else 0.0
    return points


@pytest.mark.slow
def test_strong_beats_an_opponent_of_fixed_habits():
    assert _strong_points(8, lambda g, seat, n: _habit_orders(g, seat, n % 4 < 2)) >= 6


def _par_player(state: MatchPlay, seat: int, half: float = 0.5, spend: float = 0.3) -> Play:
    """A player scoring itself against par (written here apart from the robot): each legal order
    is worth the holes it beats par on, `half` a hole equalled, less `spend` a stroke its cards
    are below par; a RED special moves par, a BLUE one its score; ties to the highest line."""
    holes = state.turn_holes()
    pars = [state.pars[h - 1] for h in holes]

    def worth(line: str) -> float:
        play = MatchPlay.command_from_text(line.replace("; ", "\n"))
        mine, theirs = list(play.cards), list(pars)
        for s in play.specials:
            i = holes.index(s.hole)
            if s.card.startswith("BLUE"):
                mine[i] += s.delta
            else:
                theirs[i] += s.delta
        won = sum(1.0 if m < t else half if m == t else 0.0 for m, t in zip(mine, theirs))
        return won - spend * (sum(pars) - sum(play.cards))

    best = max(state.legal_orders(seat), key=lambda line: (worth(line), line))
    return MatchPlay.command_from_text(best.replace("; ", "\n"))


@pytest.mark.parametrize("half,spend", [(0.5, 0.3), (0.0, 0.1)])
def test_the_opponent_model_foresees_a_par_player(half, spend):
    """After one turn of a par player's orders the robot expects them (at PAR_THRESHOLD or more)
    and its prediction holds its next orders; random orders seldom pass for a par player's."""
    rnd = random.Random(6)
    for _ in range(4):
        g = MatchPlay.new(["Ann", "Bob"], {}, 0, course(rnd))
        for turn in range(4):
            if turn:
                view = g.view(0)
                belief, predicted = robot._par_beliefs(view, robot.rebuild(view), 1)
                assert belief >= robot.PAR_THRESHOLD
                assert _par_player(g, 1, half, spend) in [play for _, play in predicted]
            g.apply(0, random_orders(g, 0, rnd))
            g.apply(1, _par_player(g, 1, half, spend))
            g.resolve()
    taken = turns = 0
    for _ in range(40):
        g = MatchPlay.new(["Ann", "Bob"], {}, 0, course(rnd))
        while not g.finished:
            view = g.view(0)
            taken += robot._par_beliefs(view, robot.rebuild(view), 1)[0] >= robot.PAR_THRESHOLD
            turns += 1
            for seat in (0, 1):
                line = rnd.choice(g.legal_orders(seat))
                g.apply(seat, MatchPlay.command_from_text(line.replace("; ", "\n")))
            g.resolve()
    assert taken <= 0.02 * turns


@pytest.mark.slow
def test_strong_beats_a_par_player():
    assert _strong_points(6, lambda g, seat, n: _par_player(g, seat)) >= 5
