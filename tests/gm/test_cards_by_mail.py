"""Whole card games played by mail through the Maildir transport."""
from __future__ import annotations

import random

import pytest
from conftest import body, kinds

from pbem.gm import games
from pbem.store import Store

PLAYERS = ["ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"] + [
    f"p{i}@example.test" for i in range(4, 8)]


def engine(table, game="c1"):
    return table.load(game).state


def play_by_mail(table, type_name, n, *options, seed=3, holes=2):
    module = __import__(f"pbem.games.{type_name}", fromlist=["random_orders"])
    args = ["new-game", type_name, "--id", "c1", "--seed", str(seed), "--option", f"holes={holes}"]
    for i in range(n):
        args += ["--player", f"P{i} <{PLAYERS[i]}>"]
    for opt in options:
        args += ["--option", opt]
    table.pbem(*args)
    rng = random.Random(seed)
    for _ in range(2000):
        state = engine(table)
        if state.result() is not None:
            break
        seat = min(state.to_move())
        command = module.random_orders(state, seat, rng)
        got = table.order(PLAYERS[seat], str(command), game="c1")
        assert "error" not in kinds(got), body(got[-1])
    return engine(table)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_whole_golfdeck_game_by_mail(table, n):
    state = play_by_mail(table, "golfdeck", n)
    shown = table.show("c1")
    assert shown["status"] == "finished" and shown["result"] == "Result: " + state.result().line
    scorer = __import__("pbem.games.golfdeck", fromlist=["score_grid"]).score_grid
    for i, addr in enumerate(PLAYERS[:n]):
        per_hole = [scorer(h["grids"][addr])[0] for h in shown["holes"]]
        assert [h["scores"][addr] for h in shown["holes"]] == per_hole
        assert shown["players"][i]["score"] == sum(per_hole)
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and shown["result"] in body(results[0])
        reports = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "report"]
        assert len(reports) == 2 and reports[0].is_multipart()  # text and an HTML table
    turns = [m for m in table.mails(PLAYERS[0]) if m["X-PBEM-Kind"] == "turn"]
    assert turns and "[1]" in body(turns[0])


def test_a_drawn_stock_card_is_mailed_only_to_its_drawer(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--player", f"Ann <{PLAYERS[0]}>",
               "--player", f"Bob <{PLAYERS[1]}>")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1")
    table.order(PLAYERS[1], "REVEAL 1 2", game="c1")
    state = engine(table)
    mover = min(state.to_move())
    other = 1 - mover
    table.new_mails(PLAYERS[other])
    got = table.order(PLAYERS[mover], "DRAW STOCK", game="c1")
    drawn = engine(table).view(mover)["drawn"]
    # One answer: the ack, and below it the drawn card to decide on, under the turn mail's heading.
    assert drawn and kinds(got) == ["ack"] and f"== You drew {drawn}" in body(got[0])
    assert not table.new_mails(PLAYERS[other])  # nothing to the other player yet
    errs = table.order(PLAYERS[other], "KEEP 3", game="c1")
    assert kinds(errs) == ["error"]


GOLF_VARIANTS = [
    ("layout=4", "ending=knock"),
    ("layout=6", "ending=faceup", "pairs=rowcol"),
    ("layout=4", "pairs=any", "queens=12", "jokers=true", "knock_penalty=plus10"),
    ("layout=4", "jacks=20skip", "one_eyed_jacks_wild=true", "knock_bonus=minus_players"),
    ("layout=6", "ending=faceup", "spade_queen=true", "kings=13", "peek=paid"),
    ("layout=4", "peek=any2", "replace_unseen_once=true", "knock_penalty=highest"),
]


@pytest.mark.slow
@pytest.mark.parametrize("n,variant", [(2, GOLF_VARIANTS[0]), (4, GOLF_VARIANTS[1]), (8, GOLF_VARIANTS[2]),
                                       (2, GOLF_VARIANTS[3]), (3, GOLF_VARIANTS[4]), (2, GOLF_VARIANTS[5])])
def test_a_whole_golf_game_by_mail(table, n, variant):
    players = PLAYERS
    state = play_by_mail(table, "golf", n, *variant, holes=1)
    shown = table.show("c1")
    assert shown["status"] == "finished" and shown["result"] == "Result: " + state.result().line
    from pbem.games.golf.scoring import score_hole
    addrs = players[:n]
    cols = 2 if state.options["layout"] == 4 else 3
    for k, hole in enumerate(shown["holes"]):  # recomputed from the final grids of show --json
        again = score_hole([hole["grids"][a] for a in addrs], cols, state.options, state.holes[k]["knocker"],
                           state.holes[k]["peeks"])
        assert again["scores"] == [hole["scores"][a] for a in addrs]
    for i, addr in enumerate(addrs):
        assert shown["players"][i]["score"] == sum(h["scores"][addr] for h in shown["holes"])
        results = [m for m in table.mails(addr) if m["X-PBEM-Kind"] == "result"]
        assert len(results) == 1 and shown["result"] in body(results[0])


