"""What the rest of pbem may know of a game: one `GameSpec` per game folder.

The GM, the layers above it, the robots' door, fairness, the reports and the CLI ask a game's
spec and never its modules, so a game is its folder and one line in `registry`. A spec is data
(OpenSpiel declares a game's dynamics the same way): the engine class, how its turns go
(`Pacing`), the grammar that reads its orders, the robot that plays it, where its templates
are and how the GM's own texts and the league show it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

from pbem.games.base import GameState, Option

ROBOT_LEVELS = ("easy", "strong")


class Pacing(StrEnum):
    """How a game's turns go, which picks the GM's flow for it."""
    # Every seat owing orders sends them; the turn resolves once all are in (MatchPlay).
    SIMULTANEOUS = "simultaneous turns"
    # One seat moves at a time and each move takes effect as it is played; the GM learns
    # what happened from the engine's events (the card games, On Par).
    ROUND_THE_TABLE = "round the table"
    # Chance comes first: each seat answers the toss the GM made for it (dice golf).
    TOSSES = "tosses"


@dataclass(frozen=True)
class TemplateFamily:
    """A folder of templates several games share (their own folder still wins)."""
    name: str
    folder: Path


def _nothing(*_args) -> dict:
    return {}


def _no_lines(*_args) -> list[str]:
    return []


@dataclass(frozen=True)
class GameSpec:
    """Everything outside a game's folder needs to ask of it.

    `grammar(lines) -> (orders, errors)` reads its orders (`pbem.orders.commands.Grammar`).
    `robot` is a module with `decide(view, seat, level, options, rng) -> str` and `VERSION`, or
    None where no robot plays the game. `templates` is the folder of the game's own templates,
    found as `<type>/<kind>.txt`; `family` a shared folder beside them. `chance` names what of
    chance a player sees come back when the GM rolls the game back (None: no chance at all).
    The presentation: `score_words` (what `scores()` counts, as the mail says it),
    `gm_lines(view, data)` (the state in `pbem show`'s text), `json_extras(state, keys)` (what
    `pbem show --json` adds, by seat key), `filters` (Jinja filters its templates use).
    `match_holes`: a league scores the game as a match over that many holes (a win, a half, the
    margin); None: by the total of the game's scores, lower better.
    `random_orders(state, seat, rng)`: any legal order (tests, the demo, the arena); `state` is
    one of the spec's own `engine`, so the function is typed on that engine, not on `GameState`.
    `uses_course`: whether the game is played on a course (the card games deal hands instead:
    their mail never names one).
    """
    engine: type[GameState]
    grammar: Callable
    pacing: Pacing
    robot: ModuleType | None = None
    templates: Path | None = None
    family: TemplateFamily | None = None
    chance: str | None = None
    score_words: str = "score"
    gm_lines: Callable[[dict, dict], list[str]] = _no_lines
    json_extras: Callable[[GameState, list[str]], dict] = _nothing
    filters: Mapping[str, Callable] = field(default_factory=lambda: MappingProxyType({}))
    match_holes: int | None = None
    random_orders: Callable[[Any, int, Any], Any] | None = None
    uses_course: bool = True

    @property
    def type(self) -> str:
        return self.engine.TYPE

    @property
    def title(self) -> str:
        return self.engine.TITLE

    @property
    def options(self) -> Mapping[str, Option]:
        """The options with their defaults and allowed values (the engine's own table)."""
        return MappingProxyType(self.engine.OPTIONS)

    @property
    def robot_levels(self) -> tuple[str, ...]:
        return ROBOT_LEVELS if self.robot is not None else ()

    def template_folders(self) -> dict[str, Path]:
        """Template prefix -> folder, the game's own and its family's."""
        folders = {self.family.name: self.family.folder} if self.family else {}
        if self.templates is not None:
            folders[self.type] = self.templates
        return folders
