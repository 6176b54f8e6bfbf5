"""What the open tables' tests share: players who join by mail, and what every table mail must be."""
from __future__ import annotations

import email.utils
import json

from conftest import GM, body, kinds, too_wide

from pbem.store import Store

ANN, BOB, CY, DI = "ann@example.test", "bob@example.test", "cy@example.test", "di@example.test"
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DI: "Di"}
NOW = "2026-12-01T18:00:00Z"


def open_table(table, *args: str, now: str = NOW) -> str:
    return table.pbem("table", "open", *args, now=now)[1].strip()


def rows(table) -> list[dict]:
    return json.loads(table.pbem("table", "list", "--json")[1])


def row(table, table_id: str) -> dict:
    return next(r for r in rows(table) if r["id"] == table_id)


def reply_address(m) -> str:
    return email.utils.parseaddr(m["Reply-To"] or "")[1]


def token_of(m) -> str:
    local = reply_address(m).split("@")[0]
    assert local.startswith("gm+"), m["Reply-To"]
    return local[len("gm+"):]


def write(table, who: str, text: str, subject: str = "tables", to: str = GM, now: str | None = NOW,
          name: str | None = None, headers: dict | None = None) -> list:
    """A mail from `who` (its From carries `name`), one pass, and the new mail `who` got."""
    table.new_mails(who)
    sender = f"{name} <{who}>" if name else who
    table.send(sender, text, subject=subject, to=to, headers=headers)
    table.pbem("process", now=now)
    return table.new_mails(who)


def answer(table, who: str, question, text: str = "", now: str | None = NOW) -> list:
    """A reply to `question` from `who`, as a mail client's Reply writes it."""
    return write(table, who, text, subject=f"Re: {question['Subject']}", to=reply_address(question), now=now,
                 headers={"In-Reply-To": question["Message-ID"]})


def sit(table, who: str, table_id: str, now: str | None = NOW) -> list:
    """`who` joins and answers the question: the answer to that answer."""
    question = write(table, who, f"JOIN {table_id}", name=NAMES.get(who), now=now)
    assert kinds(question) == ["table"], [m["Subject"] for m in question]
    assert_asks(question[0], table_id)
    return answer(table, who, question[0], now=now)


def assert_table_mail(m, table_id: str | None, answer: bool = True) -> str:
    """What every table mail is (CONTRACT sections 5 and 13)."""
    text = body(m)
    assert m["X-PBEM-Kind"] == "table", m["X-PBEM-Kind"]
    if table_id is not None:
        assert m["Subject"].startswith(f"[{table_id}] "), m["Subject"]
    assert m["Message-ID"]
    assert m["Auto-Submitted"] == ("auto-replied" if answer else "auto-generated"), m["Auto-Submitted"]
    assert (m["In-Reply-To"] is not None) == answer
    assert not too_wide(text) and all(len(line) <= 78 for line in text.splitlines()), text
    return text


def assert_asks(m, table_id: str) -> None:
    """The question a JOIN gets: a short mail whose Reply-To carries a one-time table token."""
    text = " ".join(assert_table_mail(m, table_id).split())
    assert m["Subject"] == f"[{table_id}] Confirm: a seat at table {table_id}"
    token = token_of(m)
    assert token.startswith("t") and len(token) == 17
    assert "To take the seat, reply to this mail; the reply needs no text." in text
    assert (f"To say no, reply with the line LEAVE {table_id}; if you did not ask, ignore this mail: no other "
            "will follow.") in text


def outbox_count(table) -> int:
    store = Store(table.root / "pbem.sqlite3")
    try:
        return store.conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
    finally:
        store.close()


def outbox_since(table, first: int) -> list[dict]:
    """Every mail queued after the first `first` (recipient and kind)."""
    store = Store(table.root / "pbem.sqlite3")
    try:
        found = store.conn.execute("SELECT recipient, kind FROM outbox ORDER BY id").fetchall()
    finally:
        store.close()
    return [{"recipient": r, "kind": k} for r, k in found[first:]]


def configure(table, **sections) -> None:
    text = (table.root / "pbem.yaml").read_text()
    for section, values in sections.items():
        text += f"{section}:\n" + "".join(f"  {k}: {v}\n" for k, v in values.items())
    (table.root / "pbem.yaml").write_text(text)


def welcomed(table, game_id: str) -> set[str]:
    """Every address that got the welcome of `game_id`."""
    out = set()
    for folder in (table.root / "mail").iterdir():
        if folder.name == GM:
            continue
        if any(m["X-PBEM-Kind"] == "welcome" and m["X-PBEM-Game"] == game_id for m in table.mails(folder.name)):
            out.add(folder.name)
    return out
