"""Spectators: OBSERVE / UNOBSERVE from any address, and the public copies of reports and results."""
from __future__ import annotations

import email.utils
import importlib
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import BILL, GEORGE, body, kinds

from pbem.games import game_type
from pbem.games.cards import GOLF_DECK_TYPES, HIDDEN
from pbem.games.course import Course
from pbem.gm import spectators
from pbem.store import Store

FAN, CRITIC = "fan@example.test", "critic@example.test"
START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def load(table, game_id):
    return table.load(game_id)


def ask(table, who, text, subject="watching", now=None, headers=None):
    """A spectator's request, one pass, and the answers to it."""
    table.new_mails(who)
    table.send(who, text, subject=subject, headers=headers)
    table.pbem("process", now=now)
    return table.new_mails(who)


def observe(table, who, text, subject="watching", now=None, headers=None):
    """A spectator's request, confirmed as pbem asks: the one mail it gets is answered from the
    same address, to the reply address that carries the token. The answer to that, returned."""
    question = ask(table, who, text, subject=subject, now=now, headers=headers)
    assert kinds(question) == ["ack"] and "Confirm: watch" in question[0]["Subject"], [
        m["Subject"] for m in question]
    table.send(who, "", subject=f"Re: {question[0]['Subject']}", to=reply_address(question[0]),
               headers={"In-Reply-To": question[0]["Message-ID"]})
    table.pbem("process", now=now)
    return table.new_mails(who)


def reply_address(m) -> str:
    return email.utils.parseaddr(m["Reply-To"])[1]


def token_of(m) -> str:
    """The token in a mail's Reply-To (gm+<token>@...)."""
    local = reply_address(m).split("@")[0]
    assert local.startswith("gm+"), m["Reply-To"]
    return local[len("gm+"):]


def configure(table, **sections):
    text = (table.root / "pbem.yaml").read_text()
    for section, values in sections.items():
        text += f"{section}:\n" + "".join(f"  {k}: {v}\n" for k, v in values.items())
    (table.root / "pbem.yaml").write_text(text)


def assert_spectator_copy(m, game_id: str, watched: str) -> str:
    """What every copy a spectator gets must be: a report or result of the game, with its
    header, no secret to reply with, the way to stop, and lines that fit 78 columns."""
    text = body(m)
    assert m["X-PBEM-Kind"] in ("report", "result"), (m["X-PBEM-Kind"], m["Subject"])
    assert m["X-PBEM-Game"] == game_id and m["Subject"].startswith(f"[{game_id}] ")
    assert "+" not in email.utils.parseaddr(m["From"])[1] and token_of(m)  # the spectator's token
    assert text.startswith("Hello,\n") and "as a spectator of" in " ".join(text.split())
    if m["X-PBEM-Kind"] == "report" or watched != game_id:
        assert f"    UNOBSERVE {watched}\n" in text
    assert_list_headers(m, watched, "game" if watched == game_id else "league")
    assert all(len(line) <= 78 for line in text.splitlines()), text
    for private in ("Your remaining stroke cards", "Reply to this mail", "Your secret", "(you)",
                    "Your own choices", "Your tosses", "your move", "You drew"):
        assert private not in text, (private, text)
    return text


def assert_league_standings_copy(m, league_id: str, last: bool, names=None) -> str:
    """A league spectator's standings: the table by names only, no secret to reply with, the
    way to stop (but after the last round), and lines that fit 78 columns."""
    text = body(m)
    assert m["X-PBEM-League"] == league_id and m["Subject"].startswith(f"[{league_id}] Standings after round")
    assert token_of(m) and m["X-PBEM-Game"] is None
    assert text.startswith("Hello,\n") and f"as a spectator of league {league_id}" in " ".join(text.split())
    assert all(name in text for name in (names or NAMES)) and not any(a in text for a in ADDRESSES)
    assert (f"    UNOBSERVE {league_id}\n" in text) != last
    assert ("That was the last mail of this league to its spectators." in text) == last
    assert all(len(line) <= 78 for line in text.splitlines()), text
    assert_list_headers(m, league_id, "league")
    return text


