"""A league's standings show each player's rating ordinal for the league's game type (CONTRACT
section 13): in the JSON, the mail and the page, equal to `pbem ratings` for that address."""
from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from conftest import body, too_wide
from test_season_by_mail import ADDRESSES, START, iso, league_file, league_json, play_season


@pytest.mark.slow
def test_the_standings_show_each_players_ordinal_as_the_ratings_have_it(table):
    path = league_file(table, players=4)
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=1)))
    before = league_json(table, "standings")
    assert all(row["ordinal"] is None for row in before)  # nobody has finished a game yet
    play_season(table, set(), random.Random(6), START)
    rated = {r["address"]: r["ordinal"] for r in json.loads(table.pbem("ratings", "--json", "--type", "matchplay")[1])}
    rows = league_json(table, "standings")
    assert {row["address"]: row["ordinal"] for row in rows} == {a: rated[a] for a in ADDRESSES[:4]}
    assert len(set(rated.values())) > 1
    mail = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "standings"][-1]
    text = body(mail)
    assert "Rating" in text and not too_wide(text)
    for row in rows:
        assert f"{row['ordinal']:.1f}" in text
    page = table.root / "cup.html"
    table.pbem("league", "standings", "cup", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert 'data-key="ordinal"' in html and f"{rows[0]['ordinal']:.1f}" in html
