"""`gm.contact` (CONTRACT section 5): the person who runs this GM, named in every welcome, in HELP
and in every mail that sends its reader to them; without one, those mails say that nobody has
been named."""
from __future__ import annotations

import email.utils

import pytest
from conftest import BILL, GM, body, kinds, too_wide

from pbem.games.registry import game_type, types
from pbem.render import render

CONTACT = "jane-smith@club-house.example.test"  # hyphens: never cut at the end of a line
NAMED = "write to the person who runs this GM: " + CONTACT
NOBODY = "No contact for this GM has been named."
ANN, BOB = "ann@example.test", "bob@example.test"


def flat(m) -> str:
    return " ".join(body(m).split())


def configure(table, contact: str | None, extra: str = "") -> None:
    (table.root / "pbem.yaml").write_text(
        f"gm:\n  address: {GM}\n  name: Golf GM\n" + (f"  contact: {contact}\n" if contact else "")
        + "store: ./pbem.sqlite3\ntransport: local\nlocal:\n  maildir: ./mail\n" + extra)


def new_game(table, type_name: str, game_id: str) -> None:
    cls = game_type(type_name)
    players = [f"Ann <{ANN}>", f"Bob <{BOB}>"][:max(cls.MIN_PLAYERS, min(2, cls.MAX_PLAYERS))]
    table.pbem("new-game", type_name, "--id", game_id, *(w for p in players for w in ("--player", p)))


def help_for(table, game_id: str):
    mail = next(m for m in table.mails(ANN) if m["X-PBEM-Game"] == game_id)
    table.new_mails(ANN)
    table.send(ANN, "HELP", subject=f"Re: [{game_id}] help", to=email.utils.parseaddr(mail["Reply-To"])[1])
    table.pbem("process")
    answer, = table.new_mails(ANN)
    return answer


@pytest.mark.slow
@pytest.mark.parametrize("contact", [CONTACT, None])
def test_every_games_welcome_and_help_name_the_contact_or_say_none_is_named(table, contact):
    configure(table, contact)
    for n, type_name in enumerate(types()):
        game_id = f"c{n}"
        new_game(table, type_name, game_id)
        welcome = next(m for m in table.mails(ANN) if m["X-PBEM-Game"] == game_id and m["X-PBEM-Kind"] == "welcome")
        answer = help_for(table, game_id)
        assert answer["X-PBEM-Kind"] == "help", (type_name, answer["Subject"])
        for m in (welcome, answer):
            assert (NAMED if contact else NOBODY) in flat(m), (type_name, m["X-PBEM-Kind"], body(m))
            assert (NOBODY if contact else CONTACT) not in flat(m)
            assert not too_wide(body(m)) and (not contact or CONTACT in body(m)), body(m)  # on one line


def test_help_without_a_game_names_the_contact(table):
    configure(table, CONTACT)
    table.send("newcomer@example.test", "HELP", subject="how does this work?")
    table.pbem("process")
    answer, = table.mails("newcomer@example.test")
    assert kinds([answer]) == ["help"] and NAMED in flat(answer) and not too_wide(body(answer))
    configure(table, None)
    table.send("newcomer@example.test", "HELP", subject="and again?")
    table.pbem("process")
    assert NOBODY in flat(table.mails("newcomer@example.test")[-1])


def test_a_league_welcome_names_the_contact(table):
    configure(table, CONTACT)
    (table.root / "cup.yaml").write_text(
        f"id: cup\nname: Cup\ngame: matchplay\ncourse: parkland\nplayers:\n  - Ann <{ANN}>\n  - Bob <{BOB}>\n"
        "start: 2026-12-07T18:00:00Z\nround_length: 7d\ndeadline: 48h\nformat: round-robin\n")
    table.pbem("league", "create", str(table.root / "cup.yaml"))
    welcome, = table.mails(ANN)
    assert welcome["X-PBEM-League"] == "cup" and NAMED in flat(welcome) and not too_wide(body(welcome))


@pytest.mark.parametrize("contact", [CONTACT, None])
def test_the_mails_that_send_a_reader_to_the_gm_name_the_contact(table, contact):
    configure(table, contact)
    person = f"the person who runs this GM ({CONTACT if contact else 'no contact for this GM has been named'})"
    # Someone used a seat's password: its owner is to ask for a new one.
    table.new_match()
    table.send("mallory@example.test", f"GAME m1\nPASSWORD {table.secret(BILL)}\nPLAY 4 4 5")
    table.pbem("process")
    warning = table.mails(BILL)[-1]
    assert warning["Subject"] == "[m1] Someone used your password"
    assert f"Ask {person} for a new password for your seat" in flat(warning) and not too_wide(body(warning))
    # No table is open: ask for one.
    table.send("cy@example.test", "LIST", subject="tables?")
    # The ratings go to players: ask for a seat.
    table.send("di@example.test", "RATINGS", subject="ratings")
    # GM commands come from the admins' addresses: ask to be one.
    table.send("ed@example.test", "EXTEND m1 1d", subject="more time")
    table.pbem("process")
    admin, = table.mails("ed@example.test")
    assert f"an address sends GM commands once {person} lists it in gm.admins" in flat(admin)
    assert not too_wide(body(admin))
    listing, = table.mails("cy@example.test")
    assert f"ask {person} to open a table" in flat(listing) and not too_wide(body(listing))
    refusal, = table.mails("di@example.test")
    assert f"Ask {person} for a seat, or JOIN an open table" in flat(refusal) and not too_wide(body(refusal))


def test_a_message_that_could_not_be_read_says_whom_to_ask():
    for contact in (CONTACT, None):
        _, text = render("unreadable", None, gm_name="Golf GM", gm_contact=contact)
        said = " ".join(text.split())
        assert ("the person who runs this GM (" + (contact or "no contact for this GM has been named")
                + ") can have it read again") in said
        assert not too_wide(text)


@pytest.mark.parametrize("contact, problem", [
    ("jane", 'gm.contact: expected an email address like gm@example.test, got "jane"'),
    ("Jane <jane@example.test>", "gm.contact: expected an email address"),
    (GM, "gm.contact: expected the address of a person who runs this GM, got gm.address itself"),
    ("GM+desk@example.test", "gm.contact: expected the address of a person who runs this GM, got gm.address"),
])
def test_a_contact_that_is_no_persons_address_is_refused_at_start(table, contact, problem):
    configure(table, f'"{contact}"')
    code, _, err = table.pbem("list", check=False)
    assert code == 2 and err.startswith(problem), err

