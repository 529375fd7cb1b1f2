"""SplitRandom: java.util.SplittableRandom (SplitMix64), bit for bit, as the
Java drivers and the C++ drivers (bench/common/cpp/split_random.h) have it:
the same seed gives the same next_long, next_int(bound), next_double and
next_boolean. Not synchronized; one per thread or process (split() makes an
independent one).
"""

from __future__ import annotations

_MASK64 = 0xFFFFFFFFFFFFFFFF
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _mix32(z: int) -> int:
    """The upper 32 bits of the mix, as a signed 32-bit int."""
    z = ((z ^ (z >> 33)) * 0x62A9D9ED799705F5) & _MASK64
    v = (((z ^ (z >> 28)) * 0xCB24D0A5C88C35B3) & _MASK64) >> 32
    return v - (1 << 32) if v >= 1 << 31 else v


def _mix_gamma(z: int) -> int:
    z = ((z ^ (z >> 33)) * 0xFF51AFD7ED558CCD) & _MASK64
    z = ((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & _MASK64
    z = (z ^ (z >> 33)) | 1
    n = bin(z ^ (z >> 1)).count("1")
    return z ^ 0xAAAAAAAAAAAAAAAA if n < 24 else z


def _signed64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


class SplitRandom:
    """See the module comment."""

    __slots__ = ("_seed", "_gamma")

    def __init__(self, seed: int, gamma: int = GOLDEN_GAMMA) -> None:
        self._seed = seed & _MASK64
        self._gamma = gamma

    def _next_seed(self) -> int:
        self._seed = (self._seed + self._gamma) & _MASK64
        return self._seed

    def next_long(self) -> int:
        return _signed64(_mix64(self._next_seed()))

    def next_int(self, bound: int | None = None) -> int:
        """A signed 32-bit int, or with ``bound`` one in [0, bound).

        REQUIRES: bound > 0 (and below 2^31).
        """
        r = _mix32(self._next_seed())
        if bound is None:
            return r
        m = bound - 1
        if bound & m == 0:
            return r & m
        u = (r & 0xFFFFFFFF) >> 1
        while True:
            r = u % bound
            # Java's rejection: retry while u + m - r overflows a signed int.
            if u + m - r < 1 << 31:
                return r
            u = (_mix32(self._next_seed()) & 0xFFFFFFFF) >> 1

    def next_double(self) -> float:
        """Uniform in [0, 1), 53 random bits."""
        return ((self.next_long() & _MASK64) >> 11) * (1.0 / (1 << 53))

    def next_boolean(self) -> bool:
        return _mix32(self._next_seed()) < 0

    def split(self) -> SplitRandom:
        """An independent generator; advances this one."""
        seed = self.next_long() & _MASK64
        return SplitRandom(seed, _mix_gamma(self._next_seed()))
