"""Dice golf: the seed's worked examples on fixed dice, the obligatory entry and its refusals,
policies, deadlines, coaching, exact perfect play checked against a computation written another
way, random whole games rescored from their sheets, storage and views."""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.dicegolf import best
from pbem.games.base import Resign, Result
from pbem.games.course import Course
from pbem.games.dicegolf import (DEFAULT_FLAGS, POLICIES, Autoplay, DiceGolf, Enter, ForfeitHole, Policy,
                                 random_orders, rank)
from pbem.games.errors import IllegalOrder, OrderError
from pbem.games.matchplay import Play
from pbem.games.rng import Generator, seed_from_int

NAMES = ["Alice", "Bob", "Cy", "Di"]
SCORE_BY_TOSS = {1: -2, 2: 0, 3: 1, 4: 2}


def fixed(dice: list[tuple[int, int]], n: int = 1, **options) -> DiceGolf:
    """A game whose tosses come from `dice`, in the order they are made (each pair is one toss),
    and from a fixed generator once they run out."""
    spare = random.Random(0)
    tosses = itertools.chain(dice, iter(lambda: (spare.randint(1, 6), spare.randint(1, 6)), 0))

    class Loaded(DiceGolf):
        def _toss_dice(self, seat: int, toss_no: int) -> tuple[int, int]:
            return next(tosses)

    return Loaded.new(NAMES[:n], options, 0, None)


def seeded(names: list[str], options: dict, wanted) -> DiceGolf:
    """A new game on the first seed whose opening `wanted` accepts."""
    return next(g for g in (DiceGolf.new(names, options, seed) for seed in range(200)) if wanted(g))


def sheet(g: DiceGolf, seat: int = 0, hole: int | None = None) -> dict:
    return g.sheets()[seat][(hole or g.hole) - 1]


def kinds(events: list[dict]) -> list[str]:
    return [e["kind"] for e in events]


def rescore(hole: dict, lenient: bool = False) -> int:
    """A sheet's hole scored again by the rules, written independently of the engine; every
    entry is checked to be one the rules allow."""
    flag, total = hole["flag"], 0
    for number, toss in enumerate(hole["tosses"], start=1):
        a, b = toss["dice"]
        need = flag - total
        if need == a + b or ((number > 1 or lenient) and need in (a, b)):
            assert toss["entry"] == need and number == len(hole["tosses"])
            return SCORE_BY_TOSS[number]
        fits = {v for v in (a + b, a, b) if total + v < flag}
        assert toss["entry"] in fits if fits else toss["entry"] == "X"
        total += toss["entry"] if fits else 0
    assert len(hole["tosses"]) == 4
    return 4


def play_out(g: DiceGolf, rng: random.Random) -> DiceGolf:
    while g.result() is None:
        if g.ready():
            g.resolve()
            continue
        for seat in sorted(g.to_move()):
            g.apply(seat, random_orders(g, seat, rng))
    return g


# -- the seed's worked examples -------------------------------------------------------------
def test_par_on_hole_six_from_three_and_three():
    # Holes 1-5 in one (7 4 10 5 9), then hole six (flag 6): a 7 of 3 and 4, the 3 entered,
    # then a 9 of 6 and 3 whose 3 makes six: par.
    g = fixed([(3, 4), (1, 3), (4, 6), (2, 3), (4, 5), (3, 4), (6, 3)])
    for _hole in range(1, 6):
        assert sheet(g)["score"] == -2 and g.ready()
        g.resolve()
    assert g.hole == 6 and g.flag == 6 and g.to_move() == {0}
    assert [c["order"] for c in g.choices(0)] == ["ENTER 4", "ENTER 3"]  # 7 is over the flag
    g.apply(0, Enter("DIE1"))
    assert sheet(g) == {"flag": 6, "tosses": [{"dice": [3, 4], "entry": 3}, {"dice": [6, 3], "entry": 3}],
                        "score": 0}
    assert g.ready()


def test_four_toss_hole_three_one_x_two_scores_plus_two():
    g = fixed([(3, 1), (1, 6), (4, 4), (1, 2)], flags="6,6,6,6,6,6,6")
    assert g.waiting(0)["dice"] == [3, 1]
    g.apply(0, Enter(3))  # the seed's player could have entered 1, or the 4 of the toss
    hole = sheet(g)
    assert [t["entry"] for t in hole["tosses"]] == [3, 1, "X", 2]  # 1: the only fit; 8, 4, 4: none
    assert hole["score"] == 2 and g.totals() == [2] and g.ready()


