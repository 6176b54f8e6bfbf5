"""On Par (`onpar`): 1-4 players race a ball down a course laid out of cards, hole by hole; the
first to hole out ends the hole, and everyone else pays for the cards still ahead of the ball.

A hole of par p is p course cards drawn from the course deck, then The Green (`onpar_course`
has the decks, the spaces and where a ball goes). Each player holds five distance cards. A turn
begins with the GM drawing a card into the mover's hand; the mover then takes a SHOT with one
club (Driver 1-3 cards, Iron 1-2, Wedge 1, Putter 1 and only on The Green), PLAYs a skill shot,
plays a TRAP on another player's ball, DISCARDs a card (only from a hand of five or more), or
PASSes (only with fewer than five cards and no legal shot). Shots and skill shots cost a stroke
each. A ball in the hole ends the hole at once: its player scores their strokes, everyone else
their strokes plus one per course card still ahead of the ball (the card it lies on counts; a
ball on the tee has all of them ahead). Lowest total after the holes wins; ties share the win.

Hazards: only a Wedge may start on, end on or cross a hazard card. The Pond sends a ball that
comes to rest in it back to the last space of the card before it (the tee when it is the first
card). No shot may carry past the Target's bull's-eye, its middle space. A shot that would carry
past the Dog Leg's last space (the corner) stops there. The other six hazards (Windmill,
Construction, Sink Hole, Boulder, Building, Bridge) have no rule of their own: they play alike,
under the general rule alone (RULES.md; the issue's wish for a rule of each is not followed).

Decisions where the seed text and RULES.md leave room:

- Every hole is dealt afresh: the course cards and the whole distance deck are shuffled, five
  cards go to each player in play, the rest is the draw pile. Hands do not carry over.
- The draw pile is rebuilt from the discards and the played cards, shuffled, when a draw finds
  it empty. Discards lie face down: nobody else learns a discarded card (nor the cards a
  Sudden Rainstorm washes out of a hand); shots, skill shots and traps are played face up.
- One action a turn: a skill shot or a trap is the turn's action, as a shot or a discard is.
  A turn with no legal SHOT and fewer than five cards may PASS even when a skill shot or trap
  card could be played: those are never forced.
- The Pond cannot be carried by a club: it has three spaces and a Wedge carries three at most,
  so a Wedge shot that reaches it lands in it. Only a skill shot gets past. With `skill_shots=false`
  the Pond is left out of the course deck, or a hole with it could never end.
- Skill shots place the ball: no club rule, Target or Dog Leg applies to them, but the Pond
  and the handicap do where the ball comes to rest. POWER holes out from anywhere; FADE puts a
  ball that is short of The Green on its first space; SLICE moves it on half the distance to
  the hole, rounded down (refused when that is no whole space). Each is one stroke.
- Traps: LIGHTWIND, TREES, HEAVYWIND, SANDTRAP push the ball back 2, 3, 5, 10 spaces (never
  behind the tee; into the Pond means back before it); WATERTRAP makes the victim lose their
  next turn (losses add up); RAINSTORM discards the victim's whole hand. A ball on The Green is
  safe from every trap, so such a trap is refused; so is a trap on oneself or on a player who
  has resigned. A game of one has no traps in its deck (there is nobody to play them on). A
  trap names its victim by name (any case and spacing) or as `#<seat number>` (two players of
  one name); the GM writes one of these in place of an address.
- The handicap h of a player: a shot or skill shot that comes to rest within h spaces short of
  the hole holes out (0-4, so it is always on The Green). No shot may pass the hole, handicap
  or not. Option `handicap=<who>:<h>,...` where <who> is a seat number (from 1) or a player's
  name; the GM turns addresses into seat numbers with `handicap_option` before `new`.
- The first player of hole h is seat (h-1) mod n (the next in play when that one resigned).
- A missed deadline (autoplay): the club shot that takes the ball furthest toward the hole
  (fewest cards on a tie); else the skill shot that does; else a discard of the highest
  card; else the shot the rules force (a Wedge into the Pond); else PASS. Under `nmr=forfeit`
  the turn is given up: a discard of the highest card, else PASS, else the forced shot.
- RESIGN: the seat takes no more turns and cannot win; its ball stays where it is and is scored
  by the rule for the players who did not hole out. A game of one ends at once; a game of more
  ends when one player is left, who wins on the total so far (an unfinished hole is not scored).
- Pars come from the course template, hole h from its hole h (round again past its last);
  `holes` says how many holes (default 9). A game of one ends `Alice scores 38 (par 36)`.
- The record every seat's view carries (`events`, `pbem.games.events`): each hole's course,
  every shot and skill shot (cards, spaces, strokes), trap, discard, pass, lost turn and
  resignation, every draw, every reshuffle, each hole's end and the game's. A card drawn or
  discarded (face down) is told to its player alone, as a hand washed out by a Rainstorm is
  to its victim.

Chance (README, "Provable fairness"): only shuffles, each `shuffle()` of the game's
`rng.Generator`, in the order they happen. As each hole opens (hole 1 when the game is made, the
next when a ball holes out): first the course deck in `onpar_course.course_deck` order (the 12
plain cards, four each of 4, 5 and 6 spaces; then, with hazards, Windmill, Construction, Sink
Hole, Boulder, Building, Bridge, Dog Leg, Pond, Target, but no Pond without skill shots),
whose first par cards, from the tee, are the hole; then the distance deck in
`onpar_course.distance_deck` order (four each of D4-D7, I2-I5 and W1-W3, three each of P1-P4,
then POWER FADE SLICE and LIGHTWIND TREES HEAVYWIND SANDTRAP WATERTRAP RAINSTORM when they
play), whose last card is the top. Five rounds from the top deal one card at a time to each
player in play, from the hole's first player on; every turn then draws the top card. When a
draw finds the pile empty, the discards (in the order they went down, a washed-out hand in its
order) followed by the cards played (in the order played, a shot's as its order names them) are
shuffled into the new pile, top last. `chance_record()` lists every shuffle's result.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence

from pbem.games.onpar import course as oc
from pbem.games.onpar import play
from pbem.games import rng as fair
from pbem.games import base
from pbem.games.base import NMR_OPTION, Option, Resign, Result, TurnByTurn, written
from pbem.games.events import OWN, GameEvent, told
from pbem.games.course import EXAMPLE_PARS, Course
from pbem.games.errors import AmbiguousOrder, BadOption, GameRefused, IllegalOrder
from pbem.games.onpar.orders import ORDERS, DiscardCard, PlaySkill, Shot, Trap, from_text
from pbem.games.onpar.play import handicap_option, read_handicaps
from pbem.games.scoring import share_the_win

# The kinds of the events, bound once: an enum member read off its class costs a lookup a time
# (some 100 ns on Python 3.11, as much as building a small dict), and moves are the hot path.
_DRAWN, _GAME_END, _HOLE_END = GameEvent.DRAWN, GameEvent.GAME_END, GameEvent.HOLE_END
_HOLE_START, _PLAYED, _RESHUFFLED = GameEvent.HOLE_START, GameEvent.PLAYED, GameEvent.RESHUFFLED
_TRAPPED = GameEvent.TRAPPED

__all__ = ["OnPar", "handicap_option", "random_orders"]

HAND = oc.HAND
MAX_HOLES = 99
_ON = (False, True)

RULE_OVER = base.RULE_OVER
RULE_FOREIGN = "only the orders of On Par"
RULE_TURN = "turns go round the table: only the player to move may play"
RULE_RESIGNED = "a player who has resigned takes no more turns"
RULE_HAND = "a card is played only from your own hand"
RULE_ONE_CLUB = "a shot is played with one club: all its cards of the same kind"
RULE_CLUB_CARDS = "a Driver shot takes 1-3 cards, an Iron shot 1-2, a Wedge or Putter shot 1"
RULE_SHOT_CARDS = "SHOT takes distance cards; skill shots are PLAYed and traps played ON a player"
RULE_SKILL = "PLAY takes a skill shot: POWER, FADE or SLICE"
RULE_TRAP = "TRAP takes a trap card: LIGHTWIND, TREES, HEAVYWIND, SANDTRAP, WATERTRAP or RAINSTORM"
RULE_VICTIM = "a trap is played on another player in the game"
RULE_GREEN_SAFE = "a ball on The Green is safe from every trap"
RULE_DISCARD = "a card is discarded only from a hand of 5 or more"
RULE_PASS_FULL = "with 5 or more cards in hand, PASS is no choice: discard or play"
RULE_PASS_SHOT = "PASS only when no shot is legal"


class OnPar(TurnByTurn):
    TYPE = "onpar"
    TITLE = "On Par"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 4
    OPTIONS = {
        "nmr": NMR_OPTION,
        "holes": Option(9, (), "how many holes the game lasts (any whole number from 1 to 99)"),
        "hazards": Option(True, _ON, "false: the nine hazard cards are taken out of the course deck"),
        "skill_shots": Option(True, _ON, "false: no Power Shot, High Fade or Slice in the distance deck"),
        "traps": Option(True, _ON, "false: no trap cards in the distance deck"),
        "handicap": Option("", (), "handicaps as <seat number or name>:<spaces>,... e.g. 1:2,3:1 (0-4)"),
    }
    # The turn's draw goes straight into the hand: no drawn card ever waits for a decision.
    drawn = None
    # Balls, the course and every card played are on the table; hands only by their size.
    PUBLIC_VIEW = ("game", "names", "hole", "holes_total", "pars", "par", "course", "spans", "green",
                   "hole_space", "balls", "ahead", "hand_sizes", "turn", "to_move", "current", "starter",
                   "draw_pile", "discards", "played", "skips", "handicaps", "totals", "holes", "resigned",
                   "options", "result")

    def __init__(self, names: Sequence[str], options: dict, pars: Sequence[int], rng: fair.Generator):
        self.names = list(names)
        self.n = len(self.names)
        self.options = dict(options)
        self.pars = list(pars)
        self.holes_total = len(self.pars)
        self.handicaps = read_handicaps(self.options["handicap"], self.names)
        self.rng = rng
        self.shuffles: list[dict] = []  # every shuffle's result, top card last (`chance_record`)
        self.hole_no = 1
        self.course: list[tuple[str, int]] = []  # this hole's course cards, The Green included
        self.layout = oc.Layout([(oc.GREEN, oc.GREEN_SPACES)])
        self.balls = [0] * self.n
        self.strokes = [0] * self.n
        self.hands: list[list[str]] = [[] for _ in self.names]
        self.draw: list[str] = []  # top card last
        self.discards: list[str] = []
        self.played: list[str] = []
        self.starter = self.current = 0
        self.skips = [0] * self.n  # turns a Water Trap has taken from each seat
        self.fresh: list[str | None] = [None] * self.n  # the card each seat drew for its turn
        self.totals = [0] * self.n
        self.holes: list[dict] = []
        self.resigned = [False] * self.n
        self.events: list[dict] = []
        self.log: list[dict] = []  # the public record (`events.told`): an entry or two a move
        self._turn = 1
        self._result: Result | None = None

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def seat_options(cls, options: dict, names: list[str], addresses: list[str]) -> dict:
        if not options.get("handicap"):
            return options
        return {**options, "handicap": play.handicap_option(options["handicap"], names, addresses)}

    @classmethod
    def new(cls, names, options, seed, course: Course | None = None) -> OnPar:
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise GameRefused(f"{cls.TITLE} is a game for 1 to 4 players, not {len(names)}")
        opts = cls.options_with_defaults(dict(options or {}))
        opts["holes"] = _holes(opts["holes"])
        opts["handicap"] = handicap_option(opts["handicap"], names)
        if len(names) == 1:
            opts["traps"] = False
        course_pars = course.pars if course is not None else Course.from_pars_string(EXAMPLE_PARS).pars
        pars = [course_pars[h % len(course_pars)] for h in range(opts["holes"])]
        state = cls(names, opts, pars, fair.game_generator(seed))
        state._start_hole()
        return state

    def chance_record(self) -> list[dict]:
        """Every shuffle in the order made, as `{"hole", "what", "cards"}`: what is `course`
        (its cards as [name, spaces], the first par of them the hole), `distance deck` or, for a
        reshuffle, `draw pile` (with `turn` and `from`, the pile before the shuffle); cards are
        listed top card last. It holds cards still to come: for a finished game."""
        return copy.deepcopy(self.shuffles)

    def to_dict(self) -> dict:
        return {
            "names": list(self.names), "options": dict(self.options), "pars": list(self.pars),
            "rng": self.rng.state(), "shuffles": copy.deepcopy(self.shuffles),
            "hole": self.hole_no, "course": [list(c) for c in self.course], "balls": list(self.balls),
            "strokes": list(self.strokes), "hands": [list(h) for h in self.hands], "draw": list(self.draw),
            "discards": list(self.discards), "played": list(self.played), "starter": self.starter,
            "current": self.current, "skips": list(self.skips), "fresh": list(self.fresh),
            "totals": list(self.totals), "holes": copy.deepcopy(self.holes), "resigned": list(self.resigned),
            "events": copy.deepcopy(self.events), "log": list(self.log), "turn": self._turn,
            "result": self._result.to_dict() if self._result else None,
        }

    @classmethod
    def from_dict(cls, d: dict) -> OnPar:
        s = cls(d["names"], d["options"], d["pars"], fair.stored_generator(d["rng"], cls.TYPE))
        s.shuffles = copy.deepcopy(d["shuffles"])
        s.hole_no = d["hole"]
        s.course = [(name, spaces) for name, spaces in d["course"]]
        s.layout = oc.Layout(s.course)
        s.balls, s.strokes = list(d["balls"]), list(d["strokes"])
        s.hands = [list(h) for h in d["hands"]]
        s.draw, s.discards, s.played = list(d["draw"]), list(d["discards"]), list(d["played"])
        s.starter, s.current = d["starter"], d["current"]
        s.skips, s.fresh = list(d["skips"]), list(d["fresh"])
        s.totals = list(d["totals"])
        s.holes = copy.deepcopy(d["holes"])
        s.resigned = list(d["resigned"])
        s.events = copy.deepcopy(d["events"])
        s.log = list(d.get("log", ()))  # a game stored before the record began has none so far
        s._turn = d["turn"]
        s._result = Result.from_dict(d["result"])
        return s

    def playout_copy(self) -> OnPar:
        """A copy of the hole in play for a robot to play out (cheaper than `copy.deepcopy`).

        Copied, so that moves on the copy leave this state as it was: the `balls`, `strokes`,
        `hands`, the `draw` pile, `discards`, `played`, `skips`, `fresh`, `totals`, `resigned`
        and the list of finished `holes` (its entries shared: a hole's record is never changed
        once written); the generator `rng` is a fresh one at this state's point of its stream
        (`Generator.restore`), so that the copy's shuffles leave this state's stream where it
        was. Shared, as read and never changed in place: `names`, `options`, `pars`,
        `handicaps`, the hole's `course` and its `layout`. Not kept: the copy starts with no
        `events`, no `log` and no `shuffles` (a playout's own record, read by nobody)."""
        c = OnPar.__new__(OnPar)
        c.names = self.names
        c.n = self.n
        c.options = self.options
        c.pars = self.pars
        c.holes_total = self.holes_total
        c.handicaps = self.handicaps
        c.rng = fair.Generator.restore(self.rng.state())
        c.shuffles = []
        c.hole_no = self.hole_no
        c.course = self.course
        c.layout = self.layout
        c.balls, c.strokes = list(self.balls), list(self.strokes)
        c.hands = [list(h) for h in self.hands]
        c.draw, c.discards, c.played = list(self.draw), list(self.discards), list(self.played)
        c.starter, c.current = self.starter, self.current
        c.skips, c.fresh, c.totals = list(self.skips), list(self.fresh), list(self.totals)
        c.holes, c.resigned = list(self.holes), list(self.resigned)
        c.events = []
        c.log = []
        c._turn = self._turn
        c._result = self._result
        return c

    @classmethod
    def command_from_text(cls, text: str):
        return from_text(text)

    # -- the protocol ---------------------------------------------------------------------
    @property
    def par(self) -> int:
        return self.layout.par

    def to_move(self) -> set[int]:
        return set() if self._result is not None else {self.current}

    def check_order(self, seat: int, command) -> None:
        self.refuse_out_of_play(seat, command, seat_rule=RULE_TURN, resigned_rule=RULE_RESIGNED)
        t = type(command)
        if t is Resign:
            return
        if t not in ORDERS:
            hint = self._hint(seat) if seat == self.current else None
            raise IllegalOrder(f"{command} is not an order of On Par", rule=RULE_FOREIGN, hint=hint)
        if seat != self.current:
            raise IllegalOrder(f"it is {self.names[self.current]}'s turn, not yours", rule=RULE_TURN)
        if t is Shot:
            self.shot_outcome(seat, command)
        elif t is PlaySkill:
            self.skill_outcome(seat, command)
        elif t is Trap:
            self.victim(seat, command)
        elif t is DiscardCard:
            self._check_discard(seat, command)
        else:
            self._check_pass(seat)

    def apply(self, seat: int, command) -> None:
        self.check(seat, command)
        t = type(command)
        if t is Resign:
            return self._resign(seat)
        if t is Shot:
            self._shoot(seat, command)
        elif t is PlaySkill:
            self._skill(seat, command)
        elif t is Trap:
            self._trap(seat, command)
        elif t is DiscardCard:
            self._discard(seat, command.card)
        else:
            self.log.append({"kind": _PLAYED, "seat": seat, "what": "passed"})
            self._end_turn(seat, f"{self.names[seat]} passed", "You passed")

    def view(self, seat: int | None) -> dict:
        over = self._result is not None
        v = {
            "game": self.TYPE, "names": list(self.names), "seat": seat, "hole": self.hole_no,
            "holes_total": self.holes_total, "pars": list(self.pars), "par": self.par,
            "course": self.layout.course(), "spans": self.layout.spans(), "green": self.layout.green,
            "hole_space": self.layout.hole, "balls": self.balls_view(),
            "ahead": [self.layout.cards_ahead(b) for b in self.balls], "hand_sizes": [len(h) for h in self.hands],
            "turn": self._turn, "to_move": sorted(self.to_move()), "current": None if over else self.current,
            "starter": self.starter, "draw_pile": len(self.draw), "discards": len(self.discards),
            "played": list(self.played), "skips": list(self.skips), "handicaps": list(self.handicaps),
            "totals": list(self.totals), "holes": copy.deepcopy(self.holes), "resigned": list(self.resigned),
            "options": {k: self.options[k] for k in ("hazards", "skill_shots", "traps")},
            "result": self._result.line if self._result is not None else None,
        }
        if seat is None:
            v["hands"] = [list(h) for h in self.hands]
            v["drawn"] = list(self.fresh)
            return v
        v["hand"] = list(self.hands[seat])
        v["drawn"] = self.fresh[seat]
        v["choices"] = play.choices(self, seat) if seat in self.to_move() else []
        v["events"] = told(self.log, seat)
        return v

    def balls_view(self) -> list[dict]:
        return [{"space": b, "strokes": s} for b, s in zip(self.balls, self.strokes)]

    def default_orders(self, seat: int):
        """What a missed deadline plays for `seat` (None when the seat owes nothing)."""
        if seat not in self.to_move() or self.resigned[seat]:
            return None
        return play.default_orders(self, seat)

    def nmr_orders(self, seat: int, policy: str):
        if policy == "forfeit" and seat in self.to_move():
            return play.forfeit_orders(self, seat)
        return self.default_orders(seat)

    def orders_like(self, seat: int, word: str | None) -> list:
        return play.orders_like(self, seat, word)

    def legal_orders(self, seat: int) -> list[str]:
        """Every order `seat` may give on its turn (`play.legal_orders`): each club shot (each
        set of cards once), skill shot, trap on each player it may fall on, discard and PASS,
        where the rules allow them. A trap names its victim by seat (`#2`) where the name holds
        a semicolon, which would split the one line of a move."""
        texts = []
        for order in play.legal_orders(self, seat):
            if type(order) is Trap and ";" in order.player:
                order = Trap(order.card, f"#{play.seats_called(self.names, order.player)[0] + 1}")
            texts.append(str(order))
        return texts

    # -- checks (each returns what the order would do) --------------------------------------
    def shot_outcome(self, seat: int, command: Shot) -> oc.Outcome:
        cards = command.cards
        self._in_hand(seat, cards, command)
        if not cards or not all(oc.is_distance(c) for c in cards):
            odd = next((c for c in cards if not oc.is_distance(c)), None)
            what = f"{odd} is a {'skill shot' if odd in oc.SKILL_SHOTS else 'trap'}" if odd else "no card"
            raise IllegalOrder(f"{what}: a SHOT is played with distance cards", rule=RULE_SHOT_CARDS,
                               hint=play.hint_for_card(self, seat, odd))
        clubs = {oc.club(c) for c in cards}
        if len(clubs) > 1:
            named = " and ".join(oc.CLUBS[c] for c in sorted(clubs, key="DIWP".index))
            raise IllegalOrder(f"{' '.join(cards)} mixes {named}", rule=RULE_ONE_CLUB,
                               hint=play.best_shot_from(self, seat, cards))
        letter = clubs.pop()
        most = oc.MOST_CARDS[letter]
        if len(cards) > most:
            limit = f"at most {most} cards" if most > 1 else "one card"
            raise IllegalOrder(f"{len(cards)} {oc.CLUBS[letter]} cards: a {oc.CLUBS[letter]} shot takes {limit}",
                               rule=RULE_CLUB_CARDS, hint=play.best_shot_from(self, seat, cards))
        try:
            return self.layout.shot(self.balls[seat], letter, sum(oc.value(c) for c in cards),
                                    self.handicaps[seat])
        except oc.Refusal as no:
            raise IllegalOrder(no.message, rule=no.rule, hint=play.best_shot_from(self, seat, cards)) from None

    def skill_outcome(self, seat: int, command: PlaySkill) -> oc.Outcome:
        card = command.card
        if card not in oc.SKILL_SHOTS:
            hint = play.hint_for_card(self, seat, card)
            raise IllegalOrder(f"{card} is no skill shot", rule=RULE_SKILL, hint=hint)
        self._in_hand(seat, (card,), command)
        try:
            return self.layout.skill_shot(self.balls[seat], card, self.handicaps[seat])
        except oc.Refusal as no:
            raise IllegalOrder(no.message, rule=no.rule, hint=self._hint(seat)) from None

    def victim(self, seat: int, command: Trap) -> int:
        """The seat `command`'s trap falls on; IllegalOrder when it may not."""
        card = command.card
        if card not in oc.TRAPS:
            raise IllegalOrder(f"{card} is no trap", rule=RULE_TRAP, hint=play.hint_for_card(self, seat, card))
        self._in_hand(seat, (card,), command)
        seats = play.seats_called(self.names, command.player)
        hint = play.trap_hint(self, seat, card)
        if not seats:
            raise IllegalOrder(f"there is no player called {command.player} in this game (the players: "
                               f"{_listed(self.names)})", rule=RULE_VICTIM, hint=hint)
        if len(seats) > 1:
            raise AmbiguousOrder(f"{len(seats)} players are called {command.player}: name the one you mean "
                                 f"by address (or seat: {' or '.join(f'#{s + 1}' for s in seats)})",
                                 rule=RULE_VICTIM, hint=hint)
        target = seats[0]
        if target == seat:
            raise IllegalOrder("a trap is played on another player's ball, not on your own", rule=RULE_VICTIM,
                               hint=hint)
        if self.resigned[target]:
            raise IllegalOrder(f"{self.names[target]} has resigned", rule=RULE_VICTIM, hint=hint)
        if self.layout.on_green(self.balls[target]):
            raise IllegalOrder(f"{self.names[target]}'s ball is on The Green, {self.layout.where(self.balls[target])}",
                               rule=RULE_GREEN_SAFE, hint=hint)
        return target

    def _check_discard(self, seat: int, command: DiscardCard) -> None:
        self._in_hand(seat, (command.card,), command)
        hand = self.hands[seat]
        if len(hand) < HAND:
            raise IllegalOrder(f"you hold {len(hand)} card{'' if len(hand) == 1 else 's'}", rule=RULE_DISCARD,
                               hint=self._hint(seat))

    def _check_pass(self, seat: int) -> None:
        hand = self.hands[seat]
        if len(hand) >= HAND:
            raise IllegalOrder(f"you hold {len(hand)} cards", rule=RULE_PASS_FULL,
                               hint=str(play.discard_highest(self, seat)))
        shots = play.legal_shots(self, seat)
        if shots:
            best = play.best_of(shots)
            raise IllegalOrder(f"{best} is legal", rule=RULE_PASS_SHOT, hint=str(best))

    def _in_hand(self, seat: int, cards: Sequence[str], command) -> None:
        hand = list(self.hands[seat])
        for card in cards:
            if card not in hand:
                shown = " ".join(self.hands[seat]) or "no cards"
                if card not in oc.CODES:
                    what = f"there is no card {card} in On Par"
                else:
                    what = f"you hold no {'other ' if card in self.hands[seat] else ''}{card}"
                raise IllegalOrder(f"{what} (your hand: {shown})", rule=RULE_HAND,
                                   hint=play.hint_like(self, seat, command))
            hand.remove(card)

    def _hint(self, seat: int) -> str | None:
        order = self.default_orders(seat)
        return None if order is None else str(order)

    # -- play -----------------------------------------------------------------------------
    def _played(self, seat: int, text: str, own: str, move: bool = True) -> None:
        self.events.append({"kind": _PLAYED, "seat": seat, "text": text, "own": own, "move": move})

    def _take(self, seat: int, cards: Sequence[str], pile: list[str]) -> None:
        for card in cards:
            self.hands[seat].remove(card)
            pile.append(card)

    def _shoot(self, seat: int, command: Shot) -> None:
        outcome = self.shot_outcome(seat, command)
        cards = command.cards
        club = oc.CLUBS[oc.club(cards[0])]
        what = f"{' '.join(cards)} ({club}, {sum(oc.value(c) for c in cards)})"
        self._take(seat, cards, self.played)
        self._stroke(seat, outcome, what, {"what": "shot", "cards": list(cards)})

    def _skill(self, seat: int, command: PlaySkill) -> None:
        outcome = self.skill_outcome(seat, command)
        self._take(seat, (command.card,), self.played)
        self._stroke(seat, outcome, f"{command.card} ({oc.SKILL_SHOTS[command.card]})",
                     {"what": "skill", "card": command.card})

    def _stroke(self, seat: int, outcome: oc.Outcome, what: str, facts: dict) -> None:
        """`facts`: the stroke's own part of its entry in the record (which club or skill shot)."""
        start, layout = self.balls[seat], self.layout
        self.log.append({"kind": _PLAYED, "seat": seat, **facts, "from": start, "to": outcome.space,
                         "holed": outcome.holed, "strokes": self.strokes[seat] + 1})
        self.balls[seat] = outcome.space
        self.strokes[seat] += 1
        strokes = self.strokes[seat]
        if outcome.holed:
            went = f"from {layout.where(start)} into the hole"
        else:
            went = f"from {layout.where(start)} to {layout.where(outcome.space)}"
        done = f"{what} {went}, stroke {strokes}" + (f": {outcome.note}" if outcome.note else "")
        text, own = f"{self.names[seat]} played {done}", f"You played {done}"
        if outcome.holed:
            self._turn += 1
            self._played(seat, text, own)
            return self._end_hole(seat)
        self._end_turn(seat, text, own)

    def _trap(self, seat: int, command: Trap) -> None:
        target = self.victim(seat, command)
        card = command.card
        self._take(seat, (card,), self.played)
        by, name, layout = self.names[seat], self.names[target], self.layout
        trap = f"{card} ({oc.TRAPS[card]})"
        trapped: dict = {"kind": _TRAPPED, "seat": target, "by": seat, "trap": card}
        self.log.append(trapped)
        if card in oc.PUSH_BACK:
            start = self.balls[target]
            outcome = layout.pushed_back(start, oc.PUSH_BACK[card])
            self.balls[target] = outcome.space
            trapped.update({"from": start, "to": outcome.space})
            note = f": {outcome.note}" if outcome.note else ""
            moved = f"from {layout.where(start)} to {layout.where(outcome.space)}{note}"
            effect, theirs = f"{name}'s ball went back {moved}", f"your ball went back {moved}"
            if start == 0:
                effect, theirs = f"{name}'s ball was on the tee: no harm done", "your ball was on the tee: no harm"
        elif card == "WATERTRAP":
            self.skips[target] += 1
            effect, theirs = f"{name} loses their next turn", "you lose your next turn"
        else:
            lost = self.hands[target]
            self.hands[target] = []
            self.discards += lost
            trapped.update({"cards": len(lost), OWN: {"lost": list(lost)}})
            count = f"{len(lost)} card{'' if len(lost) == 1 else 's'}"
            effect = f"{name} discarded their whole hand, {count}"
            theirs = f"you discarded your whole hand, {count}: {' '.join(lost) or 'none'}"
        self.events.append({"kind": _TRAPPED, "seat": target, "by": seat, "trap": card,
                            "text": f"{by} played {trap} on {name}: {effect}",
                            "own": f"{by} played {trap} on you: {theirs}"})
        self._end_turn(seat, f"{by} played {trap} on {name}: {effect}", f"You played {trap} on {name}: {effect}")

    def _discard(self, seat: int, card: str) -> None:
        self.log.append({"kind": _PLAYED, "seat": seat, "what": "discarded", OWN: {"card": card}})
        self._take(seat, (card,), self.discards)
        self._end_turn(seat, f"{self.names[seat]} discarded a card", f"You discarded {card}")

    def _end_turn(self, seat: int, text: str, own: str) -> None:
        self._turn += 1
        self._played(seat, text, own)
        self._begin_turn(self._following(seat))

    def _following(self, seat: int) -> int:
        """The next seat in play after `seat` (`seat` itself when it is alone in play)."""
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if not self.resigned[s]:
                return s
        return seat

    def _begin_turn(self, seat: int) -> None:
        """Give the turn to `seat`, or to the next player when a Water Trap takes it, and draw
        the mover's card."""
        while self.skips[seat] and self.resigned.count(False) > 1:
            self.skips[seat] -= 1
            name = self.names[seat]
            self._played(seat, f"{name} lost this turn to the Water Trap", "You lost this turn to the Water Trap",
                         move=False)
            self.log.append({"kind": _PLAYED, "seat": seat, "what": "lost_turn"})
            seat = self._following(seat)
        self.current = seat
        self.fresh = [None] * self.n
        card = self._draw_card()
        if card is not None:
            self.hands[seat].append(card)
            self.fresh[seat] = card
            self.events.append({"kind": _DRAWN, "seat": seat, "card": card, "own": f"You drew {card}"})
            self.log.append({"kind": _DRAWN, "seat": seat, "from": "pile", OWN: {"card": card}})

    def _draw_card(self) -> str | None:
        if not self.draw:
            pile = self.discards + self.played
            if not pile:
                return None
            self.discards, self.played = [], []
            gathered = list(pile)
            self.rng.shuffle(pile)
            self.shuffles.append({"hole": self.hole_no, "what": "draw pile", "turn": self._turn,
                                  "from": gathered, "cards": list(pile)})
            self.draw = pile
            self.log.append({"kind": _RESHUFFLED, "cards": len(pile)})
            self.events.append({"kind": _RESHUFFLED, "cards": len(pile),
                                "text": f"The draw pile ran out: the {len(pile)} discarded and played cards "
                                        "were shuffled into a new one"})
        return self.draw.pop()

    def _start_hole(self) -> None:
        par = self.pars[self.hole_no - 1]
        opts = self.options
        deck = oc.course_deck(opts["hazards"], pond=opts["skill_shots"])
        self.rng.shuffle(deck)
        self.course = [*deck[:par], (oc.GREEN, oc.GREEN_SPACES)]
        self.layout = oc.Layout(self.course)
        cards = oc.distance_deck(opts["skill_shots"], opts["traps"])
        self.rng.shuffle(cards)
        self.shuffles.append({"hole": self.hole_no, "what": "course", "cards": [list(c) for c in deck]})
        self.shuffles.append({"hole": self.hole_no, "what": "distance deck", "cards": list(cards)})
        self.balls, self.strokes = [0] * self.n, [0] * self.n
        self.skips, self.fresh = [0] * self.n, [None] * self.n
        self.discards, self.played = [], []
        self.hands = [[] for _ in self.names]
        starter = (self.hole_no - 1) % self.n
        self.starter = starter if not self.resigned[starter] else self._following(starter)
        in_play = [(self.starter + i) % self.n for i in range(self.n)]
        for _ in range(HAND):  # one card at a time round the table, from the first player
            for s in in_play:
                if not self.resigned[s]:
                    self.hands[s].append(cards.pop())
        self.draw = cards
        self.events.append({"kind": _HOLE_START, "hole": self.hole_no, "par": par,
                            "course": self.layout.course(), "starter": self.starter})
        self.log.append({"kind": _HOLE_START, "hole": self.hole_no, "par": par,
                         "course": self.layout.course(), "starter": self.starter})
        self._begin_turn(self.starter)

    def _end_hole(self, winner: int | None) -> None:
        layout = self.layout
        finish = list(self.balls)
        shots = list(self.strokes)
        scored = [shots[s] + (0 if s == winner else layout.cards_ahead(finish[s])) for s in range(self.n)]
        for s in range(self.n):
            self.totals[s] += scored[s]
        record = {"hole": self.hole_no, "par": layout.par, "course": layout.course(), "finish": finish,
                  "shots": shots, "strokes": scored, "winner": winner, "scores": list(scored)}
        self.holes.append(record)
        self.log.append({"kind": _HOLE_END, "hole": self.hole_no, "finish": list(finish),
                         "shots": list(shots), "strokes": list(scored), "winner": winner, "totals": list(self.totals)})
        self.events.append({"kind": _HOLE_END, **copy.deepcopy(record), "totals": list(self.totals),
                            "ahead": [0 if s == winner else layout.cards_ahead(finish[s]) for s in range(self.n)]})
        self.fresh = [None] * self.n
        if self.hole_no >= self.holes_total:
            self._finish()
        else:
            self.hole_no += 1
            self._start_hole()

    def _finish(self) -> None:
        active = [s for s in range(self.n) if not self.resigned[s]]
        winners: tuple[int, ...]
        if self.n == 1:
            total, par = self.totals[0], sum(h["par"] for h in self.holes)
            line, winners = f"{self.names[0]} scores {total} (par {par})", (0,)
        else:
            line, picked = share_the_win([self.names[s] for s in active], [self.totals[s] for s in active])
            winners = tuple(active[i] for i in picked)
        self._result = Result(line, winners, tuple(self.totals))
        self.events.append({"kind": _GAME_END, "line": line})
        self.log.append({"kind": _GAME_END, "line": line})

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self.log.append({"kind": _PLAYED, "seat": seat, "what": "resigned"})
        self._played(seat, f"{self.names[seat]} resigned: they take no more turns and cannot win, and their "
                           "ball stays where it is and is scored", "You resigned")
        if self.n == 1:
            done = len(self.holes)
            line = f"{self.names[0]} resigned after {done} hole{'' if done == 1 else 's'}"
            self._result = Result(line, (), tuple(self.totals))
            self.events.append({"kind": _GAME_END, "line": line})
            self.log.append({"kind": _GAME_END, "line": line})
        elif self.resigned.count(False) < 2:
            self._finish()
        elif self.current == seat:
            self._turn += 1
            self._begin_turn(self._following(seat))



def _holes(value) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_HOLES:
        raise BadOption(f"option holes: expected a whole number from 1 to {MAX_HOLES}, got {written(value)}")
    return n


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


random_orders = play.random_orders
