"""ROLLBACK (CONTRACT section 13): a game back at the start of a turn, by mail and from the
command line. For every game type a game rolled back and played on with other orders equals a
fresh game of the same seed fed only the orders that stand, deal for deal and roll for roll; a
finished match reopens and ends anew; `pbem verify` checks a record
with rollbacks, and one whose rollback was tampered with fails."""
from __future__ import annotations

import email.utils
import importlib
import json
import random
from datetime import datetime

import pytest
from conftest import MailClock, BILL, GEORGE, body, kinds, too_wide
from test_admin import BOSS, admin_mail, with_admin

ENGINE_MODULE = {"onpar": "pbem.games.onpar.play"}
SHORT = {"golfdeck": ["--option", "holes=2"], "golf": ["--option", "holes=2"], "onpar": ["--option", "holes=2"]}
START = datetime(2026, 12, 1, 10, 0)
PLAYERS = (GEORGE, BILL)
GM_PASSWORD = "PASSWORD gm-secret-0123456789"



def new_game(table, game_type: str, game: str, clock: MailClock) -> None:
    table.pbem("new-game", game_type, "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", game, "--seed", "11", *SHORT.get(game_type, []), now=clock.tick())


def send(table, address: str, game: str, text: str, clock: MailClock) -> None:
    table.new_mails(address)
    table.send(address, text, subject=f"Re: [{game}] orders", to=table.reply_to_game(address, game))
    table.pbem("process", now=clock.tick())
    got = table.new_mails(address)
    assert "error" not in kinds(got), body(next(m for m in got if m["X-PBEM-Kind"] == "error"))


def play(table, game_type: str, game: str, rng, clock: MailClock, moves: int) -> list[tuple[int, int, str]]:
    """Up to `moves` legal orders drawn at random, by mail, from whoever owes one: what was sent,
    as (turn, seat, order)."""
    module = importlib.import_module(ENGINE_MODULE.get(game_type, f"pbem.games.{game_type}"))
    sent = []
    for _ in range(moves):
        shown = table.show(game)
        if shown["status"] != "active":
            break
        seat = PLAYERS.index(shown["to_move"][0])
        command = module.random_orders(table.load(game).state, seat, rng)
        while type(command).__name__ == "Policy":  # a standing policy would play out the game alone
            command = module.random_orders(table.load(game).state, seat, rng)
        text = str(command)
        sent.append((shown["turn"], seat, text))
        send(table, PLAYERS[seat], game, text, clock)
    return sent


def rollback_cli(table, game: str, *args: str, clock: MailClock) -> str:
    return table.pbem("gm", "ROLLBACK", game, *args, now=clock.tick())[1]


def same_game(table, rolled: str, fresh: str) -> None:
    a, b = table.load(rolled), table.load(fresh)
    assert a.state.to_dict() == b.state.to_dict()
    assert a.state.chance_record() == b.state.chance_record()
    shown_a, shown_b = table.show(rolled), table.show(fresh)
    for key in ("status", "turn", "result", "to_move", "state"):
        assert shown_a[key] == shown_b[key], key


@pytest.mark.slow
@pytest.mark.parametrize("game_type", ["matchplay", "golfdeck", "golf", "onpar", "dicegolf"])
def test_a_rolled_back_game_plays_on_as_a_fresh_game_fed_the_orders_that_stand(table, game_type):
    clock = MailClock(START)
    new_game(table, game_type, "g", clock)
    first = play(table, game_type, "g", random.Random(1), clock, 8)
    back_to = table.show("g")["turn"]
    first += play(table, game_type, "g", random.Random(2), clock, 10)
    assert table.show("g")["turn"] > back_to
    for address in PLAYERS:
        table.new_mails(address)
    done = rollback_cli(table, "g", "TO", str(back_to), clock=clock)
    assert f"g rolled back to the start of turn {back_to}" in done
    shown = table.show("g")
    assert shown["turn"] == back_to and shown["status"] == "active"
    # Every player is told, with the game as it stands and what they owe.
    for address in PLAYERS:
        notice = [m for m in table.new_mails(address) if m["X-PBEM-Kind"] == "notice"]
        assert len(notice) == 1, address
        text = " ".join(body(notice[0]).split())
        assert f"rolled game g back to the start of turn {back_to}" in text
        assert "The game as it stands now" in text and not too_wide(body(notice[0]))
    undone = [ev for ev in shown["history"] if ev.get("rolled_back")]
    assert undone and all(ev["kind"] in ("orders", "nmr", "resign", "resolved", "move", "finished") for ev in undone)
    assert any(ev["kind"] == "rollback" and ev["to_turn"] == back_to for ev in shown["history"])
    # Other orders from here on, to the end where the game is short enough.
    after = play(table, game_type, "g", random.Random(3), clock, 40)
    kept = [(seat, text) for turn, seat, text in first if turn < back_to] + [(s, t) for _, s, t in after]
    new_game(table, game_type, "f", clock)
    for seat, text in kept:
        send(table, PLAYERS[seat], "f", text, clock)
    same_game(table, "g", "f")


