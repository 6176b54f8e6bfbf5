"""The shortcuts taken for speed say exactly what the long way says: the render's `wordwrap`
against Jinja2's own filter, `clean` of printable ASCII against its per-character path, and the
hole table drawn in Python against the layout the templates drew (a table of every shape)."""
from __future__ import annotations

import random
import unicodedata

import jinja2.filters
import pytest

from pbem.games.matchplay.hole_table import hole_lines
from pbem.mail.clean import clean
from pbem.render import environment
from pbem.render.jinja import wordwrap

PIECES = ["a", "bb", "ccc", "word", "longerword", "x-y", "  ", " ", "\t", "\n", "\r\n", "\x0b", "é", "",
          "BLUE+1", "12345678901234567890", "-", "\n\n", " \n", "\u2028"]


def texts(seed: int, n: int = 3000):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))


def test_wordwrap_says_what_jinja2_says():
    env = environment()
    rng = random.Random(7)
    for text in texts(1):
        width = rng.choice([5, 10, 20, 40, 76, 79])
        args = dict(break_long_words=rng.random() < 0.5, break_on_hyphens=rng.random() < 0.5,
                    wrapstring=rng.choice([None, "\n", "\n      ", "\r\n"]))
        assert wordwrap(env, text, width, **args) == jinja2.filters.do_wordwrap(env, text, width, **args), (text, width, args)


def slow_clean(value: str, limit: int) -> str:
    text = value[: limit * 4 + 16]
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs") else ch for ch in text)
    text = " ".join(text.split())
    return text[: max(limit - 3, 0)].rstrip() + "..." if len(text) > limit else text


def test_clean_of_printable_ascii_is_the_long_way_s_answer():
    rng = random.Random(3)
    for text in texts(2):
        limit = rng.choice([3, 10, 60, 200])
        assert clean(text, limit) == slow_clean(text, limit), text
    for text in ["plain words", "a\x00b", "x\x7fy", "tab\there", "\u202eevil", "é ok"]:
        assert clean(text, 60) == slow_clean(text, 60)


def jinja_table(rows, tags) -> str:
    """The table as the templates drew it before the hole table was drawn in Python (the old macro, kept here)."""
    source = """{% macro score_cell(row, s) -%}
{% set changes = [] %}
{% for card in row.specials[s] if card.startswith("BLUE") %}{% set _ = changes.append(card) %}{% endfor %}
{% for card in row.specials[1 - s] if card.startswith("RED") %}{% set _ = changes.append(card) %}{% endfor %}
{{ row.cards[s] }}{% if changes %} {{ changes | join(" ") }} = {{ row.scores[s] }}{% endif %}{% if row.forfeits[s] %} F{% endif %}
{%- endmacro %}
{% macro lead_text(lead, tags) -%}
{% if lead == 0 %}all square{% elif lead > 0 %}{{ tags[0] }} {{ lead }} up{% else %}{{ tags[1] }} {{ -lead }} up{% endif %}
{%- endmacro %}
{% set cells = [] %}
{% for row in rows %}{% set _ = cells.append([score_cell(row, 0), score_cell(row, 1)]) %}{% endfor %}
{% set w = [] %}
{% for s in (0, 1) %}{% set _ = w.append(([tags[s]|length] + cells | map(attribute=s) | map("length") | list) | max) %}{% endfor %}
{% set t = [tags[0]|length, tags[1]|length, 6]|max %}
Hole Par  {{ tags[0]|ljust(w[0]) }}  {{ tags[1]|ljust(w[1]) }}  {{ "Won by"|ljust(t) }}  Match
{% for row in rows %}
{{ row.hole|rjust(4) }} {{ row.par|rjust(3) }}  {{ cells[loop.index0][0]|ljust(w[0]) }}  {{ cells[loop.index0][1]|ljust(w[1]) }}  {{ (tags[row.winner] if row.winner is not none else "halved")|ljust(t) }}  {{ lead_text(row.lead, tags) }}
{% endfor %}
"""
    return environment().from_string(source).render(rows=rows, tags=tags).rstrip("\n")


@pytest.mark.slow
def test_the_hole_table_in_python_draws_what_the_template_drew():
    rng = random.Random(5)
    specials = ["BLUE+1", "BLUE-1", "RED+1", "RED-1"]
    for _ in range(300):
        rows, lead = [], 0
        for hole in range(1, rng.randint(1, 18) + 1):
            winner = rng.choice([0, 1, None])
            lead += {0: 1, 1: -1, None: 0}[winner]
            rows.append({"hole": hole, "par": rng.choice([3, 4, 5]), "cards": [rng.choice([3, 4, 5]) for _ in "ab"],
                         "specials": [rng.sample(specials, rng.choice([0, 0, 0, 1, 2])) for _ in "ab"],
                         "scores": [rng.randint(2, 6) for _ in "ab"], "forfeits": [rng.random() < 0.1 for _ in "ab"],
                         "winner": winner, "lead": lead})
        tags = rng.choice([["George", "Bill"], ["A", "B"], ["Christop", "Maximili"], ["Ann", "Bartholo"]])
        assert hole_lines(rows, tags) == jinja_table(rows, tags)
