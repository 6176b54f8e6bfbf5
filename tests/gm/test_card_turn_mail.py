"""The turn-by-turn mail of the card games, read as the players get it: the news since each
reader's last move, one turn mail per mail of orders, only the orders legal now, a deadline and a
reminder for every move owed, what the GM played for a silent player, REPLACE and RESIGN."""
from __future__ import annotations

import re

from conftest import body, kinds

from pbem.gm import games
from pbem.store import Store

ANN, BOB, CY, DI = "ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"
START = "2026-12-01T12:00:00Z"


def new_golfdeck(table, n=3, *extra, seed=5, now=START):
    players = [("Ann", ANN), ("Bob", BOB), ("Cy", CY), ("Di", DI)][:n]
    args = ["new-game", "golfdeck", "--id", "c1", "--seed", str(seed), *extra]
    for name, addr in players:
        args += ["--player", f"{name} <{addr}>"]
    table.pbem(*args, now=now)
    for _, addr in players:
        table.new_mails(addr)
    return [addr for _, addr in players]


def edit_state(table, change):
    """Set up a position the test needs, straight in the store (as a GM's own tool would)."""
    store = Store(table.root / "pbem.sqlite3")
    try:
        with store.transaction():
            t = games.load(store, "c1")
            change(t.state)
            games.save(store, t)
    finally:
        store.close()


def state(table):
    store = Store(table.root / "pbem.sqlite3")
    try:
        return games.load(store, "c1")
    finally:
        store.close()


def news(mail) -> list[str]:
    """The items under "Since your last move:", each joined back into one line."""
    text = body(mail)
    if "Since your last move:" not in text:
        return []
    block = text.split("Since your last move:\n", 1)[1].split("\n\n", 1)[0]
    items = re.split(r"\n  - ", "\n" + block)[1:]
    return [" ".join(item.split()) for item in items]


def turn_mails(msgs):
    """The mails that ask for a move: a turn mail, or the answer to the mover's own message that
    holds their next move (one message, one answer)."""
    return [m for m in msgs if m["X-PBEM-Kind"] == "turn" or "with next move" in m["Subject"]]


def test_every_turn_mail_lists_every_move_by_the_others_since_the_readers_last_move(table):
    """Bob starts (Ann deals). He revealed first, so his first turn mail lists Ann's and Cy's
    reveals; Ann's lists Bob's and Cy's moves of the first round, DRAW DISCARDs included. Nobody
    is told their own moves."""
    new_golfdeck(table)
    table.order(BOB, "REVEAL 1 2", game="c1")
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(CY, "REVEAL 1 2", game="c1")
    bob_first = turn_mails(table.new_mails(BOB))
    assert len(bob_first) == 1
    items = news(bob_first[0])
    assert items[:2] == ["Ann has chosen the two cards to reveal", "Cy has chosen the two cards to reveal"]
    assert any(i.startswith("Ann turned up 1 (") for i in items)
    assert any(i.startswith("Cy turned up 1 (") for i in items)
    assert not any(i.startswith("Bob") for i in items)
    table.order(BOB, "DRAW DISCARD 3", game="c1")
    table.order(CY, "DRAW DISCARD 3", game="c1")
    ann_first = turn_mails(table.new_mails(ANN))
    assert len(ann_first) == 1
    items = news(ann_first[0])
    assert items[0] == "Cy has chosen the two cards to reveal"  # Ann's own reveal came before it
    assert [i for i in items if "from the discard" in i][0].startswith("Bob took ")
    assert [i for i in items if "from the discard" in i][1].startswith("Cy took ")
    assert not any(i.startswith("Ann") for i in items)
    table.order(ANN, "DRAW STOCK", game="c1")
    got = table.order(ANN, "KEEP 3", game="c1")
    assert kinds(got) == ["ack"]
    bob_next = turn_mails(table.new_mails(BOB))
    items = news(bob_next[0])  # since Bob's DRAW DISCARD: Cy's turn and Ann's
    assert len(items) == 2 and items[0].startswith("Cy took ") and items[1].startswith("Ann drew ")


def test_two_orders_in_one_mail_bring_one_ack_and_no_stale_turn_mail(table):
    new_golfdeck(table, 2)
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(BOB, "REVEAL 1 2", game="c1")
    mover = BOB  # Ann deals hole 1: Bob starts
    table.new_mails(ANN)
    got = table.order(mover, "DRAW STOCK\nKEEP 3", game="c1")
    assert kinds(got) == ["ack"]
    ack = body(got[0])
    assert "DRAW STOCK\n    KEEP 3" in ack and re.search(r"You kept \S.* in 3 \(out went ", ack)
    assert "Ann plays next." in ack
    others = table.new_mails(ANN)
    assert kinds(others) == ["turn"] and "Hole 1: your move" in others[0]["Subject"]


