"""The HTML part says everything the text part says: it is made from the text."""
from __future__ import annotations

import random
import re
import textwrap
from html.parser import HTMLParser

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


class Tables(HTMLParser):
    """The tables of a page: rows of (th or td, the cell's text, a <br> as a new line)."""

    def __init__(self, page: str):
        super().__init__()
        self.tables: list[list[list[tuple[str, str]]]] = []
        self.cell: list[str] | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = [tag]
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append((self.cell[0], "".join(self.cell[1:])))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def tables(page: str) -> list[list[list[tuple[str, str]]]]:
    return Tables(page).tables


def texts(table: list[list[tuple[str, str]]]) -> list[list[str]]:
    return [[text for _, text in row] for row in table]


def test_a_table_gets_an_html_part_with_every_word_in_order():
    prose = textwrap.fill("This paragraph was wrapped at the mail's width, as every paragraph of prose "
                          "in these mails is, so that it flows again in HTML as one paragraph.", 76)
    text = ("Hello Ann,\n\n" + prose + "\n\n"
            "Ann (you): total 4\n  [1] 7H                [2] ??                [3] KS\n\n"
            "It is your move. Reply with your order:\n\n    DRAW DISCARD <pos>   take the discard\n"
            "    DRAW STOCK           I mail you the card\n\nDue by 2026-12-03 18:00 UTC.\n\nGolf GM\n")
    page = html_part(text)
    assert page is not None and html_words(page) == words(text)
    assert "&lt;pos&gt;" in page and "<pos>" not in page
    assert "\n" in prose and " ".join(prose.split("\n")) in page.replace("&#x27;", "'")
    # The grid and the orders are tables, cell by cell; nothing is left preformatted.
    assert tables(page) == [[[("td", "[1] 7H"), ("td", "[2] ??"), ("td", "[3] KS")]],
                            [[("td", "DRAW DISCARD <pos>"), ("td", "take the discard")],
                             [("td", "DRAW STOCK"), ("td", "I mail you the card")]]]
    assert "<pre" not in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


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


def test_columns_stand_where_every_row_has_a_gap_and_a_heading_row_names_them():
    """A dice golf sheet: empty cells stay in their column, the first row heads the columns (its
    words stand over numbers), numbers keep to the right as the text sets them."""
    text = ("Ann (you)\n"
            "  Hole              1    2    3    Total\n"
            "  Flag              7    4   10\n"
            "  Hole-in-one       2    2    ?\n"
            "  One over               1\n"
            "  Score             0   +4           +4\n")
    page = html_part(text)
    [sheet] = tables(page)
    assert sheet[0] == [("th", "Hole"), ("th", "1"), ("th", "2"), ("th", "3"), ("th", "Total")]
    assert texts(sheet)[1:] == [["Flag", "7", "4", "10", ""], ["Hole-in-one", "2", "2", "?", ""],
                                ["One over", "", "1", "", ""], ["Score", "0", "+4", "", "+4"]]
    assert re.search(r'<td align="right"[^>]*>\+4</td>', page) and re.search(r'<td [^>]*>Hole-in-one</td>', page)
    assert not re.search(r'<td align="right"[^>]*>Hole-in-one</td>', page)
    assert page.index("Ann (you)<br>") < page.index("<table")  # the heading line stays above
    assert html_words(page) == words(text)


def test_a_heading_of_words_a_space_apart_parts_only_over_two_columns():
    """MatchPlay's "Hole Par": one space between, and a number under each word; "this hole" over
    a column of its own stays one heading."""
    match = html_part("Hole Par  George        Bill  Won by  Match\n"
                      "   1   4  4 RED+1 = 5   5     halved  all square\n"
                      "   2   4  4 BLUE-1 = 3  3     halved  all square\n")
    assert texts(tables(match)[0]) == [["Hole", "Par", "George", "Bill", "Won by", "Match"],
                                       ["1", "4", "4 RED+1 = 5", "5", "halved", "all square"],
                                       ["2", "4", "4 BLUE-1 = 3", "3", "halved", "all square"]]
    strokes = html_part("Strokes and totals:\n                                 this hole   total\n"
                        "  Ann                                    0       0\n"
                        "  Bob                                    2       0\n")
    assert tables(strokes)[0][0] == [("th", ""), ("th", "this hole"), ("th", "total")]


