"""Calendars (CONTRACT sections 5 and 13): `pbem calendar` of a game and of a league, read with
the `icalendar` package and with a reader written here on the standard library (RFC 5545's lines
unfolded and split), and never without an event; `SET CALENDAR ON|OFF`; one event per mail that
states a deadline, whose UID is this install's own and stays, and whose SEQUENCE goes up when an
EXTEND moves it; the withdrawal (METHOD:CANCEL) of an event that no longer stands, once, in the
reader's next mail about the game or a notice of its own; the league welcome's part, and its
openings still to come withdrawn from a player who leaves the league. Every calendar read here
names the GM as its ORGANIZER."""
from __future__ import annotations

import email.policy
import email.utils
import re
from datetime import UTC, datetime, timedelta

from conftest import BILL, GEORGE, GM, LocalTable, body, kinds, too_wide

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


def events_by_icalendar(text: str, method: str | None = None) -> list[dict]:
    """The events as the `icalendar` package reads them, each checked as every calendar pbem
    writes must be: at least one event, each with its UID, DTSTAMP, SEQUENCE and the GM as its
    ORGANIZER; `method`: the calendar's METHOD (None: none at all, as `pbem calendar` prints)."""
    from icalendar import Calendar
    cal = Calendar.from_ical(text)
    assert str(cal["VERSION"]) == "2.0" and cal["PRODID"]
    assert (str(cal["METHOD"]) if "METHOD" in cal else None) == method
    events = list(cal.walk("VEVENT"))
    assert events, "RFC 5545: a calendar holds at least one component"
    out = []
    for ev in events:
        assert {"UID", "DTSTAMP", "SEQUENCE", "DTSTART", "SUMMARY"} <= set(ev), sorted(ev)
        assert str(ev["ORGANIZER"]) == f"mailto:{GM}" and ev["ORGANIZER"].params["CN"] == "Golf GM"
        if method == "CANCEL":
            assert str(ev["STATUS"]) == "CANCELLED"
        out.append({"UID": str(ev["UID"]), "DTSTART": ev.decoded("DTSTART"), "SEQUENCE": int(ev["SEQUENCE"]),
                    "DTSTAMP": ev.decoded("DTSTAMP"), "STATUS": str(ev.get("STATUS", ""))})
    return out


