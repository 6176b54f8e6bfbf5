"""Names the GM gives (`new-game --player`, a league file, REPLACE by mail or on the command
line) are cleaned of control characters as a name from a mail's From is (`mail.clean.clean`):
they reach headers, reports and every calendar's SUMMARY, where RFC 5545 allows none. A league
file with a raw control byte, which YAML cannot read at all, gives one line and exit 2.

Every clock here is given.
"""
from __future__ import annotations

import email.policy
import json
import re
import unicodedata

import pytest
from conftest import BILL, GEORGE, GM, body

START = "2026-12-01T09:00:00Z"
LEAGUE_START = "2026-12-07T18:00:00Z"
# Control and format characters as a hostile or careless GM file may carry them: a terminal
# reset (ESC c), a bell, DEL, a C1 CSI, a bidi override and a line separator.
DIRTY = "Geo\x1bcr\x07ge\x7f \x9b2K\u202eSmith\u2028"
# What stays of DIRTY once cleaned: each control character a space, the spaces folded into one.
CLEAN = "Geo cr ge 2K Smith"
WILL = "will@example.test"


def unsafe(text: str) -> list[str]:
    """The characters of `text` that no name may carry (line ends of a whole mail aside)."""
    return [ch for ch in text if ch not in "\r\n\t"
            and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")]


def names(table, game: str) -> list[str]:
    return [p["name"] for p in table.show(game)["players"]]


def every_mail_and_calendar_is_clean(table, *targets: str) -> None:
    for folder in (table.root / "mail").iterdir():
        if folder.name == GM:
            continue
        for mail in table.mails(folder.name):
            raw = mail.as_bytes(policy=email.policy.default).decode("utf-8", "replace")
            assert not unsafe(raw), (folder.name, mail["Subject"], unsafe(raw))
    for target in targets:
        _, calendar, _ = table.pbem("calendar", target)
        summaries = [line for line in calendar.splitlines() if line.startswith("SUMMARY")]
        assert summaries and not unsafe(calendar), unsafe(calendar)


def test_new_game_player_names_are_cleaned_as_mail_names_are(table):
    table.pbem("new-game", "matchplay", "--player", f"{DIRTY} <{GEORGE}>", "--player", f"Bi\x1bcll\x07 <{BILL}>",
               "--id", "m1", "--deadline", "48h", now=START)
    assert names(table, "m1") == [CLEAN, "Bi cll"]
    welcome = table.mails(GEORGE)[0]
    assert CLEAN in welcome["To"] and "against Bi cll" in " ".join(body(welcome).split())
    every_mail_and_calendar_is_clean(table, "m1")


def test_a_name_of_control_characters_only_gives_way_to_the_address(table):
    table.pbem("new-game", "matchplay", "--player", f"\x1b\x7f\u202e <{GEORGE}>", "--player", BILL, "--id", "m1",
               now=START)
    assert names(table, "m1") == ["george", "bill"]


def test_replace_on_the_command_line_cleans_the_new_name(table):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m1", "--deadline", "48h", now=START)
    table.pbem("gm", "REPLACE", "m1", BILL, f"{DIRTY} <{WILL}>", now=START)
    assert names(table, "m1") == ["George", CLEAN]
    every_mail_and_calendar_is_clean(table, "m1")


def test_replace_by_the_gms_mail_leaves_no_control_character_in_the_name(table):
    (table.root / "pbem.yaml").write_text((table.root / "pbem.yaml").read_text().replace(
        "  name: Golf GM\n", f"  name: Golf GM\n  admins: [{GM.replace('gm@', 'boss@')}]\n  secret: s3cret-gm-of-the-club\n"))
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m1", now=START)
    line = f'REPLACE m1 {BILL} "Wi\x1bcll\x7f <{WILL}>"'
    table.send("boss@example.test", f"PASSWORD s3cret-gm-of-the-club\n{line}\n", subject="GM")
    table.pbem("process", now="2026-12-01T10:00:00Z")
    # The reader of mail shows a control character of a line as U+FFFD before any command
    # sees it: the name has none left either way.
    assert names(table, "m1") == ["George", "Wi\ufffdcll\ufffd"]


def league_file(table, players: list[str], name: str = "Winter Cup") -> str:
    lines = ["id: cup", f'name: "{name}"', "game: matchplay", "course: parkland", "players:"]
    lines += [f"  - {p}" for p in players]
    lines += [f"start: {LEAGUE_START}", "round_length: 7d", "deadline: 48h"]
    path = table.root / "league.yaml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def yaml_escaped(text: str) -> str:
    """`text` as a double-quoted YAML scalar's inside: its control characters as escapes."""
    return "".join(ch if ch.isprintable() and ch not in '"\\' else f"\\u{ord(ch):04x}" for ch in text)


def test_league_names_are_cleaned_in_standings_mail_and_calendars(table):
    path = league_file(table, [f'"{yaml_escaped(DIRTY)} <{GEORGE}>"',
                               f'{{name: "Bi\\e[5mll\\x7f", address: {BILL}}}',
                               "Ann <ann@example.test>", "Cy <cy@example.test>"],
                       name="Winter\\x7f\\u202e\\x9b Cup")
    table.pbem("league", "create", path, now=START)
    table.pbem("process", now="2026-12-07T18:00:01Z")
    shown = json.loads(table.pbem("league", "show", "cup", "--json")[1])
    assert shown["name"] == "Winter Cup"  # a line break or an ESC there is refused, as before
    assert {row["name"] for row in shown["standings"]} == {CLEAN, "Bi [5mll", "Ann", "Cy"}
    game = next(g["id"] for g in shown["rounds"][0]["games"] if GEORGE in g["players"])
    assert CLEAN in names(table, game)
    every_mail_and_calendar_is_clean(table, "cup", game)


def test_a_league_replace_cleans_the_new_name(table):
    path = league_file(table, [f"George <{GEORGE}>", f"Bill <{BILL}>"])
    table.pbem("league", "create", path, now=START)
    table.pbem("process", now="2026-12-07T18:00:01Z")
    table.pbem("gm", "REPLACE", "cup", BILL, f"{DIRTY} <{WILL}>", now="2026-12-07T19:00:00Z")
    shown = json.loads(table.pbem("league", "show", "cup", "--json")[1])
    assert CLEAN in {row["name"] for row in shown["standings"]}
    every_mail_and_calendar_is_clean(table, "cup")


@pytest.mark.parametrize("byte", ["\x7f", "\x0b", "\x1b", "\x00"])
def test_a_raw_control_byte_in_a_league_file_gives_one_line_and_exit_2(table, byte):
    path = league_file(table, [f"George <{GEORGE}>", f"Bi{byte}ll <{BILL}>"])
    code, out, err = table.pbem("league", "create", path, now=START, check=False)
    assert code == 2 and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    assert re.search(rf"line 7, column 7 holds the control character U\+{ord(byte):04X}", err), err
    assert table.pbem("league", "list")[1].strip() == ""