def assert_list_headers(m, watched: str, kind: str) -> None:
    """RFC 2919 and 2369: the list is the game or league watched, and its mailto, sent as it is,
    is an UNOBSERVE of it to the spectator's token (no List-Unsubscribe-Post: no https here)."""
    assert m["List-Id"] == f"Spectators of {kind} {watched} <{watched}.{kind}.example.test>", m["List-Id"]
    assert m["List-Unsubscribe"] == f"<mailto:gm+{token_of(m)}@example.test?subject=UNOBSERVE%20{watched}>"
    assert m["List-Unsubscribe-Post"] is None


def play_match(table, game_id, rng, after_each=None, limit=40):
    """Both players answer every turn with random legal orders; `after_each(orders_sent)` runs
    after each player's mail is handled."""
    module = importlib.import_module("pbem.games.matchplay")
    for _ in range(limit):
        t = load(table, game_id)
        if t.state.result() is not None:
            return
        for s in sorted(t.state.to_move()):
            orders, address = str(module.random_orders(t.state, s, rng)), t.seats[s].address
            table.send(address, orders, subject=f"Re: [{game_id}] orders", to=table.reply_to_game(address, game_id))
            table.pbem("process")
            if after_each:
                after_each(t.state.turn, t.seats[s].address, orders)
    raise AssertionError("the match did not end")


# -- asking ------------------------------------------------------------------------------------
def test_a_stranger_watches_a_match_turn_by_turn_and_never_sees_an_open_turns_orders(table):
    table.new_match()
    answer = observe(table, FAN, "OBSERVE m1")
    assert kinds(answer) == ["ack"] and answer[0]["Subject"] == "[m1] Watching game m1"
    assert answer[0]["In-Reply-To"] and token_of(answer[0])
    text = body(answer[0])
    assert "You now watch game m1 (MatchPlay Golf: George v Bill) as a spectator." in text
    assert "    UNOBSERVE m1\n" in text and all(len(line) <= 78 for line in text.splitlines())
    assert "standings" not in text  # a game alone has none
    assert kinds(observe(table, CRITIC, "observe m1")) == ["ack"]

    copies: list = []

    def watch(turn, address, orders):
        fresh = table.new_mails(FAN)
        t = load(table, "m1")
        if t.state.turn == turn and t.state.result() is None:
            # One player's orders are in and the turn is open: a spectator hears nothing of it.
            assert fresh == [], [m["Subject"] for m in fresh]
            return
        assert kinds(fresh) == (["report"] if t.state.result() is None else ["report", "result"])
        for m in fresh:
            text = assert_spectator_copy(m, "m1", "m1")
            if m["X-PBEM-Kind"] == "report" and t.state.result() is None:
                assert f"Turn {turn} is played." in text
                # The turn that opens has no orders yet, and the report shows none of its holes.
                nxt = t.state.view(None)["turn_holes"]
                rows = {int(row.split()[0]) for row in text.splitlines() if re.match(r"^\s+\d+\s+\d\s", row)}
                assert rows and not rows & set(nxt), (rows, nxt)
                assert f"Next: turn {t.state.turn}" in text
        copies.extend(fresh)

    play_match(table, "m1", random.Random(5), watch)
    result = copies[-1]
    assert result["X-PBEM-Kind"] == "result"
    shown = table.show("m1")
    assert shown["result"] in body(result) and "Thank you for watching." in body(result)
    assert "The game is over, and with it its mail to spectators. Should the GM reopen it (a rollback), you would hear of that first." in " ".join(body(result).split())
    assert kinds(table.mails(CRITIC))[2:] == kinds(copies)  # after the question and the answer
    # The players' own mail is as it was: no spectator lines in it.
    assert not any("spectator" in body(m) for m in table.mails(GEORGE) + table.mails(BILL))


def test_unobserve_stops_the_mail_and_says_so(table):
    table.new_match()
    observe(table, FAN, "OBSERVE m1")
    observe(table, CRITIC, "OBSERVE m1")
    rng = random.Random(2)
    module = importlib.import_module("pbem.games.matchplay")
    t = load(table, "m1")
    for s in (0, 1):
        table.order(t.seats[s].address, str(module.random_orders(t.state, s, rng)))
    report = table.new_mails(FAN)
    assert kinds(report) == ["report"]
    # A reply to the report, as a mail client writes it: the subject keeps [m1], and it answers
    # the GM's own mail (not taken for an auto-responder's echo: it holds a command).
    stop = ask(table, FAN, "UNOBSERVE", subject="Re: [m1] Turn 1 report",
               headers={"In-Reply-To": report[0]["Message-ID"]})
    assert kinds(stop) == ["ack"] and stop[0]["Subject"] == "[m1] No longer watching game m1"
    assert "You no longer watch game m1" in body(stop[0])
    again = ask(table, FAN, "UNOBSERVE m1")
    assert "You were not watching game m1" in " ".join(body(again[0]).split())
    play_match(table, "m1", rng)
    assert table.new_mails(FAN) == []
    assert "result" in kinds(table.mails(CRITIC))