def test_a_hole_failed_after_four_tosses_scores_plus_four():
    g = fixed([(1, 1), (5, 5), (6, 6), (5, 6)], flags="6,6,6,6,6,6,6")
    g.apply(0, Enter("SUM"))
    hole = sheet(g)
    assert hole == {"flag": 6, "score": 4, "tosses": [
        {"dice": [1, 1], "entry": 2}, {"dice": [5, 5], "entry": "X"},
        {"dice": [6, 6], "entry": "X"}, {"dice": [5, 6], "entry": "X"}]}
    assert rescore(hole) == 4


def test_a_missed_fourth_toss_is_written_without_asking():
    # Flag 12: 1, 1, 1 entered; the fourth toss (2, 3) misses the 9 still needed: nothing can
    # matter now, so the largest value that fits (5) is written at once.
    g = fixed([(1, 2), (1, 2), (1, 2), (2, 3)], flags="12,6,6,6,6,6,6")
    for _ in range(3):
        g.apply(0, Enter(1))
    hole = sheet(g)
    assert [t["entry"] for t in hole["tosses"]] == [1, 1, 1, 5] and hole["score"] == 4
    assert g.to_move() == set() and rescore(hole) == 4


def test_hole_in_one_takes_the_sum_unless_lenient_first():
    strict = fixed([(4, 6), (2, 2)], flags="4,6,6,6,6,6,6")
    assert sheet(strict)["tosses"][0] == {"dice": [4, 6], "entry": "X"}  # 4 alone is no hole-in-one
    assert sheet(strict)["score"] == 0  # the 2 of the second toss ends the hole at par
    lenient = fixed([(4, 6)], flags="4,6,6,6,6,6,6", lenient_first="true")
    assert sheet(lenient) == {"flag": 4, "tosses": [{"dice": [4, 6], "entry": 4}], "score": -2}


def test_a_die_completes_the_hole_from_the_second_toss_on():
    g = fixed([(2, 3), (5, 6)], flags="7,6,6,6,6,6,6")
    g.apply(0, Enter(2))  # 2 leaves 5: the second toss's first die makes 7
    assert sheet(g)["tosses"][1] == {"dice": [5, 6], "entry": 5} and sheet(g)["score"] == 0


# -- refusals -------------------------------------------------------------------------------
def waiting_on_three_and_six() -> DiceGolf:
    """Flag 8, first toss 3 and 6: the 9 is over the flag, the 6 and the 3 fit."""
    return fixed([(3, 6), (1, 1)], flags="8,6,6,6,6,6,6")


@pytest.mark.parametrize("choice,rule,words", [
    (5, "an entry is the sum of the toss or the value of one die", "there is no 5 to enter"),
    (0, "an entry is the sum of the toss or the value of one die", "there is no 0 to enter"),
    (9, "an entry keeps the hole's total below the flag", "would make the hole's total 9, over the flag 8"),
    ("SUM", "an entry keeps the hole's total below the flag", "would make the hole's total 9"),
    ("X", "X is entered only when nothing fits", "so X cannot be entered"),
])
def test_an_illegal_entry_names_the_rule_and_the_legal_entries_and_changes_nothing(choice, rule, words):
    g = waiting_on_three_and_six()
    before = json.dumps(g.to_dict())
    with pytest.raises(IllegalOrder) as err:
        g.apply(0, Enter(choice))
    assert json.dumps(g.to_dict()) == before
    assert err.value.rule == rule and words in err.value.message
    assert "you can enter 6 or 3" in err.value.message
    assert err.value.hint == "ENTER 3"  # the best entry, itself legal now
    DiceGolf.from_dict(json.loads(before)).apply(0, DiceGolf.command_from_text(err.value.hint))


def test_one_die_never_overshoots_on_a_toss_that_waits():
    """If one die takes the total past the flag, so does the sum, and only the other die can
    fit: such a toss is entered at once. So a toss that waits shows two dice that both fit."""
    for flag in best.FLAGS:
        for total in range(flag):
            for dice in best.OUTCOMES:
                if len(best.entries(flag, total, dice)) >= 2:
                    assert all(total + d < flag for d in dice)


def test_an_answer_when_no_toss_waits_is_refused():
    # Alice holes out in one; Bob's first toss (1, 2) waits for him.
    g = fixed([(3, 4), (1, 2)], n=2)
    assert g.to_move() == {1}
    before = json.dumps(g.to_dict())
    with pytest.raises(IllegalOrder) as err:
        g.apply(0, Enter("SUM"))
    assert err.value.rule == "ENTER answers a toss that waits for you" and err.value.hint is None
    assert "you have finished hole 1; hole 2 opens when Bob has finished it" in err.value.message
    with pytest.raises(IllegalOrder):
        g.apply(0, Autoplay())
    assert json.dumps(g.to_dict()) == before