def both(text: str, method: str | None = "PUBLISH") -> list[dict]:
    """The events as both readers see them, checked to agree."""
    mine, theirs = events_by_hand(text), events_by_icalendar(text, method)
    assert [e["UID"] for e in mine] == [e["UID"] for e in theirs]
    for a, b in zip(mine, theirs):
        assert datetime.strptime(a["DTSTART"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC) == b["DTSTART"]
        assert int(a.get("SEQUENCE", 0)) == b["SEQUENCE"] and "DTSTAMP" in a and "ORGANIZER" in a
        assert a.get("STATUS", "") == b["STATUS"]
    return mine


def printed(text: str) -> list[dict]:
    """`pbem calendar`'s file: no METHOD (it is no iTIP message)."""
    return both(text, None)


def parts(mail) -> list[tuple[str, str]]:
    """Each text/calendar part of a mail, after its text: (its method, its calendar), the method
    of its Content-Type the one inside it."""
    found = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    if found:
        leaves = [p for p in mail.walk() if not p.is_multipart()]
        assert leaves[0].get_content_type() == "text/plain"  # the text first, as every reader shows it
    out = []
    for part in found:
        method = part.get_param("method")
        ics = part.get_content()
        assert f"METHOD:{method}" in unfolded(ics), (method, ics)
        out.append((method, ics))
    return out


def calendar_part(mail) -> str | None:
    """The mail's event (METHOD:PUBLISH), if it carries one."""
    published = [ics for method, ics in parts(mail) if method == "PUBLISH"]
    assert len(published) <= 1
    return published[0] if published else None


def cancels(mail) -> list[dict]:
    """The events the mail withdraws (METHOD:CANCEL, one part each, one event each)."""
    out = []
    for method, ics in parts(mail):
        if method == "CANCEL":
            events = both(ics, "CANCEL")
            assert len(events) == 1
            out += events
    return out


def every_calendar_reads(table) -> int:
    """Every calendar part of every mail the GM wrote, read and checked; how many there are."""
    count = 0
    for folder in (table.root / "mail").iterdir():
        for mail in table.mails(folder.name):
            for method, ics in parts(mail):
                events = both(ics, method)
                assert method == "PUBLISH" or len(events) == 1
                count += 1
    return count


ADDRESSES = [f"{n}@example.test" for n in ("alice", "bruno", "chloe", "dmitri")]
LEAGUE_START = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


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


def orders(table, seat: int) -> str:
    """Orders the game takes from `seat` now (its default ones)."""
    return str(table.load().state.default_orders(seat))


def new_match(table, *extra):
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m1", "--deadline", "48h", *extra, now=START)


def test_the_calendar_of_a_game_names_every_deadline_owed_and_reads_in_two_readers(table):
    new_match(table)
    code, text, _ = table.pbem("calendar", "m1")
    events = printed(text)
    assert [e["DTSTART"] for e in events] == ["20261203T100000Z"] * 2
    assert len({e["UID"] for e in events}) == 2 and all(e["SEQUENCE"] == "0" for e in events)
    george = printed(table.pbem("calendar", "m1", "--player", GEORGE)[1])
    assert len(george) == 1 and "seat1" in george[0]["UID"]
    # George orders: only Bill owes a deadline now, and George's own calendar would hold none.
    table.order(GEORGE, "PLAY 4 4 5", now=START)
    code, out, err = table.pbem("calendar", "m1", "--player", GEORGE, check=False)
    assert (code, out) == (1, "") and err == f"pbem calendar: {GEORGE} owes no move in game m1 now: no calendar " \
        "to print\n"
    assert [e["UID"] for e in printed(table.pbem("calendar", "m1")[1])] == [events[1]["UID"]]
    code, _, err = table.pbem("calendar", "nosuch", check=False)
    assert code == 2 and "no game or league" in err


def test_a_game_with_no_deadline_standing_prints_no_calendar_but_why_and_exits_1(table):
    new_match(table)
    table.pbem("new-game", "matchplay", "--player", GEORGE, "--player", BILL, "--id", "slow", "--option",
               "nmr=wait", now=START)
    said = {}
    for game, gm in (("m1", ("PAUSE", "m1")), ("slow", None)):
        if gm:
            table.pbem("gm", *gm, now=START)
        code, out, err = table.pbem("calendar", game, check=False)
        assert code == 1 and out == "" and len(err.splitlines()) == 1, (code, out, err)
        said[game] = err
    table.pbem("gm", "ABANDON", "m1", now=START)
    said["abandoned"] = table.pbem("calendar", "m1", check=False)[2]
    assert said == {
        "m1": "pbem calendar: game m1 is paused: no deadline runs until the GM resumes it: no calendar to print\n",
        "slow": "pbem calendar: game slow has no deadline: it waits for every player's orders (nmr=wait): no "
                "calendar to print\n",
        "abandoned": "pbem calendar: game m1 is abandoned: no deadline stands: no calendar to print\n"}


def test_an_address_that_plays_no_seat_is_warned_of_and_gets_no_calendar(table):
    new_match(table)
    code, out, err = table.pbem("calendar", "m1", "--player", "nobody@example.test", check=False)
    assert (code, out) == (1, "")
    assert err == f"pbem calendar: nobody@example.test plays no seat in game m1 (its players: {GEORGE}, {BILL})\n"
    path = league_file(table)
    table.pbem("league", "create", str(path), now=iso(LEAGUE_START - timedelta(days=1)))
    code, out, err = table.pbem("calendar", "cup", "--player", GEORGE, check=False)
    assert (code, out, err) == (1, "", f"pbem calendar: {GEORGE} plays in no row and no game of league cup\n")
    # A player of the league has its rounds' openings before any game of theirs is made.
    assert len(printed(table.pbem("calendar", "cup", "--player", ADDRESSES[0].upper())[1])) == 3


def test_uids_are_this_installs_own_and_the_same_for_one_deadline(table, tmp_path, monkeypatch):
    new_match(table)
    first = printed(table.pbem("calendar", "m1")[1])
    again = printed(table.pbem("calendar", "m1", now="2026-12-01T11:00:00Z")[1])
    assert [e["UID"] for e in first] == [e["UID"] for e in again]  # the same deadline: the same event
    assert [e["SEQUENCE"] for e in again] == ["0", "0"] and first[0]["DTSTAMP"] != again[0]["DTSTAMP"]
    uid = first[0]["UID"]
    assert re.fullmatch(r"m1\.seat1\.turn1\.[0-9a-f]{16}@example\.test", uid), uid
    # Another GM on the same provider, whose game has the same id: other UIDs.
    (tmp_path / "other").mkdir()
    other = LocalTable(tmp_path / "other", monkeypatch)
    monkeypatch.chdir(tmp_path / "other")
    new_match(other)
    theirs = printed(other.pbem("calendar", "m1")[1])
    assert [e["DTSTART"] for e in theirs] == [e["DTSTART"] for e in first]
    assert not {e["UID"] for e in theirs} & {e["UID"] for e in first}
    got = other.order(GEORGE, "SET CALENDAR ON", now=START)
    assert both(calendar_part(got[0]))[0]["UID"] == theirs[0]["UID"]  # the mail's event is the file's


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
    assert cancels(notice[0]) == []
    # Bill never asked: his notice is text alone.
    assert all(not parts(m) for m in table.new_mails(BILL))
    # George orders: his ack states no deadline, and the turn's still stands in his calendar.
    ack = table.order(GEORGE, "PLAY 4 4 5", now="2026-12-01T12:00:00Z")
    assert kinds(ack) == ["ack"] and not parts(ack[0])
    # The turn resolves early: the report states turn 2's deadline, a new event, and withdraws
    # turn 1's (the same UID, its SEQUENCE raised past the EXTEND's).
    table.order(BILL, "PLAY 4 4 5", now="2026-12-01T12:10:00Z")
    report = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "report"]
    assert len(report) == 1
    turn2 = both(calendar_part(report[0]))
    assert len(turn2) == 1 and turn2[0]["UID"] != uid and ".turn2." in turn2[0]["UID"]
    assert turn2[0]["DTSTART"] == "20261203T121000Z" and turn2[0]["SEQUENCE"] == "0"
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"], e["STATUS"]) for e in cancels(report[0])] == [
        (uid, "20261204T100000Z", "2", "CANCELLED")]
    every = [ics for m in table.mails(GEORGE) for _, ics in parts(m)]
    assert sum(uid in ics for ics in every) == 3  # the ack and the EXTEND's notice, and the withdrawal
    # OFF: no new event; the one George holds is still withdrawn when its turn ends, once.
    off = table.order(GEORGE, "SET CALENDAR OFF", now="2026-12-01T13:00:00Z")
    assert not parts(off[0]) and "No more calendar entries" in body(off[0])
    assert kinds(table.order(GEORGE, orders(table, 0), now="2026-12-01T13:10:00Z")) == ["ack"]
    table.order(BILL, orders(table, 1), now="2026-12-01T13:20:00Z")
    later = table.new_mails(GEORGE)
    assert kinds(later) == ["report"] and calendar_part(later[0]) is None
    assert [e["UID"] for e in cancels(later[0])] == [turn2[0]["UID"]]
    table.order(GEORGE, orders(table, 0), now="2026-12-01T14:10:00Z")
    table.order(BILL, orders(table, 1), now="2026-12-01T14:20:00Z")
    assert not [p for m in table.new_mails(GEORGE) for p in parts(m)]
    assert every_calendar_reads(table) == 5


