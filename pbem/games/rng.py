"""The one random generator every engine draws from: public, exact, and checkable after a game.

A game's chance is fixed by one secret seed (bytes). Everything below is a published contract
(README, "Provable fairness"): anyone can rebuild every shuffle and roll of a finished game from
its seed in any language with SHA-256, SHAKE-256 and these few rules. Python's `random` module
is not used: its algorithms are not promised across versions.

- Seed: at least 16 bytes. `new_seed()` takes 16 from the system's secure source;
  `seed_from_int(N)` (the games made with `--seed N`) is N as 16 bytes, big-endian,
  0 <= N < 2**128. `commitment(seed)` is the SHA-256 digest of the seed bytes, 64 hex digits.
- Stream: the SHAKE-256 output of the seed bytes, as long as needed (asking SHAKE for more
  bytes gives the same bytes first). It is read 8 bytes at a time: a word is the next 8 bytes
  read as an unsigned big-endian integer, in order.
- `below(n)`, 1 <= n <= 2**64: limit = 2**64 - (2**64 mod n); take words until one is
  < limit, return that word mod n. Every call takes at least one word (below(1) too).
- `die()` = below(6) + 1. `between(lo, hi)` = lo + below(hi - lo + 1). `bits(k)` =
  below(2**k). `chance(k, n)` = below(n) < k. `choice(seq)` = seq[below(len(seq))].
- `shuffle(items)`, in place: for i = len - 1 down to 1: j = below(i + 1), swap items i and j.
- `sample(seq, k)`: a copy of seq; for i = 0 up to k - 1: j = i + below(len - i), swap i and j;
  the first k of the copy, in that order.

Nothing here uses floats. The state (`state()`) is the seed and the number of words taken, so an
engine stores it in its `to_dict` and `Generator.restore` continues exactly where it stopped.
The state holds the secret seed: it belongs in storage, never in a view, a mail or a log.
"""
from __future__ import annotations

import hashlib
import secrets
import struct
from operator import mod
from typing import Final, TypeVar, cast

from mypy_extensions import mypyc_attr
from collections.abc import Callable, Iterable, Sequence

from pbem.errors import BadValue

__all__ = ["BadSeed", "Generator", "MIN_SEED_BYTES", "commitment", "game_generator", "new_seed", "seed_from_int",
           "stored_generator", "stream"]

T = TypeVar("T")

MIN_SEED_BYTES = 16
SEED_INT_BYTES = 16  # `--seed N`: N as this many bytes, so 0 <= N < 2**128
WORD_BYTES: Final = 8
FIRST_WORDS: Final = 52  # words squeezed at the first draw: a golfdeck deal (51 for the shuffle, 1 for the reveals)
TWO64: Final = 1 << 64


class BadSeed(BadValue):
    """A seed, or a stored generator's state, that pbem cannot draw from: out of range, too
    short, or a game's state from before the fair generator."""


def new_seed() -> bytes:
    """A fresh secret seed: 16 bytes from the system's secure random source."""
    return secrets.token_bytes(MIN_SEED_BYTES)


def seed_from_int(n: object) -> bytes:
    """The seed of a game made with `--seed N`: N as 16 bytes, big-endian. (`n: object`: what is
    not a whole number is refused here, compiled (scripts/native.py) as in Python.)"""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"a seed number is a whole number, got {n!r}")
    if not 0 <= n < 1 << (8 * SEED_INT_BYTES):
        raise BadSeed(f"a seed number is from 0 to 2**128 - 1, got {n}")
    return n.to_bytes(SEED_INT_BYTES, "big")


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed bytes as 64 lower-case hex digits: published before play."""
    return hashlib.sha256(_checked(seed)).hexdigest()


def game_generator(seed: bytes | bytearray | int) -> Generator:
    """The generator a new game draws from: on the seed's bytes, or on a whole number N as
    `seed_from_int(N)` (the bytes of a game made with `--seed N`; tests pass numbers)."""
    return Generator(seed_from_int(seed) if isinstance(seed, int) else bytes(seed))


def stored_generator(state, game: str) -> Generator:
    """A stored game's generator, where it stopped. A game stored before the games drew from
    `Generator` holds a state of Python's `random` instead: it cannot go on the same way, so
    it is refused rather than continued on other cards or dice."""
    if not isinstance(state, dict):
        raise BadSeed(f"this {game} game was stored before pbem's fair generator replaced "
                      "Python's random; it cannot be loaded (start it again)")
    return Generator.restore(state)


def stream(seed: bytes, count: int) -> bytes:
    """The first `count` bytes of the seed's stream (for checkers and test vectors)."""
    return hashlib.shake_256(_checked(seed)).digest(count)