def test_orders_of_other_games_and_unknown_policies_are_refused():
    g = waiting_on_three_and_six()
    with pytest.raises(IllegalOrder) as err:
        g.apply(0, Play((3, 4, 5)))
    assert err.value.rule == "only the orders of dice golf" and err.value.hint == "ENTER 3"
    with pytest.raises(IllegalOrder) as err:
        g.apply(0, Policy("SOMETIMES"))
    assert err.value.rule == "a policy is ASK, BEST, HIGH or LOW" and err.value.hint == "POLICY BEST"


def test_nothing_is_taken_once_the_game_is_over():
    g = fixed([(3, 4), (1, 3), (4, 6), (2, 3), (4, 5), (1, 5), (2, 6)])
    while g.result() is None:
        g.resolve()
    assert g.result().line == "Alice scores -14, Master's"
    with pytest.raises(IllegalOrder) as err:
        g.apply(0, Policy("BEST"))
    assert err.value.rule == "no orders once the game is over"


# -- policies and deadlines -----------------------------------------------------------------
def test_policy_best_as_the_first_and_only_order_plays_the_whole_game():
    g = seeded(["Alice"], {}, lambda g: g.to_move() == {0})  # the first toss waits: the policy answers it too
    g.apply(0, Policy("BEST"))
    while g.result() is None:
        assert g.to_move() == set() and g.ready()
        g.resolve()
    by = {t["by"] for h in g.scorecards[0] for t in h["tosses"]}
    assert by <= {"auto", "BEST"} and "BEST" in by and g.coaching(0) == []
    assert g.result().line == f"Alice scores {g.totals()[0]}, {rank(g.totals()[0])}"


@pytest.mark.parametrize("kind", ["BEST", "HIGH", "LOW"])
def test_a_standing_policy_answers_the_waiting_toss_and_every_later_one(kind):
    g = waiting_on_three_and_six()
    g.apply(0, Policy(kind))
    assert g.policies == [kind] and g.to_move() == set()
    first = sheet(g, hole=1)["tosses"][0]
    assert first["entry"] == {"BEST": best.best_entry(8, 0, 1, (3, 6)), "HIGH": 6, "LOW": 3}[kind]
    assert g.scorecards[0][0]["tosses"][0]["by"] == kind


def test_policies_choose_as_they_say_over_whole_games():
    for seed in range(20):
        g = DiceGolf.new(NAMES[:3], {}, seed)
        for seat, kind in enumerate(("BEST", "HIGH", "LOW")):
            g.apply(seat, Policy(kind))
        while g.result() is None:
            g.resolve()
        for seat, kind in enumerate(("BEST", "HIGH", "LOW")):
            for card in g.scorecards[seat]:
                total = 0
                for number, toss in enumerate(card["tosses"], start=1):
                    if toss["by"] == kind:
                        dice = tuple(toss["dice"])
                        assert toss["entry"] == best.choose(kind, card["flag"], total, number, dice)
                        assert len(best.entries(card["flag"], total, dice)) >= 2
                    total += toss["entry"] if isinstance(toss["entry"], int) else 0


def test_policy_ask_brings_the_questions_back_from_the_next_choice():
    g = fixed([(3, 6), (1, 1), (2, 3), (1, 1)], flags="8,7,6,6,6,6,6")
    g.apply(0, Policy("HIGH"))  # 6, then the (1, 1) needs 2: par
    assert sheet(g, hole=1)["score"] == 0
    g.apply(0, Policy("ASK"))
    g.resolve()
    assert g.to_move() == {0} and g.waiting(0)["dice"] == [2, 3]


def test_a_policy_set_between_holes_waits_for_the_next_hole():
    g = fixed([(3, 4), (1, 2)], n=2, flags="7,6,6,6,6,6,6")
    g.apply(0, Policy("LOW"))  # Alice has holed out; nothing to answer yet
    assert g.policies[0] == "LOW" and g.to_move() == {1}
    assert kinds(g.drain_events())[-1] == "policy"
    g.apply(1, Policy("HIGH"))
    g.resolve()
    assert 0 not in g.to_move() and g.scorecards[0][1]["score"] is not None
    assert {t["by"] for t in g.scorecards[0][1]["tosses"]} <= {"auto", "LOW"}


