"""Courses from the shipped templates (``course_templates/``, installed as a package) or par strings."""
from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

import yaml

from pbem.games.course import EXAMPLE_PARS, BadCourse, Course
from pbem.mail.clean import quoted

DEFAULT_COURSE = "parkland"
TEMPLATE_PACKAGE = "pbem.course_templates"
_SUFFIXES = (".yaml", ".yml")
_CORE_KEYS = ("name", "description", "pars")


def _templates() -> dict[str, Traversable]:
    """Template files by lower-case name (the file name without ``.yaml``)."""
    found = {}
    for entry in files(TEMPLATE_PACKAGE).iterdir():
        for suffix in _SUFFIXES:
            if entry.name.lower().endswith(suffix) and entry.is_file():
                found[entry.name[:-len(suffix)].lower()] = entry
    return dict(sorted(found.items()))


def course_names() -> list[str]:
    return list(_templates())


def list_courses() -> list[Course]:
    """Every shipped course, sorted by name."""
    return [_read_template(entry) for entry in _templates().values()]


def load_course(spec: str) -> Course:
    """A template by name (``links``, ``Links.yaml``) or a par string (``443 544 354 ...``)."""
    text = spec.strip()
    key = text.lower()
    for suffix in _SUFFIXES:
        if key.endswith(suffix):
            key = key[:-len(suffix)]
            break
    templates = _templates()
    if key in templates:
        return _read_template(templates[key])
    available = ", ".join(templates) or "none"
    if any(ch.isdigit() for ch in text):
        try:
            return Course.from_pars_string(text)
        except ValueError as err:
            raise BadCourse(f"{err}; or name a course template: {available}") from None
    raise BadCourse(f"unknown course {quoted(spec)}: name a course template ({available}) "
                    f"or give a par string like {EXAMPLE_PARS}")


def _read_template(entry: Traversable) -> Course:
    where = f"course template {entry.name}"
    try:
        data = yaml.safe_load(entry.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise BadCourse(f"{where}: cannot be read: {err}") from None
    if not isinstance(data, dict):
        raise BadCourse(f"{where}: expected a mapping with name, description and pars")
    stem = entry.name.rsplit(".", 1)[0]
    name = str(data.get("name") or stem)
    description = str(data.get("description") or "").strip()
    extras = {str(k): v for k, v in data.items() if k not in _CORE_KEYS}
    pars = data.get("pars")
    try:
        if isinstance(pars, (str, int)) and not isinstance(pars, bool):
            course = Course.from_pars_string(str(pars), name=name)
        elif isinstance(pars, list):
            course = Course(name=name, pars=tuple(pars))
        else:
            raise BadCourse("pars: expected a string of digits or a list of 3, 4 and 5")
    except ValueError as err:
        raise BadCourse(f"{where}: {err}") from None
    return Course(name=course.name, pars=course.pars, description=description, extras=extras)
