"""Mail text from Jinja2 templates: one template per kind of mail, per game where the game differs.

A template's first line is `Subject: ...`, then a blank line, then the body. `<game type>/<kind>.txt`
(from the game's own folder, `pbem/games/<type>/templates/`) wins over its family's
`<family>/<kind>.txt`, which wins over the generic `<kind>.txt` of `pbem/templates/`.
"""
from __future__ import annotations

import re
from functools import lru_cache

from pbem.games.registry import spec_for, specs, types


@lru_cache(maxsize=1)
def environment():
    import jinja2  # only a pass that writes mail pays for loading Jinja2
    from pbem.render.game_templates import GameTemplates  # a Jinja2 loader: loaded with it

    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader("pbem", "templates"), GameTemplates()]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Templates are package data, fixed for the life of a process: compiled once, never
        # looked at again on disk (the default stats each file at every render).
        auto_reload=False,
        # Templates write text only; the HTML part is made from the text (`html_part`), escaped there.
        autoescape=False,
    )
    env.filters["wordwrap"] = wordwrap
    env.filters["ljust"] = lambda value, width: str(value).ljust(width)
    env.filters["rjust"] = lambda value, width: str(value).rjust(width)
    env.filters["names"] = names
    env.filters["signed"] = lambda score: f"{score:+d}" if score else "0"
    for spec in specs():  # the filters a game's own templates use
        env.filters.update(spec.filters)
    return env


# What textwrap counts as white space (it splits and drops only these).
_WRAP_SPACE = "\t\n\x0b\x0c\r "


def wordwrap(s: str, width: int = 79, break_long_words: bool = True, wrapstring: str | None = None,
             break_on_hyphens: bool = True) -> str:
    """Jinja2's `wordwrap`, with a shortcut for the common case of lines that fit already: each
    comes back as textwrap would return it (its trailing white space dropped), without the
    wrapping machinery; any longer line goes to Jinja2's own filter, so the text is the same."""
    lines = s.splitlines()
    if any(len(line) > width for line in lines):
        import jinja2.filters  # as in `environment`: loaded only where a mail is written
        return jinja2.filters.do_wordwrap(environment(), s, width, break_long_words, wrapstring, break_on_hyphens)
    return ("\n" if wrapstring is None else wrapstring).join(line.rstrip(_WRAP_SPACE) for line in lines)


def names(items) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy": a list of names as a sentence says it."""
    items = [str(item) for item in items]
    return " and ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " and " + items[-1]


@lru_cache(maxsize=None)
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
        raise ValueError(f"no template for {kind} mail")
    text = environment().get_template(name).render(**context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template for {kind} must start with a Subject: line")
    return first[len("Subject:"):].strip(), _tidy(body)


def _tidy(body: str) -> str:
    """No trailing spaces (column padding leaves them) and never more than one blank line."""
    lines = [line.rstrip() for line in body.strip("\n").splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip() + "\n"