def test_a_missed_deadline_plays_the_rest_of_the_hole_by_best_and_keeps_the_policy():
    g = fixed([(1, 1), (1, 1), (1, 1), (1, 1)], flags="12,6,6,6,6,6,6")
    assert g.default_orders(0) == Autoplay() and g.nmr_orders(0, "autoplay") == Autoplay()
    g.drain_events()
    g.apply(0, g.nmr_orders(0, "autoplay"))
    hole = sheet(g, hole=1)
    assert hole["score"] == 4 and g.policies == ["ASK"]
    assert [t["by"] for t in g.scorecards[0][0]["tosses"]] == ["deadline", "deadline", "deadline", "auto"]
    assert [t["entry"] for t in hole["tosses"]][:3] == [2, 2, 2]  # BEST: the 2 each time
    assert "coach" not in kinds(g.drain_events()) and g.default_orders(0) is None


def test_a_forfeited_hole_scores_plus_four():
    g = waiting_on_three_and_six()
    assert g.nmr_orders(0, "forfeit") == ForfeitHole()
    g.apply(0, ForfeitHole())
    assert sheet(g, hole=1) == {"flag": 8, "tosses": [{"dice": [3, 6], "entry": None}], "score": 4,
                                "forfeit": True}
    assert g.ready() and g.totals() == [4]


# -- coaching -------------------------------------------------------------------------------
def test_a_hand_answer_is_coached_exactly():
    # Flag 8 and a toss of 3 and 6: the 3 leaves 5 to go, which more tosses make than the 2
    # the 6 would leave.
    g = waiting_on_three_and_six()
    g.drain_events()
    g.apply(0, Enter(6))
    coach = g.coaching(0)[0]
    assert coach["entered"] == 6 and coach["best"] == 3 and coach["best_names"] == ["DIE1"]
    assert coach["expected"] == best.expected(8, 6, 2) == Fraction(5051, 2916)
    assert coach["best_expected"] == best.expected(8, 3, 2) == Fraction(16997, 11664)
    assert coach["loss"] == Fraction(5051, 2916) - Fraction(16997, 11664) > 0
    assert g.expected_loss(0) == coach["loss"]
    event = next(e for e in g.drain_events() if e["kind"] == "coach")
    assert event["hole"] == 1 and event["toss"] == 1 and event["loss"] == float(coach["loss"])


def test_the_best_answer_costs_nothing():
    g = waiting_on_three_and_six()
    assert g.suggestion(0) == "ENTER 3" and g.suggestion(0, "POLICY") == "POLICY BEST"
    g.apply(0, Enter(3))
    assert g.coaching(0)[0]["loss"] == 0 and g.expected_loss(0) == 0


def test_choices_say_what_each_entry_leaves():
    g = waiting_on_three_and_six()
    assert [(c["order"], c["names"], c["total"], c["to_go"], c["best"]) for c in g.choices(0)] == [
        ("ENTER 6", ["DIE2"], 6, 2, False), ("ENTER 3", ["DIE1"], 3, 5, True)]
    asked = next(e for e in g.drain_events() if e["kind"] == "ask")
    assert asked["seat"] == 0 and asked["dice"] == [3, 6] and asked["flag"] == 8 and asked["total"] == 0
    assert [c["value"] for c in asked["choices"]] == [6, 3]


# -- exact perfect play, checked another way ------------------------------------------------
def values_bottom_up(flag: int, lenient: bool = False) -> dict[tuple[int, int], Fraction]:
    """The value of every (total, toss) position, filled in from the fourth toss back to the
    first with plain loops (no recursion), over every toss written out as its own dice."""
    value = {(t, 5): Fraction(4) for t in range(flag)}
    for toss in (4, 3, 2, 1):
        for total in range(flag):
            acc = Fraction(0)
            for a in range(1, 7):
                for b in range(1, 7):
                    acc += _after_dice(value, flag, total, toss, a, b, lenient)
            value[(total, toss)] = acc / 36
    return value


def _after_dice(value, flag, total, toss, a, b, lenient) -> Fraction:
    need = flag - total
    if a + b == need or ((toss > 1 or lenient) and need in (a, b)):
        return Fraction(SCORE_BY_TOSS[toss])
    if toss == 4:
        return Fraction(4)
    fits = [v for v in (a + b, a, b) if v < need]
    return min(value[(total + v, toss + 1)] for v in fits) if fits else value[(total, toss + 1)]


