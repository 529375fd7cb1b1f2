"""Unit tests of the latency-throughput profile (bench/common/profile/latency_profile.py), with a scripted driver."""
import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import latency_profile as profile_tool  # noqa: E402



def test_rates_step_down_from_above_saturation_without_repeats():
    assert profile_tool.rates_below(1000, [0.5, 1.25, 1.0, 0.0004]) == [1250, 1000, 500, 1]
    assert profile_tool.rates_below(3, [1.0, 0.9, 0.8]) == [3, 2]


def test_rates_refuse_a_firehose_that_reached_nothing_and_bad_fractions():
    with pytest.raises(ValueError, match="nothing to profile"):
        profile_tool.rates_below(0, [1.0])
    with pytest.raises(ValueError, match="must be positive"):
        profile_tool.rates_below(100, [1.0, -0.5])


def test_a_driver_result_without_a_percentile_is_named():
    with pytest.raises(ValueError, match="p999_ms"):
        profile_tool.Step.from_result(1, 100, {"tps": 1, "p50_ms": 1, "p99_ms": 1, "max_ms": 1})


def test_csv_round_trips(tmp_path):
    steps = [profile_tool.Step(0, 0, 1234.5, 1.0, 2.0, 3.0, 4.0), profile_tool.Step(1, 1500, 1499.9, 0.1, 0.2, 0.3, 0.4)]
    path = tmp_path / "profile.csv"
    profile_tool.write_csv(str(path), steps)
    assert path.read_text().splitlines()[0] == ",".join(profile_tool.CSV_COLUMNS)
    assert profile_tool.read_csv(str(path)) == steps


def test_the_chart_has_a_line_per_percentile_the_firehose_dashed_and_an_escaped_title():
    steps = [profile_tool.Step(0, 0, 5000, 500, 800, 900, 950), profile_tool.Step(1, 4000, 3990, 0.2, 2, 5, 9),
             profile_tool.Step(2, 2000, 2000, 0.1, 1, 3, 4)]
    svg = profile_tool.svg_chart(steps, "a <b> & c")
    assert svg.count("<polyline") == 3
    assert "firehose 5,000/s" in svg and "stroke-dasharray" in svg
    assert "a &lt;b&gt; &amp; c" in svg
    with pytest.raises(ValueError):
        profile_tool.svg_chart([], "empty")


FAKE_DRIVER = textwrap.dedent('''
    import json, sys
    args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    rate = int(args["--ratelimit"])
    if rate == 777:
        print("the server went away"); sys.exit(3)
    tps = 10000.0 if rate == 0 else min(rate, 10000) * 0.99
    with open(args["--json"], "w") as f:
        json.dump({"tps": tps, "p50_ms": 0.1 + tps / 1e4, "p99_ms": 1 + tps / 1e3, "p999_ms": 2 + tps / 1e3,
                   "max_ms": 5 + tps / 1e3, "consistent": True}, f)
''')


@pytest.fixture
def driver(tmp_path):
    script = tmp_path / "fake_driver.py"
    script.write_text(FAKE_DRIVER)
    return [sys.executable, str(script)]


def test_a_profile_runs_the_firehose_then_each_rate_and_writes_csv_and_svg(tmp_path, driver, capsys):
    out = tmp_path / "out"
    assert profile_tool.main(["--out", str(out), "--step-seconds", "1", "--warmup", "0", "--fractions", "1.2,0.5",
                              "--", *driver]) == 0
    steps = profile_tool.read_csv(str(out / "profile.csv"))
    assert [s.target_rate for s in steps] == [0, 12000, 5000]
    assert steps[2].tps == pytest.approx(4950)
    assert (out / "profile.svg").read_text().startswith("<svg")
    assert "step 2: asked 5,000 calls/s" in capsys.readouterr().out


def test_a_failing_step_stops_the_profile_keeping_the_steps_before_it(tmp_path, driver):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="exited with 3:\nthe server went away"):
        profile_tool.main(["--out", str(out), "--step-seconds", "1", "--rates", "1000,777", "--", *driver])
    assert [s.target_rate for s in profile_tool.read_csv(str(out / "profile.csv"))] == [1000]
