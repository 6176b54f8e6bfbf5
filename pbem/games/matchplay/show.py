"""MatchPlay in the GM's own texts (`pbem show`): the match, the players' hole table, each hand."""
from __future__ import annotations

from pbem.render import environment


def gm_lines(state: dict, data: dict) -> list[str]:
    lines = [state["match"]] if "match" in state else []
    if state.get("holes") and "table_names" in state:
        # The players' own hole table, so the GM reads what they read.
        table = environment().get_template("matchplay/_holes.txt").module.hole_table(state["holes"], state)
        lines += [f"  {line}".rstrip() for line in str(table).strip("\n").splitlines()] + [""]
    for v in state.get("seats", {}).values():
        lines.append(f"  {v['name']}: hand {' '.join(map(str, v['hand'])) or '(empty)'}; "
                     f"specials left {', '.join(v['specials_left']) or '(none)'}; "
                     f"pending {(v['orders'] or '-').replace(chr(10), ' / ')}")
    return lines
