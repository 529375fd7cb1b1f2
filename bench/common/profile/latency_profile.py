#!/usr/bin/env python3
"""A latency-throughput profile of a benchmark driver (bench/README: "Profiles").

Runs the driver once as fast as it can (the firehose) to find the saturation
rate, then at fixed rates from above saturation stepping down, and records
for each step the rate asked for, the throughput reached and the latency
percentiles the driver measured. Writes profile.csv and profile.svg (latency
against throughput, p50, p99 and p99.9 on a logarithmic axis) into --out,
and prints one line per step.

The driver is any command that takes the options every Partita driver takes
(--ratelimit, --duration, --warmup, --json) and writes the JSON result with
tps, p50_ms, p99_ms, p999_ms and max_ms; bench/voter/profile and
bench/kv/profile run it against one local server kept up for every step.

Standard library only.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Sequence

# Fractions of the saturation rate the steps ask for, highest first: the first
# is above saturation (the driver then runs as fast as the server answers).
DEFAULT_FRACTIONS = (1.25, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
CSV_COLUMNS = ("step", "target_rate", "tps", "p50_ms", "p99_ms", "p999_ms", "max_ms")


@dataclass(frozen=True)
class Step:
    """One measured step: the rate asked for (0 = as fast as possible) and what the driver reported."""

    step: int
    target_rate: int
    tps: float
    p50_ms: float
    p99_ms: float
    p999_ms: float
    max_ms: float

    @staticmethod
    def from_result(step: int, target_rate: int, result: dict) -> "Step":
        try:
            return Step(step, target_rate, float(result["tps"]), float(result["p50_ms"]), float(result["p99_ms"]),
                        float(result["p999_ms"]), float(result["max_ms"]))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"the driver's JSON result lacks a number for {e}: {result}") from e


def rates_below(saturation_tps: float, fractions: Sequence[float]) -> list[int]:
    """The fixed rates of the steps: each fraction of the saturation rate, rounded, highest first, no repeats."""
    if saturation_tps <= 0:
        raise ValueError(f"the firehose run reached {saturation_tps} calls/s: nothing to profile")
    rates: list[int] = []
    for fraction in sorted(fractions, reverse=True):
        if fraction <= 0:
            raise ValueError(f"a fraction of the saturation rate must be positive, got {fraction}")
        rate = max(1, round(saturation_tps * fraction))
        if rate not in rates:
            rates.append(rate)
    return rates


def write_csv(path: str, steps: Sequence[Step]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(CSV_COLUMNS)
        for s in steps:
            out.writerow([s.step, s.target_rate, f"{s.tps:.1f}", f"{s.p50_ms:.4f}", f"{s.p99_ms:.4f}",
                          f"{s.p999_ms:.4f}", f"{s.max_ms:.4f}"])


def read_csv(path: str) -> list[Step]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [Step(int(r["step"]), int(r["target_rate"]), float(r["tps"]), float(r["p50_ms"]), float(r["p99_ms"]),
                 float(r["p999_ms"]), float(r["max_ms"])) for r in rows]


# --- the chart -----------------------------------------------------------------------------------------------

WIDTH, HEIGHT = 760, 480
LEFT, RIGHT, TOP, BOTTOM = 80, 150, 50, 60
SERIES = (("p50_ms", "p50", "#1f77b4"), ("p99_ms", "p99", "#ff7f0e"), ("p999_ms", "p99.9", "#d62728"))


def _nice_step(span: float) -> float:
    """A round tick spacing giving about five ticks over span."""
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_chart(steps: Sequence[Step], title: str) -> str:
    """Latency (log scale) against throughput of the fixed-rate steps, one line per percentile in throughput
    order; the firehose's throughput (its latency is queueing, not service) as a dashed line."""
    if not steps:
        raise ValueError("no steps to chart")
    firehoses = [s for s in steps if s.target_rate == 0]
    points = sorted([s for s in steps if s.target_rate > 0] or steps, key=lambda s: s.tps)
    x_max = max(s.tps for s in steps) * 1.05 or 1.0
    latencies = [getattr(s, key) for s in points for key, _, _ in SERIES if getattr(s, key) > 0]
    y_low = 10 ** math.floor(math.log10(min(latencies))) if latencies else 0.01
    y_high = 10 ** math.ceil(math.log10(max(latencies))) if latencies else 1.0
    if y_high <= y_low:
        y_high = y_low * 10
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(v: float) -> float:
        return LEFT + plot_w * v / x_max

    def y(v: float) -> float:
        v = max(v, y_low)
        return TOP + plot_h * (1 - (math.log10(v) - math.log10(y_low)) / (math.log10(y_high) - math.log10(y_low)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="15">{_escape(title)}</text>']
    step = _nice_step(x_max)
    tick = 0.0
    while tick <= x_max:
        out.append(f'<line x1="{x(tick):.1f}" y1="{TOP}" x2="{x(tick):.1f}" y2="{TOP + plot_h}" stroke="#eee"/>')
        label = f"{tick / 1000:g}k" if tick >= 1000 else f"{tick:g}"
        out.append(f'<text x="{x(tick):.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{label}</text>')
        tick += step
    decade = y_low
    while decade <= y_high * 1.0001:
        out.append(f'<line x1="{LEFT}" y1="{y(decade):.1f}" x2="{LEFT + plot_w}" y2="{y(decade):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y(decade) + 4:.1f}" text-anchor="end">{decade:g}</text>')
        decade *= 10
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 18}" text-anchor="middle">throughput (calls/s)</text>')
    out.append(f'<text x="20" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 20 {TOP + plot_h / 2})">latency (ms, log scale)</text>')
    for f in firehoses:
        out.append(f'<line x1="{x(f.tps):.1f}" y1="{TOP}" x2="{x(f.tps):.1f}" y2="{TOP + plot_h}" stroke="#555" '
                   f'stroke-dasharray="5,4"/>')
        out.append(f'<text x="{x(f.tps) - 4:.1f}" y="{TOP + 14}" text-anchor="end">firehose '
                   f'{f.tps:,.0f}/s</text>')
    for i, (key, name, colour) in enumerate(SERIES):
        coordinates = " ".join(f"{x(s.tps):.1f},{y(getattr(s, key)):.1f}" for s in points)
        out.append(f'<polyline points="{coordinates}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for s in points:
            out.append(f'<circle cx="{x(s.tps):.1f}" cy="{y(getattr(s, key)):.1f}" r="3" fill="{colour}"/>')
        legend_y = TOP + 20 + 22 * i
        out.append(f'<line x1="{LEFT + plot_w + 16}" y1="{legend_y}" x2="{LEFT + plot_w + 40}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{LEFT + plot_w + 46}" y="{legend_y + 4}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- running the driver --------------------------------------------------------------------------------------

def run_step(command: Sequence[str], rate: int, seconds: float, warmup: float, step: int) -> Step:
    """Runs the driver once at {rate} calls/s (0 = as fast as possible); its JSON result as a Step."""
    fd, result_path = tempfile.mkstemp(prefix="partita-profile-", suffix=".json")
    os.close(fd)
    try:
        args = [*command, "--ratelimit", str(rate), "--duration", f"{seconds:g}", "--warmup", f"{warmup:g}",
                "--json", result_path]
        finished = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        if finished.returncode != 0:
            raise RuntimeError(f"step {step} ({' '.join(args)}) exited with {finished.returncode}:\n"
                               f"{finished.stdout}")
        with open(result_path, encoding="utf-8") as f:
            return Step.from_result(step, rate, json.load(f))
    finally:
        os.unlink(result_path)


def describe(s: Step) -> str:
    target = "as fast as possible" if s.target_rate == 0 else f"{s.target_rate:,} calls/s"
    return (f"profile: step {s.step}: asked {target}: {s.tps:,.0f} calls/s, p50 {s.p50_ms:.3f} ms, "
            f"p99 {s.p99_ms:.3f} ms, p99.9 {s.p999_ms:.3f} ms, max {s.max_ms:.3f} ms")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="latency_profile.py", description=__doc__.split("\n\n")[0],
                                epilog="Everything after -- is the driver command.")
    p.add_argument("--out", required=True, help="directory for profile.csv and profile.svg (made if missing)")
    p.add_argument("--title", default="latency against throughput", help="the chart's title")
    p.add_argument("--step-seconds", type=float, default=20, help="measured seconds per step (default 20)")
    p.add_argument("--warmup", type=float, default=5, help="warm-up seconds per step (default 5)")
    p.add_argument("--fractions", default=",".join(f"{f:g}" for f in DEFAULT_FRACTIONS),
                   help="fractions of the saturation rate, comma-separated (default %(default)s)")
    p.add_argument("--rates", default="", help="fixed rates instead of fractions (no firehose run), comma-separated")
    p.add_argument("--chart-only", metavar="CSV", help="only redraw the chart of an existing profile.csv")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the driver command")
    args = p.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.chart_only and not args.command:
        p.error("give the driver command after --")
    if args.step_seconds <= 0 or args.warmup < 0:
        p.error("--step-seconds must be positive and --warmup not negative")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    os.makedirs(args.out, exist_ok=True)
    csv_path, svg_path = os.path.join(args.out, "profile.csv"), os.path.join(args.out, "profile.svg")
    if args.chart_only:
        steps = read_csv(args.chart_only)
    else:
        steps = []
        if args.rates:
            rates = [int(r) for r in args.rates.split(",") if r.strip()]
        else:
            firehose = run_step(args.command, 0, args.step_seconds, args.warmup, 0)
            print(describe(firehose), flush=True)
            steps.append(firehose)
            rates = rates_below(firehose.tps, [float(f) for f in args.fractions.split(",") if f.strip()])
        for i, rate in enumerate(rates, start=len(steps)):
            steps.append(run_step(args.command, rate, args.step_seconds, args.warmup, i))
            print(describe(steps[-1]), flush=True)
            write_csv(csv_path, steps)  # what is measured so far survives an interrupted profile
        write_csv(csv_path, steps)
    with open(svg_path, "w", encoding="utf-8") as f:
        f.write(svg_chart(steps, args.title))
    print(f"profile: wrote {csv_path} and {svg_path}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (RuntimeError, ValueError, OSError) as e:
        print(f"profile: {e}", file=sys.stderr)
        sys.exit(1)
