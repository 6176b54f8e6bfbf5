"""Every template renders a Subject line of its own, then the body."""
from __future__ import annotations

from pbem.render import environment


def test_every_template_starts_with_a_subject_line_that_ends_there():
    env = environment()
    names = [n for n in env.list_templates() if n.endswith(".txt") and not n.split("/")[-1].startswith("_")]
    assert len(names) > 20
    for name in names:
        source = env.loader.get_source(env, name)[0]
        first = source.splitlines()[0]
        assert first.startswith("Subject:"), name
        # A first line ending in a block tag would lose its newline (trim_blocks) and glue the body on.
        assert not first.rstrip().endswith("%}"), name