def forward_expectation(flag: int, lenient: bool = False) -> Fraction:
    """The expected hole score found forwards: the chance of every (total, toss) position is
    carried toss by toss, each position choosing by the bottom-up values."""
    value = values_bottom_up(flag, lenient)
    chance = {(0, 1): Fraction(1)}
    expected = Fraction(0)
    for toss in (1, 2, 3, 4):
        for (total, t), p in list(chance.items()):
            if t != toss:
                continue
            for a in range(1, 7):
                for b in range(1, 7):
                    q, need = p / 36, flag - total
                    if a + b == need or ((toss > 1 or lenient) and need in (a, b)):
                        expected += q * SCORE_BY_TOSS[toss]
                    elif toss == 4:
                        expected += q * 4
                    else:
                        fits = [v for v in (a + b, a, b) if v < need]
                        nxt = min(fits, key=lambda v: value[(total + v, toss + 1)]) if fits else 0
                        key = (total + nxt, toss + 1)
                        chance[key] = chance.get(key, Fraction(0)) + q
    return expected


@pytest.mark.parametrize("lenient", [False, True])
def test_best_expected_score_per_flag_matches_a_forward_computation(lenient):
    for flag in best.FLAGS:
        assert best.expected(flag, 0, 1, lenient) == forward_expectation(flag, lenient)
        assert best.expected(flag, 0, 1, lenient) == values_bottom_up(flag, lenient)[(0, 1)]
        chances = best.score_distribution(flag, "BEST", lenient)
        assert sum(chances.values()) == 1
        assert sum(s * p for s, p in chances.items()) == best.expected(flag, 0, 1, lenient)


def test_best_table_values():
    table = {row["flag"]: row["expected"] for row in best.best_table()}
    assert table[7] == Fraction(259337, 279936) and table[2] == Fraction(697147, 419904)
    assert min(table, key=table.get) == 7  # the commonest sum is the easiest flag
    text = best.best_table_text()
    assert len(text.splitlines()) == 13 and max(map(len, text.splitlines())) <= 78
    assert "   7    +0.926" in text


@pytest.mark.parametrize("lenient", [False, True])
def test_best_is_never_worse_than_high_or_low_in_any_position(lenient):
    for flag in best.FLAGS:
        for total in range(flag):
            for toss in (1, 2, 3, 4):
                here = best.expected(flag, total, toss, lenient)
                assert here <= best.policy_expected("HIGH", flag, total, toss, lenient)
                assert here <= best.policy_expected("LOW", flag, total, toss, lenient)
    assert best.expected(12, 0, 1) < best.policy_expected("LOW", 12, 0, 1)  # and sometimes better


# -- whole games ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_with_a_result_that_the_sheets_bear_out(players):
    for seed in range(15):
        g = play_out(DiceGolf.new(NAMES[:players], {}, seed), random.Random(seed))
        sheets = g.sheets()
        totals = []
        for seat in range(players):
            assert len(sheets[seat]) == 7 and [h["flag"] for h in sheets[seat]] == list(DEFAULT_FLAGS)
            for hole in sheets[seat]:
                assert rescore(hole) == hole["score"]
            totals.append(sum(h["score"] for h in sheets[seat]))
        assert g.totals() == totals and g.scores() == totals
        assert g.result().line == expected_line(NAMES[:players], totals)
        assert g.to_move() == set() and not g.ready()


def expected_line(names: list[str], totals: list[int]) -> str:
    if len(names) == 1:
        total = totals[0]
        return f"{names[0]} scores {total}, " + ("Master's" if total < 8 else "Pro" if total <= 12 else "Amateur")
    low = min(totals)
    winners = [n for n, t in zip(names, totals) if t == low]
    if len(winners) == 1:
        return f"{winners[0]} wins with {low}"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {low}"


def test_ranks_and_shared_wins():
    assert [rank(t) for t in (-14, 7, 8, 12, 13, 28)] == ["Master's", "Master's", "Pro", "Pro", "Amateur",
                                                           "Amateur"]
    # Both hole out in one on every hole: 7 tosses each, alternating seats.
    sums = [(3, 4), (1, 3), (4, 6), (2, 3), (4, 5), (1, 5), (2, 6)]
    g = fixed([pair for pair in sums for _ in range(2)], n=2)
    while g.result() is None:
        g.resolve()
    assert g.result() == Result("Alice and Bob share the win with -14", (0, 1), (-14, -14))