@pytest.mark.slow
def test_a_finished_match_rolled_back_by_mail_reopens_and_ends_with_a_new_result(table):
    with_admin(table)
    clock = MailClock(START)
    new_game(table, "matchplay", "g", clock)
    play(table, "matchplay", "g", random.Random(5), clock, 40)
    ended = table.show("g")
    assert ended["status"] == "finished"
    last_turn = max(ev["turn"] for ev in ended["history"] if ev["kind"] == "resolved")
    for address in PLAYERS:
        table.new_mails(address)
    answer = admin_mail(table, f"{GM_PASSWORD}\nROLLBACK g", now=clock.tick())
    assert answer["X-PBEM-Kind"] == "ack", body(answer)
    assert "result" in body(answer) and "withdrawn" in body(answer)
    shown = table.show("g")
    assert shown["status"] == "active" and shown["result"] is None and shown["turn"] == last_turn
    assert shown["seed"] is None  # no longer over: the seed is not shown again
    assert shown["deadline"] is None or shown["deadline"] > clock.at.strftime("%Y-%m-%dT%H:%M:%SZ")
    notice = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"][0]
    assert ended["result"].removeprefix("Result: ") in " ".join(body(notice).split())
    assert "is withdrawn" in body(notice)
    # Back to the first turn, and played again with other orders until the result differs.
    answer = admin_mail(table, f"{GM_PASSWORD}\nROLLBACK g TO 1", now=clock.tick())
    assert answer["X-PBEM-Kind"] == "ack" and table.show("g")["turn"] == 1, body(answer)
    for attempt in range(6, 16):
        play(table, "matchplay", "g", random.Random(attempt), clock, 40)
        again = table.show("g")
        assert again["status"] == "finished" and again["result"].startswith("Result: ")
        if again["result"] != ended["result"]:
            break
        admin_mail(table, f"{GM_PASSWORD}\nROLLBACK g TO 1", now=clock.tick())
    else:
        pytest.fail("the same result in ten matches played again")
    result_mails = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "result"]
    assert len(result_mails) >= 2 and again["result"] in body(result_mails[-1])
    # The record holds the rollbacks, and verify checks it.
    record = json.loads(table.pbem("export", "g")[1])
    assert any(step["kind"] == "rollback" for step in record["steps"])
    assert any(step.get("rolled_back") for step in record["steps"])
    path = table.root / "g.json"
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code == 0 and again["result"] in out, out
    # A record whose rollback is told otherwise does not verify.
    step = next(s for s in record["steps"] if s["kind"] == "rollback")
    step["turn"] -= 1
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code != 0
    step["turn"] += 1
    next(s for s in record["steps"] if s.get("rolled_back")).pop("rolled_back")
    path.write_text(json.dumps(record))
    code, out, _ = table.pbem("verify", str(path), check=False)
    assert code != 0 and "rolled back" in out


