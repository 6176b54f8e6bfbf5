"""Golf, the classic card game (TYPE `golf`): each player has a small layout of face-down cards (a
square of four, or two rows of three) and improves it one card a turn from the stock or the
discard pile; the lowest total over the holes wins. Scoring lives in `golf_scoring`.

The deal, exactly (README, "Provable fairness": anyone can replay it from the seed). All of a
game's chance comes from one `rng.Generator` on the game's seed (16 bytes; a whole number N
means the bytes of `rng.seed_from_int(N)`); it draws only for these shuffles, in this order:

1. Each hole starts from a fresh deck in this order: for each pack (two for 8 players, else
   one) spades, hearts, diamonds, clubs, each suit A 2 3 4 5 6 7 8 9 10 J Q K (`AS 2S ... KS
   AH ... KC`, the README's test pack); with `jokers`, two `JOKER`s a pack after all the packs.
2. `shuffle` (Fisher-Yates from the end) puts it in order: an entry of `chance_record()`. The
   top of the deck is the LAST card of the list.
3. Cards come off the top one at a time, round the table from the dealer's left (the dealer
   of hole h is seat (h - 1) mod N): the k-th card dealt (k = 0, 1, ...) goes to seat
   (dealer + 1 + k) mod N at position k // N + 1, until each layout is full (4 or 6 cards,
   resigned seats too). The next card is turned up as the discard; the rest, in list order,
   is the stock, drawn from its end.
4. When a turn empties the stock (once a hole), the discard pile but its top card, listed from
   the bottom of the pile (the hole's first discard) up, is shuffled the same way and becomes
   the stock: the next entry of `chance_record()`. Nothing else draws.

Games stored before the move to `rng.Generator` (their `rng` a state of Python's `random`)
do not load: `from_dict` refuses them with a ValueError that says so.

Where the rule text and RULES.md leave a gap, this engine decides:
- `peek=near2` shows positions 3 and 4 at the deal (4 and 5 in the 2x3 layout). `peek=any2|one`:
  the player chooses with free `PEEK <pos>` orders (two / one) on their first turn of the hole,
  before drawing; the allowance lapses with their first draw or knock. `peek=paid`: the near two
  at the deal as usual, then `PEEK <pos>` before drawing on any turn, 1 point a look (part of the
  hole score before the knocker is compared). Only an unseen face-down card may be looked at.
- `spade_queen=40` (or `true`): QS scores 40 and every eight 0; the other queens follow `queens`.
- Jokers (two a pack) never pair: they keep their -5. Pairs are by rank. With `pairs=none` a
  wild one-eyed jack (JS, JH) still pairs with any card; under `rowcol` "together" means in the
  same row or the same column. Where cards could pair more than one way, the pairing that
  cancels the most points counts.
- `jacks=20skip`: any jack the player sends to the discard pile (the drawn card or the card it
  replaced) makes the next player miss a turn; a missed final turn is lost.
- The knocker is "lowest" unless someone scored less (ties favour the knocker). `knock_bonus=
  zero` never raises a negative score. `knock_bonus=minus_players` brings its own doubling when
  not lowest, so it cannot be combined with a `knock_penalty`.
- The stock is rebuilt (once a hole) at the end of the turn that empties it; when the rebuilt
  stock empties too, the hole ends at the end of that turn, final turns owed or not.
- Hole h is dealt by seat (h-1) mod N; the seat to the dealer's left starts. `holes` takes any
  number (9 and 18 are the text's); `target=T` (T > 0) plays until a total reaches T instead.
- RESIGN: the seat takes no more turns (its cards are still dealt and scored) and cannot win;
  when one player is left, they win.
- The record every seat's view carries (`events`, `pbem.games.events`): each deal's first
  discard, every card taken from the discard, every discard with where it came from (the
  layout or the stock), every stock draw, every knock, look, rebuilt stock and missed turn,
  each hole's end and the game's. A card that lies face down (drawn and kept, looked at, seen
  at the deal) and a conditional draw's limit are told to their player alone.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import repeat
from collections.abc import Set as AbstractSet
from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from pbem.games.base import Resign, Result, TurnByTurn
from pbem.games.events import OWN, GameEvent, stored, told
from pbem.games.cards import words as card_words
from pbem.games.cards.orders import card_command, Discard, DrawDiscard, DrawStock, DrawStockIf, Keep, Knock, Peek
from pbem.games.golf.words import SAYINGS
from pbem.games.cards.deck import HIDDEN, NOBODY, ONLY, checked_options
from pbem.games.errors import BadOption, GameRefused, NoMoveNow, OrderError
from pbem.games.golf.rules import MAX_HOLES, OPTIONS, GolfRules, whole_option
from pbem.games.golf.scoring import best_spot, game_tables, score_hole
from pbem.games.rng import Generator, game_generator, stored_generator
from pbem.games.scoring import share_the_win

COLS = {4: 2, 6: 3}
NEAREST = {4: (3, 4), 6: (4, 5)}
LOOK_ORDER = {4: (3, 4, 1, 2), 6: (4, 5, 6, 1, 2, 3)}  # nearest first
POSITIONS = {4: (1, 2, 3, 4), 6: (1, 2, 3, 4, 5, 6)}
FREE_PEEKS = {"any2": 2, "one": 1}
# (layout, peek option) -> (the positions every seat sees at the deal, seen or not by position).
AT_THE_DEAL = {(size, peek): (near, tuple(p in near for p in POSITIONS[size]))
               for size in POSITIONS for peek in ("near2", "any2", "one", "paid")
               for near in [NEAREST[size] if peek in ("near2", "paid") else ()]}


# Compiled (scripts/native.py), a class open to interpreted subclasses has a `__new__` that makes a
# bare instance, as in Python (`playout_copy`); mypyc's other native classes call `__init__` there.
@mypyc_attr(allow_interpreted_subclasses=True)
class Golf(TurnByTurn, GolfRules):
    TYPE = "golf"
    TITLE = "Golf"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 8
    OPTIONS = OPTIONS
    # `grids` is public as every player's view shows it (face-down cards hidden); the GM's is not.
    PUBLIC_VIEW = ("type", "names", "options", "hole", "holes", "target", "dealer", "current", "to_move", "phase",
                   "turn", "knocker", "finished", "final_turns", "last_round", "stock", "discard", "totals",
                   "face_up", "peeks_paid", "drawing", "resigned", "result")

    @classmethod
    def command_from_text(cls, text: str):
        return card_command(text)

    def check_order(self, seat: int, command) -> None:
        # The rules' own: `GolfRules` comes after `TurnByTurn` in the bases (a compiled class has
        # one base that is not a trait, and it comes first), so the base's stub would win.
        GolfRules.check_order(self, seat, command)

    @classmethod
    def contradiction(cls, options: dict, given: set[str]) -> str | None:
        target = whole_option(options, "target", 0)
        if target and "holes" in given:
            return (f"options holes={options['holes']} and target={target} contradict each other: with a "
                    "target the game lasts until a total reaches it, however many holes that takes "
                    "(set one of them, not both)")
        if options["ending"] == "faceup":
            knocking = [f"{k}={options[k]}" for k in ("knock_penalty", "knock_bonus") if options[k] != "none"]
            if knocking:
                return (f"option {knocking[0]} scores a knocker, and ending=faceup has no knocking "
                        "(use ending=knock, or leave it out)")
        return None

    def __init__(self, names: Sequence[str], options: dict, rng: Generator):
        self.names, self.n = list(names), len(names)
        n = self.n
        self.options = dict(options)
        self.rng = rng
        self._derive()
        self.totals = [0] * n
        self.holes: list[dict] = []
        self.shuffles: list[dict] = []
        self.resigned = [False] * n
        self._result: Result | None = None
        self._turn, self.hole_no = 1, 0
        self.events: list[dict] = []
        # The public record (`events.told`): an entry or two a move, a move's as a short tuple
        # (`(kind, seat, facts)`, written out by `_expanded` when a view reads it, stored as a list).
        self.log: list = []
        self.last_seat: int | None = None  # who completed the last turn,
        self.last_kind: str | None = None  # and how
        self.dealer = 0
        self.current: int | None = None
        self.drawn: str | None = None
        self.knocker: int | None = None
        self.final: list[int] | None = None  # seats still owed a last turn, once the end is called
        self.rebuilt = False
        self.stock: list[str] = []
        self.discard: list[str] = []
        # Per seat and position; `known`: what the seat has seen of its own face-down cards.
        self.grids: list[list[str]] = []
        self.up: list[list[bool]] = []
        self.known: list[list[bool]] = []
        self.start_seen: list[list[bool]] = []
        self.replaced: list[list[bool]] = []
        self.peeks_left, self.paid, self.started = [0] * n, [0] * n, [False] * n

    def _derive(self) -> None:
        o = self.options
        self.size = o["layout"]
        self.cols = COLS[self.size]
        self.positions = POSITIONS[self.size]
        self.faceup = o["ending"] == "faceup"
        self.once = bool(o["replace_unseen_once"])
        self.chosen_looks = o["peek"] != "near2"  # looks a player orders (PEEK), not given at the deal
        # What every seat sees of its own layout at the deal (the near two, or nothing).
        self.near, self.seen_at_deal = AT_THE_DEAL[self.size, o["peek"]]
        self.packs = 2 if self.n >= 8 else 1
        # Shared by every game on these options: read, never changed.
        self.points, self.lo, self.hi, self.guess, self.jacks, self.deck = game_tables(o, self.packs)

    # -- creation and storage -------------------------------------------------------------
    @classmethod
    def new(cls, names, options, seed, course=None) -> Golf:
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise GameRefused(f"Golf is a game for 2 to 8 players, not {len(names)}")
        game = cls(names, checked_options(cls.TYPE, options, cls._checked), game_generator(seed))
        game._start_hole(1)
        return game

    @classmethod
    def _checked(cls, given: dict) -> dict:
        opts = cls.options_with_defaults(given)
        opts["holes"] = whole_option(opts, "holes", 1, MAX_HOLES)
        opts["target"] = whole_option(opts, "target", 0)
        opts["spade_queen"] = opts["spade_queen"] in (True, 40)
        if opts["knock_bonus"] == "minus_players" and opts["knock_penalty"] != "none":
            raise BadOption("option knock_bonus=minus_players already doubles a knocker who is not lowest; "
                            "use it with knock_penalty=none")
        return opts

    _LISTS: ClassVar = ("totals", "resigned", "stock", "discard", "peeks_left", "paid", "started", "holes", "shuffles")
    _GRIDS: ClassVar = ("grids", "up", "known", "start_seen", "replaced")

    def to_dict(self) -> dict:
        d: dict[str, object] = {k: list(getattr(self, k)) for k in self._LISTS}
        d["log"] = stored(self.log)
        d.update({k: [list(row) for row in getattr(self, k)] for k in self._GRIDS})
        d.update({
            "names": list(self.names), "options": dict(self.options), "rng": self.rng.state(),
            "result": self._result.to_dict() if self._result else None, "turn": self._turn,
            "hole": self.hole_no, "last": [self.last_seat, self.last_kind], "dealer": self.dealer,
            "current": self.current, "drawn": self.drawn, "knocker": self.knocker,
            "final": list(self.final) if self.final is not None else None, "rebuilt": self.rebuilt,
        })
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Golf:
        g = cls(d["names"], d["options"], stored_generator(d["rng"], cls.TYPE))
        for k in cls._LISTS:
            setattr(g, k, list(d.get(k, ())))
        g.log = list(d.get("log", ()))  # a game stored before the record began has none so far
        for k in cls._GRIDS:
            setattr(g, k, [list(row) for row in d[k]])
        g._result = Result.from_dict(d["result"])
        g._turn, g.hole_no, g.dealer = d["turn"], d["hole"], d["dealer"]
        g.last_seat, g.last_kind = d["last"]
        g.current, g.drawn, g.knocker, g.rebuilt = d["current"], d["drawn"], d["knocker"], d["rebuilt"]
        g.final = list(d["final"]) if d["final"] is not None else None
        return g

    def playout_copy(self) -> Golf:
        """A copy of the hole in play for a robot to play out (cheaper than `copy.deepcopy`).

        Copied, so that moves on the copy leave this state as it was: every seat's layout and
        what is known of it (`grids`, `up`, `known`, `start_seen`, `replaced`), the `stock`, the
        `discard` pile, `peeks_left`, `paid`, `started`, `totals`, `resigned` and `final`; the
        generator `rng` is a fresh one at this state's point of its stream (`Generator.restore`),
        so that the copy's draws leave this state's stream where it was. Shared, as read and
        never changed in place: `names`, `options` and the tables derived from them (`_derive`:
        `positions`, `points`, `guess`, `deck` ...). Not kept: the copy starts with no `events`,
        no `log`, no `shuffles` and no finished `holes` (a playout's own record, read by nobody)."""
        c = Golf.__new__(Golf)
        c.names, c.n = self.names, self.n
        c.options = self.options
        c.rng = Generator.restore(self.rng.state())
        c.size, c.cols, c.positions = self.size, self.cols, self.positions
        c.faceup, c.once, c.chosen_looks = self.faceup, self.once, self.chosen_looks
        c.near, c.seen_at_deal, c.packs = self.near, self.seen_at_deal, self.packs
        c.points, c.lo, c.hi, c.guess, c.jacks, c.deck = (self.points, self.lo, self.hi, self.guess,
                                                          self.jacks, self.deck)
        c.totals = self.totals[:]
        c.holes = []
        c.shuffles = []
        c.resigned = self.resigned[:]
        c._result = self._result
        c._turn, c.hole_no = self._turn, self.hole_no
        c.events = []
        c.log = []
        c.last_seat, c.last_kind = self.last_seat, self.last_kind
        c.dealer = self.dealer
        c.current = self.current
        c.drawn = self.drawn
        c.knocker = self.knocker
        c.final = None if self.final is None else self.final[:]
        c.rebuilt = self.rebuilt
        c.stock = self.stock[:]
        c.discard = self.discard[:]
        c.grids = [row[:] for row in self.grids]
        c.up = [row[:] for row in self.up]
        c.known = [row[:] for row in self.known]
        c.start_seen = [row[:] for row in self.start_seen]
        c.replaced = [row[:] for row in self.replaced]
        c.peeks_left, c.paid, c.started = self.peeks_left[:], self.paid[:], self.started[:]
        return c

    def chance_record(self) -> list:
        """Every deck order the game has shuffled, in order, as card names with the top card
        last: each hole's deal, and any rebuilt stock. `pbem verify` compares it between a
        stored game and its replay."""
        return [list(s["order"]) for s in self.shuffles]

    # -- the protocol ---------------------------------------------------------------------
    def to_move(self) -> AbstractSet[int]:
        return NOBODY if self._result is not None or self.current is None else ONLY[self.current]

    def locked(self, seat: int, pos: int) -> bool:
        """replace_unseen_once: a position not seen at the start that has been replaced already."""
        return self.once and self.replaced[seat][pos - 1] and not self.start_seen[seat][pos - 1]

    def replaceable(self, seat: int) -> list[int]:
        if not self.once:
            return list(self.positions)
        return [p for p in self.positions if not self.locked(seat, p)]

    def peekable(self, seat: int) -> list[int]:
        """Positions `seat` may PEEK at now (it must be their turn, before drawing)."""
        peek = self.options["peek"]
        if peek != "paid" and (not self.peeks_left[seat] or self.started[seat]):
            return []
        up, known = self.up[seat], self.known[seat]
        return [p for p in self.positions if not up[p - 1] and not known[p - 1]]

    # -- playing orders -------------------------------------------------------------------
    # Each turn leaves a `played` event with its facts (`say`, `after`); `narrate` writes them.
    def narrate(self, events: list[dict]) -> list[dict]:
        return card_words.narrate(SAYINGS, self.names, events)

    def apply(self, seat: int, command) -> None:
        t = command.__class__
        # The common turns of the seat to move go straight to play when they are plainly legal
        # (a benchmark hole is a dozen of them); anything else is checked in full first.
        # The commonest (a draw, a KEEP, a DISCARD) are played here, as `_play` plays them.
        if seat == self.current and self._result is None and not self.resigned[seat]:
            drawn = self.drawn
            if t is DrawDiscard:
                pos = command.pos
                if drawn is None and pos.__class__ is int and 0 < pos <= self.size and not (
                        self.once and self.locked(seat, pos)):
                    self.started[seat] = True
                    self.peeks_left[seat] = 0
                    return self._replace(seat, pos, self.discard.pop(), "take")
            elif t is DrawStock:
                if drawn is None:
                    self.started[seat] = True
                    self.peeks_left[seat] = 0
                    self._draw(seat, True)
                    return
            elif t is Discard:
                if drawn is not None:
                    self.started[seat] = True
                    self.peeks_left[seat] = 0
                    return self._throw(seat)
            elif t is Keep:
                pos = command.pos
                if drawn is not None and pos.__class__ is int and 0 < pos <= self.size and not (
                        self.once and self.locked(seat, pos)):
                    self.started[seat] = True
                    self.peeks_left[seat] = 0
                    self.drawn = None
                    return self._replace(seat, pos, drawn, "keep")
            elif t is DrawStockIf:
                pos = command.keep
                if drawn is None and command.flip is None and pos.__class__ is int and 0 < pos <= self.size and not (
                        self.once and self.locked(seat, pos)):
                    self.started[seat] = True
                    self.peeks_left[seat] = 0
                    card = self._draw(seat)
                    points, limit = self.points[card], command.limit
                    if points <= limit:
                        self.drawn = None
                        return self._replace(seat, pos, card, "keep", [points, limit])
                    return self._throw(seat, [points, limit])
            elif t is Knock and drawn is None and not self.faceup and self.knocker is None:
                return self._play(seat, command, t)
        self.check(seat, command)
        self._play(seat, command, t)

    def _free(self, seat: int, pos) -> bool:
        """`pos` is a position the seat may put a card in (False: ask `check_order`)."""
        return pos.__class__ is int and 0 < pos <= self.size and not (self.once and self.locked(seat, pos))

    def _play(self, seat: int, command, t) -> None:
        if t is DrawDiscard:
            return self._take(seat, command.pos)
        if t is Resign:
            return self._resign(seat)
        if t is Peek:
            return self._peek(seat, command.pos)
        self.started[seat] = True
        self.peeks_left[seat] = 0
        if t is DrawStock:
            self._draw(seat, True)
        elif t is Keep:
            self._keep(seat, command.pos)
        elif t is Discard:
            self._throw(seat)
        elif t is DrawStockIf:
            card = self._draw(seat)
            points, limit = self.points[card], command.limit
            if points <= limit:
                self._keep(seat, command.keep, [points, limit])
            else:
                self._throw(seat, [points, limit])
        else:
            self.knocker = seat
            self.events.append({"kind": _KNOCKED, "seat": seat})
            self._pass_turn(seat, "knock", ["knocked"], False)

    def _take(self, seat: int, pos: int) -> None:
        self.started[seat] = True
        self.peeks_left[seat] = 0
        card = self.discard.pop()
        self._replace(seat, pos, card, "take")

    def _draw(self, seat: int, tell: bool = False) -> str:
        """The top stock card becomes the mover's drawn card; `tell`: the event tells its player
        which (a conditional draw tells them in its `played` event instead)."""
        card = self.drawn = self.stock.pop()
        self.events.append({"kind": _DRAWN, "seat": seat, "card": card, "tell": tell})
        self.log.append((_DRAWN, seat, card))
        return card

    # `drawn_if`: [points, limit] of the conditional draw that kept or discarded the card.
    def _keep(self, seat: int, pos: int, drawn_if: list | None = None) -> None:
        card, self.drawn = self.drawn, None
        assert card is not None  # KEEP follows a draw
        self._replace(seat, pos, card, "keep", drawn_if)

    def _throw(self, seat: int, drawn_if: list | None = None) -> None:
        card, self.drawn = self.drawn, None
        assert card is not None  # DISCARD follows a draw
        self.discard.append(card)
        self._pass_turn(seat, "discard", ["threw", card, drawn_if], card in self.jacks)

    def _replace(self, seat: int, pos: int, card: str, kind: str, drawn_if: list | None = None) -> None:
        i = pos - 1
        grid = self.grids[seat]
        old = grid[i]
        grid[i] = card
        self.known[seat][i] = self.replaced[seat][i] = True
        self.discard.append(old)
        faceup = self.faceup
        if faceup:
            self.up[seat][i] = True
        say = [kind, card, pos, old, faceup, drawn_if]
        jack = old in self.jacks
        # The plain end of the turn inline (`_pass_turn`'s first case: most turns end so): the
        # stock holds cards, nobody has ended the hole, no jack skips, the layout is not all up.
        if self.stock and self.final is None and not jack and not (faceup and False not in self.up[seat]):
            self._turn += 1
            self.last_seat, self.last_kind = seat, kind
            self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
            self.log.append((_PLAYED, seat, say))
            following = seat + 1 if seat + 1 < self.n else 0
            self.current = self._next_seat(seat) if self.resigned[following] else following
            return
        self._pass_turn(seat, kind, say, jack)

    def _peek(self, seat: int, pos: int) -> None:
        self.known[seat][pos - 1] = True
        paid = self.options["peek"] == "paid"
        if paid:
            self.paid[seat] += 1
        else:
            self.peeks_left[seat] -= 1
            self.start_seen[seat][pos - 1] = True
        card = self.grids[seat][pos - 1]
        self.events.append({"kind": _PEEKED, "seat": seat, "positions": {pos: card}})
        say = ["peeked", pos, card, paid]
        self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
        self.log.append((_PLAYED, seat, say))

    def _pass_turn(self, seat: int, kind: str, say: list, jack: bool) -> None:
        """The turn is over (`say`: its facts for the `played` event): the next seat, a missed
        turn, the stock rebuilt, the final round, or the hole's end."""
        self._turn += 1
        self.last_seat, self.last_kind = seat, kind
        if (self.stock and self.final is None and not jack and kind != "knock"
                and not (self.faceup and False not in self.up[seat])):  # the plain case: the next seat
            self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "move": True})
            self.log.append((_PLAYED, seat, say))
            following = seat + 1 if seat + 1 < self.n else 0
            self.current = self._next_seat(seat) if self.resigned[following] else following
            return
        over = False
        after: list[list] = []  # what else the turn did, as facts too
        if not self.stock:
            if self.rebuilt or not self._rebuild():
                after.append(["used_up"])
                over = True
            else:
                after.append(["rebuilt"])
        if not over and self.final is None and (kind == "knock" or (self.faceup and False not in self.up[seat])):
            self.final = self._others_after(seat)
        skipped = nxt = None
        if not over and self.final is not None:
            if jack and self.final:
                skipped = self.final.pop(0)
            if self.final:
                nxt = self.final.pop(0)
            else:
                over = True
        elif not over:
            nxt = self._next_seat(seat)
            if jack:
                skipped, nxt = nxt, self._next_seat(nxt)
        if skipped is not None:
            after.append(["skipped", skipped])
        self.events.append({"kind": _PLAYED, "seat": seat, "say": say, "after": after, "move": True})
        self.log.append((_PLAYED, seat, say))
        for fact in after:
            if fact[0] == "rebuilt":
                self.log.append({"kind": _RESHUFFLED, "cards": len(self.stock)})
            elif fact[0] == "skipped":
                self.log.append({"kind": _SKIPPED, "seat": fact[1]})
        self.current = nxt
        if over:
            self._end_hole()

    def _next_seat(self, seat: int) -> int:
        n, resigned = self.n, self.resigned
        s = (seat + 1) % n
        while resigned[s]:
            s = (s + 1) % n
        return s

    def _others_after(self, seat: int) -> list[int]:
        return [s for s in ((seat + k) % self.n for k in range(1, self.n)) if not self.resigned[s]]

    def _rebuild(self) -> bool:
        pile = self.discard[:-1]
        if not pile:
            return False
        self.discard = self.discard[-1:]
        self.rng.shuffle(pile)
        self.shuffles.append({"hole": self.hole_no, "kind": "rebuild", "order": list(pile)})
        self.stock = pile
        self.rebuilt = True
        return True

    def _resign(self, seat: int) -> None:
        self.resigned[seat] = True
        self.events.append({"kind": _PLAYED, "seat": seat, "say": ["resigned"], "move": True})
        resigned = ["resigned"]  # and the drawn card it leaves, which goes onto the discard
        self.log.append((_PLAYED, seat, resigned))
        active = [s for s in range(self.n) if not self.resigned[s]]
        if len(active) == 1:
            self.current = None
            self._result = Result(f"{self.names[active[0]]} wins by resignation", (active[0],), tuple(self.totals))
            self.events.append({"kind": _GAME_END, "line": self._result.line})
            self.log.append({"kind": _GAME_END, "line": self._result.line})
            return
        if self.final is not None and seat in self.final:
            self.final.remove(seat)
        if self.current != seat:
            return
        if self.drawn is not None:
            self.discard.append(self.drawn)
            resigned.append(self.drawn)
            self.drawn = None
        self._turn += 1
        if self.final is None:
            self.current = self._next_seat(seat)
        elif self.final:
            self.current = self.final.pop(0)
        else:
            self.current = None
            self._end_hole()

    # -- holes ----------------------------------------------------------------------------
    def _start_hole(self, hole: int) -> None:
        n, size = self.n, self.size
        self.hole_no = hole
        self.dealer = dealer = (hole - 1) % n
        deck = list(self.deck)
        self.rng.shuffle(deck)
        self.shuffles.append({"hole": hole, "kind": "deal", "order": deck[:]})
        # One card at a time from the top (the end), from the dealer's left: the k-th card dealt
        # goes to seat (dealer + 1 + k) mod n, at position k // n + 1.
        dealt = deck[:-size * n - 1:-1]
        del deck[-size * n:]
        grids: list[list[str]] = [[]] * n
        for k in range(n):
            grids[(dealer + 1 + k) % n] = dealt[k::n]
        self.grids = grids
        self.discard = [deck.pop()]
        self.stock = deck
        near, seen = self.near, self.seen_at_deal
        downs = (False,) * size
        self.up = list(map(list, repeat(downs, n)))  # a list of its own each seat
        self.known = list(map(list, repeat(seen, n)))
        self.start_seen = list(map(list, repeat(seen, n)))
        self.replaced = list(map(list, repeat(downs, n)))
        self.peeks_left = [FREE_PEEKS.get(self.options["peek"], 0)] * n
        self.paid, self.started = [0] * n, [False] * n
        self.drawn = self.knocker = self.final = None
        self.rebuilt = False
        self.current = self._next_seat(dealer)
        events = self.events
        events.append({"kind": _HOLE_START, "hole": hole, "dealer": dealer})
        self.log.append({"kind": _HOLE_START, "hole": hole, "dealer": dealer, "discard": self.discard[-1]})
        if near:
            a, b = near
            log, resigned = self.log, self.resigned
            for s in range(n):
                if not resigned[s]:
                    card_a, card_b = grids[s][a - 1], grids[s][b - 1]
                    events.append({"kind": _PEEKED, "seat": s, "positions": {a: card_a, b: card_b}})
                    log.append((_PEEKED, s, [a, b, card_a, card_b]))

    def _end_hole(self) -> None:
        res = score_hole(self.grids, self.cols, self.options, self.knocker, self.paid, self.points)
        scores = res["scores"]
        totals = self.totals
        for s in range(self.n):
            totals[s] += scores[s]
        self.up = list(map(list, repeat((True,) * self.size, self.n)))
        grids = [list(g) for g in self.grids]
        self.holes.append({"hole": self.hole_no, "grids": grids, "scores": scores, "points": res["points"],
                           "cancelled": res["cancelled"], "knocker": self.knocker, "peeks": list(self.paid)})
        # `raw` is cards plus paid looks, before the knocker's penalty or bonus makes it `scores`.
        totals = list(totals)
        self.events.append({"kind": _HOLE_END, "hole": self.hole_no, "grids": grids, "points": res["points"],
                            "cancelled": res["cancelled"], "scores": scores, "totals": totals,
                            "knocker": self.knocker, "peeks": list(self.paid), "raw": res["raw"]})
        # The hole's lists are never changed once it is scored: the record shares them.
        self.log.append({"kind": _HOLE_END, "hole": self.hole_no, "grids": grids, "scores": scores,
                         "totals": totals, "knocker": self.knocker, "stock_out": not self.stock})
        self.current = self.drawn = None
        active = range(self.n) if True not in self.resigned else [s for s in range(self.n) if not self.resigned[s]]
        target = self.options["target"]
        if target:
            over = any(self.totals[s] >= target for s in active)
        else:
            over = self.hole_no >= self.options["holes"]
        if not over:
            return self._start_hole(self.hole_no + 1)
        if len(active) == self.n:
            line, winners = share_the_win(self.names, self.totals)
        else:
            line, picked = share_the_win([self.names[s] for s in active], [self.totals[s] for s in active])
            winners = tuple(active[w] for w in picked)
        self._result = Result(line, winners, tuple(self.totals))
        self.events.append({"kind": _GAME_END, "line": line})
        self.log.append({"kind": _GAME_END, "line": line})

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        gm = seat is None
        grids = [list(g) if gm else [c if u else HIDDEN for c, u in zip(g, up)]
                 for g, up in zip(self.grids, self.up)]
        o = self.options
        v = {
            "type": self.TYPE, "names": list(self.names), "options": dict(o), "hole": self.hole_no,
            "holes": None if o["target"] else o["holes"], "target": o["target"] or None,
            # The same keys as the golfdeck view, so one set of mail templates serves both games.
            "dealer": self.dealer, "current": self.current, "to_move": sorted(self.to_move()), "phase": "play",
            "turn": self._turn, "knocker": self.knocker,
            "finished": [{"hole": h["hole"], "grids": [list(g) for g in h["grids"]], "scores": list(h["scores"])}
                         for h in self.holes],
            "final_turns": list(self.final or ()), "last_round": self.final is not None, "stock": len(self.stock),
            "discard": self.discard[-1] if self.discard else None, "totals": list(self.totals),
            "grids": grids, "face_up": [list(u) for u in self.up], "peeks_paid": list(self.paid),
            "drawing": self.drawn is not None, "resigned": list(self.resigned),
            "result": self._result.line if self._result else None,
        }
        if seat is None:
            v["seen"] = {s: self._seen(s) for s in range(self.n)}
            v["drawn"] = self.drawn
            v["stock_cards"], v["discard_pile"] = list(self.stock), list(self.discard)
            return v
        v["seen"] = self._seen(seat)
        v["drawn"] = self.drawn if seat == self.current else None
        v["replaceable"] = self.replaceable(seat)
        v["peekable"] = self.peekable(seat) if seat == self.current and self.drawn is None else []
        v["events"] = told(map(_expanded, self.log), seat)
        return v

    def spectator_view(self) -> dict:
        v = super().spectator_view()
        v["grids"] = [[c if u else HIDDEN for c, u in zip(g, up)] for g, up in zip(self.grids, self.up)]
        return v

    def _seen(self, seat: int) -> dict[int, str]:
        """The own face-down cards `seat` has seen: the GM reminds the player of them privately."""
        g, up, known = self.grids[seat], self.up[seat], self.known[seat]
        return {p: g[p - 1] for p in self.positions if known[p - 1] and not up[p - 1]}

    # -- the autoplay ---------------------------------------------------------------------
    def default_orders(self, seat: int):
        """A silent player's move: use free looks nearest first; take the discard or keep the
        drawn card where it lowers the layout as far as the player knows it (an unseen card
        counts as the pack's average); otherwise draw, or discard. Never knocks, never pays to
        look. None when `seat` is not to move."""
        if self._result is not None or seat != self.current:
            return None
        if self.drawn is not None:
            pos = self._best_spot(seat, self.drawn)
            return Keep(pos) if pos else Discard()
        if self.peeks_left[seat] and not self.started[seat]:
            unseen = self.peekable(seat)
            if unseen:
                return Peek(next(p for p in LOOK_ORDER[self.size] if p in unseen))
        pos = self._best_spot(seat, self.discard[-1])
        return DrawDiscard(pos) if pos else DrawStock()

    def legal_orders(self, seat: int) -> list[str]:
        """The moves `seat` may make now, as the rules check them: at the start of a turn each
        PEEK it may make, each DRAW DISCARD, DRAW STOCK and KNOCK; with a drawn card each KEEP
        and DISCARD. The conditional draw is left out: it is a mail's shortcut for DRAW STOCK
        and the decision on the card, which are listed in their turn."""
        if seat not in self.to_move():
            return []
        moves: list[object]
        if self.drawn is None:
            moves = [*(_PEEK[p] for p in self.positions), *(_DRAW_DISCARD[p] for p in self.positions), _DRAW_STOCK,
                     _KNOCK]
        else:
            moves = [*(_KEEP[p] for p in self.positions), _DISCARD]
        return [str(m) for m in moves if self._legal(seat, m)]

    def _legal(self, seat: int, command) -> bool:
        try:
            self.check_order(seat, command)
        except OrderError:
            return False
        return True

    def orders_like(self, seat: int, word: str | None) -> list:
        free = self.replaceable(seat) or [1]
        looks = self.peekable(seat)[:1]
        orders: dict[str, list] = {"DRAW": [DrawStock()], "IF": [DrawStockIf(4, free[0])], "KEEP": [Keep(free[0])],
                                   "DISCARD": [Discard()], "KNOCK": [Knock()], "PEEK": [Peek(p) for p in looks]}
        return orders.get(word or "", [])

    def _best_spot(self, seat: int, card: str) -> int | None:
        g, up, known = self.grids[seat], self.up[seat], self.known[seat]
        mine = [c if up[i] or known[i] else HIDDEN for i, c in enumerate(g)]
        return best_spot(mine, card, self.replaceable(seat), self.cols, self.guess, self.options["pairs"],
                         bool(self.options["one_eyed_jacks_wild"]))