def hidden_from(state, seat: int) -> set[str]:
    """Names of the cards `seat` may not know now: face-down cards it has not seen, the others' draw."""
    everything, mine = state.view(None), state.view(seat)
    seen = set((mine.get("seen") or {}).values())
    hidden = set()
    for _s, (cards, shown) in enumerate(zip(everything["grids"], mine["grids"])):
        hidden |= {c for c, look in zip(cards, shown) if look == "??"}
    if everything.get("drawn") and everything.get("current") != seat:
        hidden.add(everything["drawn"])
    return hidden - seen


def public_cards(state) -> set[str]:
    everything = state.view(None)
    up = {c for cards, marks in zip(everything["grids"], everything["face_up"]) for c, u in zip(cards, marks) if u}
    return up | ({everything["discard"]} if everything["discard"] else set())


@pytest.mark.slow
@pytest.mark.parametrize("type_name,n,options,holes", [
    ("golfdeck", 3, (), 2), ("golf", 4, ("layout=4", "ending=knock"), 2),
    ("golf", 2, ("layout=6", "ending=faceup", "peek=any2"), 1)])
def test_no_mail_shows_a_card_its_reader_may_not_see(table, type_name, n, options, holes):
    """Every mail of random games is read: none names a card hidden from its reader at that moment
    (another player's face-down card or private draw, or an own card never seen), unless that card's
    name is public anyway (face up somewhere, or on the discard pile now or before)."""
    module = __import__(f"pbem.games.{type_name}", fromlist=["random_orders"])
    args = ["new-game", type_name, "--id", "c1", "--seed", "11", "--option", f"holes={holes}"]
    args += [a for i in range(n) for a in ("--player", f"P{i} <{PLAYERS[i]}>")]
    args += [a for opt in options for a in ("--option", opt)]
    table.pbem(*args)
    rng = random.Random(11)
    read = {a: 0 for a in PLAYERS[:n]}
    public: set[str] = set()
    checked = 0
    for _ in range(1500):
        state = engine(table)
        public |= public_cards(state)
        if state.result() is not None:
            break
        seat = min(state.to_move())
        table.order(PLAYERS[seat], str(module.random_orders(state, seat, rng)), game="c1")
        after = engine(table)
        # A hole that ended is shown whole to everyone (the report), and every card a public move
        # named (a card that went out to the discard before a new deal cleared it) is public too.
        moves = " ".join(ev["text"] for ev in table.show("c1")["history"] if ev["kind"] == "move")
        public_now = public | public_cards(after) | {c for h in after.holes for g in h["grids"] for c in g}
        public_now |= {c for c in hidden_from(after, 0) | hidden_from(after, 1) if c in moves}
        for s, addr in enumerate(PLAYERS[:n]):
            fresh = table.mails(addr, read[addr])
            read[addr] += len(fresh)
            # Names repeat (four of each golf-deck card): the card a reader holds drawn is theirs to
            # be told, whichever other copy lies face down.
            secret = hidden_from(after, s) - public_now - {after.view(s)["drawn"]}
            for m in fresh:
                if m["X-PBEM-Kind"] in ("report", "result", "welcome", "help"):
                    continue  # a finished hole is shown whole to everyone; the rules name every card
                html = m.get_body(preferencelist=("html",)) if m.is_multipart() else None
                text = body(m) + (html.get_content() if html is not None else "")
                for card in secret:
                    assert card not in text, f"{m['X-PBEM-Kind']} to {addr} names hidden {card}"
                checked += 1
    assert checked > 8


def test_illegal_plays_by_mail_name_the_rule_and_change_nothing(table):
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "4", "--option", "ending=faceup",
               "--player", f"Ann <{PLAYERS[0]}>", "--player", f"Bob <{PLAYERS[1]}>")
    state = engine(table)
    mover, other = state.current, 1 - state.current
    cases = [(other, "DRAW STOCK", "play in turn"),                       # drawing out of turn
             (mover, "DRAW DISCARD 7", "positions are 1-4"),              # a position that does not exist
             (mover, "KNOCK", "no knocking in the face-up ending"),       # knocking without the knock ending
             (mover, "REVEAL 1 2", "golf orders")]                         # another game's order
    for seat, text, rule in cases:
        before = table.show("c1")
        got = table.order(PLAYERS[seat], text, game="c1")
        assert kinds(got) == ["error"], (text, kinds(got))
        assert f"Line 1: {text}" in body(got[0]) and f"Rule: {rule}" in body(got[0]), body(got[0])
        after = table.show("c1")
        assert after["state"] == before["state"] and after["history"] == before["history"]
    got = table.order(PLAYERS[mover], "DRAW STOCK\nKEEP 9", game="c1")  # keeping into no position
    assert kinds(got) == ["error"] and "Line 2: KEEP 9" in body(got[0]) and "Rule: positions are 1-4" in body(got[0])
    table.order(PLAYERS[mover], "DRAW DISCARD 1", game="c1")
    got = table.order(PLAYERS[mover], "DRAW STOCK", game="c1")  # a second action after the turn ended
    assert kinds(got) == ["error"] and "Rule: one action a turn" in body(got[0])