def test_a_moved_deadline_moves_the_entry_of_a_player_who_has_ordered(table):
    new_match(table)
    # One answer to both lines: the event rides on it, though the orders' acknowledgement leads.
    uid = both(calendar_part(table.order(GEORGE, "SET CALENDAR ON\nPLAY 4 4 5", now=START)[0]))[0]["UID"]
    table.pbem("gm", "EXTEND", "m1", "24h", now="2026-12-01T11:00:00Z")
    notice = table.new_mails(GEORGE)
    assert kinds(notice) == ["notice"]
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"]) for e in both(calendar_part(notice[0]))] == [
        (uid, "20261204T100000Z", "1")]


def test_a_wrong_set_calendar_line_is_refused_with_what_is_right(table):
    new_match(table)
    got = table.order(GEORGE, "SET CALENDAR maybe", now=START)
    assert kinds(got) == ["error"] and "SET CALENDAR takes ON or OFF" in body(got[0])
    assert "SET CALENDAR ON" in body(got[0]) and not parts(got[0])


def test_a_leagues_calendar_and_its_welcome_part_name_every_round_opening(table):
    path = league_file(table)
    table.pbem("league", "create", str(path), now=iso(LEAGUE_START - timedelta(days=1)))
    welcome = [m for m in table.mails(ADDRESSES[0]) if m["X-PBEM-Kind"] == "welcome"][0]
    part = calendar_part(welcome)
    openings = both(part)
    assert [e["DTSTART"] for e in openings] == [
        (LEAGUE_START + timedelta(days=7 * i)).strftime("%Y%m%dT%H%M%SZ") for i in range(3)]
    assert all(re.fullmatch(r"cup\.round\d\.[0-9a-f]{16}@example\.test", e["UID"]) for e in openings)
    assert "season.ics" in str([p.get("Content-Disposition") for p in welcome.walk()])
    assert "calendar entries too" in " ".join(body(welcome).split()) and not too_wide(body(welcome))
    table.pbem("process", now=iso(LEAGUE_START))  # round 1 opens: its games' deadlines
    text = table.pbem("calendar", "cup", now=iso(LEAGUE_START))[1]
    events = printed(text)
    rounds = [e for e in events if ".round" in e["UID"]]
    deadlines = [e for e in events if ".turn1." in e["UID"]]
    assert len(rounds) == 2 and len(deadlines) == 4  # rounds 2 and 3 to come; two matches, two seats each
    mine = printed(table.pbem("calendar", "cup", "--player", ADDRESSES[0], now=iso(LEAGUE_START))[1])
    assert len([e for e in mine if ".turn1." in e["UID"]]) == 1
    assert every_calendar_reads(table) == 4