def _expanded(entry) -> dict:
    """An entry of the record written out (`events.told` reads dicts): a move's short list, its
    facts as the `played` event's `say` holds them, a drawn card, or the cards a seat saw at the
    deal. The card taken from the
    discard, the card that went onto it and where from are everyone's; a card drawn, kept face
    down or looked at, and a conditional draw's limit, are its player's alone."""
    if type(entry) is dict:
        return entry
    kind, seat, facts = entry
    if kind == _DRAWN:
        return {"kind": _DRAWN, "seat": seat, "from": "stock", OWN: {"card": facts}}
    if kind == _PEEKED:  # the near two, seen at the deal: their positions, then their cards
        return {"kind": _PEEKED, "seat": seat, "positions": facts[:2], OWN: {"cards": facts[2:]}}
    what = facts[0]
    out: dict = {"kind": _PLAYED, "seat": seat}
    own: dict = {}
    drawn_if = None
    if what in ("take", "keep"):  # the top discard or the drawn card into `pos`; the card there goes
        _, card, pos, old, faceup, drawn_if = facts
        out.update(what="took" if what == "take" else "kept", pos=pos, discarded=old, discarded_from="grid")
        if what == "take" or faceup:  # the top discard lay face up, as a card kept face up does
            out["card"] = card
        else:
            own["card"] = card
    elif what == "threw":  # the drawn card onto the discard
        _, card, drawn_if = facts
        out.update(what="threw", discarded=card, discarded_from="stock")
    elif what == "peeked":
        _, pos, card, paid = facts
        out.update(what="peeked", pos=pos, paid=paid)
        own["card"] = card
    elif what == "resigned":
        out["what"] = what
        if len(facts) > 1:
            out.update(discarded=facts[1], discarded_from="stock")
    else:
        out["what"] = what  # "knocked"
    if drawn_if:
        own["limit"] = drawn_if[1]
    if own:
        out[OWN] = own
    return out