def test_a_turn_mail_lists_only_the_orders_legal_now(table):
    new_golfdeck(table, 2)
    table.order(ANN, "REVEAL 1 2", game="c1")
    reveal_mail = turn_mails(table.mails(BOB))[-1]
    assert "REVEAL <pos> <pos>" in body(reveal_mail) and "DRAW STOCK" not in body(reveal_mail)
    got = table.order(BOB, "REVEAL 1 2", game="c1")
    play_mail = turn_mails(got)[-1]
    assert "REVEAL" not in body(play_mail).split("Reply with one of:")[1]
    assert "DRAW DISCARD <pos>" in body(play_mail) and not re.search(r"^ +KEEP <pos>", body(play_mail), re.M)
    got = table.order(BOB, "DRAW STOCK", game="c1")
    drawn_mail = turn_mails(got)[-1]
    orders = body(drawn_mail).split("Reply with one of:")[1]
    assert "KEEP <pos>" in orders and "DISCARD FLIP <pos>" in orders and "(3 4 5 6)" in orders
    assert "DRAW" not in orders and "REVEAL" not in orders


def test_each_move_owed_has_its_own_deadline_and_its_own_reminder(table):
    new_golfdeck(table, 2, "--deadline", "24h")
    table.pbem("process", now="2026-12-02T01:00:00Z")  # 11 hours before the reveals are due
    assert kinds(table.new_mails(ANN)) == kinds(table.new_mails(BOB)) == ["reminder"]
    table.order(ANN, "REVEAL 1 2", game="c1", now="2026-12-02T02:00:00Z")
    # Ann's reveal changes nothing for Bob: the same deadline, and no second reminder.
    assert state(table).row.deadline.isoformat().startswith("2026-12-02T12:00")
    table.pbem("process", now="2026-12-02T03:00:00Z")
    assert kinds(table.new_mails(BOB)) == []
    got = table.order(BOB, "REVEAL 1 2", game="c1", now="2026-12-02T03:00:00Z")
    got = table.order(BOB, "DRAW STOCK", game="c1", now="2026-12-02T08:00:00Z")
    # The decision on the drawn card is a new move: its own deadline, and no reminder yet.
    assert kinds(got) == ["ack"] and "(with next move)" in got[0]["Subject"]
    assert "Due by 2026-12-03 08:00 UTC" in body(got[-1])
    assert state(table).row.deadline.isoformat().startswith("2026-12-03T08:00")
    table.pbem("process", now="2026-12-02T09:00:00Z")
    assert kinds(table.new_mails(BOB)) == []
    table.pbem("process", now="2026-12-02T20:30:00Z")
    reminder = table.new_mails(BOB)
    assert kinds(reminder) == ["reminder"] and "you drew" in body(reminder[0])
    assert "KEEP <pos>" in body(reminder[0]) and "DRAW STOCK" not in body(reminder[0])


def test_the_silent_player_and_everyone_else_hear_what_the_gm_played(table):
    new_golfdeck(table, 3, "--deadline", "24h")
    for addr in (ANN, BOB, CY):
        table.order(addr, "REVEAL 1 2", game="c1")
    table.order(BOB, "DRAW STOCK", game="c1")
    drawn = state(table).state.drawn
    for addr in (ANN, CY):
        table.new_mails(addr)
    table.pbem("process", now="2026-12-02T12:00:01Z")  # Bob decides nothing about his card
    bob = table.new_mails(BOB)
    assert kinds(bob) == ["status"]
    note = " ".join(body(bob[0]).split())
    assert "You sent no orders by the deadline, so I played for you" in note and f"{drawn}" in note
    cy, ann = table.new_mails(CY), table.new_mails(ANN)
    assert kinds(cy) == ["turn"] and kinds(ann) == ["status"]
    for mail in (cy[0], ann[0]):
        text = " ".join(body(mail).split())
        assert "Bob sent no orders by the deadline, so I played for them" in text
    for line in body(bob[0]).splitlines() + body(cy[0]).splitlines():
        assert len(line) <= 78, line


def test_one_missed_move_plays_only_that_move_and_the_next_reveal_gets_its_own_deadline(table):
    new_golfdeck(table, 2, "--deadline", "24h", "--option", "holes=2")
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.order(BOB, "REVEAL 1 2", game="c1", now="2026-12-01T13:00:00Z")
    edit_state(table, lambda s: setattr(s, "ender", 0))  # Ann went out: Bob owes his final turn
    table.pbem("process", now="2026-12-02T13:00:01Z")
    t = state(table)
    assert t.state.hole == 2 and t.state.revealing and t.state.to_move() == {0, 1}
    assert t.state.reveals == [None, None]  # Bob's next-hole reveal is his to choose
    assert t.row.deadline.isoformat().startswith("2026-12-03T13:00")
    nmr = [e for e in table.show("c1")["history"] if e["kind"] == "nmr"]
    # Bob's one final turn, whichever the default is (the take of the discard, or a draw and its
    # decision), and nothing of the next hole
    played = "\n".join(e["orders"] for e in nmr)
    assert all(e["seat"] == 1 for e in nmr)
    assert re.fullmatch(r"DRAW DISCARD \d|DRAW STOCK\n(KEEP \d|DISCARD FLIP \d)", played), played


