import pytest

from pbem.games.course import Course, check_holes

SEED = "443 544 354 445 345 434"


def test_from_pars_string_reads_the_seed_course():
    course = Course.from_pars_string(SEED, name="parkland")
    assert course.name == "parkland"
    assert course.holes == 18
    assert course.pars[:4] == (4, 4, 3, 5)
    assert (course.count(3), course.count(4), course.count(5)) == (4, 10, 4)
    assert course.total_par == 72
    assert course.pars_string() == SEED


@pytest.mark.parametrize("text", ["443544354445345434", "443,544,354,445,345,434",
                                  " 44 3544 354, 445 345434 ", "443\t544 354 445 345 434"])
def test_spaces_and_commas_are_ignored(text):
    assert Course.from_pars_string(text).pars_string() == SEED


def test_default_name_and_short_courses():
    course = Course.from_pars_string("3454")
    assert course.name == "custom"
    assert course.holes == 4
    assert course.pars_string() == "345 4"


@pytest.mark.parametrize("text, words", [
    ("", "at least one"),
    (" , ", "at least one"),
    ("443 54x", '"x" is not a par'),
    ("443-544", '"-" is not a par'),
    ("446", "hole 3 has par 6"),
    ("2", "hole 1 has par 2"),
    ("44٣", "is not a par"),  # a digit, but not one of 0-9
])
def test_bad_par_strings(text, words):
    with pytest.raises(ValueError) as err:
        Course.from_pars_string(text)
    assert words in str(err.value)


def test_constructor_checks_pars_and_freezes():
    with pytest.raises(ValueError, match="hole 2 has par 6"):
        Course("bad", (4, 6, 4))
    with pytest.raises(ValueError, match="at least one hole"):
        Course("empty", ())
    with pytest.raises(ValueError):
        Course("bool", (4, True, 4))
    course = Course("listed", [3, 4, 5], extras={"dicegolf": {"flags": [7]}})
    assert course.pars == (3, 4, 5)
    with pytest.raises(TypeError):
        course.extras["onpar"] = {}  # type: ignore[index]
    with pytest.raises(AttributeError):
        course.name = "other"  # type: ignore[misc]


def test_courses_hash_and_compare():
    a = Course("a", (3, 4, 5), extras={"x": 1})
    b = Course("a", (3, 4, 5), extras={"x": 1})
    assert a == b and hash(a) == hash(b)
    assert Course("a", (3, 4, 5)).extras == {}


def test_par_of_a_hole_counts_from_one():
    course = Course.from_pars_string(SEED)
    assert course.par(1) == 4 and course.par(4) == 5 and course.par(18) == 4
    with pytest.raises(ValueError, match="no hole 19"):
        course.par(19)
    with pytest.raises(ValueError):
        course.par(0)


def test_check_holes():
    check_holes(Course.from_pars_string(SEED))
    check_holes(Course.from_pars_string("345 345 3"), n=7)
    with pytest.raises(ValueError, match="has 9 holes"):
        check_holes(Course.from_pars_string("443 544 354"))
    with pytest.raises(ValueError, match="18"):
        check_holes(Course.from_pars_string(SEED + " 4"))
