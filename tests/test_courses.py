from importlib.resources import files

import pytest
import yaml

from pbem.gm import courses
from pbem.gm.courses import DEFAULT_COURSE, list_courses, load_course
from pbem.games.course import Course, check_holes

SHIPPED = {"parkland", "links", "executive", "championship", "examples"}


def test_every_template_is_listed_and_has_18_valid_pars():
    found = list_courses()
    assert {c.name for c in found} >= SHIPPED
    assert [c.name for c in found] == sorted(c.name for c in found)
    for course in found:
        check_holes(course, 18)
        assert set(course.pars) <= {3, 4, 5}
        assert course.description and "\n" not in course.description


def test_every_yaml_file_loads_by_its_file_name():
    names = [e.name for e in files("pbem.course_templates").iterdir() if e.name.endswith(".yaml")]
    assert len(names) >= 5
    for name in names:
        assert load_course(name).name == name[:-len(".yaml")]
        raw = yaml.safe_load(files("pbem.course_templates").joinpath(name).read_text("utf-8"))
        assert {"name", "description", "pars"} <= set(raw)


def test_default_is_the_seed_course():
    assert DEFAULT_COURSE == "parkland"
    course = load_course(DEFAULT_COURSE)
    assert course.pars_string() == "443 544 354 445 345 434"
    assert (course.count(3), course.count(4), course.count(5)) == (4, 10, 4)


def test_examples_course_fits_both_seed_examples():
    course = load_course("examples")
    assert course.pars[0:3] == (4, 4, 5)
    assert course.pars[12:15] == (4, 3, 4)


def test_shapes_of_the_invented_courses():
    assert load_course("executive").count(3) >= 8
    assert load_course("championship").count(5) >= 6
    assert load_course("links").pars != load_course("parkland").pars


@pytest.mark.parametrize("spec", ["links", "links.yaml", "Links", "LINKS.YAML", " links "])
def test_name_with_or_without_suffix_in_any_case(spec):
    assert load_course(spec).name == "links"


def test_extras_are_kept():
    assert load_course("parkland").extras["dicegolf"]["flags"] == [7, 4, 10, 5, 9, 6, 8]
    assert "pars" not in load_course("links").extras
    assert dict(load_course("examples").extras) == {}


def test_list_of_pars_in_a_template():
    championship = load_course("championship")
    assert championship.holes == 18 and championship.count(5) == 9


@pytest.mark.parametrize("spec, pars", [
    ("443 544 354 445 345 434", "443 544 354 445 345 434"),
    ("445,345,434,543,434,454", "445 345 434 543 434 454"),
    ("345", "345"),
])
def test_par_strings(spec, pars):
    course = load_course(spec)
    assert isinstance(course, Course)
    assert course.pars_string() == pars


def test_unknown_name_lists_the_available_courses():
    with pytest.raises(ValueError) as err:
        load_course("augusta")
    message = str(err.value)
    assert "augusta" in message
    for name in SHIPPED:
        assert name in message
    assert "par string" in message


@pytest.mark.parametrize("spec, words", [("446 544", "hole 3 has par 6"),
                                         ("44x", '"x" is not a par')])
def test_bad_par_strings_say_why_and_list_names(spec, words):
    with pytest.raises(ValueError) as err:
        load_course(spec)
    assert words in str(err.value)
    assert "parkland" in str(err.value)


def test_a_broken_template_names_its_file(monkeypatch, tmp_path):
    (tmp_path / "bent.yaml").write_text("name: bent\npars: 443 544 36\n", encoding="utf-8")
    (tmp_path / "flat.yaml").write_text("- not a mapping\n", encoding="utf-8")
    (tmp_path / "bare.yaml").write_text("name: bare\n", encoding="utf-8")
    monkeypatch.setattr(courses, "files", lambda package: tmp_path)
    with pytest.raises(ValueError, match=r"bent\.yaml.*par 6"):
        load_course("bent")
    with pytest.raises(ValueError, match=r"flat\.yaml"):
        load_course("flat")
    with pytest.raises(ValueError, match=r"bare\.yaml: pars"):
        load_course("bare")
