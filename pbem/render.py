"""Mail text from Jinja2 templates: one template per kind of mail, per game where the game differs.

A template's first line is `Subject: ...`, then a blank line, then the body. `<game type>/<kind>.txt`
wins over the generic `<kind>.txt`.
"""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def environment():
    import jinja2  # only a pass that writes mail pays for loading Jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pbem", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["ljust"] = lambda value, width: str(value).ljust(width)
    env.filters["rjust"] = lambda value, width: str(value).rjust(width)
    return env


def template_name(kind: str, game_type: str | None) -> str:
    env = environment()
    if game_type:
        name = f"{game_type}/{kind}.txt"
        if name in env.list_templates():
            return name
    return f"{kind}.txt"


def render(kind: str, game_type: str | None, **context) -> tuple[str, str]:
    """(subject, body) of a mail of `kind`."""
    text = environment().get_template(template_name(kind, game_type)).render(**context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template for {kind} must start with a Subject: line")
    return first[len("Subject:"):].strip(), body.lstrip("\n").rstrip() + "\n"
