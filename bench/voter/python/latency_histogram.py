"""LatencyHistogram: round-trip times in microseconds, log-linear like the
C++ client's (clients/cpp/src/latency_histogram.cc): exact below 2,048 µs,
then 1,024 buckets per power of two (three significant digits), up to one
hour. Mergeable across worker processes (counts travel as a dict). Not
synchronized: one per event loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_SUB_BITS = 10
_EXACT = 1 << (_SUB_BITS + 1)
MAX_MICROS = 3_600_000_000


def index_of(micros: int) -> int:
    v = min(micros, MAX_MICROS)
    if v < _EXACT:
        return v
    shift = v.bit_length() - (_SUB_BITS + 1)
    return _EXACT + (shift - 1) * (1 << _SUB_BITS) + ((v >> shift) - (1 << _SUB_BITS))


def highest_equivalent(index: int) -> int:
    if index < _EXACT:
        return index
    k = index - _EXACT
    shift = (k >> _SUB_BITS) + 1
    mantissa = (k & ((1 << _SUB_BITS) - 1)) + (1 << _SUB_BITS)
    return (mantissa << shift) + (1 << shift) - 1


@dataclass
class LatencySummary:
    """A distribution in milliseconds, as the drivers report it."""

    count: int = 0
    avg_ms: float = 0.0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    p99_ms: float = 0.0
    p999_ms: float = 0.0
    max_ms: float = 0.0


class LatencyHistogram:
    """See the module comment."""

    __slots__ = ("counts", "count", "total", "max")

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.count = 0
        self.total = 0
        self.max = 0

    def record(self, micros: int) -> None:
        micros = 1 if micros < 1 else micros
        i = micros if micros < _EXACT else index_of(micros)
        counts = self.counts
        counts[i] = counts.get(i, 0) + 1
        self.count += 1
        self.total += micros
        if micros > self.max:
            self.max = micros

    def merge(self, other: LatencyHistogram) -> None:
        for i, n in other.counts.items():
            self.counts[i] = self.counts.get(i, 0) + n
        self.count += other.count
        self.total += other.total
        self.max = max(self.max, other.max)

    def percentile(self, percentile: float) -> int:
        if self.count == 0:
            return 0
        rank = max(1, math.ceil(min(max(percentile, 0.0), 100.0) / 100.0 * self.count))
        seen = 0
        for i in sorted(self.counts):
            seen += self.counts[i]
            if seen >= rank:
                return min(highest_equivalent(i), self.max)
        return self.max

    def summary(self) -> LatencySummary:
        if self.count == 0:
            return LatencySummary()
        ms = 1000.0
        return LatencySummary(self.count, self.total / self.count / ms, self.percentile(50) / ms,
                              self.percentile(95) / ms, self.percentile(99) / ms, self.percentile(99.9) / ms,
                              self.max / ms)

    def to_state(self) -> tuple[dict[int, int], int, int, int]:
        return self.counts, self.count, self.total, self.max

    @classmethod
    def from_state(cls, state: tuple[dict[int, int], int, int, int]) -> LatencyHistogram:
        h = cls()
        h.counts, h.count, h.total, h.max = dict(state[0]), state[1], state[2], state[3]
        return h