def test_a_replacing_player_gets_the_turn_mail_the_welcome_promises(table):
    new_golfdeck(table, 2)
    table.order(ANN, "REVEAL 1 2", game="c1")
    table.pbem("gm", "REPLACE", "c1", BOB, "Zed <zed@example.test>")
    mails = table.mails("zed@example.test")
    assert kinds(mails) == ["welcome", "turn"]
    assert "see the mail that follows" in body(mails[0]) and "Bob's seat" in " ".join(body(mails[0]).split())
    assert "choose two cards to reveal" in mails[1]["Subject"]


def test_resign_in_a_three_player_game_lets_the_others_play_on(table):
    new_golfdeck(table, 3)
    for addr in (ANN, BOB, CY):
        table.order(addr, "REVEAL 1 2", game="c1")
    got = table.order(BOB, "RESIGN", game="c1")  # Bob was to move
    assert kinds(got) == ["ack"] and "the others play on" in " ".join(body(got[0]).split())
    shown = table.show("c1")
    assert shown["status"] == "active" and shown["result"] is None and shown["to_move"] == [CY]
    cy = table.new_mails(CY)
    assert kinds(cy) == ["turn"] and any(n.startswith("Bob resigned: they take no more turns") for n in news(cy[0]))
    ann = table.new_mails(ANN)  # not to move, and told all the same, once
    assert kinds(ann) == ["status"] and "Note: Bob resigned: they take no more turns" in body(ann[0])
    assert ", resigned" in body(cy[0])
    got = table.order(BOB, "DRAW STOCK", game="c1")
    assert kinds(got) == ["error"] and "resigned" in body(got[0])
    table.order(CY, "RESIGN", game="c1")
    shown = table.show("c1")
    assert shown["status"] == "finished" and shown["result"].startswith("Result: Ann wins with ")


def test_the_golf_report_shows_the_paid_look(table):
    table.pbem("new-game", "golf", "--id", "c1", "--seed", "2", "--option", "peek=paid", "--option", "holes=1",
               "--option", "ending=faceup", "--player", f"Ann <{ANN}>", "--player", f"Bob <{BOB}>", now=START)
    mover = ANN if state(table).state.current == 0 else BOB
    table.order(mover, "PEEK 1", game="c1")
    def last_card(s):  # the next draw ends the hole (the stock was rebuilt once already)
        s.stock, s.rebuilt = s.stock[-1:], True
    edit_state(table, last_card)
    table.order(mover, "DRAW STOCK\nDISCARD", game="c1")
    report = [m for m in table.mails(ANN) if m["X-PBEM-Kind"] == "report"]
    assert len(report) == 1
    text = body(report[0])
    paid = state(table).state.holes[0]["peeks"]
    assert paid == ([1, 0] if mover == ANN else [0, 1])
    assert "plus 1 for a paid look" in text


def test_a_last_turn_is_called_one_in_golfdeck(table):
    new_golfdeck(table, 3)
    for addr in (ANN, BOB, CY):
        table.order(addr, "REVEAL 1 2", game="c1")
    edit_state(table, lambda s: setattr(s, "ender", 0))  # Ann's grid went all face up
    table.order(BOB, "DRAW DISCARD 3", game="c1")
    cy = turn_mails(table.new_mails(CY))
    assert "Ann's cards are all face up: this is your last turn of the hole." in body(cy[-1])


def test_a_knock_is_called_the_last_turn_and_no_second_knock_is_offered(table):
    table.pbem("new-game", "golf", "--id", "g2", "--seed", "2", "--player", f"Ann <{ANN}>", "--player",
               f"Bob <{BOB}>", "--player", f"Cy <{CY}>", now=START)
    store = Store(table.root / "pbem.sqlite3")
    try:
        first = games.load(store, "g2").state.current
    finally:
        store.close()
    addrs = [ANN, BOB, CY]
    got = table.order(addrs[first], "KNOCK", game="g2")
    assert kinds(got) == ["ack"], body(got[0])
    nxt = turn_mails(table.new_mails(addrs[(first + 1) % 3]))[-1]
    knocker = ["Ann", "Bob", "Cy"][first]
    assert f"{knocker} has knocked: this is your last turn of the hole." in body(nxt)
    assert "KNOCK" not in body(nxt).split("Reply with one of:")[1]
