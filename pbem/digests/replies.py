"""SET DIGEST by mail from anyone but a player writing to a game: a spectator (the spectator
token in the address it was sent to, as every spectator mail's Reply-To carries it), a digest's
reader (the digest token, a digest's Reply-To and its List-Unsubscribe mailto), or a stranger.

A player's SET DIGEST in a mail to one of their games (with that seat's secret) is the game's to
read, beside any orders (`pbem.gm.turns`, through the layer's `setting`); so is any mail that
names a game or gives a seat's secret. Here only a mail whose every command is SET DIGEST is
taken, and only with a token: a stranger's gets one short refusal, within the strangers' limits,
and changes nothing.
"""
from __future__ import annotations

from pbem.gm import spectators
from pbem.gm.chain import Outcome
from pbem.gm.wording import wording
from pbem.mail.kinds import MailKind
from pbem.mail.outbound import Letter
from pbem.orders.commands import SetDigest, first_word, read_generic, read_heading
from pbem.orders.text import LongLine, subject_game_id
from pbem.render import render
from pbem.digests import rows
from pbem.digests.letter import is_digest_token
from pbem.digests.settings import told, want

_SUBJECT_CHARS = 40  # "SET DIGEST OFF", as a List-Unsubscribe mailto gives it, and a little room


def answer(door, msg, lines: list, token: str | None) -> Outcome | None:
    """The Outcome of a mail of SET DIGEST lines taken here, or None when it is not this layer's."""
    heading = read_heading(lines)
    body = heading.body
    if is_digest_token(token) and len(msg.subject) <= _SUBJECT_CHARS and _is_digest_line(msg.subject) \
            and not door.has_commands(lines):
        # The mailto of the unsubscribe button, as mailed: its subject is the command, and the
        # text is empty (or a mail program's words of its own).
        body = [(0, " ".join(msg.subject.split()))]
    if not body or not all(_is_digest_line(ln) for _, ln in body):
        return None  # the common case: a text check, and the store is not read
    store = door.store
    owner = None
    if is_digest_token(token):
        reader = rows.reader_by_token(store, token or "")
        owner = reader.address if reader else None
    elif token:
        owner = spectators.spectator_by_token(store, token)
    if owner is None:
        secret = heading.password or token
        if secret or heading.game_id or subject_game_id(msg.subject):
            return None  # a player's, to a game: the game's door reads it (and refuses it if need be)
        words = wording("digest_unproven")
        return door.unproven(msg, note="SET DIGEST without a token", problem=words.problem, hint=words.hint)
    orders, _rest, errors = read_generic(body)
    if errors:
        door.postman.to_sender(MailKind.ERROR, msg, errors=heading.errors + errors, problem=None, hint=None)
        return Outcome("refused", f"SET DIGEST refused: {len(errors)} wrong line(s)", auth=owner)
    command = orders[-1].command  # the last line stands, as for SET TIMEZONE
    assert isinstance(command, SetDigest)  # every line is one (`_is_digest_line`)
    postman = door.postman
    want(postman, owner, command.at)
    ctx = postman.context(None, None)
    ctx["digest"] = told(postman, owner)
    subject, text = render("digest_set", None, **ctx)
    postman.post(Letter(kind=MailKind.ACK, to_addr=owner, subject=subject, text=text, secret=ctx["digest"]["token"],
                        in_reply_to=msg.message_id), topic="digest_set")
    return Outcome("handled", f"digest {command.at or 'off'}", auth=owner)


def _is_digest_line(line) -> bool:
    if isinstance(line, LongLine):
        return False
    word, rest = first_word(line)
    return word == "SET" and first_word(rest)[0].rstrip(":") == "DIGEST"


__all__ = ["answer"]
