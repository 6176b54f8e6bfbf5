"""Calendars (CONTRACT section 13): `pbem calendar` of a game and of a league, read with the
`icalendar` package and with a reader written here on the standard library (RFC 5545's lines
unfolded and split); `SET CALENDAR ON|OFF`; one event per mail that states a deadline, whose
UID stays and whose SEQUENCE goes up when an EXTEND moves it; the league welcome's part."""
from __future__ import annotations

import email.utils
import random
import re
from datetime import datetime, timedelta, timezone

from conftest import BILL, GEORGE, body, kinds, too_wide

START = "2026-12-01T10:00:00Z"


def unfolded(text: str) -> list[str]:
    """RFC 5545 section 3.1: a line that begins with a space or a tab continues the one before."""
    lines: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += line[1:]
        elif line:
            lines.append(line)
    return lines


def events_by_hand(text: str) -> list[dict]:
    """Each VEVENT as {NAME: value}, parameters dropped: the second, independent reader."""
    lines = unfolded(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    head = {line.split(":", 1)[0] for line in lines[: lines.index("BEGIN:VEVENT")]} if "BEGIN:VEVENT" in lines \
        else {line.split(":", 1)[0] for line in lines}
    assert {"VERSION", "PRODID"} <= head
    out, current = [], None
    for line in lines:
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT":
            out.append(current)
            current = None
        elif current is not None:
            name, _, value = line.partition(":")
            current[name.split(";")[0]] = value
    return out


def events_by_icalendar(text: str) -> list[dict]:
    from icalendar import Calendar
    cal = Calendar.from_ical(text)
    assert str(cal["VERSION"]) == "2.0" and cal["PRODID"]
    return [{"UID": str(ev["UID"]), "DTSTART": ev.decoded("DTSTART"), "SEQUENCE": int(ev.get("SEQUENCE", 0)),
             "DTSTAMP": ev.decoded("DTSTAMP")} for ev in cal.walk("VEVENT")]


def both(text: str) -> list[dict]:
    """The events as both readers see them, checked to agree."""
    mine, theirs = events_by_hand(text), events_by_icalendar(text)
    assert [e["UID"] for e in mine] == [e["UID"] for e in theirs]
    for a, b in zip(mine, theirs):
        assert datetime.strptime(a["DTSTART"], "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc) == b["DTSTART"]
        assert int(a.get("SEQUENCE", 0)) == b["SEQUENCE"] and "DTSTAMP" in a
    return mine


def calendar_part(mail) -> str | None:
    parts = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    if not parts:
        return None
    leaves = [p for p in mail.walk() if not p.is_multipart()]
    assert leaves[0].get_content_type() == "text/plain"  # the text first, as every reader shows it
    assert "method=PUBLISH" in parts[0]["Content-Type"].replace('"', "")
    return parts[0].get_content()


ADDRESSES = [f"{n}@example.test" for n in ("alice", "bruno", "chloe", "dmitri")]
LEAGUE_START = datetime(2026, 12, 7, 18, 0, tzinfo=timezone.utc)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def league_file(table):
    """A round robin of four over three weeks (one round a week, 48 hours a turn)."""
    lines = ["id: cup", "name: Winter Cup", "game: matchplay", "course: parkland", "players:"]
    lines += [f"  - {a.split('@')[0].title()} <{a}>" for a in ADDRESSES]
    lines += [f"start: {iso(LEAGUE_START)}", "round_length: 7d", "deadline: 48h", "format: round-robin"]
    path = table.root / "league.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def new_match(table, *extra):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m1", "--deadline", "48h", *extra, now=START)


def test_the_calendar_of_a_game_names_every_deadline_owed_and_reads_in_two_readers(table):
    new_match(table)
    code, text, _ = table.pbem("calendar", "m1")
    events = both(text)
    assert [e["DTSTART"] for e in events] == ["20261203T100000Z"] * 2
    assert len({e["UID"] for e in events}) == 2 and all(e["SEQUENCE"] == "0" for e in events)
    george = both(table.pbem("calendar", "m1", "--player", GEORGE)[1])
    assert len(george) == 1 and "seat1" in george[0]["UID"]
    # George orders: only Bill owes a deadline now.
    table.order(GEORGE, "PLAY 4 4 5", now=START)
    assert both(table.pbem("calendar", "m1", "--player", GEORGE)[1]) == []
    assert [e["UID"] for e in both(table.pbem("calendar", "m1")[1])] == [events[1]["UID"]]
    code, _, err = table.pbem("calendar", "nosuch", check=False)
    assert code == 2 and "no game or league" in err


def test_set_calendar_on_puts_one_event_in_each_mail_that_sets_a_deadline_and_extend_raises_its_sequence(table):
    new_match(table)
    got = table.order(GEORGE, "SET CALENDAR ON", now=START)
    assert kinds(got) == ["ack"] and not too_wide(body(got[0]))
    first = both(calendar_part(got[0]))
    assert len(first) == 1 and first[0]["DTSTART"] == "20261203T100000Z" and first[0]["SEQUENCE"] == "0"
    uid = first[0]["UID"]
    table.new_mails(BILL)
    table.pbem("gm", "EXTEND", "m1", "24h", now="2026-12-01T11:00:00Z")
    notice = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    moved = both(calendar_part(notice[0]))
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"]) for e in moved] == [(uid, "20261204T100000Z", "1")]
    # Bill never asked: his notice is text alone.
    assert all(calendar_part(m) is None for m in table.new_mails(BILL))
    # The turn resolves: the report states turn 2's deadline, a new event; nothing cancels turn 1's.
    table.order(GEORGE, "PLAY 4 4 5", now="2026-12-01T12:00:00Z")
    table.order(BILL, "PLAY 4 4 5", now="2026-12-01T12:10:00Z")
    report = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "report"]
    assert len(report) == 1
    turn2 = both(calendar_part(report[0]))
    assert len(turn2) == 1 and turn2[0]["UID"] != uid and "turn2" in turn2[0]["UID"]
    assert turn2[0]["DTSTART"] == "20261203T121000Z" and turn2[0]["SEQUENCE"] == "0"
    every = [calendar_part(m) for m in table.mails(GEORGE)]
    assert sum(uid in (part or "") for part in every) == 2  # the ack and the EXTEND's notice only
    off = table.order(GEORGE, "SET CALENDAR OFF", now="2026-12-01T13:00:00Z")
    assert calendar_part(off[0]) is None and "No more calendar entries" in body(off[0])
    table.order(GEORGE, "PLAY 4 4 5", now="2026-12-01T13:10:00Z")
    table.order(BILL, "PLAY 4 4 5", now="2026-12-01T13:20:00Z")
    assert all(calendar_part(m) is None for m in table.new_mails(GEORGE))