def test_observe_of_an_unknown_id_is_refused_and_changes_nothing(table):
    table.new_match()
    refused = ask(table, FAN, "OBSERVE nosuch\nOBSERVE m1")
    assert kinds(refused) == ["error"]
    text = " ".join(body(refused[0]).split())
    assert "Line 1: there is no game or league nosuch here." in text
    assert refused[0]["Subject"] == "Not accepted: Nothing in this spectator request was applied."
    case = ask(table, FAN, "OBSERVE M1")
    assert "What would be right: OBSERVE m1." in " ".join(body(case[0]).split())
    # No line of the mail is quoted back: the From may be forged.
    spam = ask(table, CRITIC, "OBSERVE m1\nBuy cheap watches at spam.example")
    assert kinds(spam) == ["error"] and "spam.example" not in body(spam[0])
    assert "Line 2: not a command" in " ".join(body(spam[0]).split())
    bare = ask(table, CRITIC, "OBSERVE")
    assert "OBSERVE needs the id of a game or a league" in " ".join(body(bare[0]).split())
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert spectators.observers(store, ["m1", "nosuch", "M1"]) == []
    finally:
        store.close()


def test_a_finished_game_has_nothing_left_to_watch(table):
    table.new_match()
    play_match(table, "m1", random.Random(8))
    refused = ask(table, FAN, "OBSERVE m1")
    assert kinds(refused) == ["error"]
    assert "there is nothing more to watch" in " ".join(body(refused[0]).split())


def test_a_player_may_watch_another_game_but_not_in_a_mail_of_orders(table):
    table.new_match()
    table.new_match("m2")  # the same two players, another match
    got = table.order(GEORGE, "OBSERVE m2\nPLAY 4 4 5")
    assert kinds(got) == ["error"]
    text = " ".join(body(got[0]).split())
    assert "OBSERVE goes in a mail of its own" in text and "OBSERVE m2" in text
    assert load(table, "m1").state.to_move() == {0, 1}  # the PLAY was not applied either
    assert kinds(observe(table, GEORGE, "OBSERVE m2")) == ["ack"]


def test_a_flood_of_requests_gets_no_more_answers_than_the_limit_and_signs_up_no_more(table):
    configure(table, limits={"strangers_per_hour": 3})
    table.new_match()
    crowd = [f"s{i}@crowd.test" for i in range(6)]
    for who in crowd:
        table.send(who, "OBSERVE m1", subject=f"watch {who}")
    table.pbem("process")
    answered = [who for who in crowd if table.mails(who)]
    assert len(answered) == 3
    for who in answered:  # each confirms the one mail it got
        question = table.new_mails(who)[0]
        table.send(who, "yes", subject="Re: confirm", to=reply_address(question))
    table.pbem("process")
    t = load(table, "m1")
    module = importlib.import_module("pbem.games.matchplay")
    rng = random.Random(1)
    for s in (0, 1):
        table.order(t.seats[s].address, str(module.random_orders(t.state, s, rng)))
    # Only those whose request was answered were signed up: the rest get no report either.
    assert [who for who in crowd if "report" in kinds(table.mails(who))] == answered


# -- the question and its answer ---------------------------------------------------------------
def play_one_turn(table, game_id="m1", seed=2):
    module = importlib.import_module("pbem.games.matchplay")
    t, rng = load(table, game_id), random.Random(seed)
    for s in (0, 1):
        table.order(t.seats[s].address, str(module.random_orders(t.state, s, rng)), game=game_id)


