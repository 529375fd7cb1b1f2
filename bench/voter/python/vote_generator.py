"""VoteGenerator: the phone calls of the Voter workload, drawn exactly as the
Java and C++ drivers draw them (bench/voter/README.md, "The calls";
bench/voter/cpp/vote_generator.cc):

- phone number: a known area code (uniformly) x 10^7 + 7 random digits;
- 1 call in 100 names contestant ``contestants + 1``, which does not exist;
- otherwise contestant k has weight 1/k; each area code has a favourite (the
  contestant whose cumulative-weight bucket holds (index x
  0.618033988749895) mod 1); half the calls vote for their area code's
  favourite, the other half draw a contestant by the weights.

With the same seed it yields the same calls. Not synchronized; one per
process or thread (split()).
"""

from __future__ import annotations

import bisect

from area_codes import CODES
from split_random import SplitRandom

INVALID_ONE_IN = 100
AREA_CODE_MULTIPLIER = 10_000_000
_GOLDEN_RATIO_FRACTION = 0.618033988749895


class VoteGenerator:
    """See the module comment. REQUIRES: contestants >= 1."""

    __slots__ = ("random", "contestants", "cumulative", "favourites", "phone", "contestant")

    def __init__(self, contestants: int, random: SplitRandom) -> None:
        self.random = random
        self.contestants = contestants
        total = 0.0
        sums = []
        for k in range(1, contestants + 1):
            total += 1.0 / k
            sums.append(total)
        self.cumulative = [s / total for s in sums]
        self.cumulative[-1] = 1.0
        self.favourites = [self._pick((i * _GOLDEN_RATIO_FRACTION) % 1.0) for i in range(len(CODES))]
        self.phone = 0
        self.contestant = 0

    def split(self) -> VoteGenerator:
        """An independent generator with the same contestants."""
        return VoteGenerator(self.contestants, self.random.split())

    def next(self) -> None:
        """Draws the next call into ``phone`` and ``contestant``."""
        r = self.random
        area = r.next_int(len(CODES))
        self.phone = CODES[area] * AREA_CODE_MULTIPLIER + r.next_int(AREA_CODE_MULTIPLIER)
        if r.next_int(INVALID_ONE_IN) == 0:
            self.contestant = self.contestants + 1
        elif r.next_boolean():
            self.contestant = self.favourites[area]
        else:
            self.contestant = self._pick(r.next_double())

    def weight(self, k: int) -> float:
        """The weight of contestant k (from 1) among the valid votes."""
        return self.cumulative[k - 1] - (self.cumulative[k - 2] if k > 1 else 0.0)

    def _pick(self, u: float) -> int:
        # Java's Arrays.binarySearch: an exact hit at i picks i + 2 (the next
        # bucket), otherwise the insertion point + 1.
        index = bisect.bisect_left(self.cumulative, u)
        if index < len(self.cumulative) and self.cumulative[index] == u:
            index += 1
        return min(index, len(self.cumulative) - 1) + 1
