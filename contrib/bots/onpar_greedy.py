#!/usr/bin/env python3
"""A greedy player of On Par for `pbem arena` (plain Python, no pbem import).

`pbem arena onpar --seat robot:strong --seat "exec:python3 contrib/bots/onpar_greedy.py"`
It reads one JSON line a move ({"view", "seat", "legal"}) and writes one order: the shot that
goes furthest (the view's `choices` say where each would land; holing out first), else a trap
on the leader (the other ball nearest the hole), else the discard of its highest club card
(a trap or skill shot it holds is kept), else the first legal order.
"""
import json
import sys

TRAP_FIRST = 1.0  # a trap on the leader before any shot (tuned against robot:easy: 0 won less)


def move(q):
    view, seat, legal = q["view"], q["seat"], q["legal"]
    shots = [c for c in view.get("choices", []) if c.get("space") is not None and c["order"] in legal]
    best = max(shots, key=lambda c: (c.get("holed", False), c["space"]), default=None)
    balls = view["balls"]
    others = [s for s in range(len(balls)) if s != seat and not view["resigned"][s]]
    leader = max(others, key=lambda s: balls[s]["space"] - 0.5 * balls[s]["strokes"], default=None)
    traps = [o for o in legal if o.startswith("TRAP ") and leader is not None
             and o.endswith(" ON " + view["names"][leader])]
    if traps and (TRAP_FIRST or best is None or best["space"] <= balls[seat]["space"]):
        return traps[0]
    if best is not None and best["space"] > balls[seat]["space"]:
        return best["order"]
    discards = [o for o in legal if o.startswith("DISCARD ")]
    if discards:
        def keep(order):
            card = order.split()[1]
            return (card[0] in "DIWP" and card[1:].isdigit(), int(card[1:]) if card[1:].isdigit() else 0)
        return max(discards, key=keep)
    return best["order"] if best is not None else legal[0]


for word in sys.argv[1:]:  # NAME=value overrides a tuned constant (for tuning runs)
    name, _, text = word.partition("=")
    globals()[name] = float(text)
for line in sys.stdin:
    print(move(json.loads(line)), flush=True)
