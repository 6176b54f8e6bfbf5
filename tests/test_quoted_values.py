"""What a user wrote comes back in an error as they wrote it, in double quotes, never as Python
prints a string (single quotes, escapes): durations, times, time zones, courses, game ids."""
from __future__ import annotations

import pytest

from pbem import clock
from pbem.clock import schedule
from pbem.gm import courses
from pbem.mail.clean import quoted


@pytest.mark.parametrize("call, given", [
    (clock.parse_duration, "soon"),
    (clock.parse_duration, "-5h"),
    (clock.parse_time, "next tuesday"),
    (schedule.zone, "Mars/Base"),
    (courses.load_course, "nowhere"),
])
def test_a_wrong_value_is_quoted_as_written(call, given):
    with pytest.raises(ValueError) as caught:
        call(given)
    message = str(caught.value)
    assert f'"{given}"' in message and f"'{given}'" not in message, message


def test_quoted_is_one_clean_line_cut_short():
    assert quoted("a\x1b]0;title\x07b") == '"a ]0;title b"'
    assert quoted("x" * 100, 10) == '"xxxxxxx..."'
