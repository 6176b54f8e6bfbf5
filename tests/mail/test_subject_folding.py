"""A long header is folded at a space inside its text: never right after `Subject:`, which some
mail readers show as an empty subject, and never so that the text reads back otherwise."""
from __future__ import annotations

import email
import email.policy
import random
from datetime import UTC, datetime

import pytest

from pbem.mail.clean import clean
from pbem.mail.outbound import Letter, compose

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
WORDS = ["[cup1]", "Turn", "12", "report:", "Match:", "George", "1", "up", "after", "3", "Annabelle-Marie",
         "Featherstonehaugh-Smythe", "league-spring-2026-round-3-game-17", "(deadline", "2026-12-04T09:00:00Z)",
         "Zoë", "Ré:", "—", "=?utf-8?q?x?=", "x" * 60, "y" * 90]


def _head(letter: Letter) -> list[str]:
    raw = compose(letter, gm_address="gm@example.test", gm_name="Golf GM", now=NOW).raw
    return raw.split(b"\r\n\r\n", 1)[0].decode("ascii").split("\r\n")


def _subjects():
    rng = random.Random(18)
    # The one the issue saw: it fits a line of its own but not after `Subject: `.
    yield "your turn hole league-spring-2026-round-3-game-17 2026-12-04T09:00:00Z)"
    for _ in range(400):
        yield " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))


@pytest.mark.parametrize("subject", list(_subjects())[:1] + [s for i, s in enumerate(_subjects()) if i % 40 == 1])
def test_the_subject_line_is_never_bare(subject):
    head = _head(Letter("ack", "george@example.test", subject, "hi", game_id=subject.split()[0][:64]))
    for i, line in enumerate(head):
        name, colon, rest = line.partition(":")
        if not line.startswith((" ", "\t")):
            assert colon and rest.strip(), f"header {name} left bare: {head[i:i + 2]}"
        words = line.split()
        assert len(line) <= 78 or len(words) == 1 or (len(words) == 2 and words[0].endswith(":")) \
            or len(words[-1]) > 78 - 2, line  # only a word longer than a line may make one


def test_every_folded_subject_reads_back_as_written():
    for subject in _subjects():
        raw = compose(Letter("ack", "george@example.test", subject, "hi"), gm_address="gm@example.test",
                      gm_name="Golf GM", now=NOW).raw
        head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").split("\r\n")
        start = next(i for i, line in enumerate(head) if line.startswith("Subject:"))
        assert head[start] != "Subject:" and head[start][len("Subject:"):].strip(), head[start:start + 2]
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert parsed["Subject"] == clean(subject, 200), (parsed["Subject"], subject)
