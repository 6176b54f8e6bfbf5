#!/usr/bin/env python3
"""A tuned greedy player of golfdeck for `pbem arena` (plain Python, no pbem import).

`pbem arena golfdeck --seat robot:strong --seat "exec:python3 contrib/bots/golfdeck_greedy.py"`
It reads one JSON line a move ({"view", "seat", "legal"}) and writes one order. It values a
layout column by column (a pair of one kind scores 0), an unseen card at the mean of the cards
it has not seen (the pile counted from the view's events), and plays the move that lowers that
value most: the discard when it beats the mean of a stock draw by TAKE_EDGE, a drawn card kept
where it saves more than KEEP_EDGE, else thrown with a card turned up. It does not turn its last
card up (which ends the hole) unless it leads the others' estimates by END_LEAD.
"""
import json
import sys

POINTS = {"Hole-in-One": -2, "Gimme": 0, "Putter": 1, "3-Iron": 3, "4-Iron": 4, "5-Iron": 5,
          "6-Iron": 6, "7-Iron": 7, "8-Iron": 8, "9-Iron": 9, "Pitching Wedge": 10,
          "Sand Trap": 10, "Water Hazard": 10}
PARTNER = (3, 4, 5, 0, 1, 2)
TAKE_EDGE, KEEP_EDGE, END_LEAD = 0.0, 1.5, 3.0  # tuned against robot:easy and robot:strong
FLIP_NEXT = 0.0  # 1: turn up a card beside a face-up one first
REVEAL = "REVEAL 1 6"  # two columns, one card of each row


def unseen(view):
    """The cards the seat has not seen: the deck less every face-up card and the pile."""
    left = {c: 4 for c in POINTS}
    pile = []
    for e in view["events"]:  # this hole's pile, from its first discard on
        if e.get("kind") == "hole_start":
            pile = [e["discard"]]
        elif e.get("kind") == "played" and e.get("what") == "took":
            pile.pop()
        if e.get("kind") == "played" and e.get("discarded"):
            pile.append(e["discarded"])
    for c in pile + [c for g in view["grids"] for c in g if c != "??"] + [view.get("drawn")]:
        if c in left:
            left[c] -= 1
    return [c for c, n in left.items() for _ in range(max(0, n))]


def worth(grid, mean):
    total = 0.0
    for i in range(3):
        a, b = grid[i], grid[i + 3]
        if a != "??" and a == b:
            continue
        total += (POINTS[a] if a != "??" else mean) + (POINTS[b] if b != "??" else mean)
    return total


def best_place(grid, card, mean):
    """(the layout's value with `card` at its best place, that place from 1)."""
    return min((worth(grid[:i] + [card] + grid[i + 1:], mean), i + 1) for i in range(6))


def move(q):
    view, seat, legal = q["view"], q["seat"], q["legal"]
    if view["phase"] == "reveal":
        return REVEAL
    pool = unseen(view)
    mean = sum(POINTS[c] for c in pool) / len(pool) if pool else 5.5
    mine = view["grids"][seat]
    now = worth(mine, mean)
    others = min(worth(g, mean) for s, g in enumerate(view["grids"]) if s != seat)
    last = view["final_turns_from"] is not None
    down = [i + 1 for i, c in enumerate(mine) if c == "??"]

    def ends(grid):  # the layout is all face up: the hole ends
        return "??" not in grid

    def ok(grid):
        return last or not ends(grid) or worth(grid, mean) + END_LEAD <= others

    def placed(card):  # (value, order) of the best place that does not end the hole badly
        options = [(worth(mine[:i] + [card] + mine[i + 1:], mean), i + 1) for i in range(6)]
        fine = [o for o in options if ok(mine[:o[1] - 1] + [card] + mine[o[1]:])]
        return min(fine or options)

    if view["drawn"] is None:
        value, pos = placed(view["discard"])
        draw = sum(min(placed(c)[0], now) for c in pool) / len(pool) if pool else now
        if value + TAKE_EDGE < draw and value < now:
            return f"DRAW DISCARD {pos}"
        return "DRAW STOCK"
    card = view["drawn"]
    value, pos = placed(card)
    flips = down if len(down) > 1 or last or now + END_LEAD <= others else []
    if value + KEEP_EDGE < now or not flips or f"DISCARD FLIP {flips[0]}" not in legal:
        return f"KEEP {pos}"
    # turn up a card whose partner lies face down (no pair is spoiled by learning it)
    flips.sort(key=lambda p: (mine[PARTNER[p - 1]] != "??") != FLIP_NEXT)
    return f"DISCARD FLIP {flips[0]}"


for word in sys.argv[1:]:  # NAME=value overrides a tuned constant (for tuning runs)
    name, _, text = word.partition("=")
    globals()[name] = text.replace("_", " ") if name == "REVEAL" else float(text)
for line in sys.stdin:
    print(move(json.loads(line)), flush=True)
