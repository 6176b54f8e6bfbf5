"""Mail text from Jinja2 templates: one template per kind of mail, per game where the game differs.

A template's first line is `Subject: ...`, then a blank line, then the body. `<game type>/<kind>.txt`
(from the game's own folder, `pbem/games/<type>/templates/`) wins over its family's
`<family>/<kind>.txt`, which wins over the generic `<kind>.txt` of `pbem/templates/`.
"""
from __future__ import annotations

import re
from functools import lru_cache, cache

from pbem.errors import BadValue
from pbem.games.registry import spec_for, types


class BadTemplate(BadValue):
    """A mail of a kind no template writes, or a template that does not start with its
    `Subject:` line."""


@lru_cache(maxsize=1)
def environment():
    # Jinja2 loads here, not at the head: a pass that loads the GM but writes no mail (a quiet
    # tick of a league's) does not pay for it.
    from pbem.render.jinja import new_environment  # noqa: PLC0415 (see above)
    return new_environment({
        "ljust": lambda value, width: str(value).ljust(width),
        "rjust": lambda value, width: str(value).rjust(width),
        "names": names,
        "signed": lambda score: f"{score:+d}" if score else "0",
    })


def names(items) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy": a list of names as a sentence says it."""
    items = [str(item) for item in items]
    return " and ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " and " + items[-1]


@cache
def template_name(kind: str, game_type: str | None) -> str | None:
    known = set(environment().list_templates())
    for folder in (game_type, _family(game_type)):
        if folder and f"{folder}/{kind}.txt" in known:
            return f"{folder}/{kind}.txt"
    return f"{kind}.txt" if f"{kind}.txt" in known else None


def _family(folder: str | None) -> str | None:
    """Games whose mail looks alike share a family's folder (a game's own folder still wins).
    A folder that is no game's (`league`, `table`) has none."""
    family = spec_for(folder).family if folder in types() else None
    return family.name if family else None


def render(kind: str, game_type: str | None, **context) -> tuple[str, str]:
    """(subject, body) of a mail of `kind`."""
    name = template_name(kind, game_type)
    if name is None:
        raise BadTemplate(f"no template for {kind} mail")
    text = environment().get_template(name).render(**context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject:"):
        raise BadTemplate(f"template for {kind} must start with a Subject: line")
    return first[len("Subject:"):].strip(), _tidy(body)


def _tidy(body: str) -> str:
    """No trailing spaces (column padding leaves them) and never more than one blank line."""
    lines = [line.rstrip() for line in body.strip("\n").splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip() + "\n"