def random_orders(state: Golf, seat: int, rng) -> object:
    """A uniformly chosen legal move for `seat`, the seat to move (bots, property tests,
    benchmarks): every position of a DRAW DISCARD, KEEP, conditional draw and PEEK counts as
    one move; a conditional draw's limit is uniform over the card values. RESIGN is never chosen."""
    if state._result is not None or seat != state.current:
        raise NoMoveNow(f"seat {seat} has no move now")
    free = state.replaceable(seat) if state.once else state.positions
    k = len(free)
    if state.drawn is not None:
        pick = int(rng.random() * (k + 1))
        return _KEEP[free[pick]] if pick < k else _DISCARD
    looks = state.peekable(seat) if state.chosen_looks else ()
    knock = 0 if state.faceup or state.knocker is not None else 1
    pick = int(rng.random() * (2 * k + 1 + knock + len(looks)))
    if pick < k:
        return _DRAW_DISCARD[free[pick]]
    pick -= k
    if pick < k:
        limit = state.lo + int(rng.random() * (state.hi - state.lo + 1))
        row = _IF_ROWS.get(limit)
        return row[free[pick]] if row is not None else _draw_stock_if(limit, free[pick])
    pick -= k
    if pick == 0:
        return _DRAW_STOCK
    if pick == 1 and knock:
        return _KNOCK
    return _PEEK[looks[pick - 1 - knock]]


