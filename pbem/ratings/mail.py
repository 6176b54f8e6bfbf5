"""RATINGS by mail (CONTRACT section 13): ratings are public, so no password is asked, and the
line is answered as any mail that proves no seat is (within the strangers' limits), and only to
an address that plays or played here: the sender's own rows, then the table of each game type
they play, and how often their orders came in time. Names only in the mail: the tables go to
anyone who ever played, and a player's address is theirs to give. A layer above the GM
(`gm.layers`), registered from the app."""
from __future__ import annotations

from pbem.gm.inbox import Outcome
from pbem.gm.layers import Layer
from pbem.gm.wording import wording
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter
from pbem.orders.commands import first_word
from pbem.orders.text import LongLine
from pbem.ratings import ratings, ratings_text
from pbem.ratings.reliability import WINDOW, Orders, percent, reliability
from pbem.render import render
from pbem.store import InboundStatus

WORD = "RATINGS"


class RatingsLayer(Layer):
    name = "ratings"

    def mail(self, door, msg, lines: list, token: str | None):
        # Asked of every message: a text check first (the first command line is RATINGS alone).
        if not lines or isinstance(lines[0][1], LongLine) or first_word(lines[0][1])[0] != WORD:
            return None
        if token is not None and door.store.seat_by_secret(token) is not None and len(lines) > 1:
            return None  # a player's mail to a game that begins with the word: the game's to read
        return answer(door, msg, lines)


def answer(door, msg, lines: list) -> Outcome:
    store, postman = door.store, door.postman
    if len(lines) > 1 or first_word(lines[0][1])[1].strip():
        return door.unproven(msg, note="RATINGS refused: more than the one line", problem=(
            "A mail that asks for the ratings holds the one line RATINGS and nothing else."), hint="RATINGS")
    played = {seat.game_id for seat in store.seats_of(msg.sender)}
    if not played:
        words = wording("ratings_never_played", gm_contact=postman.gm_contact)
        return door.unproven(msg, note="RATINGS from an address that never played", problem=words.problem,
                             hint=words.hint)
    silenced = door.unanswerable(msg, "ratings")
    if silenced is not None:
        return silenced
    rows = ratings(store)
    types = {row.type for row in store.games() if row.id in played}
    own = [r for r in rows if r["address"] == msg.sender]
    tables = [r for r in rows if r["type"] in types]
    kept = reliability(store, postman.now).get(msg.sender, Orders())
    ctx = postman.context(None, None)
    ctx.update(on_time=percent(kept.share) if kept.share is not None else None, owed=kept.owed,
               window_days=WINDOW.days)
    ctx.update(own=own, own_text=ratings_text(own, addresses=False).rstrip("\n") if own else "",
               tables_text=ratings_text(tables, addresses=False, mark=msg.sender).rstrip("\n") if tables else "")
    subject, text = render("ratings", None, **ctx)
    postman.post(Letter(kind=MailKind.RATINGS, to_addr=msg.sender, subject=subject, text=text,
                        in_reply_to=msg.message_id), topic="ratings")
    return Outcome(InboundStatus.HANDLED, f"ratings: {len(own)} row(s) of the sender, {len(tables)} in the tables")
