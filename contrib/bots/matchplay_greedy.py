#!/usr/bin/env python3
"""A greedy player of MatchPlay Golf for `pbem arena` (plain Python, no pbem import).

`pbem arena matchplay --seat robot:strong --seat "exec:python3 contrib/bots/matchplay_greedy.py"`
It reads one JSON line a move ({"view", "seat", "legal"}) and writes one order. It weighs every
legal order (the cards for the turn's three holes and any special) against an opponent who
plays each hole's par: a hole won counts 1, halved 1/2, and every stroke a card is played below
par costs SPEND (a low card spent now is missing later); the order worth most is played.
"""
import json
import sys

SPEND = 0.3  # tuned against robot:easy


def worth(order, pars, holes):
    parts = order.split(";")
    cards = [int(c) for c in parts[0].split()[1:]]
    mine = list(cards)
    theirs = list(pars)
    for part in parts[1:]:
        words = part.split()  # SPECIAL <card> HOLE <n>
        card, hole = words[1], holes.index(int(words[3]))
        step = 1 if card.endswith("+1") else -1
        if card.startswith("BLUE"):
            mine[hole] += step
        else:
            theirs[hole] += step
    won = sum(1.0 if m < t else 0.5 if m == t else 0.0 for m, t in zip(mine, theirs))
    return won - SPEND * sum(p - c for p, c in zip(pars, cards))


def move(q):
    view, legal = q["view"], q["legal"]
    pars, holes = view["turn_pars"], view["turn_holes"]
    return max(legal, key=lambda o: (worth(o, pars, holes), o))


for word in sys.argv[1:]:  # NAME=value overrides a tuned constant (for tuning runs)
    name, _, text = word.partition("=")
    globals()[name] = float(text)
for line in sys.stdin:
    print(move(json.loads(line)), flush=True)