def _checked(seed) -> bytes:
    seed = bytes(seed)
    if len(seed) < MIN_SEED_BYTES:
        raise BadSeed(f"a seed is at least {MIN_SEED_BYTES} bytes, got {len(seed)}")
    return seed


# Open to interpreted subclasses: compiled (scripts/native.py), a test's generator fed chosen words.
@mypyc_attr(allow_interpreted_subclasses=True)
class Generator:
    """Draws from one seed's stream. `record`, when a list, receives every value `below`
    returns (shuffles, dice and choices included), in order, so that a replay can be compared
    draw by draw; it is None by default and then costs one test per draw."""

    __slots__ = ("_seed", "_xof", "_words", "_used", "_small", "record")

    def __init__(self, seed: bytes, record: list[int] | None = None):
        self._seed = _checked(seed)
        self._xof = hashlib.shake_256(self._seed)  # the stream is this hash's output
        self._words: tuple[int, ...] = ()  # the stream's first words, as many as squeezed so far
        self._used = 0  # how many of them are taken
        self._small: tuple | None = None  # `_words` when every one of them is below `_SMALL_WORDS`
        self.record = record

    # -- state ----------------------------------------------------------------------------
    @property
    def words(self) -> int:
        """How many 8-byte words have been taken from the stream so far."""
        return self._used

    def state(self) -> dict:
        """Everything needed to continue exactly: the seed (secret!) and the words taken."""
        return {"seed": self._seed.hex(), "words": self._used}

    @classmethod
    def restore(cls, state: dict, record: list[int] | None = None) -> Generator:
        words = state["words"]
        if words.__class__ is not int or words < 0:
            raise BadSeed(f"the words taken are a count, got {words!r}")
        g = cls(bytes.fromhex(state["seed"]), record)
        g._used = words
        return g

    def commitment(self) -> str:
        return commitment(self._seed)

    def __repr__(self) -> str:  # never the seed: a repr can end up in a log
        return f"<Generator {self.commitment()[:12]}... words={self.words}>"

    def __deepcopy__(self, memo) -> Generator:
        return Generator.restore(self.state(), None if self.record is None else list(self.record))

    def __reduce__(self):
        return (_restored, (self.state(), self.record))

    # -- the stream -----------------------------------------------------------------------
    def _squeeze(self, need: int) -> tuple[int, ...]:
        """At least the stream's first `need` words. SHAKE cannot be squeezed on from where it
        stopped, so the output is asked again from the start, at least twice as long each
        time: a game's whole stream (a few hundred words) costs a few short hashes."""
        count = max(need, 2 * len(self._words), FIRST_WORDS)
        unpack = _UNPACK.get(count)
        if unpack is None:
            unpack = _UNPACK[count] = struct.Struct(f">{count}Q").unpack
        raw = self._xof.digest(count * WORD_BYTES)
        self._words = words = unpack(raw)
        # A word at or above `_SMALL_WORDS` (2**64 - 256) starts with seven 0xFF bytes: without
        # such a run anywhere in the output, every word is below it (one byte search).
        self._small = words if _SEVEN_FF not in raw else None
        return words

    def _word(self) -> int:
        used, words = self._used, self._words
        if used >= len(words):  # (a restored generator has squeezed nothing yet)
            words = self._squeeze(used + 1)
        self._used = used + 1
        return words[used]

    def _take(self, m: int) -> tuple[int, ...]:
        """The next m words in stream order (a shuffle takes all it needs at once)."""
        used, words = self._used, self._words
        end = used + m
        if end > len(words):
            words = self._squeeze(end)
        self._used = end
        return words[used:end]

    # -- draws ----------------------------------------------------------------------------
    def below(self, n: object) -> int:
        """A whole number from 0 to n - 1, each equally likely (rejection, no modulo bias). (`n:
        object`: a size that is not a whole number is refused with the rule, compiled as pure.)"""
        limit = _limit(n)
        n = cast(int, n)  # (after `_limit`, which refuses anything else)
        word = self._word()
        while word >= limit:
            word = self._word()
        value = word % n
        if self.record is not None:
            self.record.append(value)
        return value

    def die(self) -> int:
        """One six-sided die: 1 to 6."""
        return self.below(6) + 1

    def dice(self, k: int) -> list[int]:
        """k dice, one after the other."""
        return [self.below(6) + 1 for _ in range(k)]

    def between(self, lo: int, hi: int) -> int:
        """A whole number from lo to hi, both included."""
        if hi < lo:
            raise BadValue(f"between({lo}, {hi}): the range is empty")
        return lo + self.below(hi - lo + 1)

    def bits(self, k: int) -> int:
        """A whole number of k random bits (0 <= k <= 64), e.g. a salt."""
        if not 0 <= k <= 64:
            raise BadValue(f"bits({k}): from 0 to 64 bits")
        return self.below(1 << k)

    def chance(self, k: int, n: int) -> bool:
        """True with probability exactly k/n (0 <= k <= n)."""
        if not 0 <= k <= n:
            raise BadValue(f"chance({k}, {n}): k is from 0 to n")
        return self.below(n) < k

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place: for i from the last index down to 1, swap i with below(i + 1)."""
        n = len(items)
        if n < 2:
            return
        words = self._take(n - 1)
        sizes = range(n, 1, -1)
        # A largest word under the lowest limit of the sizes n ... 2 is accepted by them all
        # (the odds of a word at or above it are below n / 2**64 a draw).
        picks: Iterable[int]
        # (Every word below `_SMALL_WORDS` and every size's limit at or above it: none rejected,
        # without the max.)
        none_rejected = n < len(_SAFE) and ((self._small is self._words and _SAFE[n] >= _SMALL_WORDS)
                                            or max(words) < _SAFE[n])
        if none_rejected and self.record is None:
            # The common case as a plain loop: compiled (the optional build), it runs on machine
            # integers; pure, it costs what the `map` below does. The same swaps.
            i = n - 1
            for k in range(n - 1):
                j = words[k] % (n - k)
                items[i], items[j] = items[j], items[i]
                i -= 1
            return
        if none_rejected:
            picks = map(mod, words, sizes)
        else:
            picks = self._redraw(words, sizes)
        if self.record is not None:
            picks = list(picks)
            self.record.extend(picks)
        i = n - 1  # picks[k] is the swap of item n - 1 - k
        for j in picks:
            items[i], items[j] = items[j], items[i]
            i -= 1

    def _redraw(self, words: Sequence[int], sizes: range) -> list[int]:
        """The picks of `sizes`, taking `words` first and then the stream, skipping rejects."""
        pending = iter(words)
        picks = []
        for size in sizes:
            limit = _limit(size)
            word = next(pending, None)
            word = self._word() if word is None else word
            while word >= limit:
                word = next(pending, None)
                word = self._word() if word is None else word
            picks.append(word % size)
        return picks

    def shuffled(self, items: Sequence[T]) -> list[T]:
        deck = list(items)
        self.shuffle(deck)
        return deck

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """k different members of seq in the order drawn: the first k steps of a Fisher-Yates
        from the front (for i = 0 to k - 1, swap i with i + below(len - i))."""
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise BadValue(f"sample of {k} from {len(pool)}")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


# The words of a squeeze are all below this when its output holds no seven 0xFF bytes in a row;
# the limits of the sizes up to 256 are at or above it.
_SMALL_WORDS: Final = TWO64 - 256
_SEVEN_FF: Final = b"\xff" * 7

# `struct` unpackers of `count` big-endian words, by count (a game squeezes a few counts).
_UNPACK: dict[int, Callable[[bytes], tuple[int, ...]]] = {}


def _limits(sizes: range) -> list:
    return [None] + [TWO64 - TWO64 % n for n in sizes]


# The first word `below(n)` rejects, the largest multiple of n not above 2**64, for the sizes
# of every deck and die (index n); larger n are worked out when asked.
_LIMITS = _limits(range(1, 1025))  # (not Final: a test shrinks it, compiled too)


def _lowest(limits: list) -> list:
    """Index n: the lowest limit of the sizes 2 to n (a shuffle of n items draws those)."""
    out, low = [None, None], TWO64
    for n in range(2, len(limits)):
        low = min(low, limits[n])
        out.append(low)
    return out


_SAFE = _lowest(_LIMITS)  # (not Final: a test shrinks it, compiled too)


# The limits of larger n as they are asked (golfdeck draws below 15**players at every deal).
_MORE_LIMITS: dict[int, int] = {}
_MORE_MOST = 256


def _limit(n: object) -> int:
    if n.__class__ is int and 0 < n <= TWO64:  # (the class test makes `n` an int to mypy and mypyc)
        if n < len(_LIMITS):
            return _LIMITS[n]
        limit = _MORE_LIMITS.get(n)
        if limit is None:
            if len(_MORE_LIMITS) >= _MORE_MOST:
                _MORE_LIMITS.clear()
            limit = _MORE_LIMITS[n] = TWO64 - TWO64 % n
        return limit
    raise BadValue(f"below(n) needs a whole n from 1 to 2**64, got {n!r}")


def _restored(state: dict, record) -> Generator:
    return Generator.restore(state, record)
