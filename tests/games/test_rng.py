"""The game generator: the description in docs/fairness.md, its test vectors, and the module agree.

The reference functions at the top are a second implementation written from docs/fairness.md's
"Provable fairness" section with nothing but `hashlib`: they never call pbem's code.
"""
import copy
import hashlib
import json
import pickle
import re
from collections import Counter
from pathlib import Path

import pytest

from pbem.games import rng
from pbem.games.rng import (Generator, commitment, game_generator, new_seed, seed_from_int, stored_generator,
                            stream)

FAIRNESS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
TWO64 = 2**64


# -- the reference: the words of docs/fairness.md, hashlib only --------------------------------------------
def ref_words(seed: bytes):
    """The stream's words: the SHAKE-256 output of the seed, 8 bytes a word, big-endian."""
    size, at = 64, 0
    while True:
        out = hashlib.shake_256(seed).digest(size)  # a longer output starts with the shorter one
        while at + 8 <= size:
            yield int.from_bytes(out[at:at + 8], "big")
            at += 8
        size *= 2


def ref_bytes(seed: bytes, count: int) -> bytes:
    return hashlib.shake_256(seed).digest(count)


class Ref:
    """The draws as docs/fairness.md defines them; `cap` is 2**64 except where a test shrinks it
    to make rejections common."""

    def __init__(self, seed: bytes, cap: int = TWO64):
        self.words = ref_words(seed)
        self.cap = cap
        self.taken = 0

    def below(self, n: int) -> int:
        limit = self.cap - self.cap % n
        while True:
            word = next(self.words)
            self.taken += 1
            if word < limit:
                return word % n

    def die(self) -> int:
        return self.below(6) + 1

    def shuffle(self, items: list) -> list:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def sample(self, items: list, k: int) -> list:
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