def test_a_wrong_set_calendar_line_is_refused_with_what_is_right(table):
    new_match(table)
    got = table.order(GEORGE, "SET CALENDAR maybe", now=START)
    assert kinds(got) == ["error"] and "SET CALENDAR takes ON or OFF" in body(got[0])
    assert "SET CALENDAR ON" in body(got[0]) and calendar_part(got[0]) is None


def test_a_leagues_calendar_and_its_welcome_part_name_every_round_opening(table):
    path = league_file(table)
    table.pbem("league", "create", str(path), now=iso(LEAGUE_START - timedelta(days=1)))
    welcome = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "welcome"][0]
    part = calendar_part(welcome)
    openings = both(part)
    assert [e["DTSTART"] for e in openings] == [
        (LEAGUE_START + timedelta(days=7 * i)).strftime("%Y%m%dT%H%M%SZ") for i in range(3)]
    assert "season.ics" in str([p.get("Content-Disposition") for p in welcome.walk()])
    assert "calendar entries too" in " ".join(body(welcome).split()) and not too_wide(body(welcome))
    table.pbem("process", now=iso(LEAGUE_START))  # round 1 opens: its games' deadlines
    text = table.pbem("calendar", "cup", now=iso(LEAGUE_START))[1]
    events = both(text)
    rounds = [e for e in events if ".round" in e["UID"]]
    deadlines = [e for e in events if ".turn1@" in e["UID"]]
    assert len(rounds) == 2 and len(deadlines) == 4  # rounds 2 and 3 to come; two matches, two seats each
    mine = both(table.pbem("calendar", "cup", "--player", ADDRESSES[0], now=iso(LEAGUE_START))[1])
    assert len([e for e in mine if ".turn1@" in e["UID"]]) == 1


def test_a_pause_and_resume_moves_the_entry_and_a_paused_game_states_none(table):
    new_match(table)
    uid = both(calendar_part(table.order(GEORGE, "SET CALENDAR ON", now=START)[0]))[0]["UID"]
    table.new_mails(GEORGE)
    table.pbem("gm", "PAUSE", "m1", now="2026-12-01T12:00:00Z")
    paused = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    assert len(paused) == 1 and calendar_part(paused[0]) is None  # the clock is stopped: no deadline
    table.pbem("gm", "RESUME", "m1", now="2026-12-02T12:00:00Z")  # a day later: the deadline a day later
    resumed = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    events = both(calendar_part(resumed[0]))
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"]) for e in events] == [(uid, "20261204T100000Z", "1")]
