"""The games' templates, each in its game's folder, found by the names the mail code uses:
`<type>/<kind>.txt` in the game's `templates` folder, `<family>/<kind>.txt` in a family's."""
from __future__ import annotations

import jinja2

from pbem.games.registry import specs


class GameTemplates(jinja2.BaseLoader):
    """A prefix loader whose prefixes are read from the registry at each look-up, so a game
    registered later (a test's) is found as the package's own are."""

    @staticmethod
    def _folders() -> dict[str, jinja2.FileSystemLoader]:
        folders: dict[str, jinja2.FileSystemLoader] = {}
        for spec in specs():
            for prefix, folder in spec.template_folders().items():
                folders.setdefault(prefix, jinja2.FileSystemLoader(folder))
        return folders

    def get_source(self, environment, template):
        prefix, _, name = template.partition("/")
        loader = self._folders().get(prefix)
        if loader is None or not name:
            raise jinja2.TemplateNotFound(template)
        try:
            return loader.get_source(environment, name)
        except jinja2.TemplateNotFound:
            raise jinja2.TemplateNotFound(template) from None

    def list_templates(self) -> list[str]:
        return sorted(f"{prefix}/{name}" for prefix, loader in self._folders().items()
                      for name in loader.list_templates())
