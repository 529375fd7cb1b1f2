"""The Python Voter driver's options, latency histogram, consistency check
and report (text lines and JSON fields of the Java and C++ drivers)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from latency_histogram import LatencyHistogram  # noqa: E402
from outcomes import Outcomes  # noqa: E402
from voter_options import OptionError, parse  # noqa: E402
from voter_report import Settings, Standings, VoterReport, check_consistency  # noqa: E402


def test_should_parse_the_drivers_options_with_their_defaults() -> None:
    o = parse([])
    assert (o.servers, o.duration_s, o.warmup_s, o.mode, o.threads, o.workers, o.ratelimit, o.contestants,
            o.maxvotes, o.display_interval_s, o.json) == (["127.0.0.1:21212"], 30, 5, "async", 16, 1, 0, 6, 2, 5, "")
    o = parse(["--servers", "a:1,b:2", "--workers", "4", "--mode", "sync", "--threads", "3", "--json", "/tmp/x"])
    assert o.servers == ["a:1", "b:2"] and o.workers == 4 and not o.is_async and o.threads == 3


@pytest.mark.parametrize("argv, message", [
    (["--duration", "0"], "--duration must be more than 0"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--contestants", "1001"], "--contestants must be between 1 and 1000"),
    (["--mode", "fast"], "invalid choice"),
    (["--ratelimit", "-1"], "--ratelimit must be 0"),
    (["--servers", ""], "--servers needs host:port"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_should_refuse_bad_options_naming_them(argv: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse(argv)


def test_should_give_percentiles_to_three_significant_digits_and_merge() -> None:
    a, b = LatencyHistogram(), LatencyHistogram()
    for v in range(1, 1001):
        a.record(v)
    b.record(123_456)
    a.merge(b)
    assert a.count == 1001 and a.max == 123_456
    assert a.percentile(50) == 501
    assert abs(a.percentile(100) - 123_456) <= 123_456 // 1000
    s = a.summary()
    assert s.max_ms == 123.456 and s.p50_ms == 0.501


def _outcomes(accepted: dict[int, int], contestants: int = 3) -> Outcomes:
    o = Outcomes(contestants)
    for c, n in accepted.items():
        for _ in range(n):
            o.record_answer(c, 0)
    return o


def test_should_find_the_database_consistent_when_changes_match() -> None:
    before = Standings([(1, "A", 10), (2, "B", 5)], 15)
    after = Standings([(1, "A", 13), (2, "B", 6), (3, "C", 2)], 21)
    c = check_consistency(before, after, [_outcomes({1: 1, 3: 1}), _outcomes({1: 2, 2: 1, 3: 1})])
    assert c.consistent
    assert c.lines[0].startswith("contestant 1") and "driver            3  database            3" in c.lines[0]
    assert c.lines[-1].startswith("all (COUNT(*) FROM votes)")


def test_should_flag_a_difference() -> None:
    before = Standings([(1, "A", 10)], 10)
    after = Standings([(1, "A", 12)], 12)
    c = check_consistency(before, after, [_outcomes({1: 1})])
    assert not c.consistent
    assert any(line.endswith("<-- differs") for line in c.lines)


def test_should_write_the_report_and_the_json_fields_of_the_other_drivers() -> None:
    r = VoterReport(Settings(servers="h:1", partitions=2, workers=2, description="async firehose from 2 "
                                                                                  "process(es) against h:1"))
    r.measured = _outcomes({1: 3000, 2: 1000})
    r.warmup = _outcomes({1: 5})
    r.seconds = 2.0
    r.worker_tps = [1500.0, 500.0]
    r.standings = Standings([(1, "Edwina Burnam", 3005), (2, "Tabatha Gehling", 1000)], 4005)
    r.consistency = check_consistency(Standings(), r.standings, [r.warmup, r.measured])
    text = r.text()
    assert "  throughput  2,000 TPS (4,000 answered)\n" in text
    assert "  processes   2, TPS each: #1 1,500  #2 500\n" in text
    assert "     1. Edwina Burnam            #1          3,005\n" in text
    assert "  consistency OK" in text
    fields = json.loads(r.json_text())
    assert fields["driver"] == "python" and fields["consistent"] is True and fields["tps"] == 2000.0
    for name in ("avg_ms", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms", "answered", "accepted", "over_limit",
                 "invalid", "failed", "duration_s", "mode", "threads", "ratelimit", "servers", "partitions",
                 "warmup_s", "contestants", "maxvotes", "workers", "tps_per_worker"):
        assert name in fields, name
