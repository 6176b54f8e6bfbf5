from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, strategies as st

from pbem import clock


def test_now_is_real_and_aware_without_pbem_now(monkeypatch):
    monkeypatch.delenv("PBEM_NOW", raising=False)
    before = datetime.now(timezone.utc)
    moment = clock.now()
    assert moment.tzinfo is not None and moment.utcoffset() == timedelta(0)
    assert before <= moment <= datetime.now(timezone.utc)


@pytest.mark.parametrize("text, expected", [
    ("2026-12-01T18:00:00Z", datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)),
    ("2026-12-01T20:30:00+02:00", datetime(2026, 12, 1, 18, 30, tzinfo=timezone.utc)),
    ("2026-12-01T18:00:00", datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)),
    (" 2026-12-01 18:00 ", datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)),
])
def test_now_follows_pbem_now(monkeypatch, text, expected):
    monkeypatch.setenv("PBEM_NOW", text)
    moment = clock.now()
    assert moment == expected
    assert moment.tzinfo == timezone.utc


def test_empty_pbem_now_means_real_time(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "")
    assert abs(clock.now() - datetime.now(timezone.utc)) < timedelta(minutes=1)


def test_invalid_pbem_now_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "next tuesday")
    with pytest.raises(ValueError) as err:
        clock.now()
    assert "PBEM_NOW" in str(err.value)
    assert "next tuesday" in str(err.value)
    assert "2026-12-01T18:00:00Z" in str(err.value)


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
    assert clock.format_utc(datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)) == "2026-12-01 18:00 UTC"
    plus_two = timezone(timedelta(hours=2))
    assert clock.format_utc(datetime(2026, 12, 1, 20, 5, tzinfo=plus_two)) == "2026-12-01 18:05 UTC"
    assert clock.format_utc(datetime(2026, 12, 1, 18, 0)) == "2026-12-01 18:00 UTC"
