"""Hostile mail reaches the engines as whatever commands the grammars read from it: whatever the
command and whatever the position, `check` raises nothing but an order error, and a command
that `check` lets through is applied without any error at all."""
from __future__ import annotations

import random
import unicodedata

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pbem.games import golf, golfdeck, matchplay
from pbem.games.base import Resign
from pbem.games.cards.orders import (Discard, DiscardFlip, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek,
                                    Reveal)
from pbem.games.course import Course
from pbem.games.errors import OrderError
from pbem.games.matchplay import SPECIALS, MatchPlay, Play, Special
from pbem.games import spec_for
from pbem.orders.commands import Help, History, Press, SetTimezone, Status, read_body, read_heading
from pbem.orders.text import command_lines

FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COURSE = Course.from_pars_string("443 544 354 445 345 434", "fuzz")
NAMES = ["Ann", "Bill", "Cy", "Dee"]

# Fresh games of every engine, a few option sets each (the rules that refuse differ by option).
GAMES = {
    "matchplay": lambda seed: MatchPlay.new(NAMES[:2], {}, seed, COURSE),
    "golfdeck 2": lambda seed: golfdeck.GolfDeck.new(NAMES[:2], {}, seed, None),
    "golfdeck 4": lambda seed: golfdeck.GolfDeck.new(NAMES[:4], {"holes": "1"}, seed, None),
    "golf": lambda seed: golf.Golf.new(NAMES[:3], {}, seed, None),
    "golf 2x3": lambda seed: golf.Golf.new(NAMES[:2], {
        "layout": "6", "ending": "faceup", "peek": "any2", "replace_unseen_once": "true", "pairs": "rowcol",
        "jacks": "20skip", "holes": "1"}, seed, None),
    "golf paid": lambda seed: golf.Golf.new(NAMES[:4], {"peek": "paid", "knock_penalty": "plus10",
                                                        "one_eyed_jacks_wild": "true", "jokers": "true"}, seed, None),
}


def advance(state, moves: int, rng: random.Random):
    """`state` after up to `moves` random legal moves (a MatchPlay turn may be left half ordered)."""
    for _ in range(moves):
        if state.result() is not None:
            break
        if isinstance(state, MatchPlay):
            for seat in sorted(state.to_move()):
                state.apply(seat, matchplay.random_orders(state, seat, rng))
                if rng.random() < 0.2:
                    return state
            state.resolve()
        else:
            seat = min(state.to_move())
            engine = golf if isinstance(state, golf.Golf) else golfdeck
            state.apply(seat, engine.random_orders(state, seat, rng))
    return state