PACK = [r + s for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
SEED_1 = (1).to_bytes(16, "big")  # `--seed 1` as docs/fairness.md writes it
SEED_0_15 = bytes(range(16))


def ref_vectors(seed: bytes) -> dict:
    big = Ref(seed)
    draws = [big.below(2**63 + 1) for _ in range(6)]
    return {
        "seed": seed.hex(),
        "commitment": hashlib.sha256(seed).hexdigest(),
        "first bytes": ref_bytes(seed, 16).hex(),
        "dice": _ten_dice(seed),
        "below 2^63+1": draws,
        "words taken": big.taken,
        "shuffle": Ref(seed).shuffle(list(PACK)),
    }


def _ten_dice(seed: bytes) -> list[int]:
    ref = Ref(seed)
    return [ref.die() for _ in range(10)]


def module_vectors(seed: bytes) -> dict:
    big = Generator(seed)
    draws = [big.below(2**63 + 1) for _ in range(6)]
    first = Generator(seed)
    return {
        "seed": seed.hex(),
        "commitment": commitment(seed),
        "first bytes": stream(seed, 16).hex(),
        "dice": Generator(seed).dice(10),
        "below 2^63+1": draws,
        "words taken": big.words,
        "shuffle": Generator(seed).shuffled(PACK),
        "first words": [first.bits(64), first.bits(64)],
    }


def readme_vectors() -> list[dict]:
    """The vectors of the code block of docs/fairness.md: a 14-column label, then values (a line with no
    label goes on with the one before); a blank line between seeds."""
    text = FAIRNESS_PAGE.read_text()
    section = text.split("## Test vectors", 1)[1].split("\n## ", 1)[0]
    block = next(b for b in re.findall(r"```\n(.*?)```", section, re.S) if b.startswith("seed "))
    tables = []
    for chunk in block.strip().split("\n\n"):
        table: dict[str, list[str]] = {}
        label = None
        for line in chunk.splitlines():
            label = line[:14].strip() or label
            table.setdefault(label, []).extend(line[14:].split())
        tables.append(table)
    return [_typed(t) for t in tables]


def _typed(table: dict[str, list[str]]) -> dict:
    one = {key: table[key][0] for key in ("seed", "commitment", "first bytes")}
    return {**one, "dice": [int(x) for x in table["dice"]],
            "below 2^63+1": [int(x) for x in table["below 2^63+1"]],
            "words taken": int(table["words taken"][0]), "shuffle": table["shuffle"]}


# -- the vectors -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [SEED_1, SEED_0_15], ids=["seed-1", "bytes-0-15"])
def test_readme_vectors_are_the_reference_and_the_module(seed):
    written = {v["seed"]: v for v in readme_vectors()}
    assert set(written) == {SEED_1.hex(), SEED_0_15.hex()}
    expected = ref_vectors(seed)
    assert written[seed.hex()] == expected
    got = module_vectors(seed)
    assert got.pop("first words") == [int.from_bytes(ref_bytes(seed, 16)[i:i + 8], "big") for i in (0, 8)]
    assert got == expected


def test_the_vectors_exercise_rejection_and_every_card():
    for v in readme_vectors():
        assert v["words taken"] > len(v["below 2^63+1"])  # at least one word was rejected
        assert sorted(v["shuffle"]) == sorted(PACK) and v["shuffle"] != PACK
        assert all(1 <= d <= 6 for d in v["dice"]) and len(v["dice"]) == 10


def test_seed_from_int_is_sixteen_bytes_big_endian():
    assert seed_from_int(1) == SEED_1
    assert seed_from_int(0) == bytes(16)
    assert seed_from_int(2**128 - 1) == b"\xff" * 16
    assert seed_from_int(0x0102) == bytes(14) + b"\x01\x02"


@pytest.mark.parametrize("bad", [-1, 2**128, 2**200])
def test_seed_from_int_refuses_numbers_out_of_range(bad):
    with pytest.raises(ValueError, match="from 0 to 2\\*\\*128 - 1"):
        seed_from_int(bad)


@pytest.mark.parametrize("bad", [1.0, "1", True, None])
def test_seed_from_int_refuses_what_is_not_a_whole_number(bad):
    with pytest.raises(TypeError):
        seed_from_int(bad)


def test_a_seed_is_at_least_sixteen_bytes():
    with pytest.raises(ValueError, match="at least 16 bytes"):
        Generator(bytes(15))
    with pytest.raises(ValueError, match="at least 16 bytes"):
        commitment(b"")
    assert Generator(bytes(17)).below(10) in range(10)


def test_new_seeds_are_sixteen_fresh_bytes():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(len(s) == 16 for s in seeds)


def test_commitment_is_the_sha256_of_the_seed_bytes():
    seed = new_seed()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", Generator(seed).commitment())


@pytest.mark.parametrize("count", [0, 1, 16, 31, 32, 33, 100])
def test_stream_is_the_shake_output(count):
    assert stream(SEED_0_15, count) == ref_bytes(SEED_0_15, count)


# -- below ---------------------------------------------------------------------------------------
SIZES = [1, 2, 3, 6, 52, 1023, 1024, 1025, 2**32 + 1, 2**63 + 1, 2**64]


@pytest.mark.parametrize("n", SIZES)
def test_below_stays_in_range_and_follows_the_reference(n):
    g, ref = Generator(SEED_1), Ref(SEED_1)
    values = [g.below(n) for _ in range(500)]
    assert values == [ref.below(n) for _ in range(500)]
    assert all(0 <= v < n for v in values)
    assert g.words == ref.taken


def test_below_one_is_zero_and_still_takes_a_word():
    g = Generator(SEED_1)
    assert [g.below(1) for _ in range(5)] == [0] * 5
    assert g.words == 5


@pytest.mark.parametrize("n", SIZES)
def test_the_rejection_limit_is_the_largest_multiple_of_n(n):
    limit = rng._limit(n)
    assert limit % n == 0 and limit <= TWO64 and TWO64 - limit < n


@pytest.mark.parametrize("cap", [2**8, 2**10])
def test_the_limit_rule_is_exactly_uniform_over_every_word(cap):
    # The same rule on words of a few bits, where every word can be counted: each answer gets
    # the same number of accepted words.
    for n in range(1, cap + 1):
        limit = cap - cap % n
        counts = Counter(w % n for w in range(cap) if w < limit)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1


class Fed(Generator):
    """A generator whose words are given by the test, to put a word exactly on the limit."""
    __slots__ = ("feed",)

    def _word(self) -> int:
        return self.feed.pop(0)


def test_below_rejects_the_limit_and_above_and_accepts_just_under():
    g = Fed(SEED_1)
    limit = TWO64 - 4  # a die's: 2**64 mod 6 is 4
    g.feed = [limit, TWO64 - 1, limit - 1, 7]
    assert g.below(6) == (limit - 1) % 6 and g.feed == [7]
    big = 2**63 + 1
    g.feed = [big, big + 5, TWO64 - 1, big - 1]
    assert g.below(big) == big - 1 and g.feed == []
    g.feed = [TWO64 - 1]
    assert g.below(TWO64) == TWO64 - 1  # n = 2**64 takes every word


@pytest.mark.parametrize("bad", [0, -1, 2**64 + 1, 6.0, "6", None])
def test_below_refuses_sizes_without_an_answer(bad):
    with pytest.raises(ValueError, match="from 1 to 2\\*\\*64"):
        Generator(SEED_1).below(bad)


def test_dice_are_fair_over_many_rolls():
    counts = Counter(Generator(SEED_0_15).dice(60_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(9_500 < c < 10_500 for c in counts.values())


# -- shuffles and the other draws ------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 52, 108, 1024, 1500])
def test_shuffle_is_fisher_yates_from_the_end(size):
    for s in range(5):
        seed = seed_from_int(s)
        g, ref = Generator(seed), Ref(seed)
        g.below(7)  # start one word in, so the shuffle's words start mid-stream
        ref.below(7)
        items = list(range(size))
        g.shuffle(items)
        assert items == ref.shuffle(list(range(size)))
        assert g.words == ref.taken and g.below(1000) == ref.below(1000)


def test_shuffle_draws_in_order_when_words_are_rejected(monkeypatch):
    # Shrink every limit to under 2**63 so that about half the words are rejected: the
    # shuffle's rare path must still take words strictly in order, like `below` one by one.
    cap = 2**63
    limits = [None] + [cap - cap % n for n in range(1, 1025)]
    monkeypatch.setattr(rng, "_LIMITS", limits)
    monkeypatch.setattr(rng, "_SAFE", rng._lowest(limits))
    for s in range(10):
        seed = seed_from_int(s)
        g, ref = Generator(seed), Ref(seed, cap)
        items = list(range(52))
        g.shuffle(items)
        assert items == ref.shuffle(list(range(52)))
        assert g.words == ref.taken > 51
        assert g.die() == ref.die()


def test_choice_between_bits_chance_and_sample_are_built_from_below():
    g, ref = Generator(SEED_0_15), Ref(SEED_0_15)
    for _ in range(200):
        assert g.choice(PACK) == PACK[ref.below(52)]
        assert g.between(-3, 9) == -3 + ref.below(13)
        assert g.bits(32) == ref.below(2**32)
        assert g.chance(1, 10) == (ref.below(10) < 1)
        assert g.sample(range(1, 7), 2) == ref.sample(list(range(1, 7)), 2)
    assert g.words == ref.taken


def test_sample_gives_different_items_in_the_order_drawn():
    picks = Generator(SEED_1).sample(PACK, 52)
    assert sorted(picks) == sorted(PACK)
    assert Generator(SEED_1).sample(PACK, 5) == picks[:5]
    assert Generator(SEED_1).sample(PACK, 0) == []


def test_draws_refuse_what_has_no_answer():
    g = Generator(SEED_1)
    with pytest.raises(IndexError):
        g.choice([])
    with pytest.raises(ValueError):
        g.sample([1, 2], 3)
    with pytest.raises(ValueError):
        g.between(3, 2)
    with pytest.raises(ValueError):
        g.bits(65)
    with pytest.raises(ValueError):
        g.chance(3, 2)


def test_different_seeds_give_different_streams():
    seeds = [seed_from_int(n) for n in range(50)] + [SEED_0_15, SEED_0_15 + b"\x00"]
    firsts = {tuple(Generator(s).dice(40)) for s in seeds}
    assert len(firsts) == len(seeds)
    assert stream(seed_from_int(1), 64) != stream(seed_from_int(2), 64)


# -- state ---------------------------------------------------------------------------------------
def _play(g: Generator) -> list:
    out = [g.die() for _ in range(3)]
    out.append(g.shuffled(PACK))
    out.append(g.below(2**63 + 1))
    return out


@pytest.mark.parametrize("before", [0, 1, 3, 4, 5, 8, 51, 60])
def test_state_round_trips_mid_stream(before):
    g = Generator(SEED_1)
    for _ in range(before):
        g.below(52)
    saved = json.loads(json.dumps(g.state()))
    assert saved == {"seed": SEED_1.hex(), "words": before}
    assert _play(Generator.restore(saved)) == _play(g)


def test_state_round_trips_after_a_shuffle_and_rejections():
    g = Generator(SEED_0_15)
    g.shuffle(list(PACK))
    [g.below(2**63 + 1) for _ in range(7)]
    again = Generator.restore(g.state())
    assert again.words == g.words and _play(again) == _play(g)


@pytest.mark.parametrize("bad", [{"seed": SEED_1.hex(), "words": -1},
                                 {"seed": SEED_1.hex(), "words": 1.5},
                                 {"seed": "00ff", "words": 0}])
def test_restore_refuses_a_broken_state(bad):
    with pytest.raises(ValueError):
        Generator.restore(bad)


def test_copies_and_pickles_continue_the_same_and_repr_hides_the_seed():
    g = Generator(SEED_1, record=[])
    g.dice(5)
    twins = [copy.deepcopy(g), pickle.loads(pickle.dumps(g))]
    assert all(t.record == g.record and t.record is not g.record for t in twins)
    expected = _play(g)
    assert all(_play(t) == expected for t in twins)
    assert SEED_1.hex() not in repr(g) and commitment(SEED_1)[:12] in repr(g)


# -- the record ----------------------------------------------------------------------------------
def test_the_record_is_off_unless_asked():
    g = Generator(SEED_1)
    assert g.record is None
    g.shuffle(list(PACK))
    assert g.record is None


def test_the_record_holds_every_value_below_returns_in_order():
    g, ref = Generator(SEED_0_15, record=[]), Ref(SEED_0_15)
    g.die()
    g.shuffle(list(PACK))
    g.choice(PACK)
    g.below(2**63 + 1)
    expected = [ref.below(6)] + [ref.below(i + 1) for i in range(51, 0, -1)]
    expected += [ref.below(52), ref.below(2**63 + 1)]
    assert g.record == expected
    restored = Generator.restore(g.state(), record=[])
    restored.dice(2)
    assert restored.record == [ref.below(6), ref.below(6)]


def _on_words(words: list[int]) -> Generator:
    """A generator whose stream starts with `words` (then goes on with SEED_1's own)."""
    g = Generator(SEED_1)
    g._words = tuple(words) + g._squeeze(len(words) + 64)[len(words):]
    return g


def _by_hand(words: list[int], size: int) -> list:
    """Fisher-Yates over `words` exactly as docs/fairness.md says, rejections included."""
    items, pending = list(range(size)), iter(words)
    for i in range(size - 1, 0, -1):
        n = i + 1
        word = next(pending)
        while word >= TWO64 - TWO64 % n:
            word = next(pending)
        j = word % n
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize("size", [4, 5, 52, 54])
def test_the_shuffles_fast_check_never_lets_a_rejected_word_through(size):
    # The shuffle accepts all its words at once when the largest is under the lowest limit of
    # its sizes. A word just under that line, and one exactly on a size's own limit (rejected:
    # the next word is drawn instead), must both come out as the one-by-one rule says.
    words = list(Generator(SEED_0_15)._take(size + 8))
    safe = rng._SAFE[size]
    words[0] = safe - 1  # accepted by every size
    at = (size - 1) // 2  # word k is drawn for size - k: this one lies exactly on its limit
    n = size - at
    words[at] = TWO64 - TWO64 % n
    items = list(range(size))
    g = _on_words(words)
    g.shuffle(items)
    assert items == _by_hand(words, size)
    assert g.words == size  # one word more than size - 1: the rejected one
    clean = list(range(size))
    words[at] = safe - 1
    _on_words(words).shuffle(clean)
    assert clean == _by_hand(words, size)


def test_a_games_generator_from_bytes_or_a_number_and_back_from_storage():
    assert game_generator(7).state() == Generator(seed_from_int(7)).state()
    assert game_generator(bytearray(seed_from_int(7))).state() == game_generator(7).state()
    g = game_generator(b"sixteen bytes!!!")
    g.below(52)
    again = stored_generator(g.state(), "golf")
    assert [again.below(1000) for _ in range(5)] == [g.below(1000) for _ in range(5)]
    with pytest.raises(ValueError, match="golf game was stored before"):
        stored_generator([3, [0] * 625, None], "golf")  # Python's random, as games once stored it
