"""A reply to the league's own mail (its welcome) carries the player's league token, so SET
ABSENCE works in reply to it, before round 1 too (CONTRACT sections 4 and 10)."""
from __future__ import annotations

import email.utils
from datetime import timedelta

from conftest import body, kinds
from test_season_by_mail import ADDRESSES, START, iso, league_file, league_json

QUOTE = "\n\nOn Fri, 4 Dec 2026 at 18:00, Golf GM <gm@example.test> wrote:\n> Hello Alice,\n>\n> You are in\n"


def welcome_of(table, who):
    return next(m for m in table.mails(who) if m["X-PBEM-Kind"] == "welcome" and m["X-PBEM-League"] == "cup")


def reply(table, who, welcome, text, now, sender=None):
    table.new_mails(sender or who)
    table.send(sender or who, text, subject=f"Re: {welcome['Subject']}", to=email.utils.parseaddr(welcome["Reply-To"])[1],
               headers={"In-Reply-To": welcome["Message-ID"]})
    table.pbem("process", now=now)
    return table.new_mails(sender or who)


def test_an_absence_in_reply_to_the_welcome_before_round_one_moves_the_first_deadline(table):
    path = league_file(table, players=4, extra="absence_days: 10\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    welcome = welcome_of(table, ADDRESSES[0])
    token = email.utils.parseaddr(welcome["Reply-To"])[1].split("@")[0].split("+")[1]
    assert token.startswith("l") and len(token) == 17
    assert "Reply to this mail (or to any mail about one of your league games) with SET ABSENCE" in \
        " ".join(body(welcome).split())
    # Every player has a token of their own, the same in every mail of the league to them.
    tokens = {email.utils.parseaddr(welcome_of(table, a)["Reply-To"])[1] for a in ADDRESSES[:4]}
    assert len(tokens) == 4
    got = reply(table, ADDRESSES[0], welcome, "Set absence: 2026-12-08 to 2026-12-12.\n\nThanks,\nAlice" + QUOTE,
                iso(START - timedelta(days=2)))
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[cup] Absence noted: 2026-12-08 to 2026-12-12"
    assert got[0]["In-Reply-To"] and got[0]["Reply-To"] == welcome["Reply-To"]
    assert "You have 25 days of absence left in 2026, and 5 this season of league cup." in \
        " ".join(body(got[0]).split())
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    mine = next(g["id"] for g in league_json(table, "show")["rounds"][0]["games"] if ADDRESSES[0] in g["players"])
    assert table.show(mine)["deadline"] == "2026-12-13T00:00:00Z"


def test_the_token_from_another_address_and_a_game_order_change_nothing(table):
    path = league_file(table, players=4)
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    welcome = welcome_of(table, ADDRESSES[0])
    now = iso(START - timedelta(days=2))
    stolen = reply(table, ADDRESSES[0], welcome, "SET ABSENCE 2026-12-08 TO 2026-12-12", now, sender=ADDRESSES[1])
    assert kinds(stolen) == ["error"] and "only from the address" in " ".join(body(stolen[0]).split())
    wrong = reply(table, ADDRESSES[0], welcome, "PLAY 3 4 5\nSET ABSENCE 2026-12-08 TO 2026-12-12\n\nAlice", now)
    text = " ".join(body(wrong[0]).split())
    assert kinds(wrong) == ["error"] and "Line 1: PLAY 3 4 5" in text and "league cup is exactly as it was" in text
    assert "Line 3" not in text and "HELP" not in text
    assert [e for e in league_json(table, "show").get("events", []) if e.get("kind") == "absence"] == []
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    for game in league_json(table, "show")["rounds"][0]["games"]:
        assert table.show(game["id"])["deadline"] == "2026-12-09T18:00:01Z"


def test_set_calendar_in_reply_to_the_welcome_is_taken_for_the_address(table):
    path = league_file(table, players=4)
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    welcome = welcome_of(table, ADDRESSES[1])
    got = reply(table, ADDRESSES[1], welcome, "Set calendar: on.\n\nCheers,\nBruno" + QUOTE,
                iso(START - timedelta(days=2)))
    assert kinds(got) == ["ack"] and got[0]["Subject"] == "[cup] Calendar entries on"
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    game_welcome = next(m for m in table.mails(ADDRESSES[1]) if m["X-PBEM-Game"] and m["X-PBEM-Kind"] == "welcome")
    assert any(part.get_content_type() == "text/calendar" for part in game_welcome.walk())


def test_two_absences_in_one_mail_are_named_as_two_not_one_span(table):
    path = league_file(table, players=4, extra="absence_days: 10\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    welcome = welcome_of(table, ADDRESSES[0])
    got = reply(table, ADDRESSES[0], welcome, "SET ABSENCE 2026-12-08 to 2026-12-09\nSET ABSENCE 2026-12-15 to 2026-12-16",
                iso(START - timedelta(days=2)))
    assert kinds(got) == ["ack"], [body(m) for m in got]
    assert got[0]["Subject"] == "[cup] 2 absences noted, starting 2026-12-08 and 2026-12-15"
    assert "Your 2 absences are noted" in " ".join(body(got[0]).split())


def test_a_league_files_time_zone_is_the_players_in_their_mail_and_their_absence(table):
    """Léna plays from Berlin: her games' mail states deadlines in her zone, and her absence's
    days are Berlin's days (it ends at her midnight, 23:00 UTC in winter)."""
    lines = ["id: cup", "name: Winter Cup", "game: matchplay", "course: parkland", "players:",
             f"  - name: Léna\n    address: {ADDRESSES[0]}\n    timezone: Europe/Berlin"]
    lines += [f"  - Player{i} <{ADDRESSES[i]}>" for i in range(1, 4)]
    lines += [f"start: {iso(START)}", "round_length: 7d", "deadline: 48h", "format: round-robin", "absence_days: 10"]
    path = table.root / "league.yaml"
    path.write_text("\n".join(lines) + "\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    welcome = welcome_of(table, ADDRESSES[0])
    got = reply(table, ADDRESSES[0], welcome, "SET ABSENCE 2026-12-08 TO 2026-12-09", iso(START - timedelta(days=2)))
    assert kinds(got) == ["ack"], [body(m) for m in got]
    text = " ".join(body(got[0]).split())
    assert "move to 2026-12-10 00:00 CET (2026-12-09 23:00 UTC)" in text, text
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    mine = next(g["id"] for g in league_json(table, "show")["rounds"][0]["games"] if ADDRESSES[0] in g["players"])
    # Round 1 opens on 12-07 18:00 UTC with 48 hours: 12-09 18:00 UTC, inside her Berlin days.
    assert table.show(mine)["deadline"] == "2026-12-09T23:00:00Z"
    game_welcome = next(m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "welcome" and m["X-PBEM-Game"] == mine)
    assert "Orders due by 2026-12-10 00:00 CET (2026-12-09 23:00 UTC)." in " ".join(body(game_welcome).split())
    other = next(m for m in table.mails(ADDRESSES[1]) if m["X-PBEM-Kind"] == "welcome" and m.get("X-PBEM-Game"))
    assert "CET" not in body(other)  # the others keep UTC


def test_the_opponent_is_told_when_an_absence_moves_their_games_deadline(table):
    path = league_file(table, players=4, extra="absence_days: 10\n")
    table.pbem("league", "create", str(path), now=iso(START - timedelta(days=3)))
    table.pbem("process", now=iso(START + timedelta(seconds=1)))
    game = next(g for g in league_json(table, "show")["rounds"][0]["games"] if ADDRESSES[0] in g["players"])
    opponent = next(a for a in game["players"] if a != ADDRESSES[0])
    table.new_mails(opponent)
    welcome = welcome_of(table, ADDRESSES[0])
    got = reply(table, ADDRESSES[0], welcome, "SET ABSENCE 2026-12-08 TO 2026-12-10", iso(START + timedelta(hours=1)))
    assert kinds(got) == ["ack"]
    assert table.show(game["id"])["deadline"] == "2026-12-11T00:00:00Z"
    told = table.new_mails(opponent)
    assert kinds(told) == ["notice"], [body(m) for m in told]
    text = " ".join(body(told[0]).split())
    assert told[0]["Subject"] == f"[{game['id']}] Deadline moved: Alice is away"
    assert "orders are due by 2026-12-11 00:00 UTC" in text and "SET ABSENCE" in text
    assert "2026-12-08" not in text  # the absent player's days are theirs: only the new deadline is told