# The kinds of the events, bound once: an enum member read off its class costs a lookup a time
# (some 100 ns on Python 3.11, as much as building a small dict), and moves are the hot path.
_DRAWN, _GAME_END, _HOLE_END = GameEvent.DRAWN, GameEvent.GAME_END, GameEvent.HOLE_END
_HOLE_START, _KNOCKED, _PEEKED = GameEvent.HOLE_START, GameEvent.KNOCK, GameEvent.PEEKED
_PLAYED, _RESHUFFLED, _SKIPPED = GameEvent.PLAYED, GameEvent.RESHUFFLED, GameEvent.SKIPPED
# Orders are frozen values, so the random player hands out shared ones (as golfdeck's does).
_DRAW_DISCARD = (None,) + tuple(DrawDiscard(p) for p in range(1, 7))
_KEEP = (None,) + tuple(Keep(p) for p in range(1, 7))
_PEEK = (None,) + tuple(Peek(p) for p in range(1, 7))
_DRAW_STOCK, _DISCARD, _KNOCK = DrawStock(), Discard(), Knock()
_draw_stock_if = lru_cache(maxsize=None)(DrawStockIf)  # limits run from -5 to 40: a few hundred
# The random player's conditional draws by limit, then position: `_IF_ROWS[limit][pos]` (the
# card values of every option set lie in this range; another limit goes to `_draw_stock_if`).
_IF_ROWS = {limit: (None,) + tuple(_draw_stock_if(limit, p) for p in range(1, 7)) for limit in range(-5, 41)}