def test_an_observe_is_only_a_question_until_the_same_address_answers_it(table):
    table.new_match()
    question = ask(table, FAN, "OBSERVE m1")
    assert kinds(question) == ["ack"] and question[0]["Subject"] == "[m1] Confirm: watch game m1"
    text = " ".join(body(question[0]).split())
    assert "To confirm, reply to this mail; the reply needs no text." in text
    assert "If you did not ask, ignore this mail: no other will follow." in text
    assert "UNOBSERVE" not in text  # nothing to stop yet
    play_one_turn(table)
    assert table.new_mails(FAN) == []  # no report before the answer
    # The token from another address makes nothing, and the question still stands.
    table.send(CRITIC, "yes", subject="Re: confirm", to=reply_address(question[0]))
    table.pbem("process")
    refused = table.new_mails(CRITIC)
    assert kinds(refused) == ["error"]
    assert "must come from the address that was asked" in " ".join(body(refused[0]).split())
    # An answer from the address, whatever it says (here a quote of the question), makes it.
    quoted = "\n".join("> " + line for line in body(question[0]).splitlines())
    table.send(FAN, f"Sure!\n\n{quoted}\n", subject="Re: confirm", to=reply_address(question[0]))
    table.pbem("process")
    answer = table.new_mails(FAN)
    assert kinds(answer) == ["ack"] and answer[0]["Subject"] == "[m1] Watching game m1"
    assert token_of(answer[0]) != token_of(question[0])  # the spectator's own token from now on
    play_one_turn(table, seed=3)
    report = table.new_mails(FAN)
    assert kinds(report) == ["report"] and token_of(report[0]) == token_of(answer[0])
    assert kinds(table.mails(CRITIC)) == ["error"]  # the critic never watched
    # The one-time token is spent: a second answer to the question changes nothing and is not answered.
    table.send(FAN, "", subject="Re: confirm", to=reply_address(question[0]),
               headers={"In-Reply-To": question[0]["Message-ID"]})
    table.pbem("process")
    assert table.new_mails(FAN) == []


def test_a_question_expires_after_seven_days(table):
    table.new_match()
    question = ask(table, FAN, "OBSERVE m1", now="2026-12-01T18:00:00Z")
    until = "2026-12-08 18:00 UTC"
    assert until in " ".join(body(question[0]).split())
    table.send(FAN, "", subject="Re: confirm", to=reply_address(question[0]))
    table.pbem("process", now="2026-12-08T18:00:01Z")
    late = table.new_mails(FAN)
    assert kinds(late) == ["error"]
    text = " ".join(body(late[0]).split())
    assert "the question has expired" in text and "send a mail with the line OBSERVE m1" in text
    store = Store(table.root / "pbem.sqlite3")
    try:
        assert spectators.observers(store, ["m1"]) == []
    finally:
        store.close()


def test_an_unobserve_in_the_answer_says_no(table):
    table.new_match()
    question = ask(table, FAN, "OBSERVE m1")
    table.send(FAN, "UNOBSERVE m1", subject="Re: confirm", to=reply_address(question[0]))
    table.pbem("process")
    said = table.new_mails(FAN)
    assert kinds(said) == ["ack"] and said[0]["Subject"] == "[m1] Not watching game m1"
    assert "you said no" in " ".join(body(said[0]).split()) and said[0]["Reply-To"] is None
    play_one_turn(table)
    assert table.new_mails(FAN) == []


def test_unobserve_takes_the_token_from_any_address_and_without_it_only_the_spectators_own(table):
    table.new_match()
    observe(table, FAN, "OBSERVE m1")
    play_one_turn(table)
    report = table.new_mails(FAN)[0]
    # A stranger's UNOBSERVE without the token speaks for the stranger alone: the fan still watches.
    assert "You were not watching game m1" in " ".join(body(ask(table, CRITIC, "UNOBSERVE m1")[0]).split())
    # With the token (a reply to the spectator's mail, from another address), it stops the fan's mail,
    # and the fan hears of it.
    table.send(CRITIC, "UNOBSERVE m1", subject=f"Re: {report['Subject']}", to=reply_address(report))
    table.pbem("process")
    assert table.new_mails(CRITIC) == []
    told = table.new_mails(FAN)
    assert kinds(told) == ["ack"] and "You no longer watch game m1" in body(told[0])
    play_one_turn(table, seed=4)
    assert table.new_mails(FAN) == []


