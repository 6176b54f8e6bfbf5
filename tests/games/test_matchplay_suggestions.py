"""What an error suggests ("What would be right") is an order the game accepts as it stands.

Random matches are stopped at random points; random wrong orders, unreadable or against a rule,
go the way a mail goes (read, then checked by the engine); every suggestion in the errors is then
sent back the same way, and it must be accepted. The random source is seeded, so a failure
reproduces.
"""
from __future__ import annotations

import random

import pytest

from pbem.games.course import Course
from pbem.games.errors import OrderError, make_suggestions
from pbem.games.matchplay import RULES, SPECIALS, Forfeit, MatchPlay, Play, Special, random_orders, rule
from pbem.orders.commands import read_body, read_heading
from pbem.games.matchplay.grammar import grammar
from pbem.orders.text import command_lines

GAMES = 600
ORDERS_PER_GAME = 30


def send(state: MatchPlay, seat: int, text: str) -> tuple[list, list[OrderError]]:
    """The orders and the errors of a mail with `text`, as the GM's inbox finds them."""
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, grammar)
    errors = heading.errors + errors
    for order in orders:
        if isinstance(order.command, Play):
            try:
                state.check(seat, order.command)
            except OrderError as e:
                errors += [problem.at(*reversed(order.line_for(problem.part))) for problem in (e, *e.also)]
    errors.sort(key=lambda e: e.lineno or 0)
    make_suggestions(errors, state, seat)
    return orders, errors


def random_match(rng: random.Random) -> MatchPlay:
    """A match on a random course, played for a random number of turns (perhaps to its end), by
    players who write random legal orders, sometimes miss a deadline or forfeit a turn."""
    course = Course.from_pars_string("".join(rng.choice("345") for _ in range(18)))
    g = MatchPlay.new(["George", "Bill"], {}, 0, course)
    for _ in range(rng.randrange(7)):
        if g.result():
            break
        for seat in (0, 1):
            how = rng.random()
            if how < 0.1:
                g.apply(seat, Forfeit(g.default_orders(seat)))
            elif how < 0.25:
                g.apply(seat, g.default_orders(seat))
            else:
                g.apply(seat, random_orders(g, seat, rng))
        g.resolve()
    return g


def some_play(rng: random.Random) -> str:
    count = rng.choice((3, 3, 3, 2, 4, 0))
    return "PLAY " + " ".join(str(rng.choice((3, 4, 5, 4, 3, 5, 0, 9, 6))) for _ in range(count))


def some_special(rng: random.Random) -> str:
    return str(Special(rng.choice(SPECIALS), rng.randrange(0, 21)))


def some_garbage(rng: random.Random) -> str:
    return rng.choice([
        "PLAY 4 4 five", "PLAY x", "PLAY", "PLAY 4,4,,x", "SPECIAL GREEN+1 HOLE 3", "SPECIAL RED HOLE 4",
        "SPECIAL BLUE-1", "SPECIAL", "SPECIAL RED -1 HOL 5", "SPECIAL blu+1 hole 2", "SPECIAL +1 hole 13",
        "SPECIAL RED-2 HOLE 7", "SPECAIL RED-1 HOLE 4", "Hello GM", "PLAYS 3 4 5", "SPECIAL red minus one",
    ])


def wrong_mail(rng: random.Random) -> str:
    """One to four lines: PLAY lines, SPECIAL lines (legal or not) and lines that cannot be read."""
    makers = (some_play, some_play, some_special, some_special, some_garbage)
    return "\n".join(rng.choice(makers)(rng) for _ in range(rng.randint(1, 4)))


@pytest.mark.slow
def test_every_suggestion_is_accepted_as_it_stands():
    rng = random.Random(20260109)
    refused = suggested = 0
    cited = set()
    for _ in range(GAMES):
        g = random_match(rng)
        seat = rng.randrange(2)
        for _ in range(ORDERS_PER_GAME):
            text = wrong_mail(rng)
            _, errors = send(g, seat, text)
            refused += bool(errors)
            for error in errors:
                cited.add(error.rule)
                if g.result():
                    assert error.hint is None, (text, error.message, error.hint)
                    continue
                assert error.hint, (text, error.message)
                orders, again = send(g, seat, error.hint)
                assert again == [] and len(orders) == 1, (
                    f"turn {g.turn}, seat {seat}, mail {text!r}: {error.message}; "
                    f"suggested {error.hint!r}, refused: {[e.message for e in again]}")
                suggested += 1
    assert refused > GAMES * ORDERS_PER_GAME // 2 and suggested > refused
    # Every rule an error cites is one of the welcome's lettered rules.
    assert cited - {None} <= {rule(label) for label in RULES}
    assert len(cited - {None}) >= 8


def test_a_player_who_played_red_is_offered_red():
    """The case in the issue: RED+1 in turn 1, then BLUE-1 on hole 4 in turn 2."""
    g = MatchPlay.new(["George", "Bill"], {}, 0, Course.from_pars_string("445 345 434 543 434 454"))
    g.apply(0, Play((4, 4, 5), (Special("RED+1", 1),)))
    g.apply(1, Play((4, 4, 5)))
    g.resolve()
    _, errors = send(g, 0, "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4")
    assert [e.rule for e in errors] == [rule("c")]
    assert errors[0].hint == "PLAY 3 4 5\nSPECIAL RED-1 HOLE 4"


def test_an_unreadable_special_is_answered_with_a_hole_of_the_turn():
    """The parser reads mail before it knows the game; the suggestion is the game's, made for
    the turn the match is at (turn 3: holes 7-9), keeping what could be read of the line."""
    g = MatchPlay.new(["George", "Bill"], {}, 0, Course.from_pars_string("445 345 434 543 434 454"))
    for george in (Play((4, 4, 5), (Special("RED+1", 3),)), Play((3, 4, 5))):
        g.apply(0, george)
        g.apply(1, g.default_orders(1))
        g.resolve()
    assert g.turn == 3  # George owes RED-1 this turn
    # The engine finds no special in what it could read (rule b); both errors offer one correction.
    _, errors = send(g, 0, "PLAY 4 3 4\nSPECIAL blue -1 hol 8")
    assert [(e.kind, e.rule) for e in errors] == [("against a rule", rule("b")), ("unreadable", None)]
    assert [e.hint for e in errors] == ["PLAY 4 3 4\nSPECIAL RED-1 HOLE 8"] * 2
    _, errors = send(g, 0, "PLAY 4 3 x\nSPECIAL GREEN+1 HOLE 2")
    default = g.default_orders(0)
    assert default.specials == (Special("RED-1", 7),)
    assert [e.hint for e in errors] == [str(default)] * 2
    _, errors = send(g, 0, "Hello GM")
    assert errors[0].hint == str(default)
    _, errors = send(g, 0, "SPECIAL RED-1 HOLE 9")
    cards = " ".join(map(str, default.cards))
    assert errors[0].rule == rule("i") and errors[0].hint == f"PLAY {cards}\nSPECIAL RED-1 HOLE 9"
