#!/usr/bin/env python3
"""A tuned greedy player of golf (the classic pack; either layout) for `pbem arena` (plain
Python, no pbem import).

`pbem arena golf --seat robot:strong --seat "exec:python3 contrib/bots/golf_greedy.py"`
It reads one JSON line a move ({"view", "seat", "legal"}) and writes one order. A layout is
the sum of its cards (the default `pairs=none`); a card it has not seen counts as the mean of
the cards unseen (the pile counted from the view's events). It takes the discard where it saves
more than a stock draw would in expectation, keeps a drawn card where it saves anything, and
knocks when its layout is at most KNOCK_MAX4 (KNOCK_MAX6 in the 2x3 layout) and beats each
other layout's estimate by KNOCK_LEAD (another's card is the card it took from the pile, KEPT if
it kept a drawn card there, else the mean).
"""
import json
import sys

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
KNOCK_MAX4, KNOCK_MAX6, KNOCK_LEAD, KEPT = 6.0, 12.0, 8.0, 3.0  # tuned against robot:easy


def points(opts):
    face = {r: i for i, r in enumerate(RANKS[:10], start=1)}
    face["J"] = 20 if opts["jacks"] == "20skip" else int(opts["jacks"])
    face["Q"], face["K"] = int(opts["queens"]), int(opts["kings"])
    table = {r + s: face[r] for r in RANKS for s in "SHDC"}
    if opts["spade_queen"]:
        table["QS"] = 40
        table.update({"8" + s: 0 for s in "SHDC"})
    table["JOKER"] = -5
    return table


def pack(opts, seats):
    cards = [r + s for s in "SHDC" for r in RANKS] + (["JOKER"] * 2 if opts["jokers"] else [])
    return cards * (2 if seats >= 8 else 1)


def move(q):
    view, seat, legal = q["view"], q["seat"], q["legal"]
    opts = view["options"]
    worth = points(opts)
    left = pack(opts, len(view["names"]))
    seen = {int(p): c for p, c in (view.get("seen") or {}).items()}
    pile, others = [], [{} for _ in view["names"]]
    for e in view["events"]:
        if e["kind"] == "hole_start":
            pile, others = [e["discard"]], [{} for _ in view["names"]]
        elif e["kind"] == "reshuffled":  # the pile but its top became the stock
            pile = pile[-1:]
        elif e["kind"] == "played":
            if e["what"] == "took":
                pile.pop()
                others[e["seat"]][e["pos"]] = worth.get(e["card"], 5)
            elif e["what"] == "kept":
                others[e["seat"]][e["pos"]] = KEPT
            if e.get("discarded"):
                pile.append(e["discarded"])
    for c in pile + list(seen.values()) + [c for g in view["grids"] for c in g if c != "??"] + [view.get("drawn")]:
        if c in left:
            left.remove(c)
    mean = sum(worth[c] for c in left) / len(left) if left else 5.0
    mine = {p: worth[c] if c != "??" else worth[seen[p]] if p in seen else mean
            for p, c in enumerate(view["grids"][seat], start=1)}
    free = view.get("replaceable") or list(mine)
    total = sum(mine.values())

    def saving(value):
        pos = max(free, key=lambda p: (mine[p], -p))
        return max(0.0, mine[pos] - value), pos

    if "KNOCK" in legal:
        theirs = [sum(others[o].get(p, mean) for p in mine) for o in range(len(view["names"]))
                  if o != seat and not view["resigned"][o]]
        if total <= (KNOCK_MAX4 if len(mine) == 4 else KNOCK_MAX6) and all(total + KNOCK_LEAD <= t for t in theirs):
            return "KNOCK"
    if view.get("drawn") is not None:
        saved, pos = saving(worth[view["drawn"]])
        return f"KEEP {pos}" if saved > 0 and f"KEEP {pos}" in legal else "DISCARD"
    if view.get("discard") is not None:
        saved, pos = saving(worth[view["discard"]])
        draw = sum(saving(worth[c])[0] for c in left) / len(left) if left else 0.0
        if saved > 0 and saved >= draw and f"DRAW DISCARD {pos}" in legal:
            return f"DRAW DISCARD {pos}"
    if "DRAW STOCK" in legal:
        return "DRAW STOCK"
    return legal[0]


for word in sys.argv[1:]:  # NAME=value overrides a tuned constant (for tuning runs)
    name, _, text = word.partition("=")
    globals()[name] = float(text)
for line in sys.stdin:
    print(move(json.loads(line)), flush=True)