def test_a_game_made_private_takes_no_spectators(table):
    table.new_match("m1", "445 345 434 543 434 454", "--option", "spectators=false")
    refused = ask(table, FAN, "OBSERVE m1")
    assert kinds(refused) == ["error"] and refused[0]["Reply-To"] is None
    text = " ".join(body(refused[0]).split())
    assert "Line 1: game m1 takes no spectators: its GM made it private." in text
    assert "What would be right" not in text  # no suggestion: nothing would be
    assert table.show("m1")["status"] == "active"
    code, _, err = table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player",
                              f"Bill <{BILL}>", "--course", "445 345 434 543 434 454", "--option",
                              "spectators=maybe", check=False)
    assert code == 2 and "option spectators: expected one of true, false, got \"maybe\"" in err


def test_a_private_league_takes_no_spectators_for_itself_or_its_games(table):
    lines = ["id: quiet", "name: Quiet Cup", "game: matchplay", "course: parkland", "spectators: false",
             "players:"]
    lines += [f"  - {n} <{a}>" for n, a in zip(NAMES[:2], ADDRESSES[:2])]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h", "format: round-robin"]
    (table.root / "league.yaml").write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(table.root / "league.yaml"), now=iso(START - timedelta(days=1)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    for target in ("quiet", "quiet-r1-1"):
        refused = ask(table, FAN, f"OBSERVE {target}", now=iso(START + timedelta(minutes=5)))
        assert kinds(refused) == ["error"]
        kind = "league" if target == "quiet" else "game"
        assert f"{kind} {target} takes no spectators" in " ".join(body(refused[0]).split())
    (table.root / "bad.yaml").write_text("\n".join(lines).replace("spectators: false", "spectators: sometimes"))
    code, _, err = table.pbem("league", "create", str(table.root / "bad.yaml"), check=False)
    assert code == 2 and 'spectators: expected true or false, got "sometimes' in err


# -- leagues -----------------------------------------------------------------------------------
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri"]
ADDRESSES = [f"{n.lower()}@example.test" for n in NAMES]


def create_league(table, league_id: str, name: str, players: int) -> None:
    """A round-robin league of the first `players` of NAMES from START, made the day before."""
    lines = [f"id: {league_id}", f"name: {name}", "game: matchplay", "course: parkland", "players:"]
    lines += [f"  - {n} <{a}>" for n, a in zip(NAMES[:players], ADDRESSES[:players])]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h", "format: round-robin"]
    (table.root / "league.yaml").write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(table.root / "league.yaml"), now=iso(START - timedelta(days=1)))


def test_an_abandoned_game_tells_its_spectators_once_and_is_no_longer_watched(table):
    table.new_match()
    observe(table, FAN, "OBSERVE m1")
    table.pbem("gm", "ABANDON", "m1")
    told = table.new_mails(FAN)
    assert kinds(told) == ["status"] and told[0]["Subject"] == "[m1] Notice from the GM"
    assert told[0]["X-PBEM-Game"] == "m1" and token_of(told[0])  # every spectator mail carries it
    text = " ".join(body(told[0]).split())
    assert "as a spectator of game m1" in text and "the GM has abandoned it" in text
    assert "The game is over, and with it its mail to spectators. Should the GM reopen it (a rollback), you would hear of that first." in text and "UNOBSERVE" not in text
    assert all(len(line) <= 78 for line in body(told[0]).splitlines())
    # The players get their own notice, and no spectator's copy.
    for player in (GEORGE, BILL):
        mine = table.mails(player)[-1]
        assert "abandoned this game" in body(mine) and "as a spectator" not in body(mine)
    refused = ask(table, FAN, "OBSERVE m1")
    assert kinds(refused) == ["error"] and "nothing more to watch" in " ".join(body(refused[0]).split())