def controls_in(text: str | None, allowed: str = "") -> list[str]:
    return [ch for ch in text or "" if (unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029")
            and ch not in allowed]


def assert_only_order_errors(state, commands) -> int:
    """Each command from each seat; returns how many `check` let through."""
    allowed = 0
    for command in commands:
        for seat in range(len(state.names)):
            try:
                state.check(seat, command)
            except OrderError as e:
                for problem in (e, *e.also):
                    # A message or a hint may run over lines (a PLAY with its SPECIAL); nothing else.
                    assert not controls_in(problem.message, "\n") and not controls_in(problem.hint, "\n")
                continue
            allowed += 1
            # What check allows, apply does, on a copy (the GM applies to a scratch copy too).
            copy = type(state).from_dict(state.to_dict())
            copy.apply(seat, command)
            if isinstance(copy, MatchPlay) and copy.ready():
                copy.resolve()
    return allowed


# --- the commands the grammars can produce ---------------------------------------------------

POSITION = st.integers(-99, 99)  # `-?[0-9]{1,2}`
NUMBER = st.integers(0, 999_999)  # at most six ASCII digits
SPECIAL = st.builds(Special, st.sampled_from(SPECIALS), st.integers(0, 99))
COMMANDS = st.one_of(
    st.builds(Play, st.lists(NUMBER, max_size=5).map(tuple), st.lists(SPECIAL, max_size=3).map(tuple)),
    st.builds(Play, st.lists(st.sampled_from([3, 4, 5]), min_size=3, max_size=3).map(tuple),
              st.lists(SPECIAL, max_size=2).map(tuple)),
    st.builds(Play, st.integers(0, 900).map(lambda n: (4,) * n), st.just(())),  # "PLAY 444...4"
    st.builds(Reveal, POSITION, POSITION), st.builds(DrawDiscard, POSITION), st.just(DrawStock()),
    st.builds(Keep, POSITION), st.builds(DiscardFlip, POSITION), st.just(Discard()), st.just(Knock()),
    st.builds(Peek, POSITION), st.builds(DrawStockIf, POSITION, POSITION, st.none() | POSITION),
    st.sampled_from([Resign(), Help(), Status(), History(), Press("hi"), SetTimezone("UTC")]),
)
SMALL = st.integers(1, 6)  # positions that exist, so the deeper rules are reached too
LIKELY = st.one_of(
    st.builds(Keep, SMALL), st.builds(DrawDiscard, SMALL), st.builds(DiscardFlip, SMALL),
    st.builds(Peek, SMALL), st.builds(Reveal, SMALL, SMALL), st.builds(DrawStockIf, st.integers(-5, 40), SMALL,
                                                                       st.none() | SMALL),
    st.builds(Play, st.lists(st.sampled_from([3, 4, 5]), min_size=3, max_size=3).map(tuple),
              st.lists(st.builds(Special, st.sampled_from(SPECIALS), st.integers(1, 18)), max_size=2).map(tuple)),
)
WORDS = ["PLAY", "SPECIAL", "BLUE-1", "RED+1", "BLUE +1", "HOLE", "#", "REVEAL", "DRAW", "STOCK", "DISCARD",
         "KEEP", "FLIP", "KNOCK", "PEEK", "IF", "<=", "ELSE", "AND", ",", "RESIGN", "TURN", "\u0664", "\u19da",
         "\uff14", "\x00", "\u202e", "0", "1", "2", "3", "4", "5", "6", "7", "13", "-1", "99", "123456", "9" * 40]
# Orders as the contract writes them, with numbers right, wrong, foreign, fullwidth or huge.
FORMS = ["PLAY {} {} {}", "PLAY {}{}{}", "SPECIAL {} HOLE {}", "REVEAL {} {}", "DRAW DISCARD {}", "DRAW STOCK",
         "KEEP {}", "DISCARD FLIP {}", "FLIP #{}", "DISCARD", "KNOCK", "PEEK {}", "RESIGN", "TURN {}",
         "DRAW STOCK IF <= {} KEEP {} ELSE FLIP {}", "DRAW STOCK IF <= {} KEEP {} ELSE DISCARD", "IF <= {} KEEP {} "
         "ELSE DISCARD"]
FILL = st.one_of(st.sampled_from(["1", "2", "3", "4", "5", "6", "BLUE-1", "RED+1"]), st.integers(-99, 120).map(str),
                 st.sampled_from(["\u0664", "\u19da", "\uff14", "\xb2", "9" * 40, "1234567", "\x00", ""]))
ORDER_LINE = st.sampled_from(FORMS).flatmap(
    lambda form: st.lists(FILL, min_size=form.count("{}"), max_size=form.count("{}")).map(lambda f: form.format(*f)))
WORD_LINE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join)
MAIL = st.lists(st.one_of(ORDER_LINE, ORDER_LINE, WORD_LINE), max_size=6).map("\n".join)


@FUZZ
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2 ** 16), st.integers(0, 60),
       st.lists(COMMANDS, max_size=6), st.lists(LIKELY, max_size=6))
def test_any_command_in_any_position_raises_only_order_errors(game, seed, moves, commands, likely):
    state = advance(GAMES[game](seed), moves, random.Random(seed))
    allowed = assert_only_order_errors(state, commands + likely)
    event("game over" if state.result() else "some allowed" if allowed else "all refused")


@FUZZ
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2 ** 16), st.integers(0, 30), MAIL)
def test_orders_read_from_any_mail_raise_only_order_errors(game, seed, moves, text):
    state = advance(GAMES[game](seed), moves, random.Random(seed))
    heading = read_heading(command_lines(text))
    orders, errors = read_body(heading.body, spec_for(state.TYPE).grammar)
    assert all(isinstance(e, OrderError) for e in heading.errors + errors)
    allowed = assert_only_order_errors(state, [o.command for o in orders])
    event("game over" if state.result() else "some allowed" if allowed else "all refused" if orders else "no orders")


def test_the_fuzzing_reaches_orders_that_are_allowed():
    """The properties above are only worth something if legal orders get through `check` too."""
    for game, make in sorted(GAMES.items()):
        allowed = 0
        for seed in range(3):
            state = advance(make(seed), seed * 5, random.Random(seed))
            allowed += assert_only_order_errors(state, [
                Play((3, 4, 5)), Play((4, 4, 5)), Reveal(1, 2), DrawStock(), DrawDiscard(1), Keep(1), Discard(),
                Peek(1), DrawStockIf(3, 1, None), Resign()])
        assert allowed >= 10, game