def test_a_pause_withdraws_the_entry_and_a_resume_states_it_again(table):
    new_match(table)
    uid = both(calendar_part(table.order(GEORGE, "SET CALENDAR ON", now=START)[0]))[0]["UID"]
    table.new_mails(GEORGE)
    table.pbem("gm", "PAUSE", "m1", now="2026-12-01T12:00:00Z")
    paused = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    assert len(paused) == 1 and calendar_part(paused[0]) is None  # the clock is stopped: no deadline
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"]) for e in cancels(paused[0])] == [
        (uid, "20261203T100000Z", "1")]
    table.pbem("gm", "RESUME", "m1", now="2026-12-02T12:00:00Z")  # a day later: the deadline a day later
    resumed = [m for m in table.new_mails(GEORGE) if m["X-PBEM-Kind"] == "notice"]
    events = both(calendar_part(resumed[0]))
    assert [(e["UID"], e["DTSTART"], e["SEQUENCE"]) for e in events] == [(uid, "20261204T100000Z", "2")]
    assert cancels(resumed[0]) == []


def test_the_result_and_an_abandonment_withdraw_the_entries_they_end(table):
    new_match(table)
    table.pbem("new-game", "matchplay", "--player", f"George <{GEORGE}>", "--player", f"Bill <{BILL}>",
               "--id", "m2", "--deadline", "48h", now=START)
    one = both(calendar_part(table.order(GEORGE, "SET CALENDAR ON", now=START)[0]))[0]["UID"]
    # Asked in one game, for all of the address's: m2's next mail that states a deadline has it.
    table.new_mails(BILL)
    table.send(BILL, "SET CALENDAR ON", subject="Re: [m2] welcome", to=table.reply_to_game(BILL, "m2"))
    table.pbem("process", now=START)
    bill = both(calendar_part(table.new_mails(BILL)[0]))[0]["UID"]
    table.pbem("gm", "EXTEND", "m2", "1h", now=START)
    two = both(calendar_part(table.new_mails(GEORGE)[0]))[0]["UID"]
    assert ".seat1.turn1." in one and one.startswith("m1.") and two.startswith("m2.") and bill.startswith("m2.")
    result = table.order(BILL, "RESIGN", now="2026-12-01T12:00:00Z")
    assert kinds(result) == ["result"] and not parts(result[0])  # Bill holds nothing of m1
    george = table.new_mails(GEORGE)
    assert kinds(george) == ["result"] and calendar_part(george[0]) is None
    assert [e["UID"] for e in cancels(george[0])] == [one]
    table.pbem("gm", "ABANDON", "m2", now="2026-12-01T13:00:00Z")
    george, bills = table.new_mails(GEORGE), table.new_mails(BILL)
    assert kinds(george) == ["notice"] and [e["UID"] for e in cancels(george[0])] == [two]
    assert kinds(bills) == ["notice"] and [e["UID"] for e in cancels(bills[0])] == [bill]
    assert calendar_part(george[0]) is None and calendar_part(bills[0]) is None
    assert every_calendar_reads(table) == 7