def test_the_round_trip_mid_game_plays_on_identically():
    g = DiceGolf.new(NAMES[:3], {"flags": "random"}, 5)
    rng = random.Random(5)
    for _ in range(12):
        if g.ready():
            g.resolve()
        for seat in sorted(g.to_move()):
            g.apply(seat, random_orders(g, seat, rng))
    copy_ = DiceGolf.from_dict(json.loads(json.dumps(g.to_dict())))
    assert copy_.to_dict() == g.to_dict() and copy_.view(None) == g.view(None)
    state = rng.getstate()
    play_out(g, rng)
    other = random.Random()
    other.setstate(state)
    play_out(copy_, other)
    assert copy_.to_dict() == g.to_dict() and copy_.result() == g.result()


def test_commands_read_back_from_their_text():
    for command in (Enter("SUM"), Enter("DIE1"), Enter("DIE2"), Enter("X"), Enter(11), Policy("ASK"),
                    Policy("BEST"), Policy("HIGH"), Policy("LOW"), Autoplay(), ForfeitHole(), Resign()):
        assert DiceGolf.command_from_text(str(command)) == command


def test_a_game_replays_from_its_orders():
    g = DiceGolf.new(NAMES[:2], {}, 9)
    log, rng = [], random.Random(9)
    while g.result() is None:
        if g.ready():
            g.resolve()
            log.append(None)
            continue
        for seat in sorted(g.to_move()):
            order = random_orders(g, seat, rng)
            g.apply(seat, order)
            log.append((seat, str(order)))
    again = DiceGolf.new(NAMES[:2], {}, 9)
    for step in log:
        if step is None:
            again.resolve()
        else:
            again.apply(step[0], DiceGolf.command_from_text(step[1]))
    assert again.sheets() == g.sheets() and again.result() == g.result()
    assert again.chance_record() == g.chance_record() and again.to_dict() == g.to_dict()


# -- chance: the fair generator, in the documented order --------------------------------------
def test_every_die_is_the_generators_in_the_documented_order():
    # Flags first (hole 1 to 7, two dice each), then as each hole opens every seat's four
    # tosses, seat by seat, toss by toss, first die then second; a fresh generator on the
    # same seed gives the same dice one after the other.
    g = play_out(DiceGolf.new(NAMES[:3], {"flags": "random"}, 41), random.Random(41))
    record = g.chance_record()
    dice = Generator(seed_from_int(41)).dice(2 * len(record))
    assert [d for r in record for d in r.get("flag", r.get("dice"))] == dice
    flags, tosses = record[:7], record[7:]
    assert [(r["hole"], sum(r["flag"])) for r in flags] == list(zip(range(1, 8), g.flags))
    assert [(r["hole"], r["seat"], r["player"], r["toss"]) for r in tosses] == [
        (h, s, NAMES[s], t) for h in range(1, 8) for s in range(3) for t in range(1, 5)]
    for r in tosses:  # every toss made is a toss rolled ahead for that seat and hole
        made = g.scorecards[r["seat"]][r["hole"] - 1]["tosses"]
        assert r["toss"] > len(made) or made[r["toss"] - 1]["dice"] == r["dice"]


def test_a_seats_dice_do_not_depend_on_the_order_the_mails_come_in():
    # A seed on which all three wait on their first toss: who answers first tosses first.
    seed = next(n for n in range(200) if DiceGolf.new(NAMES[:3], {}, n).to_move() == {0, 1, 2})

    def played(seats_in_order):
        g = DiceGolf.new(NAMES[:3], {}, seed)
        for seat in seats_in_order:
            g.apply(seat, Policy("LOW"))
        while g.result() is None:
            g.resolve()
        return g
    first, last = played([0, 1, 2]), played([2, 1, 0])
    assert first.sheets() == last.sheets() and first.chance_record() == last.chance_record()


def test_the_chance_record_changes_with_the_seed_and_a_number_seed_is_its_bytes():
    records = {json.dumps(DiceGolf.new(NAMES[:2], {}, seed).chance_record()) for seed in range(10)}
    assert len(records) == 10
    by_bytes = DiceGolf.new(NAMES[:2], {}, seed_from_int(3))
    assert by_bytes.to_dict() == DiceGolf.new(NAMES[:2], {}, 3).to_dict()
    assert by_bytes.chance_record()[0] == {"hole": 1, "seat": 0, "player": "Alice", "toss": 1,
                                           "dice": Generator(seed_from_int(3)).dice(2)}