def test_a_rollback_shows_no_secret_order_and_the_history_marks_what_was_undone(table):
    clock = MailClock(START)
    new_game(table, "matchplay", "g", clock)
    play(table, "matchplay", "g", random.Random(8), clock, 4)  # turns 1 and 2
    assert table.show("g")["turn"] == 3
    from pbem.games.matchplay import random_orders
    secret = str(random_orders(table.load("g").state, 1, random.Random(0)))
    send(table, BILL, "g", secret, clock)  # Bill's orders for turn 3, secret
    for address in PLAYERS:
        table.new_mails(address)
    rollback_cli(table, "g", clock=clock)  # the last turn played: 2
    shown = table.show("g")
    assert shown["turn"] == 2 and set(shown["to_move"]) == set(PLAYERS)
    george = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    # (The mail's own example of an order, at its end, may happen to read as Bill's did.)
    assert len(george) == 1 and secret.splitlines()[0] not in body(george[0]).split("for example:")[0]
    assert "Bill has not yet sent orders for this turn" in " ".join(body(george[0]).split())
    assert "turns 2 to 3" in " ".join(body(george[0]).split())
    send(table, GEORGE, "g", "HISTORY", clock)
    history = [m for m in table.mails(GEORGE) if m["X-PBEM-Kind"] == "history"][-1]
    text = body(history)
    assert "(rolled back)" in text and "the GM went back to the start of turn 2" in text
    assert secret.splitlines()[0] not in text and not too_wide(text)


def test_rollback_refusals_name_the_line_and_change_nothing(table):
    with_admin(table)
    clock = MailClock(START)
    new_game(table, "matchplay", "g", clock)
    code, _, err = table.pbem("gm", "ROLLBACK", "g", now=clock.tick(), check=False)
    assert code != 0 and "nothing has been played in game g yet" in err
    play(table, "matchplay", "g", random.Random(4), clock, 2)
    before = table.show("g")
    for words, said in ((["TO", "5"], "nothing to undo from turn 5 on"), (["TO", "x"], "TO and a turn number"),
                        (["TO", "0"], "has no turn 0: its turns count from 1, and ROLLBACK g TO 1 undoes every one")):
        code, _, err = table.pbem("gm", "ROLLBACK", "g", *words, now=clock.tick(), check=False)
        assert code != 0 and said in err, err
    answer = admin_mail(table, f"{GM_PASSWORD}\nROLLBACK g TO 9", now=clock.tick())
    assert answer["X-PBEM-Kind"] == "error" and "ROLLBACK g TO 1" in body(answer)
    after = table.show("g")
    assert after["history"] == before["history"] and after["turn"] == before["turn"]
    stranger = admin_mail(table, f"{GM_PASSWORD}\nROLLBACK g TO 1", now=clock.tick(), sender="mallory@example.test")
    assert stranger["X-PBEM-Kind"] == "error" and table.show("g")["turn"] == before["turn"]
    assert BOSS not in (stranger["To"] or "")
    # What the refusal of TO 0 offers is itself taken: every turn undone.
    table.pbem("gm", "ROLLBACK", "g", "TO", "1", now=clock.tick())
    assert table.show("g")["turn"] == 1


def test_a_spectator_hears_of_the_rollback_and_nothing_secret(table):
    fan = "fan@example.test"
    clock = MailClock(START)
    new_game(table, "matchplay", "g", clock)
    table.send(fan, "OBSERVE g", subject="watching")
    table.pbem("process", now=clock.tick())
    question = table.new_mails(fan)[-1]
    table.send(fan, "", subject=f"Re: {question['Subject']}",
               to=email.utils.parseaddr(question["Reply-To"])[1], headers={"In-Reply-To": question["Message-ID"]})
    table.pbem("process", now=clock.tick())
    play(table, "matchplay", "g", random.Random(8), clock, 4)
    from pbem.games.matchplay import random_orders
    secret = str(random_orders(table.load("g").state, 1, random.Random(0)))
    send(table, BILL, "g", secret, clock)
    table.new_mails(fan)
    rollback_cli(table, "g", "TO", "1", clock=clock)
    got = table.new_mails(fan)
    assert kinds(got) == ["notice"]
    text = " ".join(body(got[0]).split())
    assert "rolled it back to the start of turn 1" in text and "UNOBSERVE g" in text
    assert secret.splitlines()[0] not in body(got[0]) and not too_wide(body(got[0]))