def test_a_player_whose_seat_is_handed_on_gets_the_withdrawal_in_a_notice_of_its_own(table):
    new_match(table)
    uid = both(calendar_part(table.order(BILL, "SET CALENDAR ON", now=START)[0]))[0]["UID"]
    table.pbem("gm", "REPLACE", "m1", BILL, "William <will@example.test>", now="2026-12-01T11:00:00Z")
    farewell, withdrawal = table.new_mails(BILL)
    assert kinds([farewell, withdrawal]) == ["notice", "notice"]
    assert not parts(farewell)  # it states no deadline: the seat is no longer the reader's
    assert withdrawal["Subject"] == "[m1] Calendar entry withdrawn" and withdrawal["Reply-To"] is None
    assert calendar_part(withdrawal) is None and [e["UID"] for e in cancels(withdrawal)] == [uid]
    assert "no more mail about that game" in " ".join(body(withdrawal).split()) and not too_wide(body(withdrawal))
    assert "(turn 1, Bill)" in body(withdrawal)
    # The newcomer asked for nothing: no part; the GM's own games end, and nothing more comes to Bill.
    assert all(not parts(m) for m in table.new_mails("will@example.test"))
    table.pbem("gm", "ABANDON", "m1", now="2026-12-01T12:00:00Z")
    assert table.new_mails(BILL) == []
    assert every_calendar_reads(table) == 2


def test_an_older_store_gets_its_install_id_on_first_use_and_keeps_it(table):
    from pbem.store import Store
    new_match(table)
    store = Store(table.root / "pbem.sqlite3")
    made = store.install_id()
    store.conn.execute("DELETE FROM meta WHERE key = 'install'")  # as a store of an older pbem has it
    store.close()
    store = Store(table.root / "pbem.sqlite3")
    try:
        mine = store.install_id()
        assert re.fullmatch(r"[0-9a-f]{16}", mine) and mine != made
        assert store.meta("install") == mine
    finally:
        store.close()
    assert f".{mine}@" in printed(table.pbem("calendar", "m1")[1])[0]["UID"]


def test_a_mail_carries_its_event_then_each_withdrawal_as_a_part_of_its_own(tmp_path):
    """iCalendar allows one METHOD to an object: the PUBLISH part, then one CANCEL part per UID;
    the text stays first and is found again as the GM's own (a reply is read against it)."""
    from pbem import calendars
    from pbem.calendars.rows import Held
    from pbem.mail.outbound import Letter, compose, text_of
    from pbem.store import Store

    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    store = Store(tmp_path / "pbem.sqlite3")
    gm = calendars.Organizer("Golf GM", GM)
    entry = calendars.Entry("m1.seat1.turn2.x@example.test", now + timedelta(days=2), "turn 2", "due")
    published = calendars.calendar(store, [entry], now, gm, publish=True)
    gone = tuple(calendars.cancel(store, Held(f"m1.seat1.turn{n}.x@example.test", "2026-12-03T10:00:00Z",
                                              f"turn {n}"), now, gm) for n in (0, 1))
    store.close()

    def composed(letter: Letter):
        raw = compose(letter, gm_address=GM, gm_name="Golf GM", now=now).raw
        return raw, email.message_from_bytes(raw, policy=email.policy.default)

    letter = Letter("report", GEORGE, "[m1] Turn 1", "Hello George,\n\nTurn 1 is played.\n", html="<p>Turn 1</p>",
                    calendar=published, calendar_cancels=gone)
    raw, mail = composed(letter)
    assert mail.get_content_type() == "multipart/mixed"
    assert [p.get_content_type() for p in mail.iter_parts()] == ["multipart/alternative"] + ["text/calendar"] * 3
    assert [(method, both(ics, method)[0]["SEQUENCE"]) for method, ics in parts(mail)] == [
        ("PUBLISH", "0"), ("CANCEL", "1"), ("CANCEL", "1")]
    assert [p.get_filename() for p in mail.iter_parts()][1:] == ["deadline.ics", "cancel.ics", "cancel.ics"]
    assert text_of(raw) == letter.text
    _, alone = composed(Letter("notice", GEORGE, "[m1] Calendar entry withdrawn", "Hello,\n", calendar_cancels=gone[:1]))
    assert [method for method, _ in parts(alone)] == ["CANCEL"] and calendar_part(alone) is None


