"""The HTML part says everything the text part says: it is made from the text."""
from __future__ import annotations

import random
import re
import textwrap

import pytest
from conftest import BILL, GEORGE, body

from pbem.render.html_part import has_table, html_part
from pbem.mail.inbound import html_to_text

PLAYERS = [GEORGE, BILL, "cy@example.test"]


def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def html_words(page: str) -> list[str]:
    # html2text marks monospace blocks and emphasis in its own way; only the words count here.
    return [w for w in words(html_to_text(page)) if w not in ("```", "[code]", "[/code]")]


def test_a_table_gets_an_html_part_with_every_word_in_order():
    prose = textwrap.fill("This paragraph was wrapped at the mail's width, as every paragraph of prose "
                          "in these mails is, so that it flows again in HTML as one paragraph.", 76)
    text = ("Hello Ann,\n\n" + prose + "\n\n"
            "Ann (you): total 4\n  [1] 7H                [2] ??                [3] KS\n\n"
            "It is your move. Reply with your order:\n\n    DRAW DISCARD <pos>   take the discard\n"
            "    DRAW STOCK           I mail you the card\n\nDue by 2026-12-03 18:00 UTC.\n\nGolf GM\n")
    page = html_part(text)
    assert page is not None and html_words(page) == words(text)
    assert "<pre" in page and "&lt;pos&gt;" in page and "<pos>" not in page
    assert "\n" in prose and " ".join(prose.split("\n")) in page.replace("&#x27;", "'")


def test_prose_alone_gets_no_html_part():
    assert html_part("Hello Ann,\n\nI have played your order:\n\n    PLAY 5 4 6\n\nGolf GM\n") is None
    assert not has_table("one line\nand another with a single space")


@pytest.mark.slow
def test_card_game_mails_carry_the_whole_text_in_their_html(table):
    """Item 2 of the issue: a turn mail's HTML once left out the greeting, the news, the notes,
    the orders to send and the deadline. Every mail with an HTML part of a whole game by mail,
    drawn-card mails included, carries every word of its text part, in order."""
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--option", "holes=1",
               "--deadline", "2d", *[a for i, p in enumerate(PLAYERS) for a in ("--player", f"P{i} <{p}>")],
               now="2026-12-01T10:00:00Z")
    from pbem.games import golfdeck
    from pbem.gm import games
    from pbem.store import Store
    rng = random.Random(5)
    for _ in range(300):
        store = Store(table.root / "pbem.sqlite3")
        state = games.load(store, "c1").state
        store.close()
        if state.result() is not None:
            break
        seat = min(state.to_move())
        table.order(PLAYERS[seat], str(golfdeck.random_orders(state, seat, rng)), game="c1",
                    now="2026-12-01T11:00:00Z")
    checked = set()
    for addr in PLAYERS:
        for m in table.mails(addr):
            html = m.get_body(preferencelist=("html",))
            if html is None or not m.is_multipart():
                assert not has_table(body(m)), m["Subject"]
                continue
            assert html_words(html.get_content()) == words(body(m)), m["Subject"]
            checked.add(m["X-PBEM-Kind"])
    assert {"turn", "report", "result"} <= checked


def test_prose_flows_and_lists_and_short_lines_keep_their_breaks():
    text = ("Ann (you): total 4     Stock: 30\n\nHOW THE GAME GOES\n"
            "- A standard pack, dealt face down in a square of four cards, the two cards\n"
            "  nearest you being 3 and 4.\n- Lowest total wins.\nYour specials left: none\n\n"
            "Good golfing!\nGolf GM\n")
    page = html_part(text)
    assert ("<p>HOW THE GAME GOES<br>\n- A standard pack, dealt face down in a square of four cards,"
            " the two cards nearest you being 3 and 4.<br>\n- Lowest total wins.<br>\n"
            "Your specials left: none</p>") in page
    assert "<p>Good golfing!<br>\nGolf GM</p>" in page
