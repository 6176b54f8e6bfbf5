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


def test_the_matchplay_rules_the_welcome_lists_are_those_errors_cite():
    """An error's "Rule: (c) ..." must point at line (c) of the welcome and of HELP, word for word."""
    from pbem.games.matchplay import RULES, rule

    listed = str(environment().get_template("matchplay/_holes.txt").module.rules_list()).splitlines()
    assert listed == [f"  {rule(label)}" for label in RULES]
    assert all(len(line) <= 78 for line in listed)
    for name in ("matchplay/welcome.txt", "matchplay/help.txt"):
        assert "{{ rules_list() }}" in environment().loader.get_source(environment(), name)[0]


def test_the_widest_matchplay_hole_table_fits_78_columns():
    """The widest cells there can be: a forfeit on a hole where both players' specials changed
    the forfeiting player's score, names too long for the table, and a lead of 10."""
    from pbem.games.matchplay import table_names

    names = ["Maximilian Alexander von Hohenzollern", "Bartholomew Featherstonehaugh"]
    row = {"hole": 10, "par": 4, "cards": [4, 5], "specials": [["BLUE+1"], ["RED-1"]], "scores": [4, 5],
           "winner": 1, "lead": -10, "forfeits": [True, False]}
    other = dict(row, hole=11, specials=[["RED-1"], ["BLUE+1"]], scores=[4, 5], winner=0, lead=10,
                 forfeits=[False, True])
    view = {"names": names, "table_names": table_names(names)}
    text = str(environment().get_template("matchplay/_holes.txt").module.hole_table([row, other], view))
    lines = text.splitlines()
    assert max(map(len, lines)) <= 78, "\n" + text
    assert "  10   4  4 BLUE+1 RED-1 = 4 F  5                     Barthol.  Barthol. 10 up" in lines, text
    assert "  11   4  4                     5 BLUE+1 RED-1 = 5 F  Maximil.  Maximil. 10 up" in lines, text
