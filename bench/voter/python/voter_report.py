"""The Voter driver's standings, consistency check, report text and JSON,
with the lines and fields of the Java and C++ drivers
(bench/voter/cpp/voter_report.cc, consistency.cc), plus what only this
driver has: its worker processes and each one's throughput.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from latency_histogram import LatencySummary
from outcomes import Outcomes

COUNT_VOTES = "SELECT COUNT(*) FROM votes"


@dataclass
class Standings:
    """``Results`` (contestant -> name, votes, in the procedure's order) and
    the row count of ``votes``."""

    entries: list[tuple[int, str, int]] = field(default_factory=list)  # (contestant, name, votes)
    vote_rows: int = 0

    def votes(self, contestant: int) -> int:
        for number, _, votes in self.entries:
            if number == contestant:
                return votes
        return 0


async def read_standings(client: Any) -> Standings:
    """Reads Results and the row count. Raises the client's errors, or
    ValueError when an answer has not the expected shape."""
    results = await client.call("Results")
    if not results.results or len(results.results[0].columns) < 3:
        raise ValueError("Results: expected a table of 3 columns (name, contestant, votes)")
    entries = [(int(row[1]), str(row[0]), int(row[2])) for row in results.results[0].rows]
    count = await client.query(COUNT_VOTES)
    if len(count.rows) != 1 or len(count.columns) != 1:
        raise ValueError("@AdHoc: expected one count")
    return Standings(entries, int(count.scalar()))


def grouped(value: float, decimals: int = 0) -> str:
    """``1,234,567`` (Java's %,d / %,.Nf; halves rounded away from zero)."""
    return f"{fixed(value, decimals, as_float=True):,.{decimals}f}"


def fixed(value: float, decimals: int, as_float: bool = False) -> Any:
    scale = 10.0**decimals
    scaled = abs(value) * scale
    rounded = math.floor(scaled + 0.5) / scale
    rounded = math.copysign(rounded, value) if rounded else 0.0
    return rounded if as_float else f"{rounded:.{decimals}f}"


@dataclass
class Consistency:
    consistent: bool = True
    lines: list[str] = field(default_factory=list)


def _line(what: str, counted: int, gained: int) -> str:
    return (f"{what:<26} driver {grouped(counted):>12}  database {grouped(gained):>12}"
            + ("" if counted == gained else "  <-- differs"))


def check_consistency(before: Standings, after: Standings, phases: list[Outcomes]) -> Consistency:
    """Accepted votes counted by the driver (all phases) against the
    database's change, per contestant and in total."""
    max_contestant = phases[0].max_contestant
    contestants = sorted({c for c, _, _ in after.entries} | set(range(1, max_contestant + 1)))
    result = Consistency()
    total = 0
    for c in contestants:
        counted = sum(p.accepted(c) for p in phases)
        total += counted
        gained = after.votes(c) - before.votes(c)
        if counted == 0 and gained == 0 and c == max_contestant:
            continue  # the invalid number, as expected
        result.consistent &= counted == gained
        result.lines.append(_line(f"contestant {c}", counted, gained))
    rows_gained = after.vote_rows - before.vote_rows
    result.consistent &= total == rows_gained
    result.lines.append(_line("all (COUNT(*) FROM votes)", total, rows_gained))
    return result


@dataclass
class Settings:
    mode: str = "async"
    threads: int = 1
    workers: int = 1
    ratelimit: int = 0
    servers: str = ""
    partitions: int = 0
    warmup_s: float = 5.0
    contestants: int = 6
    maxvotes: int = 2
    description: str = ""


@dataclass
class VoterReport:
    settings: Settings
    seconds: float = 0.0
    latency: LatencySummary = field(default_factory=LatencySummary)
    measured: Outcomes | None = None
    warmup: Outcomes | None = None
    worker_tps: list[float] = field(default_factory=list)
    worker_cpu_us: list[float] = field(default_factory=list)  # each worker's CPU time per call, µs
    standings: Standings = field(default_factory=Standings)
    consistency: Consistency = field(default_factory=Consistency)

    def tps(self) -> float:
        return self.measured.answered() / self.seconds if self.measured and self.seconds > 0 else 0.0

    def text(self) -> str:
        m = self.measured or Outcomes(1)
        w = self.warmup or Outcomes(1)
        lat = self.latency
        s = f"voter: {self.settings.description}, {fixed(self.seconds, 1)} s measured\n"
        s += f"  throughput  {grouped(self.tps())} TPS ({grouped(m.answered())} answered)\n"
        s += (f"  latency ms  avg {fixed(lat.avg_ms, 3)}  p50 {fixed(lat.p50_ms, 3)}  p95 {fixed(lat.p95_ms, 3)}  "
              f"p99 {fixed(lat.p99_ms, 3)}  p99.9 {fixed(lat.p999_ms, 3)}  max {fixed(lat.max_ms, 3)}\n")
        s += (f"  outcomes    accepted {grouped(m.accepted())}  rejected over the limit {grouped(m.over_limit)}  "
              f"rejected invalid contestant {grouped(m.invalid)}  failed {grouped(m.failed)}\n")
        s += f"  warm-up     accepted {grouped(w.accepted())}  failed {grouped(w.failed)} (not in the figures above)\n"
        per = "  ".join(f"#{i + 1} {grouped(t)}" for i, t in enumerate(self.worker_tps))
        s += f"  processes   {len(self.worker_tps)}, TPS each: {per}\n"
        if self.worker_cpu_us:
            cpu = "  ".join(f"#{i + 1} {fixed(c, 1)}" for i, c in enumerate(self.worker_cpu_us))
            s += f"  driver CPU  µs per call: {cpu}\n"
        s += "  standings\n"
        for rank, (contestant, name, votes) in enumerate(self.standings.entries, 1):
            s += f"    {rank:>2}. {name:<24} #{contestant:<3} {grouped(votes):>12}\n"
        s += (f"  consistency {'OK' if self.consistency.consistent else 'FAILED'}: accepted votes counted by the "
              "driver (warm-up and measured) against the database's change\n")
        for line in self.consistency.lines:
            s += f"    {line}\n"
        return s

    def json_object(self) -> dict[str, Any]:
        m = self.measured or Outcomes(1)
        w = self.warmup or Outcomes(1)
        lat = self.latency
        st = self.settings
        return {
            "driver": "python", "tps": self.tps(), "avg_ms": lat.avg_ms, "p50_ms": lat.p50_ms, "p95_ms": lat.p95_ms,
            "p99_ms": lat.p99_ms, "p999_ms": lat.p999_ms, "max_ms": lat.max_ms, "answered": m.answered(),
            "accepted": m.accepted(), "over_limit": m.over_limit, "invalid": m.invalid, "failed": m.failed,
            "warmup_accepted": w.accepted(), "warmup_failed": w.failed,
            "consistent": self.consistency.consistent, "duration_s": self.seconds, "mode": st.mode,
            "threads": st.threads, "workers": st.workers, "tps_per_worker": self.worker_tps,
            "cpu_us_per_call_per_worker": self.worker_cpu_us,
            "ratelimit": st.ratelimit, "servers": st.servers, "partitions": st.partitions, "warmup_s": st.warmup_s,
            "contestants": st.contestants, "maxvotes": st.maxvotes,
        }

    def json_text(self) -> str:
        return json.dumps(self.json_object(), indent=2, separators=(",", " : ")) + "\n"
