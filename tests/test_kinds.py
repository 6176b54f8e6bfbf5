"""Mail kinds and the kinds of a game's log are StrEnums, not bare words (DESIGN, habits):
`MailKind` (the `X-PBEM-Kind` of every mail, CONTRACT section 5) and `LogEvent` (the store's
`events.kind`). That every letter of the golden scenarios carries a MailKind, and every event
they log is a LogEvent, is checked with the transcripts (`test_transcripts.py`)."""
from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

import pbem
from pbem.mail.kinds import ANSWER_KINDS, MailKind
from pbem.mail.outbound import BadLetter, Letter, compose
from pbem.store import LogEvent, Store

PACKAGE = Path(pbem.__file__).parent
MAIL_PAGE = PACKAGE.parent / "docs" / "mail.md"  # the reference page of the mail pbem sends
NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)

# CONTRACT section 5: the X-PBEM-Kind of every mail the GM sends.
CONTRACT_KINDS = {"welcome", "ack", "error", "turn", "report", "reminder", "result", "status", "history", "help",
                  "press", "standings", "notice", "table", "ratings",
                  "digest"}  # section 14's daily digest
# Kinds the contract names elsewhere that pbem does not send (yet): none.
NOT_SENT: set[str] = set()
# Kinds pbem sends beyond the contract's list: none.
EXTENSIONS: set[str] = set()

# The calls that take a mail's kind (a positional argument, or `kind=`), and the one that takes
# a log event's (`Store.add_event`, its third argument).
MAIL_CALLS = {"to_seat", "to_all", "to_sender", "to_address", "league_mail", "_mail", "Letter", "unproven",
              "notice_to_spectators", "copy_to_spectators", "_to_watchers"}
# Modules still passing the words (taken by the postman and the store as their members): the
# round-the-table and toss flows, which the engines' branch changes at the same time.
STILL_WORDS: set[str] = set()


def test_every_mail_kind_is_one_the_contract_names():
    assert {k.value for k in MailKind} == CONTRACT_KINDS | EXTENSIONS
    assert not (NOT_SENT & {k.value for k in MailKind})
    assert ANSWER_KINDS <= set(MailKind)


def test_the_docs_list_every_mail_kind():
    text = " ".join(MAIL_PAGE.read_text(encoding="utf-8").split())
    listed = re.search(r"Every mail has `X-PBEM-Kind` \(([^)]*)\)", text)
    assert listed is not None
    assert set(re.findall(r"`([a-z]+)`", listed.group(1))) == {k.value for k in MailKind}


def test_a_kind_is_its_word():
    assert MailKind.ACK == "ack" and f"{MailKind.STANDINGS}" == "standings" and str(LogEvent.NMR) == "nmr"
    assert MailKind("report") is MailKind.REPORT and LogEvent("rollback") is LogEvent.ROLLBACK


def test_a_letter_of_a_kind_pbem_does_not_send_is_refused():
    with pytest.raises(BadLetter, match="unknown mail kind 'telegram'"):
        compose(Letter("telegram", "george@example.test", "Today", "hi"), gm_address="gm@example.test",
                gm_name="GM", now=NOW)


def test_the_store_logs_only_kinds_of_its_log(tmp_path):
    store = Store(tmp_path / "pbem.sqlite3")
    try:
        with pytest.raises(ValueError):
            store.add_event("m1", NOW, "played", 0)
    finally:
        store.close()


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _words(path: Path) -> list[str]:
    """Where a module passes a mail kind or a log event's kind as a bare word."""
    mail_words = {k.value for k in MailKind}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name in MAIL_CALLS:
            given = list(node.args) + [k.value for k in node.keywords if k.arg == "kind"]
            found += [f"{name}({arg.value!r}) line {node.lineno}" for arg in given
                      if isinstance(arg, ast.Constant) and arg.value in mail_words]
        elif name == "add_event" and len(node.args) > 2 and isinstance(node.args[2], ast.Constant):
            found.append(f"add_event({node.args[2].value!r}) line {node.lineno}")
    return found


def test_no_module_passes_a_kind_as_a_bare_word():
    wrong = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE.parent))
        found = _words(path)
        if found and where not in STILL_WORDS:
            wrong[where] = found
    assert wrong == {}


def test_the_check_sees_a_bare_word(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('postman.to_seat("ack", table, seat)\nLetter(kind="error", to_addr=a)\n'
                     'store.add_event(game, now, "orders", 0)\npostman.to_seat(MailKind.ACK, table, seat, '
                     'template="status")\n')
    assert _words(probe) == ["to_seat('ack') line 1", "Letter('error') line 2", "add_event('orders') line 3"]
