"""Outcomes: what the Vote calls of one phase (warm-up or measured) of one
worker came to: accepted votes per contestant, rejections, failures.
Plain counters, summed across workers with merge(). Not synchronized.
"""

from __future__ import annotations

ACCEPTED = 0
INVALID_CONTESTANT = 1
OVER_VOTE_LIMIT = 2


class Outcomes:
    """Counters for contestants 1..contestants + 1 (the last is the invalid
    number the driver sends). REQUIRES: contestants >= 1."""

    __slots__ = ("accepted_by_contestant", "over_limit", "invalid", "failed")

    def __init__(self, contestants: int) -> None:
        self.accepted_by_contestant = [0] * (contestants + 2)
        self.over_limit = 0
        self.invalid = 0
        self.failed = 0

    def record_answer(self, contestant: int, code: object) -> None:
        """Vote answered ``code``; a code Vote never returns counts as failed."""
        if code == ACCEPTED and 0 <= contestant < len(self.accepted_by_contestant):
            self.accepted_by_contestant[contestant] += 1
        elif code == INVALID_CONTESTANT:
            self.invalid += 1
        elif code == OVER_VOTE_LIMIT:
            self.over_limit += 1
        else:
            self.failed += 1

    def record_failure(self) -> None:
        self.failed += 1

    def accepted(self, contestant: int | None = None) -> int:
        if contestant is None:
            return sum(self.accepted_by_contestant)
        if 0 <= contestant < len(self.accepted_by_contestant):
            return self.accepted_by_contestant[contestant]
        return 0

    def answered(self) -> int:
        return self.accepted() + self.over_limit + self.invalid

    @property
    def max_contestant(self) -> int:
        return len(self.accepted_by_contestant) - 1

    def merge(self, other: Outcomes) -> None:
        for i, n in enumerate(other.accepted_by_contestant):
            self.accepted_by_contestant[i] += n
        self.over_limit += other.over_limit
        self.invalid += other.invalid
        self.failed += other.failed
