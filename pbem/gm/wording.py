"""The sentences of the inbox's answers, from their templates: player prose lives in templates only.

A piece (`templates/inbox/_<piece>.txt`) sets the parts of one answer with `{% set %}`: `problem`
and `hint` for a refusal, `message`, `rule` and `hint` for one line's error. The mail's own
template (`error.txt`) lays them out, so a piece holds sentences only, each paragraph on one line.
"""
from __future__ import annotations

from types import SimpleNamespace

from pbem.render import environment


def wording(piece: str, **context) -> SimpleNamespace:
    """The parts a piece sets, as attributes, for the values in `context`."""
    module = environment().get_template(f"inbox/_{piece}.txt").make_module(context)
    # A `{% set %}` block keeps the end of its last line; a part is the sentences alone.
    return SimpleNamespace(**{name: value.strip() for name, value in vars(module).items()
                              if not name.startswith("_") and isinstance(value, str)})


__all__ = ["wording"]
