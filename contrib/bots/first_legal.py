#!/usr/bin/env python3
"""The smallest arena seat: plays the first legal order it is offered.

`pbem arena TYPE --seat "exec:python3 contrib/bots/first_legal.py" --seat robot:easy`
Each line on stdin is one JSON object: the seat's view, its seat and the legal orders (a list
where the game can list them, else null). It writes one order a line.
"""
import json
import sys

for line in sys.stdin:
    question = json.loads(line)
    legal = question["legal"]
    if not legal:
        # Every game pbem plays lists its orders; a game that cannot would need reading the view.
        sys.exit("first_legal: this game does not list its orders")
    print(legal[0], flush=True)