def test_a_line_indented_past_its_row_goes_on_in_that_row_and_a_long_first_cell_runs_over():
    text = ("    REVEAL <pos> <pos>            before the first turn of a hole: the two\n"
            "                                  cards you turn up\n"
            "    DRAW STOCK                    I mail you the card\n"
            "    DRAW STOCK IF <= <n> KEEP <pos> ELSE FLIP <pos>     both in one mail\n"
            "\n"
            "  Card   Spaces  What        Balls\n"
            "  Tee    0       the tee     1 Ann on 0, 0 strokes\n"
            "                             2 Bob on 0, 0 strokes\n"
            "  1      1-3     plain\n")
    page = html_part(text)
    orders, course = tables(page)
    # A wrapped description flows on; a second ball is a line of its own in its cell.
    assert texts(orders) == [["REVEAL <pos> <pos>", "before the first turn of a hole: the two cards you turn up"],
                             ["DRAW STOCK", "I mail you the card"],
                             ["DRAW STOCK IF <= <n> KEEP <pos> ELSE FLIP <pos>", "both in one mail"]]
    assert texts(course) == [["Card", "Spaces", "What", "Balls"],
                             ["Tee", "0", "the tee", "1 Ann on 0, 0 strokes\n2 Bob on 0, 0 strokes"],
                             ["1", "1-3", "plain", ""]]
    # Orders are in monospace; a short one keeps to one line.
    assert '<td nowrap style="padding: 2px 12px 2px 0; font-family: Menlo, Consolas, monospace">DRAW STOCK</td>' in page
    assert html_words(page) == words(text)


def test_a_picture_and_lines_under_prose_are_no_table():
    """A course's picture stays monospace and wraps; a note's lines and a list under a heading
    flow as prose; a lone line with a gap in prose keeps its gap and stays prose."""
    text = ("  0|#T#|###|.....|.....|====O|\n  *\n\n"
            "Note: Cy sent no orders by the deadline, so I played for them (autoplay):\n"
            "      Cy's two cards to reveal were picked at random.\n\n"
            "Since your last move:\n  - Ann passed\n  - Bob passed\n\n"
            "Draw pile: 4 cards\nYour secret password is: abc  (keep it to yourself)\n")
    page = html_part(text)
    assert tables(page) == []
    assert ('<pre style="font-family: Menlo, Consolas, monospace; font-size: 13px; margin: 0 0 1em 0; '
            'white-space: pre-wrap; overflow-wrap: anywhere">  0|#T#|###|.....|.....|====O|\n  *</pre>') in page
    assert ("<p>Note: Cy sent no orders by the deadline, so I played for them (autoplay): "
            "Cy&#x27;s two cards to reveal were picked at random.</p>") in page
    assert "<p>Since your last move:<br>\n- Ann passed<br>\n- Bob passed</p>" in page
    assert "Your secret password is: abc&nbsp; (keep it to yourself)</p>" in page
    assert html_words(page) == words(text)


def test_long_words_break_anywhere_and_short_ones_only_between():
    """The page lets a word with no room break anywhere (a seed commitment, a password); a
    table's cells keep words whole when the table fits so, but a long word (an address, a name
    of forty letters) may break."""
    seed = "ee0b9c4825966ad0cff8b093529ba34e5374bc13e1f65ec2a12449102153296c"
    text = (f"Seed commitment: {seed}\n\n  #  Player                                   Ordinal\n"
            "  1  Bartholomew-Fitzgerald-Worthington-Smyth    12.34\n  2  Ann                                        3.10\n")
    page = html_part(text)
    assert "overflow-wrap: anywhere; word-break: break-word" in page.split("<p>")[0]
    assert "overflow-wrap: normal; word-break: normal" in page  # the table's own
    assert ("overflow-wrap: anywhere; word-break: break-word\">Bartholomew-Fitzgerald-Worthington-Smyth</td>"
            in page)
    assert html_words(page) == words(text)
