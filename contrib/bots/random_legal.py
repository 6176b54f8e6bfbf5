#!/usr/bin/env python3
"""A random arena seat: plays one of the legal orders it is offered, uniformly, from its own
seeded stream (`python3 contrib/bots/random_legal.py [seed]`, seed 0 unless given), so a run
is repeatable.

`pbem arena golf --seat robot:strong --seat "exec:python3 contrib/bots/random_legal.py"`
"""
import json
import random
import sys

chance = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
for line in sys.stdin:
    legal = json.loads(line)["legal"]
    if not legal:
        sys.exit("random_legal: this game does not list its orders")
    print(chance.choice(legal), flush=True)