@pytest.mark.slow
def test_a_league_is_watched_game_by_game_until_unobserve(table):
    create_league(table, "cup", "Winter Cup", len(NAMES))
    answer = observe(table, FAN, "OBSERVE cup", now=iso(START - timedelta(hours=1)))
    assert kinds(answer) == ["ack"] and "league cup (Winter Cup)" in body(answer[0])
    assert "and a league's standings after each round" in " ".join(body(answer[0]).split())
    # A player of the league may watch it too, and then gets copies of the games of others only.
    assert kinds(observe(table, ADDRESSES[0], "OBSERVE cup", now=iso(START - timedelta(hours=1)))) == ["ack"]
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # round 1 opens: two matches
    rng = random.Random(3)
    first = ["cup-r1-1", "cup-r1-2"]
    for game_id in first:
        table.monkeypatch.setenv("PBEM_NOW", iso(START + timedelta(hours=1)))
        play_match(table, game_id, rng)
    copies = table.new_mails(FAN)
    standings = [m for m in copies if m["X-PBEM-Kind"] == "standings"]
    copies = [m for m in copies if m["X-PBEM-Kind"] != "standings"]
    assert len(standings) == 1  # round 1 has ended: the league's standings, once
    assert_league_standings_copy(standings[0], "cup", last=False)
    for game_id in first:
        mine = [m for m in copies if m["X-PBEM-Game"] == game_id]
        turns = len(load(table, game_id).state.view(None)["holes"]) // 3 + 1
        assert kinds(mine).count("result") == 1 and 1 <= kinds(mine).count("report") <= turns
        for m in mine:
            assert_spectator_copy(m, game_id, "cup")
            assert "    UNOBSERVE cup\n" in body(m)  # a league's result still says how to stop
    assert {m["X-PBEM-Kind"] for m in copies} == {"report", "result"}  # no welcome or turn
    # A player who watches her own league gets her standings once, as a player.
    hers = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "standings"]
    assert len(hers) == 1 and body(hers[0]).startswith(f"Hello {NAMES[0]},")
    alices = [g for g in first if ADDRESSES[0] in {p["address"] for p in table.show(g)["players"]}]
    assert len(alices) == 1
    for game_id in first:
        mine = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Game"] == game_id]
        spectating = [m for m in mine if "as a spectator of" in " ".join(body(m).split())]
        assert bool(spectating) == (game_id not in alices)
        assert kinds(mine).count("result") == 1  # her own game's result once, as its player
    stop = ask(table, FAN, "UNOBSERVE cup-r1-1")  # a game watched through its league
    assert "UNOBSERVE cup stops that" in " ".join(body(stop[0]).split())
    stop = ask(table, FAN, "UNOBSERVE cup")
    assert "You no longer watch league cup" in body(stop[0])
    table.pbem("process", now=iso(START + timedelta(days=7, seconds=1)))  # round 2 opens
    table.monkeypatch.setenv("PBEM_NOW", iso(START + timedelta(days=7, hours=1)))
    play_match(table, "cup-r2-1", rng)
    assert table.new_mails(FAN) == []


def test_a_league_named_in_the_wrong_case_is_named_rightly_in_the_refusal(table):
    # The league's ids are the league layer's own: the GM asks it, as it asks the store of games.
    create_league(table, "cup", "Winter Cup", 2)
    refused = ask(table, FAN, "OBSERVE CUP", now=iso(START - timedelta(hours=1)))
    assert kinds(refused) == ["error"]
    text = " ".join(body(refused[0]).split())
    assert "there is no game or league CUP here" in text and "What would be right: OBSERVE cup." in text


def test_a_league_spectator_gets_the_final_standings_once_with_no_way_to_stop_left(table):
    create_league(table, "duo", "Two Up", 2)
    assert kinds(observe(table, FAN, "OBSERVE duo", now=iso(START - timedelta(hours=1)))) == ["ack"]
    table.pbem("process", now=iso(START + timedelta(seconds=1)))  # the one round opens
    table.monkeypatch.setenv("PBEM_NOW", iso(START + timedelta(hours=1)))
    play_match(table, "duo-r1-1", random.Random(5))
    table.pbem("process", now=iso(START + timedelta(days=8)))
    standings = [m for m in table.new_mails(FAN) if m["X-PBEM-Kind"] == "standings"]
    assert len(standings) == 1
    text = assert_league_standings_copy(standings[0], "duo", last=True, names=NAMES[:2])
    assert "the season is over" in standings[0]["Subject"] and "final standings" in " ".join(text.split())
    for address in ADDRESSES[:2]:  # the players' own, not a spectator's
        theirs = [m for m in table.mails(address) if m["X-PBEM-Kind"] == "standings"]
        assert len(theirs) == 1 and "spectator" not in body(theirs[0])


# -- nothing secret in a spectator's mail -------------------------------------------------------
STANDARD = re.compile(r"(?<![\w+-])(?:10|[2-9AJQK])[SHDC](?![\w])|JOKER")


def card_names(text: str, type_name: str) -> set[str]:
    if type_name == "golf":
        return set(STANDARD.findall(text))
    return {name for name in GOLF_DECK_TYPES if name in text}


