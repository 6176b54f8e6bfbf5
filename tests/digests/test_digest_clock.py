"""When a digest falls due (CONTRACT section 14): at the reader's time of day in their zone,
across a change of clocks; the daemon wakes for it; a day's digest is bounded, and what is left
over comes the next day, said so."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import body

from pbem.digests import next_moment, rows
from pbem.store import Store

FAN = "fan@example.test"


def test_the_next_moment_is_the_time_of_day_in_the_readers_zone():
    winter = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    assert next_moment(winter, "18:00", "Europe/Paris") == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    assert next_moment(winter, "18:00", "UTC") == datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert next_moment(winter, "07:30", "America/New_York") == datetime(2026, 12, 1, 12, 30, tzinfo=UTC)
    at_the_time = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)  # 18:00 in Paris: the next is tomorrow's
    assert next_moment(at_the_time, "18:00", "Europe/Paris") == datetime(2026, 12, 2, 17, 0, tzinfo=UTC)
    summer = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
    assert next_moment(summer, "18:00", "Europe/Paris") == datetime(2026, 7, 1, 16, 0, tzinfo=UTC)
    # The night the clocks go forward in Paris (29 March 2026): 02:30 does not exist that day.
    spring = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)
    assert next_moment(spring, "02:30", "Europe/Paris") > spring
    assert next_moment(winter, "18:00", "No/Such_Zone") == datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def _hold(store: Store, n: int, now: datetime, at: str = "18:00") -> None:
    with store.transaction():
        rows.set_reader(store, FAN, at, "d" + "0" * 16, now)
        for i in range(n):
            rows.hold(store, FAN, now + timedelta(seconds=i), "m1", "report", f"[m1] Report {i + 1}",
                      f"Report number {i + 1}.\n", followed=True)
        rows.set_next(store, FAN, next_moment(now, at, "UTC"))


def test_the_daemon_wakes_for_the_next_digest(tmp_path, monkeypatch):
    from pbem import daemon
    from pbem.app import App
    from pbem.config import local_defaults
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T17:59:55Z")
    with App.open(local_defaults(tmp_path)) as app:
        assert daemon._until_next(app) == daemon.LONGEST_WAIT  # nothing due at all
        _hold(app.store, 1, datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
        assert 4 <= daemon._until_next(app) <= 5  # 18:00 UTC, five seconds on


def test_a_digest_is_bounded_and_the_rest_comes_the_next_day(table):
    store = Store(table.root / "pbem.sqlite3")
    try:
        _hold(store, 205, datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    finally:
        store.close()
    table.pbem("process", now="2026-12-01T17:59:00Z")
    assert table.new_mails(FAN) == []
    table.pbem("process", now="2026-12-01T18:00:00Z")
    first, = table.new_mails(FAN)
    text = " ".join(body(first).split())
    assert first["Subject"] == "Your digest of 2026-12-01: 200 mails"
    assert "Mail 200 of 200" in text and "Report number 200." in text and "Report number 201." not in text
    assert "5 more mails waited beyond what one digest holds: they come in your next digest." in text
    table.pbem("process", now="2026-12-01T23:00:00Z")
    assert table.new_mails(FAN) == []  # not before the next day's time
    table.pbem("process", now="2026-12-02T18:00:00Z")
    second, = table.new_mails(FAN)
    text = " ".join(body(second).split())
    assert "Mail 5 of 5" in text and "Report number 201." in text and "more mail" not in text
