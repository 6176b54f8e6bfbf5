"""The one way in for the layers above the GM (leagues, open tables).

DESIGN.md: the GM knows nothing of leagues or tables. A layer registers itself from above (the
app does it as it makes the GM) and the GM calls the hooks below at the moments they name; a
layer overrides the ones it needs, and the rest do nothing. No module of `pbem/gm/` imports a
layer (tests/gm/test_layers.py reads the imports).

    deadline        a deadline is about to be set: the layer may move it later (an absence)
    missed          a deadline passed with orders owed: the layer may give a new one instead of
                    the missed-deadline policy (AUTOABSENCE), setting it on the table and telling
    game_ended      a game finished or was abandoned
    seat_replaced   a seat changed hands (the GM's REPLACE, a robot taking it)
    rolled_back     the GM rolled a game back (a finished one is in play again)
    owns / gm_command   a GM command that names the layer's own id (REPLACE <league> ...)
    mail            mail the layer answers itself (JOIN, LEAVE, LIST, a confirmation)
    check_orders / take_orders   a player's lines the layer keeps (SET ABSENCE)
    tick            the clock: rounds to open, tables to start
    watchable / ids_but_for_case   the layer's own ids as a spectator may name them (a league)
    attachment      the parts a layer adds to a player's mail, as the Letter's fields (the
                    calendars: the deadline owed, and the withdrawal of those that no longer stand)
    setting         a player's SET of the layer's own (SET CALENDAR): True when it was the layer's
    told            what the answer to such a SET tells (SET DIGEST: the time in the reader's zone)
    hold            a letter about to be queued that the layer keeps instead (a digest's): True
                    when it took it (in the same transaction), and the GM queues nothing
"""
from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from pbem.mail.kinds import MailKind


class Watchable(NamedTuple):
    """A layer's own id as spectators see it: what it is (`league`), its name, whether it is in
    play (`active`) and whether its GM made it private (no spectators)."""
    kind: str
    name: str
    status: str
    closed: bool


class Layer:
    """A layer above the GM, as the GM sees it. Every hook does nothing unless overridden."""

    name = "layer"
    # Why `deadline` moved a deadline, in the words the GM's answer uses.
    deadline_why: str | None = None

    def deadline(self, store, game_id: str, addresses: frozenset, moment: datetime) -> datetime:
        return moment

    def missed(self, store, postman, table, now: datetime) -> datetime | None:
        """A new deadline instead of the missed-deadline policy (set on `table.row`, the players
        told), or None to let the policy play."""
        return None

    def game_ended(self, store, postman, table) -> None:
        return None

    def seat_replaced(self, store, postman, table, seat, old_address: str) -> None:
        return None

    def rolled_back(self, store, postman, table, to_turn: int) -> None:
        return None

    def owns(self, store, target_id: str, verb: str) -> bool:
        return False

    def gm_command(self, admin, command) -> str:
        raise NotImplementedError

    def mail(self, door, msg, lines: list, token: str | None):
        """The Outcome of a message this layer answers, or None when it is not the layer's."""
        return None

    def check_orders(self, store, table, seat, orders: list, now: datetime) -> list:
        return []

    def take_orders(self, turns, seat, commands: list, msg) -> str | None:
        return None

    def tick(self, gm, now: datetime) -> list[str]:
        return []

    def watchable(self, store, target_id: str) -> Watchable | None:
        return None

    def ids_but_for_case(self, store, target_id: str) -> list[str]:
        return []

    def attachment(self, postman, kind: MailKind, template: str | None, table, seat, stated: bool = True) -> dict:
        """`stated`: whether the mail states the seat's deadline (a farewell, or the GM's closing
        of a turn, states none)."""
        return {}

    def setting(self, postman, address: str, what: str, value) -> bool:
        return False

    def told(self, postman, address: str, what: str) -> dict:
        return {}

    def hold(self, postman, letter) -> bool:
        return False


_LAYERS: dict[str, Layer] = {}


def register(layer: Layer) -> None:
    """Add a layer once (registering one of the same name again, as each new GM of a process
    does, replaces it)."""
    _LAYERS[layer.name] = layer


def above() -> list[Layer]:
    """Every registered layer, in the order they were first registered."""
    return list(_LAYERS.values())


def tell(hook: str, *args) -> None:
    """Call one hook of every layer (those that only listen)."""
    for layer in above():
        getattr(layer, hook)(*args)


def missed(store, postman, table, now: datetime) -> datetime | None:
    """The first new deadline a layer gives a game whose deadline passed, or None."""
    return next((moved for layer in above() if (moved := layer.missed(store, postman, table, now)) is not None),
                None)


def owner(store, target_id: str, verb: str) -> Layer | None:
    """The layer whose own id a GM command names, if any."""
    return next((layer for layer in above() if layer.owns(store, target_id, verb)), None)


def watchable(store, target_id: str) -> Watchable | None:
    """What a layer's own id is to spectators, if any layer owns `target_id`."""
    return next((found for layer in above() if (found := layer.watchable(store, target_id)) is not None), None)


def attachment(postman, kind: MailKind, template: str | None, table, seat, stated: bool = True) -> dict:
    """The parts the layers add to this mail for `seat` (calendars), as fields of its Letter."""
    parts: dict = {}
    for layer in above():
        parts.update(layer.attachment(postman, kind, template, table, seat, stated))
    return parts


def setting(postman, address: str, what: str, value) -> bool:
    """A player's SET of a layer's own (SET CALENDAR), kept by the layer whose it is."""
    return any(layer.setting(postman, address, what, value) for layer in above())


def told(postman, address: str, what: str) -> dict:
    """What the answer to a player's SET of a layer's own tells (the layer's words for it)."""
    out: dict = {}
    for layer in above():
        out.update(layer.told(postman, address, what))
    return out


def hold(postman, letter) -> bool:
    """Whether a layer keeps this letter instead of the outbox (a reader's digest)."""
    return any(layer.hold(postman, letter) for layer in above())


__all__ = ["Layer", "Watchable", "above", "attachment", "hold", "missed", "owner", "register", "setting", "tell",
           "told", "watchable"]