def hidden_and_shown(state, type_name: str) -> tuple[set[str], set[str]]:
    """The cards nobody but their holder (or nobody at all) may know now, and those on show."""
    grids = state.grids if type_name == "golf" else state.grid
    hidden = {c for g, up in zip(grids, state.up) for c, u in zip(g, up) if not u}
    hidden |= set(state.stock) | ({state.drawn} if state.drawn else set())
    shown = {c for g, up in zip(grids, state.up) for c, u in zip(g, up) if u} | set(state.discard)
    shown |= {c for h in state.holes for g in h["grids"] for c in g}
    return hidden, shown


@pytest.mark.slow
@pytest.mark.parametrize("type_name, n, seed", [("golf", 3, 4), ("golf", 2, 9), ("golfdeck", 3, 5)])
def test_no_spectator_mail_of_a_card_game_names_a_card_face_down(table, type_name, n, seed):
    players = [f"p{i}@example.test" for i in range(n)]
    args = ["new-game", type_name, "--id", "c1", "--seed", str(seed), "--option", "holes=2"]
    for i, a in enumerate(players):
        args += ["--player", f"P{i} <{a}>"]
    table.pbem(*args)
    observe(table, FAN, "OBSERVE c1")
    module = importlib.import_module(f"pbem.games.{type_name}")
    rng = random.Random(seed)
    ever_shown: set[str] = set()
    got = []
    for _ in range(3000):
        state = load(table, "c1").state
        ever_shown |= hidden_and_shown(state, type_name)[1]
        if state.result() is not None:
            break
        seat = min(state.to_move())
        table.order(players[seat], str(module.random_orders(state, seat, rng)), game="c1")
        after = load(table, "c1").state
        hidden, shown = hidden_and_shown(after, type_name)
        ever_shown |= shown
        for m in table.new_mails(FAN):
            text = assert_spectator_copy(m, "c1", "c1")
            leaked = (card_names(text, type_name) & hidden) - ever_shown
            assert not leaked, (leaked, m["Subject"], text)
            got.append(m)
    assert kinds(got) == ["report", "report", "result"]
    assert table.show("c1")["result"] in body(got[-1])


def test_a_card_game_played_by_the_gm_for_the_silent_gives_spectators_no_readers_notes(table):
    """The notes of a move the GM played are written to each reader ("You drew ..." to the silent
    player): a spectator's report of a card game carries none of them."""
    players = ["ann@example.test", "bob@example.test"]
    table.pbem("new-game", "golfdeck", "--id", "c1", "--seed", "2", "--option", "holes=1", "--deadline", "1h",
               "--player", f"Ann <{players[0]}>", "--player", f"Bob <{players[1]}>", now=iso(START))
    observe(table, FAN, "OBSERVE c1", now=iso(START))
    moment = START
    for _ in range(200):
        if table.show("c1")["status"] == "finished":
            break
        moment += timedelta(hours=2)
        table.pbem("process", now=iso(moment))
    got = table.new_mails(FAN)
    assert kinds(got) == ["report", "result"]
    text = assert_spectator_copy(got[0], "c1", "c1")
    assert "Note:" not in text and "sent no orders" not in text
    told = [body(m) for a in players for m in table.mails(a) if m["X-PBEM-Kind"] == "report"]
    assert any("sent no orders" in t for t in told)  # the players had notes; the spectator none


@pytest.mark.slow
def test_no_spectator_mail_of_on_par_names_a_card_in_a_hand(table):
    from test_onpar_by_mail import CARD, EXAMPLES
    players = ["ann@example.test", "bob@example.test", "cy@example.test"]
    args = ["new-game", "onpar", "--id", "op", "--seed", "6", "--option", "holes=2"]
    for name, a in zip(["Ann", "Bob", "Cy"], players):
        args += ["--player", f"{name} <{a}>"]
    table.pbem(*args)
    observe(table, FAN, "OBSERVE op")
    module = importlib.import_module("pbem.games.onpar")
    rng = random.Random(6)
    got = []
    for _ in range(3000):
        state = load(table, "op").state
        if state.result() is not None:
            break
        seat = min(state.to_move())
        table.order(players[seat], str(module.random_orders(state, seat, rng)), game="op")
        after = load(table, "op").state
        in_hands = {c for hand in after.hands for c in hand}
        played = {c for ev in table.show("op")["history"] if ev["kind"] == "move" for c in CARD.findall(ev["text"])}
        for m in table.new_mails(FAN):
            text = assert_spectator_copy(m, "op", "op")
            leaked = (set(CARD.findall(text)) & in_hands) - played - EXAMPLES
            assert not leaked, (leaked, m["Subject"], text)
            got.append(m)
    assert kinds(got) == ["report", "report", "result"]


