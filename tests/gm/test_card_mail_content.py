"""What the card-game mails tell the player: the rules of this game's options, running totals,
what a draw did, the history of the moves; and that every line fits 78 columns, long names and
long card names included."""
from __future__ import annotations

import random
import re

import pytest
from conftest import body, kinds, too_wide

from pbem.gm import games
from pbem.store import Store

ANN, BOB, CY, DI = "ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"
START = "2026-12-01T12:00:00Z"


def load(table):
    store = Store(table.root / "pbem.sqlite3")
    try:
        return games.load(store, "c1")
    finally:
        store.close()


def edit_state(table, change):
    store = Store(table.root / "pbem.sqlite3")
    try:
        with store.transaction():
            t = games.load(store, "c1")
            change(t.state)
            games.save(store, t)
    finally:
        store.close()


def flat(mail) -> str:
    return " ".join(body(mail).split())


def new_game(table, type_name, players, *options, seed=3, deadline=None):
    args = ["new-game", type_name, "--id", "c1", "--seed", str(seed)]
    for opt in options:
        args += ["--option", opt]
    if deadline:
        args += ["--deadline", deadline]
    for name, addr in players:
        args += ["--player", f"{name} <{addr}>"]
    table.pbem(*args, now=START)


def test_the_golf_welcome_and_help_give_the_rules_of_this_games_options(table):
    new_game(table, "golf", [("Ann", ANN), ("Bob", BOB)], "jacks=20skip", "queens=12", "kings=13",
             "pairs=rowcol", "knock_penalty=plus10", "jokers=true", "layout=6")
    welcome = table.mails(ANN)[0]
    assert welcome["X-PBEM-Kind"] == "welcome"
    help_ = table.order(ANN, "HELP", game="c1")[0]
    for mail in (welcome, help_):
        text = flat(mail)
        assert "Card values: A 1, 2 to 10 their number, J 20, and a jack you discard makes the next player " \
               "miss a turn, Q 12, K 13, JOKER -5" in text
        assert "Two cards of the same rank in the same row or column score 0 together" in text
        assert "a joker never pairs" in text
        assert "KNOCK" in text and "does not have the lowest score of the hole gets 10 more" in text
        assert "rank then suit: AS, 7H, 10D, JC, QS, KH" in text and "JOKER" in text
        assert "1 2 3 over 4 5 6" in text
        assert not too_wide(body(mail))
    assert "The options of this game: layout=6, ending=knock" in flat(welcome)


def test_the_faceup_golf_rules_say_how_the_hole_ends_and_what_free_looks_there_are(table):
    new_game(table, "golf", [("Ann", ANN), ("Bob", BOB)], "ending=faceup", "peek=any2", "spade_queen=true")
    text = flat(table.mails(ANN)[0])
    assert "When all of yours are face up, everyone else has one last turn" in text
    assert "KNOCK" not in text
    assert "PEEK at two face-down cards of your choice, free" in text
    assert "(but every 8 is 0)" in text and "(the QS 40)" in text
    assert "Nothing pairs off: every card counts" in text


def test_golfdeck_shows_the_running_totals_apart_from_the_grids(table):
    new_game(table, "golfdeck", [("Ann", ANN), ("Bob", BOB)], "holes=2")
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(BOB, "REVEAL 1 2", game="c1")
    edit_state(table, lambda s: setattr(s, "ender", 0))  # Ann went out: Bob's turn is the hole's last
    table.order(BOB, "DRAW STOCK IF <= 20 KEEP 3 ELSE FLIP 4", game="c1")
    totals = load(table).state.totals
    turn = [m for m in table.mails(BOB) if m["X-PBEM-Kind"] == "turn"][-1]
    text = body(turn)
    assert "total" not in text.split("Running totals")[0]  # no total beside a grid's name
    block = text.split("Running totals after 1 hole (lowest wins):\n", 1)[1].split("\n\n")[0]
    assert [line.split() for line in block.splitlines()] == [["Ann", str(totals[0])], ["Bob", str(totals[1])]]


def test_the_ack_of_a_conditional_draw_and_of_a_golf_discard_says_what_was_drawn_and_why(table):
    new_game(table, "golfdeck", [("Ann", ANN), ("Bob", BOB)])
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(BOB, "REVEAL 1 2", game="c1")
    card = load(table).state.stock[-1]
    from pbem.games.golfdeck import POINTS
    got = table.order(BOB, "DRAW STOCK IF < 5 KEEP 3 ELSE FLIP 6", game="c1")
    text = flat(got[0])
    worth = POINTS[card]
    if worth <= 4:
        assert f"You drew {card} ({worth}): {worth} <= 4, so you kept it in 3 (out went " in text
    else:
        assert f"You drew {card} ({worth}): {worth} > 4, so it went to the discard and you turned up 6 (" in text
    table.pbem("new-game", "golf", "--id", "c2", "--seed", "4", "--player", f"Cy <{CY}>",
               "--player", f"Di <{DI}>", now=START)
    store = Store(table.root / "pbem.sqlite3")
    try:
        golf = games.load(store, "c2").state
        mover, drawn = (CY, DI)[golf.current], golf.stock[-1]
    finally:
        store.close()
    got = table.order(mover, "DRAW STOCK\nDISCARD", game="c2")
    assert kinds(got) == ["ack"] and f"You discarded {drawn}, the card you drew" in flat(got[0])