def test_a_game_stored_mid_hole_continues_with_the_same_dice():
    g = seeded(NAMES[:2], {"flags": "random"}, lambda g: g.to_move() == {0, 1})
    g.apply(0, Policy("HIGH"))  # one seat plays on, the other's toss waits across the storing
    copy_ = DiceGolf.from_dict(json.loads(json.dumps(g.to_dict())))
    assert copy_.rng.words == g.rng.words and copy_.chance_record() == g.chance_record()
    for state in (g, copy_):
        state.apply(1, Policy("BEST"))
        while state.result() is None:
            state.resolve()
    assert copy_.to_dict() == g.to_dict() and copy_.result() == g.result()


def test_a_game_stored_before_the_fair_generator_is_refused_plainly():
    stored = DiceGolf.new(["Alice"], {}, 1).to_dict()
    stored["rng"] = [3, [0] * 625, None]  # how Python's random stored its state
    with pytest.raises(ValueError, match="before pbem's fair generator"):
        DiceGolf.from_dict(stored)


# -- options, views, resigning --------------------------------------------------------------
def test_flags_come_from_the_option_the_course_or_the_rules():
    assert DiceGolf.new(["A"], {}, 1).flags == list(DEFAULT_FLAGS) == [7, 4, 10, 5, 9, 6, 8]
    links = Course("links", (4,) * 18, extras={"dicegolf": {"flags": [8, 5, 11, 6, 9, 4, 7]}})
    assert DiceGolf.new(["A"], {}, 1, links).flags == [8, 5, 11, 6, 9, 4, 7]
    assert DiceGolf.new(["A"], {"flags": "2 3,4 5 6 7 12"}, 1, links).flags == [2, 3, 4, 5, 6, 7, 12]
    assert DiceGolf.new(["A"], {"flags": [12] * 7}, 1).flags == [12] * 7
    rolled = [DiceGolf.new(["A"], {"flags": "random"}, seed).flags for seed in range(30)]
    assert all(len(f) == 7 and all(2 <= x <= 12 for x in f) for f in rolled)
    assert len({tuple(f) for f in rolled}) > 1
    assert DiceGolf.new(["A"], {"flags": "RANDOM"}, 3).flags == DiceGolf.new(["A"], {"flags": "random"}, 3).flags
    for bad in ("1,4,10,5,9,6,8", "7,4,10", "13 4 10 5 9 6 8", "seven", [7] * 8):
        with pytest.raises(ValueError, match="option flags"):
            DiceGolf.new(["A"], {"flags": bad}, 1)


def test_players_and_options_are_checked():
    with pytest.raises(ValueError, match="1 to 4 players"):
        DiceGolf.new(NAMES + ["Eve"], {}, 1)
    with pytest.raises(ValueError, match="lenient_first"):
        DiceGolf.new(["A"], {"lenient_first": "maybe"}, 1)
    assert DiceGolf.new(["A"], {"lenient_first": "TRUE"}, 1).lenient is True


def test_views_show_the_closed_holes_to_all_and_the_hole_in_play_and_policy_to_its_player():
    g = fixed([(3, 6), (1, 2)], n=2, flags="8,6,6,6,6,6,6")
    g.apply(1, Policy("LOW"))
    mine = g.view(0)
    assert mine["sheets"] == [[], []] and mine["totals"] == [0, 0] and mine["policies"] == ["ASK", None]
    assert mine["playing"] == [g.sheet(0, 1), None] and g.sheet(1, 1)["score"] is not None
    assert mine["waiting"][0]["dice"] == [3, 6] and mine["waiting"][1] is None
    assert g.view(1)["playing"] == [None, g.sheet(1, 1)] and g.view(1)["totals"] == [0, 0]
    assert g.spectator_view()["sheets"] == [[], []] and "playing" not in g.spectator_view()
    assert g.view(None)["policies"] == ["ASK", "LOW"]
    json.dumps(g.view(None))
    json.dumps(g.view(1))


def test_sheets_list_a_waiting_toss_and_an_open_hole_as_null():
    g = waiting_on_three_and_six()
    assert g.sheets() == [[{"flag": 8, "tosses": [{"dice": [3, 6], "entry": None}], "score": None}]]


def test_resigning():
    solo = waiting_on_three_and_six()
    solo.apply(0, Resign())
    assert solo.result().line == "Alice resigned after 0 holes" and solo.to_move() == set()
    g = fixed([(3, 6), (3, 6), (3, 6)], n=3, flags="8,6,6,6,6,6,6")
    g.apply(1, Resign())
    assert g.result() is None and g.to_move() == {0, 2}
    with pytest.raises(IllegalOrder, match="resigned"):
        g.apply(1, Enter(6))
    g.apply(2, Resign())
    assert g.result().line.startswith("Alice wins with") and g.result().winners == (0,)


