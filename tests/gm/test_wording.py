"""The inbox's sentences come from its templates (`templates/inbox/`), each part trimmed to its
sentences, and a value a piece needs but is not given is an error, never a blank."""
from __future__ import annotations

import jinja2
import pytest

from pbem.gm.wording import wording


def test_a_piece_gives_its_parts_as_sentences():
    words = wording("too_large", size=1_234_567, limit=1 << 20)
    assert words.problem == "Your message is too large."
    assert words.hint.startswith("It is 1,234,567 bytes long and I read at most 1,048,576: ")
    assert not words.hint.endswith("\n") and "\n" not in words.hint


def test_a_piece_picks_its_sentences_by_the_values_given():
    assert wording("password", given=False).problem == "This message carries no password."
    assert wording("password", given=True).problem == "The password is wrong."
    one, two = (wording("confirmation_expired", days=7, targets=targets).hint for targets in (["m1"], ["m1", "cup"]))
    assert one.endswith("send a mail with the line OBSERVE m1.")
    assert two.endswith("send a mail with the lines OBSERVE m1; OBSERVE cup.")


def test_a_piece_keeps_the_paragraphs_it_writes():
    class Wrong:
        def __init__(self, lineno, message, hint):
            self.lineno, self.message, self.hint = lineno, message, hint

    hint = wording("spectator_refused", errors=[Wrong(2, "no game x here", "OBSERVE m1"),
                                                Wrong(None, "a second request", None)]).hint
    assert hint.startswith("Line 2: no game x here.\na second request.\n\nWhat would be right: OBSERVE m1. OBSERVE <id>")


def test_a_value_missing_is_an_error():
    with pytest.raises(jinja2.UndefinedError):
        wording("too_many_lines")
