"""On Par, rule by rule: the decks, each club's cards and hazard rule, each hazard, each skill shot
and trap, the handicap, the hand limit, the draw and its reshuffle, the end of a hole and the
loser scoring (the seed's worked example), rotation, resignation, and every refusal, which must
name its rule, change nothing and suggest an order that is accepted."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from pbem.games.onpar import course as oc
from pbem.games.base import Resign
from pbem.games.course import Course
from pbem.games.errors import AmbiguousOrder, IllegalOrder, OrderError
from pbem.games.onpar import OnPar, handicap_option
from pbem.games.onpar.orders import DiscardCard, Pass, PlaySkill, Shot, Trap

NAMES = ["Ann", "Bob", "Cy", "Di"]
PLAIN = oc.PLAIN
# A course with a hazard of the general rule between two plain cards: tee 0, 1-5, 6-8, 9-14, green 15-19.
MILL = [(PLAIN, 5), ("Windmill", 3), (PLAIN, 6)]


def rig(cards, hands, balls=None, strokes=None, seat=0, **options) -> OnPar:
    """A game of len(hands) players whose hole in play is `cards` plus The Green, with these
    hands and balls, and `seat` to move (its card for the turn already in `hands`)."""
    state = OnPar.new(NAMES[:len(hands)], options, 7, None)
    state.drain_events()
    state.course = [*cards, (oc.GREEN, oc.GREEN_SPACES)]
    state.layout = oc.Layout(state.course)
    state.hands = [list(h) for h in hands]
    state.balls = list(balls or [0] * len(hands))
    state.strokes = list(strokes or [0] * len(hands))
    state.current = seat
    return state


def snapshot(state: OnPar) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def refused(state: OnPar, command, rule: str, seat: int = 0) -> OrderError:
    """`command` is refused naming `rule`, the game is byte for byte as it was, and the
    suggestion is an order the game accepts as it stands."""
    before = snapshot(state)
    with pytest.raises(OrderError) as caught:
        state.apply(seat, command)
    error = caught.value
    assert error.rule == rule, error.message
    assert snapshot(state) == before
    if seat in state.to_move():
        hint = error.suggest(state, seat)
        assert hint and state.accepts(seat, hint), (error.message, hint)
    return error


def play(state: OnPar, text: str, seat: int | None = None) -> list[dict]:
    seat = state.current if seat is None else seat
    state.apply(seat, OnPar.command_from_text(text))
    return state.drain_events()


# -- the decks -----------------------------------------------------------------------------------
def test_the_course_deck_has_twelve_plain_cards_and_nine_hazards_of_three_spaces():
    deck = oc.course_deck(hazards=True)
    assert Counter(spaces for name, spaces in deck if name == PLAIN) == {4: 4, 5: 4, 6: 4}
    assert sorted(name for name, _ in deck if name != PLAIN) == sorted(oc.HAZARDS)
    assert all(spaces == 3 for name, spaces in deck if name != PLAIN) and len(deck) == 21
    assert all(name == PLAIN for name, _ in oc.course_deck(hazards=False))
    assert ("Pond", 3) not in oc.course_deck(hazards=True, pond=False)


def test_the_distance_deck_has_56_cards_and_one_of_each_skill_shot_and_trap():
    plain = Counter(oc.distance_deck(False, False))
    assert sum(plain.values()) == 56
    assert all(plain[f"D{v}"] == 4 for v in (4, 5, 6, 7)) and all(plain[f"I{v}"] == 4 for v in (2, 3, 4, 5))
    assert all(plain[f"W{v}"] == 4 for v in (1, 2, 3)) and all(plain[f"P{v}"] == 3 for v in (1, 2, 3, 4))
    full = Counter(oc.distance_deck(True, True))
    assert sum(full.values()) == 65 and all(full[c] == 1 for c in (*oc.SKILL_SHOTS, *oc.TRAPS))


def test_a_hole_of_par_p_is_p_course_cards_and_the_green_pars_from_the_course():
    course = Course.from_pars_string("345", "short")
    state = OnPar.new(NAMES[:2], {"holes": 5}, 3, course)
    assert state.pars == [3, 4, 5, 3, 4]
    view = state.view(None)
    assert view["par"] == 3 and len(view["course"]) == 4 and view["course"][-1] == {"card": "Green", "spaces": 5}
    assert view["hole_space"] == sum(c["spaces"] for c in view["course"])
    no_hazards = OnPar.new(NAMES[:2], {"hazards": "false", "holes": 1}, 3, course)
    assert all(c["card"] in (PLAIN, "Green") for c in no_hazards.view(None)["course"])


def test_five_cards_each_and_the_first_player_draws_a_sixth():
    state = OnPar.new(NAMES[:3], {}, 11, None)
    assert [len(h) for h in state.hands] == [6, 5, 5] and state.current == 0
    assert state.fresh[0] == state.hands[0][-1] and state.view(0)["drawn"] == state.fresh[0]
    assert len(state.draw) == 65 - 16


def test_a_game_of_one_has_no_traps():
    state = OnPar.new(["Ann"], {}, 1, None)
    assert state.options["traps"] is False
    cards = state.hands[0] + state.draw
    assert not set(cards) & set(oc.TRAPS) and len(cards) == 59


def test_without_skill_shots_the_pond_is_left_out_because_no_club_can_carry_it():
    layout = oc.Layout.of([(PLAIN, 4), ("Pond", 3), (PLAIN, 4)])
    for start in range(0, 5):
        for wedge in (1, 2, 3):
            if start + wedge > 4:
                assert layout.shot(start, "W", wedge).space == 4
    for seed in range(40):
        state = OnPar.new(NAMES[:2], {"skill_shots": "false", "holes": 1}, seed, Course("c", (5,)))
        assert all(name != "Pond" for name, _ in state.course)


# -- clubs ----------------------------------------------------------------------------------------
def test_a_driver_takes_one_to_three_cards_and_a_fourth_is_refused():
    state = rig([(PLAIN, 6)] * 5, [["D4", "D5", "D6", "D7", "I2", "W1"], []])
    assert state.shot_outcome(0, Shot(("D4",))).space == 4
    assert state.shot_outcome(0, Shot(("D4", "D5", "D6"))).space == 15
    error = refused(state, Shot(("D4", "D5", "D6", "D7")), "a Driver shot takes 1-3 cards, an Iron shot 1-2, "
                                                          "a Wedge or Putter shot 1")
    assert "4 Driver cards" in error.message and error.suggest(state, 0) == "SHOT D7 D6 D5"


def test_an_iron_takes_one_or_two_cards_a_wedge_and_a_putter_one():
    state = rig([(PLAIN, 6)] * 5, [["I2", "I3", "I5", "W1", "W2", "P1"], []])
    assert state.shot_outcome(0, Shot(("I5", "I3"))).space == 8
    count = "a Driver shot takes 1-3 cards, an Iron shot 1-2, a Wedge or Putter shot 1"
    refused(state, Shot(("I2", "I3", "I5")), count)
    refused(state, Shot(("W1", "W2")), count)


def test_one_club_a_shot():
    state = rig([(PLAIN, 6)] * 5, [["D4", "I3", "W1", "P1", "D5", "I2"], []])
    error = refused(state, Shot(("D4", "I3")), "a shot is played with one club: all its cards of the same kind")
    assert "Driver and Iron" in error.message


def test_the_putter_only_on_the_green_and_any_club_may_hole_out():
    state = rig(MILL, [["P2", "D4", "W1", "I2", "D6"], []], balls=[14, 0])
    error = refused(state, Shot(("P2",)), "the Putter is played only on The Green")
    assert "space 14" in error.message
    state.balls[0] = 15
    assert state.shot_outcome(0, Shot(("P2",))).space == 17
    assert state.shot_outcome(0, Shot(("D4",))) == oc.Outcome(19, True)
    refused(state, Shot(("D6",)), "a ball cannot go past the hole, the last space of The Green")


def test_driver_and_iron_may_not_start_on_end_on_or_cross_a_hazard_the_wedge_may():
    hazard = "a Driver or Iron shot may not start on, end on or cross a hazard (only a Wedge may)"
    state = rig(MILL, [["D4", "D5", "I2", "I4", "W3", "W1"], []], balls=[3, 0])
    assert "end on" in refused(state, Shot(("D5",)), hazard).message         # 3 -> 8, on 6-8
    assert "end on" in refused(state, Shot(("I4",)), hazard).message         # 3 -> 7
    assert state.shot_outcome(0, Shot(("I2",))).space == 5                   # short of it
    state.balls[0] = 2
    assert "cross" in refused(state, Shot(("D4", "D5")), hazard).message      # 2 -> 11, over 6-8
    state.balls[0] = 5
    assert state.shot_outcome(0, Shot(("W3",))).space == 8                   # onto the hazard
    state.balls[0] = 7
    assert "lies on the Windmill" in refused(state, Shot(("I2",)), hazard).message
    assert state.shot_outcome(0, Shot(("W3",))).space == 10                  # a Wedge crosses out of it
    state.balls[0] = 9
    assert state.shot_outcome(0, Shot(("D5",))).space == 14                  # past it, clubs are free


@pytest.mark.parametrize("hazard", ["Windmill", "Construction", "Sink Hole", "Boulder", "Building", "Bridge"])
def test_the_six_hazards_without_a_rule_of_their_own_play_alike(hazard):
    layout = oc.Layout.of([(PLAIN, 4), (hazard, 3), (PLAIN, 4)])
    generic = oc.Layout.of([(PLAIN, 4), ("Windmill", 3), (PLAIN, 4)])
    for start in range(0, 16):
        for letter, values in oc.CLUB_VALUES.items():
            for distance in values:
                assert _try(layout, start, letter, distance) == _try(generic, start, letter, distance)
    assert _try(layout, 4, "W", 2) == oc.Outcome(6)
    assert _try(layout, 4, "D", 4) == oc.RULE_HAZARD


def _try(layout, start, letter, distance):
    try:
        return layout.shot(start, letter, distance)
    except oc.Refusal as no:
        return no.rule


# -- the three hazards with a rule ----------------------------------------------------------------
def test_a_ball_that_lands_in_the_pond_goes_back_to_the_last_space_of_the_card_before():
    state = rig([(PLAIN, 5), ("Pond", 3), (PLAIN, 6)], [["W2", "W3", "D4", "I2", "P1"], ["D4"]], balls=[4, 0])
    events = play(state, "SHOT W2")
    assert state.balls[0] == 5 and state.strokes[0] == 1
    assert events[0]["text"] == ("Ann played W2 (Wedge, 2) from space 4 (fairway) to space 5 (fairway), stroke 1: "
                                 "it landed in the Pond on space 6 and went back")
    assert oc.Layout.of([("Pond", 3), (PLAIN, 4)]).shot(0, "W", 3).space == 0  # back to the tee


def test_no_shot_may_carry_past_the_target_bulls_eye():
    state = rig([(PLAIN, 5), ("Target", 3), (PLAIN, 6)], [["W3", "W2", "W1", "D4", "I3"], []], balls=[5, 0])
    assert state.layout.target_space(1) == 7
    refused(state, Shot(("W3",)), "no shot may pass the Target: the ball must land on it exactly")
    assert state.shot_outcome(0, Shot(("W2",))).space == 7
    assert state.shot_outcome(0, Shot(("W1",))).space == 6
    state.balls[0] = 7
    assert state.shot_outcome(0, Shot(("W3",))).space == 10


def test_a_shot_that_would_carry_past_the_dog_leg_stops_at_its_corner():
    state = rig([(PLAIN, 5), ("Dog Leg", 3), (PLAIN, 6)], [["W3", "W2", "W1", "D4", "I3"], []], balls=[6, 0])
    outcome = state.shot_outcome(0, Shot(("W3",)))
    assert outcome.space == 8 and "Dog Leg's corner" in outcome.note
    state.balls[0] = 8
    assert state.shot_outcome(0, Shot(("W3",))).space == 11


# -- skill shots ----------------------------------------------------------------------------------
def test_the_power_shot_holes_out_from_anywhere_for_one_stroke():
    state = rig(MILL, [["POWER", "D4", "I3", "W1", "P1"], ["D5", "D6", "I4", "W2", "P2"]], balls=[7, 12],
                strokes=[2, 3], holes=1)
    events = play(state, "PLAY POWER")
    end = next(e for e in events if e["kind"] == "hole_end")
    assert end["winner"] == 0 and end["shots"] == [3, 3] and end["strokes"] == [3, 4]
    assert state.result().line == "Ann wins with 3"


def test_the_high_fade_puts_the_ball_on_the_first_space_of_the_green():
    state = rig(MILL, [["FADE", "D4", "I3", "W1", "P1"], []], balls=[7, 0])
    play(state, "PLAY FADE")
    assert state.balls[0] == 15 and state.strokes[0] == 1
    state = rig(MILL, [["FADE", "D4", "I3", "W1", "P1"], []], balls=[16, 0])
    refused(state, PlaySkill("FADE"), "a High Fade places a ball that is short of The Green on its first space")


def test_the_slice_goes_half_the_distance_to_the_hole():
    state = rig(MILL, [["SLICE", "D4", "I3", "W1", "P1"], []], balls=[4, 0])
    play(state, "PLAY SLICE")
    assert state.balls[0] == 4 + (19 - 4) // 2 and state.strokes[0] == 1
    state = rig(MILL, [["SLICE", "D4", "I3", "W1", "P1"], []], balls=[18, 0])
    refused(state, PlaySkill("SLICE"), "a Slice moves the ball on half the distance to the hole, in whole spaces")
    # A slice jumps the Pond (spaces 5-7, hole 16) or lands in it and goes back to space 4.
    pond = oc.Layout.of([(PLAIN, 4), ("Pond", 3), (PLAIN, 4)])
    assert pond.skill_shot(0, "SLICE").space == 8 and pond.skill_shot(3, "SLICE").space == 9
    assert oc.Layout.of([(PLAIN, 4), ("Pond", 3), (PLAIN, 2)]).skill_shot(0, "SLICE").space == 4


# -- traps ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("trap,back", [("LIGHTWIND", 2), ("TREES", 3), ("HEAVYWIND", 5), ("SANDTRAP", 10)])
def test_the_wind_and_sand_traps_put_the_victims_ball_back(trap, back):
    state = rig([(PLAIN, 6)] * 3, [[trap, "D4", "I3", "W1", "P1"], ["D5"]], balls=[0, 12])
    events = play(state, f"TRAP {trap} ON bob")
    assert state.balls[1] == 12 - back and state.current == 1
    told = next(e for e in events if e["kind"] == "trapped")
    assert told["seat"] == 1 and told["by"] == 0 and f"to space {12 - back}" in told["own"]
    assert trap in state.played and trap not in state.hands[0]


def test_a_trap_never_puts_a_ball_behind_the_tee_and_a_pond_behind_it_sends_it_back():
    state = rig([(PLAIN, 4), ("Pond", 3), (PLAIN, 6)], [["SANDTRAP", "D4", "I3", "W1", "P1"], ["D5"]],
                balls=[0, 9])
    play(state, "TRAP SANDTRAP ON Bob")
    assert state.balls[1] == 0
    state = rig([(PLAIN, 4), ("Pond", 3), (PLAIN, 6)], [["TREES", "D4", "I3", "W1", "P1"], ["D5"]], balls=[0, 9])
    play(state, "TRAP TREES ON Bob")
    assert state.balls[1] == 4  # 9 - 3 = 6, in the Pond: back to 4


def test_the_water_trap_takes_the_victims_next_turn():
    state = rig([(PLAIN, 6)] * 3, [["WATERTRAP", "D4", "I3", "W1", "P1"], ["D5"], ["D6"]], balls=[0, 5, 5])
    events = play(state, "TRAP WATERTRAP ON Bob")
    assert state.current == 2 and state.skips[1] == 0
    lost = [e for e in events if e["kind"] == "played" and e["seat"] == 1]
    assert lost and lost[0]["move"] is False and "Water Trap" in lost[0]["text"]
    assert len(state.hands[1]) == 1  # no draw for the lost turn


def test_the_rainstorm_washes_out_the_victims_hand_face_down():
    state = rig([(PLAIN, 6)] * 3, [["RAINSTORM", "D4", "I3", "W1", "P1"], ["D5", "I2", "W3"]], balls=[0, 5])
    events = play(state, "TRAP RAINSTORM ON Bob")
    assert state.hands[1] == [state.fresh[1]] and {"D5", "I2", "W3"} <= set(state.discards)
    told = next(e for e in events if e["kind"] == "trapped")
    assert "D5 I2 W3" in told["own"] and "D5" not in told["text"]
    assert all("D5" not in e.get("text", "") for e in events)


def test_a_ball_on_the_green_is_safe_and_a_trap_needs_another_player():
    state = rig(MILL, [["SANDTRAP", "D4", "I3", "W1", "P1"], ["D5"], ["D6"]], balls=[0, 16, 8])
    refused(state, Trap("SANDTRAP", "Bob"), "a ball on The Green is safe from every trap")
    refused(state, Trap("SANDTRAP", "ann"), "a trap is played on another player in the game")
    refused(state, Trap("SANDTRAP", "Zed"), "a trap is played on another player in the game")
    assert refused(state, Trap("SANDTRAP", "Bob"), "a ball on The Green is safe from every trap"
                   ).suggest(state, 0) == "TRAP SANDTRAP ON Cy"
    state.resigned[2] = True
    refused(state, Trap("SANDTRAP", "Cy"), "a trap is played on another player in the game")


def test_two_players_of_one_name_make_a_trap_ambiguous():
    state = rig(MILL, [["TREES", "D4", "I3", "W1", "P1"], ["D5"], ["D6"]], balls=[0, 5, 8])
    state.names = ["Ann", "Bob", "bob"]
    error = refused(state, Trap("TREES", "BOB"), "a trap is played on another player in the game")
    assert isinstance(error, AmbiguousOrder) and "#2 or #3" in error.message
    assert error.suggest(state, 0) == "TRAP TREES ON #3"  # the ball furthest on, by seat
    play(state, "TRAP TREES ON #2")
    assert state.balls[1] == 2


# -- the handicap ---------------------------------------------------------------------------------
def test_a_handicap_holes_a_ball_that_stops_within_it_short_of_the_hole():
    state = rig(MILL, [["P2", "P3", "D4", "I3", "W1"], ["P2"]], balls=[15, 15], handicap="1:2")
    assert state.handicaps == [2, 0]
    assert state.shot_outcome(0, Shot(("P2",))) == oc.Outcome(19, True, "space 17 is within the handicap of 2")
    state.current = 1
    assert state.shot_outcome(1, Shot(("P2",))) == oc.Outcome(17)


def test_the_handicap_option_reads_seats_names_and_addresses():
    names, addresses = ["Ann", "Bob Smith", "Cy"], ["ann@x.org", "bob@y.org", "cy@z.org"]
    assert handicap_option("Bob@Y.org:2, cy:1", names, addresses) == "2:2,3:1"
    assert handicap_option("bob  smith:3", names) == "2:3"
    assert handicap_option("1:0", names) == "" and handicap_option("", names) == ""
    for wrong in ("4:1", "Zed:1", "Ann:5", "Ann", "Ann:x", "1:1,Ann:2"):
        with pytest.raises(ValueError, match="option handicap"):
            handicap_option(wrong, names, addresses)
    state = OnPar.new(names, {"handicap": "Cy:2"}, 1, None)
    assert state.options["handicap"] == "3:2" and state.handicaps == [0, 0, 2]


# -- the turn: the hand limit, the draw, passes ---------------------------------------------------
def test_a_discard_only_from_five_or_more_and_the_hand_never_ends_a_turn_over_five():
    state = rig(MILL, [["D4", "I3", "W1", "P1"], ["D5"]], balls=[0, 0])
    refused(state, DiscardCard("D4"), "a card is discarded only from a hand of 5 or more")
    state = rig(MILL, [["D4", "I3", "W1", "P1", "D7", "D6"], ["D5"]], balls=[0, 0])
    events = play(state, "DISCARD D7")
    assert len(state.hands[0]) == 5 and state.discards == ["D7"]
    moved = next(e for e in events if e["kind"] == "played")
    assert moved["text"] == "Ann discarded a card" and moved["own"] == "You discarded D7"


def test_a_pass_only_without_a_legal_shot_and_with_fewer_than_five_cards():
    state = rig(MILL, [["P1", "P2", "W1"], ["D5"]], balls=[0, 0])
    error = refused(state, Pass(), "PASS only when no shot is legal")
    assert error.suggest(state, 0) == "SHOT W1"
    state = rig(MILL, [["P1", "P2", "P3", "P4", "D6"], ["D5"]], balls=[0, 0])
    refused(state, Pass(), "with 5 or more cards in hand, PASS is no choice: discard or play")
    state = rig(MILL, [["P1", "P2", "POWER"], ["D5"]], balls=[0, 0])
    play(state, "PASS")  # a skill shot is never forced
    assert state.current == 1


def test_cards_not_in_hand_and_orders_out_of_turn_are_refused():
    state = rig(MILL, [["D4", "I3", "W1", "P1", "D5"], ["D6"]])
    refused(state, Shot(("D7",)), "a card is played only from your own hand")
    refused(state, Shot(("D4", "D4")), "a card is played only from your own hand")
    refused(state, DiscardCard("SLICE"), "a card is played only from your own hand")
    refused(state, Shot(("D6",)), "turns go round the table: only the player to move may play", seat=1)


def test_skill_shots_and_traps_are_not_shots_and_shots_are_not_skill_shots():
    state = rig(MILL, [["POWER", "TREES", "D4", "W1", "P1"], ["D6"]], balls=[0, 4])
    assert refused(state, Shot(("POWER",)), "SHOT takes distance cards; skill shots are PLAYed and traps played "
                                            "ON a player").suggest(state, 0) == "PLAY POWER"
    assert refused(state, PlaySkill("TREES"), "PLAY takes a skill shot: POWER, FADE or SLICE"
                   ).suggest(state, 0) == "TRAP TREES ON Bob"
    refused(state, Trap("POWER", "Bob"), "TRAP takes a trap card: LIGHTWIND, TREES, HEAVYWIND, SANDTRAP, "
                                         "WATERTRAP or RAINSTORM")


def test_each_turn_starts_with_a_draw_and_the_empty_draw_pile_is_rebuilt_from_discards_and_played():
    state = rig([(PLAIN, 6)] * 3, [["D4", "I3", "W1", "P1", "D5", "D6"], ["D7"]])
    state.draw = []
    state.discards, state.played = ["I5", "W2"], ["P4"]
    events = play(state, "SHOT D6")
    shuffle = next(e for e in events if e["kind"] == "reshuffled")
    assert shuffle["cards"] == 4 and "D6" not in shuffle["text"]
    assert state.discards == [] and state.played == []
    assert sorted(state.draw + [state.fresh[1]]) == sorted(["I5", "W2", "P4", "D6"])
    assert state.hands[1] == ["D7", state.fresh[1]]
    assert state.shuffles[-1]["what"] == "draw pile"


# -- the end of a hole, scoring, rotation ---------------------------------------------------------
def test_the_seeds_loser_example_two_strokes_on_the_first_of_three_cards_scores_five():
    state = rig([(PLAIN, 5), (PLAIN, 5), (PLAIN, 5)], [["P3", "D4", "I3", "W1", "P1"], ["D5"]],
                balls=[17, 2], strokes=[3, 2], holes=2)
    events = play(state, "SHOT P3")
    end = next(e for e in events if e["kind"] == "hole_end")
    assert end["finish"] == [20, 2] and end["shots"] == [4, 2] and end["strokes"] == [4, 5]
    assert end["winner"] == 0 and state.totals == [4, 5]
    finished = state.view(None)["holes"][0]
    assert {"hole", "par", "course", "finish", "shots", "strokes", "winner"} <= set(finished)
    assert finished["course"] == [{"card": "plain", "spaces": 5}] * 3 + [{"card": "Green", "spaces": 5}]


@pytest.mark.parametrize("space,ahead", [(0, 3), (1, 3), (5, 3), (6, 2), (10, 2), (11, 1), (15, 1), (16, 0),
                                         (19, 0)])
def test_the_card_the_ball_is_on_counts_and_the_tee_has_all_ahead(space, ahead):
    assert oc.Layout.of([(PLAIN, 5)] * 3).cards_ahead(space) == ahead


def test_the_first_player_rotates_each_hole():
    state = OnPar.new(NAMES[:3], {"holes": 4}, 5, None)
    starters = []
    for _ in range(4):
        starters.append(state.starter)
        seat = state.current
        state.hands[seat].append("POWER")
        state.apply(seat, PlaySkill("POWER"))
    assert starters == [0, 1, 2, 0] and state.result() is not None


def test_a_solo_game_ends_with_the_score_against_par():
    state = OnPar.new(["Ann"], {"holes": 2}, 5, Course("c", (4, 5)))
    for _ in range(2):
        state.hands[0].append("POWER")
        state.apply(0, PlaySkill("POWER"))
    assert state.result().line == "Ann scores 2 (par 9)"


def test_resigning_passes_the_turn_and_the_last_player_left_wins():
    state = OnPar.new(NAMES[:3], {}, 5, None)
    state.apply(0, Resign())
    assert state.current == 1 and state.resigned == [True, False, False]
    state.hands[1].append("TREES")
    refused(state, Trap("TREES", "Ann"), "a trap is played on another player in the game", seat=1)
    state.apply(2, Resign())
    assert state.result().winners == (1,)
    solo = OnPar.new(["Ann"], {}, 5, None)
    solo.apply(0, Resign())
    assert solo.result().line == "Ann resigned after 0 holes"
    refused(solo, Pass(), "no orders once the game is over")


# -- what each seat sees ----------------------------------------------------------------------------
def test_a_seat_sees_its_own_hand_only_and_the_gm_sees_all():
    state = OnPar.new(NAMES[:3], {}, 9, None)
    mover = state.view(0)
    assert mover["drawn"] == state.hands[0][-1] and mover["choices"]
    assert all(state.accepts(0, c["order"]) for c in mover["choices"])
    mine = state.view(1)
    assert mine["hand"] == state.hands[1] and "hands" not in mine and mine["drawn"] is None
    assert mine["hand_sizes"] == [6, 5, 5] and mine["choices"] == []
    state.hands[0], state.hands[2] = ["P1"] * 6, ["W1"] * 5  # the others' hands change nothing
    assert state.view(1) == mine
    gm = state.view(None)
    assert gm["hands"] == state.hands and gm["balls"] == [{"space": 0, "strokes": 0}] * 3
    assert gm["par"] == state.pars[0] and gm["draw_pile"] == len(state.draw)


def test_the_state_round_trips_through_its_dict():
    state = OnPar.new(NAMES[:4], {"handicap": "2:1"}, 13, None)
    for _ in range(25):
        state.apply(state.current, state.default_orders(state.current))
    copy = OnPar.from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy.to_dict() == state.to_dict()
    for _ in range(25):  # and plays on exactly alike
        seat = state.current
        order = state.default_orders(seat)
        assert copy.default_orders(seat) == order
        state.apply(seat, order)
        copy.apply(seat, order)
    assert copy.to_dict() == state.to_dict()


def test_holes_must_be_a_whole_number_from_1_to_99():
    for wrong in ("0", "100", "x"):
        with pytest.raises(ValueError, match="option holes"):
            OnPar.new(NAMES[:2], {"holes": wrong}, 1, None)
    with pytest.raises(ValueError, match="1 to 4 players"):
        OnPar.new(NAMES + ["Ed"], {}, 1, None)


def test_an_illegal_order_names_its_rule_in_the_default_hint():
    state = rig(MILL, [["D4", "I3", "W1", "P1", "D5"], ["D6"]])
    with pytest.raises(IllegalOrder) as caught:
        state.check(0, Shot(("P1",)))
    assert caught.value.rule == "the Putter is played only on The Green"
    assert caught.value.hint == "SHOT D5"


def test_the_course_picture_has_a_key_and_cuts_a_name_only_where_it_must():
    from pbem.games.onpar.pictures import course_picture
    names = ["Ann", "Caddie", "Robot (strong)", "Bartholomew Featherstonehaugh"]
    state = OnPar.new(names, {"holes": 1}, 7, None)
    picture = course_picture(state.view(0))
    assert all(len(line) <= 78 for line in picture.splitlines()), picture
    key = " ".join(line.strip() for line in picture.splitlines() if line.strip().startswith(("Key:", "")))
    assert ". plain" in key and "O hole" in key and "= Green" in key and "0 tee" in key
    assert all(f"{n} {name}" in " ".join(key.split()) for n, name in enumerate(names, start=1))
    assert "3 Robot (strong) on 0, 0 strokes" in picture  # it fits: not cut
    assert "4 Bartholomew Featherst" in picture and "~ on 0" in picture  # too long for the column: cut