def test_flipping_a_face_up_card_in_golfdeck_is_refused(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--player", f"Ann <{PLAYERS[0]}>",
               "--player", f"Bob <{PLAYERS[1]}>")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1")
    table.order(PLAYERS[1], "REVEAL 1 2", game="c1")
    mover = engine(table).current
    got = table.order(PLAYERS[mover], "DRAW STOCK\nDISCARD FLIP 1", game="c1")
    assert kinds(got) == ["error"] and "Line 2: DISCARD FLIP 1" in body(got[0]) and "Rule: " in body(got[0])
    assert "face" in body(got[0]).split("Line 2:")[1]  # the rule about face-up cards is the one named
    assert engine(table).view(None)["drawn"] is None  # the DRAW STOCK of that mail did not apply either


def test_a_missed_deadline_reveals_and_plays_for_the_silent_player_and_the_game_rebuilds(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "8", "--deadline", "24h", "--player",
               f"Ann <{PLAYERS[0]}>", "--player", f"Bob <{PLAYERS[1]}>", now="2026-12-01T12:00:00Z")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1", now="2026-12-01T13:00:00Z")
    table.pbem("process", now="2026-12-02T12:00:00Z")  # Bob never revealed
    state = engine(table)
    assert state.view(None)["phase"] == "play" and all(state.view(None)["revealed"])
    mover = state.current
    table.pbem("process", now="2026-12-03T12:00:01Z")  # and the first mover misses the turn too
    assert engine(table).current != mover
    history = [e["kind"] for e in table.show("c1")["history"]]
    assert history.count("nmr") >= 2
    turn_mails = [m for m in table.mails(PLAYERS[1 - mover]) if m["X-PBEM-Kind"] == "turn"]
    assert "sent no orders by the deadline" in body(turn_mails[-1])
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert games.replay(store, "c1").to_dict() == games.load(store, "c1").state.to_dict()
    finally:
        store.close()


def test_every_wrong_line_of_a_card_mail_is_named_not_only_the_first(table):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "5", "--player", f"Ann <{PLAYERS[0]}>",
               "--player", f"Bob <{PLAYERS[1]}>")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1")
    table.order(PLAYERS[1], "REVEAL 1 2", game="c1")
    before = table.show("c1")
    mover = min(engine(table).to_move())
    got = table.order(PLAYERS[mover], "DRAW DISCARD 7\nKEEP 2", game="c1")
    assert kinds(got) == ["error"]
    text = " ".join(body(got[0]).split())
    assert "Line 1" in text and "Line 2" in text, text
    assert table.show("c1")["history"] == before["history"]  # nothing of it was played


@pytest.mark.parametrize("type_name", ["golfdeck", "golf"])
def test_a_hole_report_begins_with_the_moves_its_reader_has_not_read(table, type_name):
    """The hole ends on someone else's move: the report tells each reader every move made since
    their own last one, the one that ended the hole included, before the scores."""
    module = __import__(f"pbem.games.{type_name}", fromlist=["random_orders"])
    table.pbem("new-game", type_name, "--id", "c1", "--seed", "11", "--option", "holes=1",
               "--player", f"Ann <{PLAYERS[0]}>", "--player", f"Bob <{PLAYERS[1]}>")
    rng = random.Random(11)
    last = None
    for _ in range(400):
        state = engine(table)
        if state.result() is not None:
            break
        seat = min(state.to_move())
        last = seat
        table.order(PLAYERS[seat], str(module.random_orders(state, seat, rng)), game="c1")
    assert last is not None and engine(table).result() is not None
    other = PLAYERS[1 - last]
    report = next(m for m in table.mails(other) if m["X-PBEM-Kind"] == "report")
    text = body(report)
    ender = ["Ann", "Bob"][last]
    news = text.split("Since your last move:", 1)[1].split("\n\n", 1)[0]
    assert f"- {ender} " in news, text
    assert text.index("Since your last move:") < text.index("Every card face up")


@pytest.mark.parametrize("seed", [5, 6])
def test_after_a_missed_reveal_the_player_who_revealed_is_told_their_own_cards(table, seed):
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", str(seed), "--deadline", "1d",
               "--player", f"Ann <{PLAYERS[0]}>", "--player", f"Bob <{PLAYERS[1]}>")
    table.order(PLAYERS[0], "REVEAL 1 2", game="c1")
    table.new_mails(PLAYERS[0])
    table.pbem("process", now="2026-12-03T18:00:00Z")  # Bob's reveal is missed: the GM plays it
    mine = engine(table).view(0)
    assert mine["phase"] != "reveal"
    told = table.new_mails(PLAYERS[0])
    assert told, "Ann heard nothing of the reveals"
    text = body(told[-1])
    cards = [mine["grids"][0][i] for i in (0, 1)]
    assert "??" not in cards and all(card in text for card in cards), (cards, text)
    assert "sent no orders" in " ".join(text.split())