def hidden_cards(state, seat):
    everything = state.view(None)
    mine = state.view(seat)
    seen = set((mine.get("seen") or {}).values())
    hidden = {c for cards, shown in zip(everything["grids"], mine["grids"]) for c, s in zip(cards, shown) if s == "??"}
    return hidden - seen


def test_history_lists_the_public_moves_and_never_a_hidden_card(table):
    new_game(table, "golf", [("Ann", ANN), ("Bob", BOB)], "layout=4", "ending=knock", seed=6)
    module = __import__("pbem.games.golf", fromlist=["random_orders"])
    rng = random.Random(6)
    public: set[str] = set()
    for _ in range(10):
        t = load(table)
        public |= {t.state.discard[-1]}
        seat = t.state.current
        table.order((ANN, BOB)[seat], str(module.random_orders(t.state, seat, rng)), game="c1")
    t = load(table)
    history = table.order(ANN, "HISTORY", game="c1")[0]
    text = body(history)
    moves = [e["text"] for e in table.show("c1")["history"] if e["kind"] == "move"]
    assert len(moves) >= 8
    assert all(move.split(",")[0] in " ".join(text.split()) for move in moves)
    secret = hidden_cards(t.state, 0) - public - {t.state.discard[-1]}
    for card in secret:
        assert not re.search(rf"\b{card}\b", text), card
    assert "KEEP" not in text and "DRAW STOCK IF" not in text  # orders are never shown


LONG = ["Maximilian Alexander Featherstonehaugh", "Wilhelmina Cordelia Fotheringham-Smythe",
        "Bartholomew Ignatius Worthington III", "Persephone Anastasia Montgomery-Clarke"]


@pytest.mark.slow
def test_every_line_of_every_card_mail_fits_78_columns_with_four_long_names(table):
    addrs = [ANN, BOB, CY, DI]
    new_game(table, "golfdeck", list(zip(LONG, addrs)), "holes=2", seed=9, deadline="24h")
    module = __import__("pbem.games.golfdeck", fromlist=["random_orders"])
    rng = random.Random(9)
    day = 1
    for step in range(400):
        t = load(table)
        if t.state.result() is not None:
            break
        seat = min(t.state.to_move())
        if step in (3, 30):  # a silent player now and then: the NMR notes
            day += 2
            table.pbem("process", now=f"2026-12-{day:02d}T12:00:01Z")
            continue
        order = str(module.random_orders(t.state, seat, rng))
        if step == 20:  # each alone, then all of them with the move: one answer, every part of it fits
            for asked in ("HELP", "STATUS", "HISTORY"):
                table.order(addrs[seat], asked, game="c1", now=f"2026-12-{day:02d}T13:00:00Z")
            order = "HELP\nSTATUS\nHISTORY\n" + order
        table.order(addrs[seat], order, game="c1", now=f"2026-12-{day:02d}T13:00:00Z")
    assert load(table).state.result() is not None
    mine = {"welcome", "turn", "ack", "report", "result", "status", "history", "help", "reminder"}
    seen = set()
    for addr in addrs:
        for mail in table.mails(addr):
            if mail["X-PBEM-Kind"] in mine:
                seen.add(mail["X-PBEM-Kind"])
                for line in body(mail).splitlines():
                    assert len(line) <= 78 or line.startswith("Seed commitment: "), f"{mail['X-PBEM-Kind']}: {line}"
    assert seen >= {"welcome", "turn", "ack", "report", "result", "status", "history", "help"}


def suggestion(mail) -> str:
    """The orders under "What would be right:", one a line."""
    block = body(mail).split("What would be right: ", 1)[1].split("\n\n")[0]
    return "\n".join(line.strip() for line in block.splitlines() if line.strip())


def test_what_would_be_right_is_a_mail_the_gm_accepts_as_it_stands(table):
    new_game(table, "golfdeck", [("Ann", ANN), ("Bob", BOB)])
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(BOB, "REVEAL 1 2", game="c1")
    got = table.order(BOB, "DRAW STOCK\nDISCARD FLIP 1", game="c1")  # 1 is face up already
    assert kinds(got) == ["error"]
    fix = suggestion(got[0])
    assert fix.startswith("DRAW STOCK\nDISCARD FLIP ") or fix.startswith("DRAW STOCK\nKEEP ")
    assert kinds(table.order(BOB, fix, game="c1")) == ["ack"]
    got = table.order(ANN, "KEEP x", game="c1")  # unreadable, and Ann has drawn nothing
    fix = suggestion(got[0])
    assert kinds(table.order(ANN, fix, game="c1"))[0] == "ack"
    new = "c2"
    table.pbem("new-game", "golf", "--id", new, "--seed", "4", "--player", f"Cy <{CY}>",
               "--player", f"Di <{DI}>", now=START)
    store = Store(table.root / "pbem.sqlite3")
    try:
        mover = (CY, DI)[games.load(store, new).state.current]
    finally:
        store.close()
    got = table.order(mover, "DRAW DISCARD 7", game=new)
    assert suggestion(got[0]) == "DRAW DISCARD 1"
    assert kinds(table.order(mover, "DRAW DISCARD 1", game=new)) == ["ack"]
