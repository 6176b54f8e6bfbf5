"""The HTML parts that were the widest, in a phone's window (CONTRACT section 5): a league's
standings (a match league's ten columns and a table league's, names as long as the table
takes them), ratings (names of forty letters), and lines that no space breaks (a password, a
seed commitment, an address). Headless Chromium lays each out 390 px wide: nothing scrolls
sideways and every word of the text is on the page. The golden scenarios' mail, every kind of
every game, is checked the same way in test_transcripts."""
from __future__ import annotations

from dataclasses import replace

from phone import PHONE, shown

from pbem.league.plan import read_plan
from pbem.league.standings import Row, columns
from pbem.ratings import ratings_text
from pbem.render import render
from pbem.render.html_part import html_part

NAMES = ("Bartholomew Fitzgerald-Worthington", "Tom & Jerry <b>Bold</b>", "Maximilianus-Aurelius-Augustus",
         "Zoë Ångström", "Al")
SEED = "ee0b9c4825966ad0cff8b093529ba34e5374bc13e1f65ec2a12449102153296c"


def address(n: int) -> str:
    return f"player{n}@example.test"


def standings_mail(game: str, *, spectator: bool = False, finished: bool = False) -> str:
    """A league's standings mail as the season writes it (the `standings` template with the rows
    of `pbem league show --json`), its figures as wide as a season makes them."""
    plan = read_plan({"id": "winter-cup", "name": "Winter & Spring <League> of the Northern Clubs",
                      "game": game, "start": "2026-12-07T18:00:00Z",
                      **({"format": "tables", "table_size": 4, "rounds": 3} if game != "matchplay" else {}),
                      "players": [{"name": name, "address": address(n)} for n, name in enumerate(NAMES)]})
    row = Row(rank=1, name="", address="", played=12, won=10, halved=1, lost=1, points=10.5, holes_diff=-23,
              total=-114, on_time=0.92)
    rows = [replace(row, rank=n + 1, name=name, address=address(n), note="withdrew; a robot plays on" if n == 2 else "")
            .to_dict() | {"ordinal": None if n == 4 else -12.34 + 10 * n} for n, name in enumerate(NAMES)]
    context = {"gm_name": "Golf GM", "gm_address": "gm@example.test", "league_id": plan.id, "plan": plan,
               "name": None if spectator else NAMES[0], "address": address(0), "title": "", "round": 3,
               "finished": finished, "rows": rows, "columns": columns(plan), "next_open": False,
               "spectator": {"targets": [{"id": plan.id, "kind": "league"}]} if spectator else None}
    return render("standings", "league", **context)[1]


def ratings_mail() -> str:
    """The answer to RATINGS: the asker's own rows, then the table of each game they play."""
    rows = [{"name": name * (3 if n == 4 else 1), "address": address(n), "type": kind, "mu": 25.0 + n,
             "sigma": 8.3333 - n, "ordinal": -0.25 + n * 3.5, "games": 100 + n}
            for kind in ("matchplay", "dicegolf") for n, name in enumerate(NAMES + ("Wolfeschlegelsteinhausenbergerdorff",))]
    own = [r for r in rows if r["address"] == address(0)]
    return render("ratings", None, gm_name="Golf GM", own=own, on_time="92%", owed=25, window_days=365,
                  own_text=ratings_text(own, addresses=False).rstrip("\n"),
                  tables_text=ratings_text(rows, addresses=False, mark=address(0)).rstrip("\n"))[1]


def unbroken_lines() -> str:
    """Lines no space breaks, each in a mail that has a table (or it would have no HTML part)."""
    return ("Totals:\n  Ann    19\n  Bob    32\n\n"
            f"Your secret password is: {'k' * 40}  (keep it to yourself)\n\n"
            f"Seed commitment: {SEED}\n\n"
            f"Mail it to {'a-very-long-local-part.of.an.address' * 2}@an-equally-long-domain.example.test,\n"
            "or reply here.\n\n"
            f"    PRESS {SEED}{SEED}\n")


def texts() -> list[str]:
    return [standings_mail("matchplay"), standings_mail("matchplay", spectator=True, finished=True),
            standings_mail("dicegolf"), standings_mail("golfdeck", finished=True), ratings_mail(), unbroken_lines()]


def test_standings_and_ratings_are_real_tables_with_every_column():
    """The worst of them once (a reviewer's phone): the standings lost Points, Holes, On time
    and Rating off the right edge, the ratings every number."""
    match, _, dice, _, ratings, _ = map(html_part, texts())
    assert "<th" in match and all(f">{heading}</th>" in match for heading in
                                  ("Rank", "Player", "Pl", "W", "H", "L", "Points", "Holes", "On time", "Rating"))
    assert all(f">{heading}</th>" in dice for heading in ("Rank", "Player", "Pl", "Won", "Total", "On time", "Rating"))
    assert all(f">{heading}</th>" in ratings for heading in ("#", "Player", "Ordinal", "Mu", "Sigma", "Games"))
    assert "Tom &amp; Jerry &lt;b&gt;Bold&lt;/b&gt;" in dice and "<b>" not in match + dice
    assert all(f">{figure}</td>" in match for figure in ("10.5", "-23", "92%", "-12.3"))


def test_standings_ratings_and_long_lines_fit_a_phone_and_show_every_word(tmp_path, chromium):
    mails = texts()
    pages = [html_part(text) for text in mails]
    assert all(pages)
    for text, seen in zip(mails, shown(chromium, pages, tmp_path)):
        assert seen.width <= PHONE, (seen.width, text[:300])
        assert seen.text.split() == text.split(), text[:300]
