"""The MatchPlay rules engine: the seed's examples, every restriction, results, default orders."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from pbem.gm.courses import load_course
from pbem.games.base import Resign
from pbem.games.course import Course
from pbem.games.errors import IllegalOrder
from pbem.games.matchplay import MatchPlay, Play, Special as S, parse_canonical, random_orders, rule, table_names

EXAMPLES = load_course("examples")          # holes 1-3 par 4 4 5, holes 13-15 par 4 3 4
PARKLAND = load_course("parkland")


def new(course: Course = EXAMPLES) -> MatchPlay:
    return MatchPlay.new(["George", "Bill"], {}, 0, course)


def turn(g: MatchPlay, george: Play, bill: Play) -> list[dict]:
    g.apply(0, george)
    g.apply(1, bill)
    return g.resolve()


def example_two_position() -> MatchPlay:
    """George 3 up after 12; Bill has played one Red in the second half; George no Blue yet."""
    g = new()
    turn(g, Play((4, 4, 5), (S("RED+1", 1),)), Play((4, 4, 5), (S("BLUE-1", 3),)))
    turn(g, Play((3, 4, 5), (S("RED-1", 4),)), Play((4, 4, 5), (S("BLUE+1", 6),)))
    turn(g, Play((4, 3, 4)), Play((5, 4, 4)))
    turn(g, Play((4, 4, 3)), Play((5, 4, 3), (S("RED+1", 10),)))
    return g


def test_example_one_george_one_up_after_three():
    g = new()
    rows = turn(g, Play((3, 5, 4)), Play((4, 4, 5), (S("BLUE+1", 3),)))
    assert [r["scores"] for r in rows] == [[3, 4], [5, 4], [4, 6]]
    assert [r["winner"] for r in rows] == [0, 1, 0]
    assert g.match_line() == "Match: George 1 up after 3"


def test_example_two_george_wins_four_and_three_and_the_match_stops():
    g = example_two_position()
    assert g.match_line() == "Match: George 3 up after 12"
    assert [p["card"] for p in g.specials_played[1] if p["turn"] >= 4] == ["RED+1"]
    assert not any(p["card"].startswith("BLUE") for p in g.specials_played[0])
    assert [EXAMPLES.pars[h - 1] for h in (13, 14, 15)] == [4, 3, 4]
    rows = turn(g, Play((4, 3, 4), (S("BLUE+1", 13),)), Play((4, 4, 4), (S("RED-1", 13),)))
    assert rows[0]["scores"][0] == 4 and rows[0]["specials"] == [["BLUE+1"], ["RED-1"]]
    assert g.result().line == "George wins 4 and 3"
    assert g.holes[-1]["hole"] == 15 and len(g.holes) == 15
    assert g.to_move() == set()
    with pytest.raises(IllegalOrder):
        g.check(0, Play((4, 5, 4), (S("BLUE-1", 16),)))


def test_both_specials_on_one_hole_stack():
    g = new()
    rows = turn(g, Play((4, 4, 5), (S("BLUE-1", 2),)), Play((4, 4, 5), (S("RED+1", 2),)))
    assert rows[1]["scores"] == [4, 4]
    g2 = new()
    rows = turn(g2, Play((4, 4, 5), (S("BLUE+1", 2),)), Play((4, 4, 5), (S("RED+1", 2),)))
    assert rows[1]["scores"] == [6, 4] and rows[1]["winner"] == 1


def test_early_finish_skips_the_rest_of_the_turn():
    rng = random.Random(11)
    for _ in range(2000):  # find random matches decided on the first or second hole of a turn
        g = new(PARKLAND)
        while not g.result():
            for seat in (0, 1):
                g.apply(seat, random_orders(g, seat, rng))
            played = g.resolve()
        last = g.holes[-1]["hole"]
        if last % 3:
            break
    assert last % 3, "no random match ended inside a turn"
    assert len(played) == last % 3 and len(g.holes) == last
    assert abs(g.lead) > 18 - last
    assert g.result().line.endswith(f"wins {abs(g.lead)} and {18 - last}")
    assert g.to_move() == set() and not g.ready()
    # The cards of the holes never played stay in the hand.
    assert sum(g.hands[0].values()) == 18 - last


@pytest.mark.parametrize("lead,line", [(0, "Match halved"), (2, "George wins 2 up"), (-1, "Bill wins 1 up")])
def test_results_at_the_eighteenth(lead, line):
    g = new()
    g.lead = lead
    g._turn = 6
    assert g._final_result().line == line


# -- refusals ---------------------------------------------------------------------------------

def refused(g: MatchPlay, seat: int, play, label: str) -> IllegalOrder:
    """The order is refused citing the welcome's rule `label`, and what the error suggests instead
    is accepted as it stands."""
    before = g.to_dict()
    with pytest.raises(IllegalOrder) as e:
        g.apply(seat, play)
    assert e.value.rule == rule(label)
    assert g.to_dict() == before
    if not g.result():
        g.check(seat, parse_canonical(e.value.hint))
    return e.value


def test_a_card_no_longer_held():
    g = new()
    turn(g, Play((5, 5, 5)), Play((4, 4, 5), (S("BLUE+1", 3),)))
    err = refused(g, 0, Play((5, 5, 4)), "h")
    assert "you hold 1" in err.message


def test_two_specials_in_a_turn():
    err = refused(new(), 0, Play((4, 4, 5), (S("BLUE+1", 1), S("BLUE-1", 2))), "a")
    assert err.hint == "PLAY 4 4 5\nSPECIAL BLUE+1 HOLE 1"  # the first of the two, which is legal


def test_special_on_a_hole_outside_the_turn():
    err = refused(new(), 0, Play((4, 4, 5), (S("BLUE+1", 4),)), "e")
    assert err.part == "special"


def test_special_already_played():
    g = new()
    turn(g, Play((4, 4, 5), (S("BLUE+1", 1),)), Play((4, 4, 5), (S("BLUE+1", 1),)))
    err = refused(g, 0, Play((3, 4, 5), (S("BLUE+1", 4),)), "f")
    assert "turn 1, hole 1" in err.message


def test_two_colours_in_turns_one_to_three():
    g = new()
    turn(g, Play((4, 4, 5), (S("BLUE+1", 1),)), Play((4, 4, 5), (S("BLUE+1", 1),)))
    err = refused(g, 0, Play((3, 4, 5), (S("RED+1", 4),)), "c")
    assert err.hint == "PLAY 3 4 5\nSPECIAL BLUE-1 HOLE 4"  # the player's colour, hole and cards


def test_no_special_in_turns_one_and_two_is_refused_at_turn_two():
    g = new()
    turn(g, Play((4, 4, 5)), Play((4, 4, 5), (S("BLUE+1", 1),)))
    err = refused(g, 0, Play((3, 4, 5)), "b")
    assert err.hint.startswith("PLAY 3 4 5\nSPECIAL ")


def test_second_half_look_ahead():
    g = example_two_position()
    # George owes both Blues in turns 5 and 6: turn 5 without one is refused.
    refused(g, 0, Play((4, 3, 4)), "d")
    err = refused(g, 0, Play((4, 3, 4), (S("RED+1", 13),)), "f")
    assert err.hint == "PLAY 4 3 4\nSPECIAL BLUE+1 HOLE 13"


@pytest.mark.parametrize("cards", [(4, 4), (4, 4, 5, 3), ()])
def test_wrong_number_of_cards(cards):
    refused(new(), 0, Play(cards), "g")


def test_a_card_that_does_not_exist():
    refused(new(), 0, Play((4, 4, 9)), "h")


def test_no_orders_after_resignation():
    g = new()
    g.apply(1, Resign())
    assert g.result().line.startswith("George wins by resignation")
    refused(g, 1, Play((4, 4, 5)), "j")


def test_replacing_orders_before_the_turn_resolves():
    g = new()
    g.apply(0, Play((3, 3, 3)))
    g.apply(0, Play((4, 4, 5)))
    assert g.to_move() == {1}
    rows = turn(g, Play((4, 4, 5)), Play((4, 4, 5)))
    assert [r["cards"][0] for r in rows] == [4, 4, 5]


# -- default orders ---------------------------------------------------------------------------

def test_default_orders_nearest_par_ties_low_and_special_when_required():
    g = new(Course.from_pars_string("345 444 444 444 444 434"))
    first = g.default_orders(0)
    assert first == Play((3, 4, 5))  # nothing required in turn 1
    turn(g, first, Play((3, 4, 5), (S("BLUE+1", 1),)))
    second = g.default_orders(0)
    assert len(second.specials) == 1 and second.specials[0].card == "BLUE-1"  # the helpful one first
    g.check(0, second)


def test_default_orders_are_always_legal_over_random_play():
    rng = random.Random(7)
    for _ in range(300):
        g = new(PARKLAND)
        while not g.result():
            for seat in (0, 1):
                if rng.random() < 0.3:
                    g.apply(seat, g.default_orders(seat))
                else:
                    g.apply(seat, random_orders(g, seat, rng))
            g.resolve()
        assert g.result() is not None


# -- random matches: results agree with the holes ----------------------------------------------

def test_thousands_of_random_matches_are_consistent():
    rng = random.Random(2026)
    for n in range(3000):
        course = PARKLAND if n % 2 else Course.from_pars_string(
            "".join(rng.choice("345") for _ in range(18)))
        g = MatchPlay.new(["George", "Bill"], {}, n, course)
        initial = [Counter(course.pars), Counter(course.pars)]
        orders: dict[int, list[Play]] = {0: [], 1: []}
        while not g.result():
            for seat in (0, 1):
                play = random_orders(g, seat, rng)
                orders[seat].append(play)
                g.apply(seat, play)
            g.resolve()
        check_match(g, initial, orders)


def check_match(g: MatchPlay, initial, orders) -> None:
    lead = 0
    for i, row in enumerate(g.holes):
        assert row["hole"] == i + 1
        t, k = divmod(i, 3)
        for seat in (0, 1):
            play = orders[seat][t]
            assert row["cards"][seat] == play.cards[k]
        expected = [row["cards"][0], row["cards"][1]]
        for seat in (0, 1):
            for sp in orders[seat][t].specials:
                if sp.hole == row["hole"]:
                    expected[seat if sp.colour == "BLUE" else 1 - seat] += sp.delta
        assert row["scores"] == expected
        winner = None if expected[0] == expected[1] else (0 if expected[0] < expected[1] else 1)
        assert row["winner"] == winner
        lead += {0: 1, 1: -1, None: 0}[winner]
        assert row["lead"] == lead
        left = 18 - row["hole"]
        if row is not g.holes[-1]:
            assert abs(lead) <= left, "a hole was played after the match was decided"
    last = g.holes[-1]["hole"]
    left = 18 - last
    line = g.result().line
    if left:
        assert abs(lead) > left
        leader = "George" if lead > 0 else "Bill"
        assert line == f"{leader} wins {abs(lead)} and {left}"
    elif lead:
        assert line == f"{'George' if lead > 0 else 'Bill'} wins {abs(lead)} up"
    else:
        assert line == "Match halved"
    for seat in (0, 1):
        played = Counter(row["cards"][seat] for row in g.holes)
        held = Counter({v: n for v, n in g.hands[seat].items() if n})
        assert played + held == initial[seat]
        specials_on_played = sorted(sp.card for play in orders[seat] for sp in play.specials if sp.hole <= last)
        assert sorted(p["card"] for p in g.specials_played[seat]) == specials_on_played
        if not left:
            assert g.specials_left[seat] == []  # all four specials are used in a full match


def test_state_round_trips_through_json():
    rng = random.Random(3)
    g = new(PARKLAND)
    for _ in range(3):
        for seat in (0, 1):
            g.apply(seat, random_orders(g, seat, rng))
        g.resolve()
    g.apply(0, random_orders(g, 0, rng))
    again = MatchPlay.from_dict(g.to_dict())
    assert again.to_dict() == g.to_dict()
    assert again.to_move() == {1}


def test_matchplay_draws_no_chance_so_the_seed_changes_nothing():
    games = [MatchPlay.new(["George", "Bill"], {}, seed, PARKLAND) for seed in (0, 99, bytes(range(16)))]
    for g in games:
        rng = random.Random(8)  # the same orders in every game
        while g.result() is None:
            for seat in sorted(g.to_move()):
                g.apply(seat, random_orders(g, seat, rng))
            if g.ready():
                g.resolve()
    assert games[0].to_dict() == games[1].to_dict() == games[2].to_dict()
    assert [g.chance_record() for g in games] == [[], [], []]


def test_view_of_a_seat_hides_the_other_seat():
    g = new()
    g.apply(0, Play((3, 5, 4), (S("RED+1", 2),)))
    v = g.view(1)
    assert set(v["seats"]) == {1}
    assert v["ordered"] == [True, False]
    assert "RED+1" not in str(v["seats"]) or v["seats"][1]["orders"] is None
    assert "3 5 4" not in str(v)


def test_the_match_line_before_any_hole_says_so():
    from pbem.games.matchplay import match_line
    assert match_line(["George", "Bill"], 0, 0) == "Match: all square, no hole played yet"
    assert match_line(["George", "Bill"], 0, 3) == "Match: all square after 3"
    assert match_line(["George", "Bill"], -2, 6) == "Match: Bill 2 up after 6"


# -- what the player is told ------------------------------------------------------------------

def test_the_specials_still_owed_and_by_when():
    g = new()
    assert g.view(0)["seats"][0]["owed"] == (
        "You still owe two specials of one colour (both BLUE or both RED), in two different turns, "
        "by the end of turn 3, and the two of the other colour by the end of turn 6.")
    turn(g, Play((4, 4, 5), (S("RED+1", 1),)), Play((4, 4, 5)))
    assert g.owed_specials(0) == ("You still owe a RED special (RED-1) by the end of turn 3, and BLUE+1 "
                                  "and BLUE-1, in two different turns, by the end of turn 6.")
    turn(g, Play((3, 4, 5)), Play((3, 4, 5), (S("BLUE-1", 4),)))
    assert g.owed_specials(0).startswith("You still owe a RED special (RED-1) by the end of this turn,")
    assert g.owed_specials(1).startswith("You still owe a BLUE special (BLUE+1) by the end of this turn,")
    turn(g, Play((4, 3, 4), (S("RED-1", 7),)), Play((4, 3, 4), (S("BLUE+1", 7),)))
    assert g.owed_specials(0) == "You still owe BLUE+1 and BLUE-1, in two different turns, by the end of turn 6."
    turn(g, Play((5, 4, 3), (S("BLUE-1", 10),)), Play((5, 4, 3)))
    assert g.owed_specials(0) == "You still owe a BLUE special (BLUE+1) by the end of turn 6."
    assert g.owed_specials(1) == "You still owe RED+1 and RED-1, in two different turns, by the end of turn 6."


def test_the_hole_table_names_fit_its_columns():
    assert table_names(["George", "Bill"]) == ["George", "Bill"]
    assert table_names(["Maximilian Alexander von Hohenzollern", "Bill Smith"]) == ["Maximil.", "Bill"]
    assert table_names(["Ann Lee", "Ann Ray-Lee"]) == ["Ann Lee", "Ann"]
    assert table_names(["Christopher Robin", "Christopher Wren"]) == ["Christ-1", "Christ-2"]
    assert table_names(["   ", "Bob\tMarley  Junior"]) == ["?", "Bob"]
    for pair in (["a" * 200, "b" * 200], ["x y " * 50, "x y " * 50]):
        tags = table_names(pair)
        assert len(set(tags)) == 2 and max(map(len, tags)) <= 8


def test_the_nearest_legal_orders_keep_what_the_player_may_play():
    g = new()
    turn(g, Play((4, 4, 5), (S("RED+1", 1),)), Play((4, 4, 5)))
    # Their cards and hole, the colour they must keep; any suggestion is itself legal.
    assert g.nearest_orders(0, (3, 4, 5), [S("BLUE-1", 4)]) == Play((3, 4, 5), (S("RED-1", 4),))
    assert g.nearest_orders(0, (9, 4, 5), [S("RED", 0)]) == Play(g.default_orders(0).cards, (S("RED-1", 4),))
    assert g.nearest_orders(0, (3, 4, 5), []) == Play((3, 4, 5))  # no special is due this turn
    due = g.nearest_orders(1, None, [])
    assert due == g.default_orders(1) and due.specials  # Bill must play one now
    for play in (due, g.nearest_orders(1, (4, 4), [S("", 0)])):
        g.check(1, play)


def test_the_gm_show_lines_say_none_for_a_spent_hand_and_no_specials():
    from pbem.games.matchplay.show import gm_lines
    seat = {"name": "George", "hand": [], "specials_left": [], "orders": None}
    line = gm_lines({"seats": {"1": seat}}, {})[0]
    assert line == "  George: hand (empty); specials left (none); pending -"