def test_a_player_who_leaves_a_league_has_the_round_openings_still_to_come_withdrawn(table):
    """The welcome put the season's openings in every player's calendar; a player withdrawn, or
    whose row the GM gives to another player or to a robot, gets them withdrawn (those still to
    come) in the mail that tells them they have left, once; the newcomer gets its own."""
    table.pbem("league", "create", str(league_file(table)), now=iso(LEAGUE_START - timedelta(days=1)))
    welcomes = {a: next(m for m in table.new_mails(a) if m["X-PBEM-Kind"] == "welcome") for a in ADDRESSES}
    uids = {a: [e["UID"] for e in both(calendar_part(m))] for a, m in welcomes.items()}
    assert all(len(u) == 3 and u == uids[ADDRESSES[0]] for u in uids.values())  # rounds 1 to 3, the same for all
    # Before the season: Dmitri withdrawn, all three openings come out.
    table.pbem("gm", "WITHDRAW", "cup", ADDRESSES[3], now=iso(LEAGUE_START - timedelta(hours=1)))
    [left] = [m for m in table.new_mails(ADDRESSES[3]) if m["X-PBEM-League"] == "cup"]
    assert left["Subject"] == "[cup] You have left Winter Cup" and calendar_part(left) is None
    assert [(e["UID"], e["STATUS"]) for e in cancels(left)] == [(u, "CANCELLED") for u in uids[ADDRESSES[3]]]
    words = " ".join(body(left).split())
    assert "put the openings of the 3 rounds still to come in your calendar" in words and not too_wide(body(left))
    table.pbem("process", now=iso(LEAGUE_START))  # round 1 opens: its opening stands as it happened
    for a in ADDRESSES[:3]:
        table.new_mails(a)
    # Round 1 under way (Bruno v Chloe): Bruno's row to Zoe; Bruno is told, his two openings to
    # come withdrawn.
    zoe = "zoe@example.test"
    table.pbem("gm", "REPLACE", "cup", ADDRESSES[1], f"Zoe <{zoe}>", now=iso(LEAGUE_START + timedelta(hours=1)))
    bruno = [m for m in table.new_mails(ADDRESSES[1]) if m["X-PBEM-League"] == "cup"]
    assert [m["Subject"] for m in bruno] == ["[cup] You have left Winter Cup: Zoe plays your place"]
    assert [e["UID"] for e in cancels(bruno[0])] == uids[ADDRESSES[1]][1:]
    words = " ".join(body(bruno[0]).split())
    assert "The GM has given your place in Winter Cup (league cup) to Zoe." in words
    assert "Zoe plays your game in play from where you left it: cup-r1-" in words
    assert "put the openings of the 2 rounds still to come in your calendar" in words and not too_wide(body(bruno[0]))
    newcomer = next(m for m in table.new_mails(zoe) if m["X-PBEM-League"] == "cup")
    assert [e["UID"] for e in both(calendar_part(newcomer))] == uids[ADDRESSES[1]][1:] and not cancels(newcomer)
    # Chloe's row to a robot: her mail withdraws hers; Zoe's, held, stay.
    table.pbem("gm", "REPLACE", "cup", ADDRESSES[2], "Iron Caddie <robot:easy>",
               now=iso(LEAGUE_START + timedelta(hours=2)))
    chloe = [m for m in table.new_mails(ADDRESSES[2]) if m["X-PBEM-League"] == "cup"]
    assert len(chloe) == 1 and chloe[0]["Subject"].startswith("[cup] You have left Winter Cup: a robot")
    assert [e["UID"] for e in cancels(chloe[0])] == uids[ADDRESSES[2]][1:]
    assert not too_wide(body(chloe[0]))
    # Zoe withdrawn: hers come out, once; Alice, who stays, keeps hers, and Bruno has nothing more.
    table.pbem("gm", "WITHDRAW", "cup", zoe, now=iso(LEAGUE_START + timedelta(hours=3)))
    [gone] = [m for m in table.new_mails(zoe) if m["X-PBEM-League"] == "cup"]
    assert [e["UID"] for e in cancels(gone)] == uids[ADDRESSES[1]][1:]
    assert all(not cancels(m) for m in table.new_mails(ADDRESSES[0]))
    assert all(not cancels(m) for m in table.new_mails(ADDRESSES[1]))
    sequences = [int(e["SEQUENCE"]) for e in cancels(gone)]
    assert all(s >= 2 for s in sequences)  # above the withdrawal before and the newcomer's statement
    assert every_calendar_reads(table) == 4 + 3 + 2 + 1 + 2 + 2
