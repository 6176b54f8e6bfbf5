"""The inbox's chain, as Mailman's rules and chains are: a message passes named steps in order,
and the first step that answers it ends it.

A step looks at the message and at what the steps before it found (`Found`), and either returns
the `Outcome` (the message is done: answered, refused, ignored or screened) or None, to pass it
on, having noted in `Found` what the next steps need. The order of the steps is their precedence
(`steps.chain()` lists it, top to bottom); the outcome names the step that ended the message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pbem.mail.inbound import Inbound
from pbem.orders.commands import Heading, Line
from pbem.orders.text import Reading
from pbem.store import Seat, Store
from pbem.gm.games import Table
from pbem.gm.letters import Postman


@dataclass
class Outcome:
    status: str            # handled | refused | ignored | screened (failed and duplicate come from the GM)
    note: str = ""
    game_id: str | None = None
    effects: list[str] = field(default_factory=list)
    auth: str | None = None  # the address that proved its seat (or an admin's), else None
    step: str = ""           # the step of the chain that ended the message (`Step.name`)


@dataclass
class Policy:
    """What the GM's configuration says about who may do what, and how much."""
    gm_addresses: set[str]
    admins: set[str] = field(default_factory=set)
    gm_secret: str | None = None
    messages_per_hour: int = 30
    strangers_per_hour: int = 60
    max_command_lines: int = 100
    max_message_bytes: int = 1 << 20


@dataclass
class Found:
    """What the steps found so far, for the steps after them."""
    reading: Reading | None = None   # the message's lines as commands (`read`)
    head: list[Line] = field(default_factory=list)  # its first lines, one more than are read at most
    token: str | None = None         # the secret in the address the message went to
    heading: Heading = field(default_factory=Heading)  # GAME, PASSWORD and TURN taken out of `head`
    secret: str | None = None        # the seat's secret the message gives (`identify`)
    game_id: str | None = None       # the game it names, or whose secret it gives
    table: Table | None = None       # that game, if there is one
    seat: Seat | None = None         # the sender's seat in it, if any


class Door(Protocol):
    """What a step may ask of the inbox (the layers above get the same door, `layers.Layer.mail`)."""
    postman: Postman
    store: Store
    policy: Policy
    gm_addresses: set[str]

    def read(self, msg: Inbound) -> Reading: ...

    def secret_in_address(self, msg: Inbound) -> str | None: ...

    def unproven(self, msg: Inbound, **how) -> Outcome: ...

    def unanswerable(self, msg: Inbound, note: str) -> Outcome | None: ...

    def has_commands(self, lines: list[Line]) -> bool: ...

    def player(self, msg: Inbound, table: Table, seat: Seat, heading: Heading, reading: Reading) -> Outcome: ...


class Step:
    """One named step of the chain. `reason` says, for the GM's log and listings, what it answers."""
    name = "step"
    reason = ""

    def check(self, door: Door, msg: Inbound, found: Found) -> Outcome | None:
        """The message's outcome if this step ends it, else None (noting what it found)."""
        raise NotImplementedError


__all__ = ["Door", "Found", "Outcome", "Policy", "Step"]