def test_a_dice_golf_spectator_gets_the_sheets_but_no_ones_policy(table):
    players = ["ann@example.test", "bob@example.test"]
    table.pbem("new-game", "dicegolf", "--id", "d1", "--seed", "3", *[
        x for i, a in enumerate(players) for x in ("--player", f"P{i} <{a}>")])
    observe(table, FAN, "OBSERVE d1")
    for a in players:
        table.order(a, "POLICY BEST", game="d1")
    got = table.new_mails(FAN)
    assert "result" in kinds(got) and set(kinds(got)) <= {"report", "result"}
    for m in got:
        text = assert_spectator_copy(m, "d1", "d1")
        assert "BEST" not in text and "policy" not in text.lower()
        assert "Hole-in-one" in text  # the score sheets are on the table


# -- the engines' spectator view ---------------------------------------------------------------
# Every key of every view is either public (PUBLIC_VIEW) or named here as private: a key added to
# a view later fails this test until someone decides which it is. (`seat`, whose view it is, is
# None in a spectator's.)
# `events`, a seat's record of the game, holds what that seat alone was told (a card it drew).
PRIVATE = {
    "matchplay": {"seats", "events"},
    "golfdeck": {"grids", "drawn", "face_up", "reveals", "events"},
    "golf": {"grids", "seen", "drawn", "replaceable", "peekable", "stock_cards", "discard_pile", "events"},
    "dicegolf": {"policies", "coaching", "playing", "waiting", "events"},
    "onpar": {"hand", "hands", "drawn", "choices", "events"},
}
PLAYERS = {"matchplay": 2, "golfdeck": 3, "golf": 3, "dicegolf": 3, "onpar": 3}


def random_states(type_name: str, seed: int):
    """Each state of a whole random game, as the engine alone plays it."""
    cls = game_type(type_name)
    module = importlib.import_module(cls.__module__)
    random_orders = getattr(module, "random_orders", None) or importlib.import_module(
        "pbem.games.onpar.play").random_orders
    course = Course("test", (4, 4, 5, 3, 4, 4, 5, 3, 4, 4, 3, 5, 4, 4, 5, 3, 4, 4))
    options = cls.options_with_defaults({"holes": 2} if "holes" in cls.OPTIONS else {})
    state = cls.new([f"P{i}" for i in range(PLAYERS[type_name])], options, seed, course)
    rng = random.Random(seed)
    for _ in range(5000):
        yield state
        if state.result() is not None:
            return
        if not isinstance(state, importlib.import_module("pbem.games.base").TurnByTurn) and state.ready():
            state.resolve()
            continue
        seat = min(state.to_move())
        state.apply(seat, random_orders(state, seat, rng))
        getattr(state, "drain_events", lambda: None)()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("type_name", sorted(PRIVATE))
def test_the_spectator_view_is_what_every_player_sees_alike(type_name):
    cls = game_type(type_name)
    for state in random_states(type_name, seed=7):
        public = state.spectator_view()
        keys = set(state.view(None)) | set(state.view(0))
        assert keys <= set(cls.PUBLIC_VIEW) | PRIVATE[type_name] | {"seat"}, keys - set(cls.PUBLIC_VIEW)
        assert not set(cls.PUBLIC_VIEW) & PRIVATE[type_name]
        assert public["seat"] is None and not set(public) & (PRIVATE[type_name] - {"grids"})
        for seat in range(len(state.names)):
            seen = state.view(seat)
            for key, value in public.items():
                if key == "grids":
                    # A card is shown to a spectator only where every player sees it face up.
                    for mine, theirs in zip(value, seen["grids"]):
                        assert all(c == HIDDEN or c == t for c, t in zip(mine, theirs)), (mine, theirs)
                    up = state.up
                    assert [[c != HIDDEN for c in g] for g in value] == [list(u) for u in up]
                elif key != "seat":
                    assert seen[key] == value, (type_name, key)
