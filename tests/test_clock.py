import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, strategies as st

from pbem import clock


def test_now_is_real_and_aware_without_pbem_now(monkeypatch):
    monkeypatch.delenv("PBEM_NOW", raising=False)
    before = datetime.now(UTC)
    moment = clock.now()
    assert moment.tzinfo is not None and moment.utcoffset() == timedelta(0)
    assert before <= moment <= datetime.now(UTC)


@pytest.mark.parametrize("text, expected", [
    ("2026-12-01T18:00:00Z", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
    ("2026-12-01T20:30:00+02:00", datetime(2026, 12, 1, 18, 30, tzinfo=UTC)),
    ("2026-12-01T18:00:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
    (" 2026-12-01 18:00 ", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
])
def test_now_follows_pbem_now(monkeypatch, text, expected):
    monkeypatch.setenv("PBEM_NOW", text)
    moment = clock.now()
    assert moment == expected
    assert moment.tzinfo == UTC


def test_empty_pbem_now_means_real_time(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "")
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(minutes=1)


def test_invalid_pbem_now_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "next tuesday")
    with pytest.raises(ValueError) as err:
        clock.now()
    assert "PBEM_NOW" in str(err.value)
    assert "next tuesday" in str(err.value)
    assert "2026-12-01T18:00:00Z" in str(err.value)


START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def test_a_running_clock_starts_at_pbem_now_and_runs_on(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T18:00:00Z")
    monkeypatch.setenv("PBEM_CLOCK", "running")
    monkeypatch.setattr(clock, "_STARTED", time.monotonic() - 90)  # the process began 90 s ago
    first = clock.now()
    assert timedelta(seconds=90) <= first - START < timedelta(seconds=120)
    assert first.tzinfo == UTC
    monkeypatch.setattr(clock, "_STARTED", clock._STARTED - 2 * 86400)  # and now two days earlier
    later = clock.now()
    assert timedelta(days=2, seconds=90) <= later - START < timedelta(days=2, seconds=120)


def test_a_pinned_clock_stands_still_however_long_the_process_runs(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T18:00:00Z")
    monkeypatch.setattr(clock, "_STARTED", time.monotonic() - 3600)
    for kind in ("pinned", "", " Pinned "):
        monkeypatch.setenv("PBEM_CLOCK", kind)
        assert clock.now() == START
    monkeypatch.delenv("PBEM_CLOCK")
    assert clock.now() == START


@pytest.mark.slow
def test_a_running_clock_in_its_own_process_starts_when_the_process_does():
    script = ("import time; from pbem import clock; a = clock.now(); time.sleep(1.2); "
              "print(a.isoformat()); print(clock.now().isoformat())")
    env = dict(os.environ, PBEM_NOW="2026-12-01T18:00:00Z", PBEM_CLOCK="running")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    first, second = (datetime.fromisoformat(t) for t in out)
    assert START <= first < START + timedelta(seconds=30)
    assert timedelta(seconds=1.2) <= second - first < timedelta(seconds=30)


def test_an_unknown_pbem_clock_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T18:00:00Z")
    monkeypatch.setenv("PBEM_CLOCK", "fast")
    with pytest.raises(ValueError) as err:
        clock.now()
    assert "PBEM_CLOCK" in str(err.value) and "fast" in str(err.value) and "running" in str(err.value)


def test_a_bad_pbem_clock_is_a_usage_error_of_the_command(table):
    table.monkeypatch.setenv("PBEM_CLOCK", "backwards")
    code, _, err = table.pbem("list", now="2026-12-01T18:00:00Z", check=False)
    assert code == 2 and "PBEM_CLOCK" in err


@pytest.mark.parametrize("text, expected", [
    ("48h", timedelta(hours=48)),
    ("3d", timedelta(days=3)),
    ("90m", timedelta(minutes=90)),
    ("30s", timedelta(seconds=30)),
    ("1d12h", timedelta(days=1, hours=12)),
    ("1d 12h", timedelta(days=1, hours=12)),
    ("2w", timedelta(weeks=2)),
    ("2W", timedelta(weeks=2)),
    (" 3D ", timedelta(days=3)),
    ("1h 30m 15s", timedelta(hours=1, minutes=30, seconds=15)),
    ("12 h", timedelta(hours=12)),
])
def test_parse_duration(text, expected):
    assert clock.parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "soon", "12", "h", "3x", "1d h", "1.5h", "h3", "3d!",
                                  "0h", "0d 0m", "-3d", "-1h"])
def test_parse_duration_refuses(text):
    with pytest.raises(ValueError):
        clock.parse_duration(text)


def test_parse_duration_messages():
    with pytest.raises(ValueError, match="like 48h, 3d or 90m"):
        clock.parse_duration("soon")
    with pytest.raises(ValueError, match="longer than zero"):
        clock.parse_duration("0h")
    with pytest.raises(ValueError, match="longer than zero"):
        clock.parse_duration("-2d")


@pytest.mark.parametrize("span, text", [
    (timedelta(days=2, hours=4), "2d 4h"),
    (timedelta(minutes=90), "1h 30m"),
    (timedelta(hours=48), "2d"),
    (timedelta(days=1, minutes=5), "1d 5m"),
    (timedelta(seconds=30), "30s"),
    (timedelta(0), "0s"),
    (timedelta(hours=-2), "-2h"),
])
def test_format_duration(span, text):
    assert clock.format_duration(span) == text


@given(st.integers(min_value=1, max_value=60 * 24 * 366))
def test_format_then_parse_round_trips_whole_minutes(minutes):
    span = timedelta(minutes=minutes)
    assert clock.parse_duration(clock.format_duration(span)) == span


@pytest.mark.parametrize("text", ["367d", "999999w", "9" * 5000 + "h", "1\u0663h", "99999999999d"])
def test_a_duration_from_mail_is_ascii_and_at_most_a_year(text):
    with pytest.raises(ValueError) as refused:
        clock.parse_duration(text)
    assert len(str(refused.value)) < 120  # never the whole of a huge value


def test_format_utc():
    assert clock.format_utc(datetime(2026, 12, 1, 18, 0, tzinfo=UTC)) == "2026-12-01 18:00 UTC"
    plus_two = timezone(timedelta(hours=2))
    assert clock.format_utc(datetime(2026, 12, 1, 20, 5, tzinfo=plus_two)) == "2026-12-01 18:05 UTC"
    assert clock.format_utc(datetime(2026, 12, 1, 18, 0)) == "2026-12-01 18:00 UTC"