def test_ready_may_hold_right_after_the_deal_and_resolve_waits_for_it():
    g = fixed([(3, 4)])
    assert g.ready() and g.to_move() == set()
    h = waiting_on_three_and_six()
    with pytest.raises(RuntimeError):
        h.resolve()


def test_drain_events_tells_the_story_of_a_hole():
    g = fixed([(3, 1), (1, 6), (4, 4), (1, 2)], flags="6,6,6,6,6,6,6")
    assert kinds(g.drain_events()) == ["hole_start", "toss", "ask"]
    g.apply(0, Enter(3))
    assert kinds(g.drain_events()) == ["entry", "coach", "toss", "toss", "toss", "holed"]
    g.resolve()
    events = g.drain_events()
    assert events[0]["kind"] == "hole_end" and events[0]["scores"] == [2] and events[0]["sheets"][0]["score"] == 2
    assert g.drain_events() == []


def test_random_orders_are_legal_and_vary():
    g = waiting_on_three_and_six()
    seen = set()
    for seed in range(60):
        order = random_orders(g, 0, random.Random(seed))
        g.check(0, order)
        seen.add(str(order))
    assert {"ENTER 6", "ENTER 3", "ENTER DIE1", "ENTER DIE2"} <= seen
    assert any(s.startswith("POLICY") for s in seen)
    assert random_orders(fixed([(3, 4)]), 0, random.Random(1)) is None


# -- hostile orders -------------------------------------------------------------------------
CHOICES = st.one_of(st.integers(-20, 40), st.sampled_from(["SUM", "DIE1", "DIE2", "X", "DIE3", "", "3", "sum"]))
COMMANDS = st.one_of(st.builds(Enter, CHOICES), st.builds(Policy, st.text(max_size=6) | st.sampled_from(POLICIES)),
                     st.sampled_from([Autoplay(), ForfeitHole(), Resign(), Play((3, 4, 5)), None, "ENTER 4"]))


@pytest.mark.slow
@settings(derandomize=True, database=None, deadline=None, max_examples=300)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), moves=st.integers(0, 30),
       seat=st.integers(-1, 4), command=COMMANDS)
def test_whatever_arrives_check_refuses_with_an_order_error_or_apply_plays_it(seed, players, moves, seat, command):
    g = DiceGolf.new(NAMES[:players], {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.result() is not None:
            break
        if g.ready():
            g.resolve()
        for s in sorted(g.to_move()):
            g.apply(s, random_orders(g, s, rng))
    before = json.dumps(g.to_dict())
    try:
        g.check(seat, command)
    except OrderError as err:
        assert "\n" not in err.message and "\n" not in (err.hint or "")
        with pytest.raises(OrderError):
            g.apply(seat, command)
        assert json.dumps(g.to_dict()) == before
        return
    g.apply(seat, command)
    json.dumps(g.to_dict())


def test_the_docs_table_is_the_solvers_own():
    from pathlib import Path

    from pbem.games.dicegolf import best as dicegolf_best
    readme = (Path(__file__).resolve().parents[2] / "docs" / "games.md").read_text()
    assert dicegolf_best.best_table_text().rstrip("\n") in readme


@pytest.mark.parametrize("seed", [2, 9])
def test_no_view_shows_another_seats_hole_before_it_closes(seed):
    """Over whole random games: another seat's hole in play, its waiting toss and its score are
    in no player's view and in no spectator's until every seat has finished the hole."""
    g, rng = DiceGolf.new(NAMES[:3], {}, seed), random.Random(seed)
    seen_own_open = 0
    for _ in range(400):
        if g.result() is not None:
            break
        closed = len(g.holes)
        for reader in (*range(3), None):
            v = g.view(reader) if reader is not None else g.spectator_view()
            assert all(len(s) == min(closed, len(g.scorecards[i])) for i, s in enumerate(v["sheets"]))
            assert v["totals"] == [sum(h["score"] for h in g.sheets()[i][:closed]) for i in range(3)]
            for other in set(range(3)) - {reader}:
                assert "playing" not in v or v["playing"][other] is None
                assert "waiting" not in v or v["waiting"][other] is None
            if reader is not None and v["playing"][reader] is not None:
                seen_own_open += 1
                assert v["playing"][reader] == g.sheet(reader, g.hole)
        if g.ready():
            g.resolve()
        else:
            seat = min(g.to_move())
            g.apply(seat, random_orders(g, seat, rng))
    assert g.result() is not None and seen_own_open > 0
    assert g.view(0)["sheets"] == g.sheets() == g.spectator_view()["sheets"]
