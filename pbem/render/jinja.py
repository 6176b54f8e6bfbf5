"""The Jinja2 side of the render: the environment the mail is written with, and the filter it
lends the templates that shortcuts Jinja2's own. `pbem.render` loads it with the first mail."""
from __future__ import annotations

import jinja2
import jinja2.filters

from pbem.games.registry import specs
from pbem.render.game_templates import GameTemplates

# What textwrap counts as white space (it splits and drops only these).
_WRAP_SPACE = "\t\n\x0b\x0c\r "


def new_environment(filters: dict) -> jinja2.Environment:
    """The templates' environment, with `filters` and every game's own added to Jinja2's."""
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
    env.filters.update(filters)
    for spec in specs():  # the filters a game's own templates use
        env.filters.update(spec.filters)
    return env


@jinja2.pass_environment
def wordwrap(env: jinja2.Environment, s: str, width: int = 79, break_long_words: bool = True,
             wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja2's `wordwrap`, with a shortcut for the common case of lines that fit already: each
    comes back as textwrap would return it (its trailing white space dropped), without the
    wrapping machinery; any longer line goes to Jinja2's own filter, so the text is the same."""
    lines = s.splitlines()
    if any(len(line) > width for line in lines):
        return jinja2.filters.do_wordwrap(env, s, width, break_long_words, wrapstring, break_on_hyphens)
    return ("\n" if wrapstring is None else wrapstring).join(line.rstrip(_WRAP_SPACE) for line in lines)
