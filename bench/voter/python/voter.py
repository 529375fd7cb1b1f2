#!/usr/bin/env python3
"""The Voter driver in Python (bench/voter/README.md, "Python driver"):
``--workers N`` processes (multiprocessing), each with its own asyncio
client, call Vote against running servers; the parent prints a progress
line every display interval and the final report, checks that the database
holds exactly the votes the workers saw accepted, and optionally writes the
result as JSON. The options, report lines and JSON fields of the Java and
C++ drivers, plus each process's throughput.

Calls: for seed S, one worker in async mode draws exactly the calls of the
C++ and Java drivers' async mode for S; with N workers (or sync threads)
each takes the next split() of that generator, as their sync threads do.

Exit codes: 0 consistent; 1 the consistency check failed; 2 bad options;
3 the run could not start or finish.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue as queue_module
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2] / "clients/python/src"))

import partita.aio  # noqa: E402
from latency_histogram import LatencyHistogram  # noqa: E402
from outcomes import Outcomes  # noqa: E402
from split_random import SplitRandom  # noqa: E402
from vote_generator import VoteGenerator  # noqa: E402
from vote_worker import run_worker  # noqa: E402
from voter_options import OptionError, VoterOptions, parse  # noqa: E402
from voter_report import Settings, Standings, VoterReport, check_consistency, grouped, fixed, read_standings  # noqa: E402

EXIT_INCONSISTENT = 1
EXIT_BAD_OPTIONS = 2
EXIT_CANNOT_RUN = 3
CLASSIC_NAMES = ["Edwina Burnam", "Tabatha Gehling", "Kelly Clauss", "Jessie Alloway", "Alana Bregman",
                 "Jessie Eichman"]
READY_TIMEOUT = 60.0
START_MARGIN = 0.2


class CannotRun(Exception):
    """The run could not start or finish; the message says why."""


def names(count: int) -> str:
    return ",".join(CLASSIC_NAMES[i] if i < 6 else f"Contestant {i + 1}" for i in range(count))


async def prepare(options: VoterOptions) -> tuple[Standings, int]:
    """Initialize, the standings before, and the partition count."""
    try:
        client = await partita.aio.connect(*options.servers, client_name="voter-python", call_timeout=30.0)
    except (partita.PartitaError, ValueError) as e:
        raise CannotRun(str(e)) from None
    try:
        try:
            had = (await client.call("Initialize", [options.contestants, names(options.contestants)])).scalar()
        except (partita.PartitaError, IndexError) as e:
            raise CannotRun(f"Initialize: {e}") from None
        if had != options.contestants:
            print(f"voter: note: the database already had {had} contestant(s); votes for others are invalid")
        try:
            before = await read_standings(client)
        except (partita.PartitaError, ValueError) as e:
            raise CannotRun(str(e)) from None
        return before, await partition_count(client)
    finally:
        await client.close()


async def partition_count(client: partita.aio.AsyncClient) -> int:
    """The database's partitions, on one server or a cluster (@SystemCatalog PARTITIONS: a row per partition of
    the map), or 0 when unknown. (@Statistics PARTITION would count only the asked host's copies.)"""
    try:
        return len((await client.call("@SystemCatalog", ["PARTITIONS"])).results[0].rows)
    except (partita.PartitaError, IndexError):
        return 0


async def final_standings(options: VoterOptions) -> Standings:
    try:
        async with await partita.aio.connect(*options.servers, client_name="voter-python") as client:
            return await read_standings(client)
    except (partita.PartitaError, ValueError) as e:
        raise CannotRun(f"cannot read the standings: {e}") from None


def random_states(options: VoterOptions) -> list[tuple[int, int]]:
    """Each worker's SplitRandom (seed, gamma): the base generator itself
    for one async worker, else one split() each."""
    seed = options.seed if options.seed is not None else time.monotonic_ns() ^ time.time_ns()
    base = VoteGenerator(options.contestants, SplitRandom(seed))
    if options.workers == 1 and options.is_async:
        return [(base.random._seed, base.random._gamma)]
    states = []
    for _ in range(options.workers):
        r = base.random.split()
        states.append((r._seed, r._gamma))
    return states


class Progress:
    """Prints a progress line once every worker reported an interval."""

    def __init__(self, options: VoterOptions) -> None:
        self.options = options
        self.pending: dict[int, list[tuple[int, LatencyHistogram]]] = {}

    def tick(self, index: int, answered: int, histogram: LatencyHistogram) -> None:
        reports = self.pending.setdefault(index, [])
        reports.append((answered, histogram))
        if len(reports) < self.options.workers:
            return
        del self.pending[index]
        merged = LatencyHistogram()
        for _, h in reports:
            merged.merge(h)
        interval = self.options.display_interval_s
        elapsed = index * interval
        phase = "warm-up" if elapsed <= self.options.warmup_s else "run"
        s = merged.summary()
        print(f"voter: {elapsed:7.1f} s {phase:<8} {grouped(merged.count / interval):>10} calls/s  "
              f"p50 {s.p50_ms:7.3f} ms  p99 {s.p99_ms:7.3f} ms", flush=True)


def run_workers(options: VoterOptions) -> list[dict[str, Any]]:
    """Starts the workers, relays their progress, returns their results."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    start = context.Value("d", 0.0)
    go = context.Event()
    processes = [context.Process(target=run_worker, args=(w, options, state, start, go, queue), daemon=True,
                                 name=f"voter-worker-{w + 1}")
                 for w, state in enumerate(random_states(options))]
    for p in processes:
        p.start()
    finished = False
    try:
        results = _collect(options, processes, queue, start, go)
        finished = True
        return results
    finally:
        for p in processes:
            if finished:
                p.join(60)  # a worker still writes its profile after its result
            if p.is_alive():
                p.terminate()
            p.join(5)


def _collect(options: VoterOptions, processes: list[Any], queue: Any, start: Any, go: Any) -> list[dict[str, Any]]:
    results: dict[int, dict[str, Any]] = {}
    ready = 0
    progress = Progress(options)
    deadline = time.monotonic() + READY_TIMEOUT
    limit = READY_TIMEOUT + options.warmup_s + options.duration_s + 60
    while len(results) < options.workers:
        try:
            message = queue.get(timeout=1.0)
        except queue_module.Empty:
            dead = [p.name for p in processes if not p.is_alive() and p.exitcode not in (0, None)]
            if dead:
                raise CannotRun(f"worker process(es) {', '.join(dead)} exited without a result")
            if time.monotonic() > deadline + limit:
                raise CannotRun("the workers did not finish in time")
            continue
        kind, worker = message[0], message[1]
        if kind == "error":
            raise CannotRun(f"worker {worker + 1}: {message[2]}")
        if kind == "ready":
            ready += 1
            if ready == options.workers:
                start.value = time.monotonic() + START_MARGIN
                go.set()
        elif kind == "tick":
            progress.tick(message[2], message[3], LatencyHistogram.from_state(message[4]))
        elif kind == "done":
            results[worker] = message[2]
    return [results[w] for w in range(options.workers)]


def describe(options: VoterOptions, partitions: int) -> Settings:
    servers = ",".join(options.servers)
    how = "async" if options.is_async else f"sync, {options.threads} threads"
    pace = "firehose" if options.ratelimit == 0 else f"{grouped(options.ratelimit)} calls/s"
    return Settings(
        mode=options.mode, threads=1 if options.is_async else options.threads, workers=options.workers,
        ratelimit=options.ratelimit, servers=servers, partitions=partitions, warmup_s=options.warmup_s,
        contestants=options.contestants, maxvotes=options.maxvotes,
        description=f"{how} {pace} from {options.workers} process(es) against {servers} "
                    f"({partitions} partition(s))")


def run(options: VoterOptions) -> int:
    before, partitions = asyncio.run(prepare(options))
    settings = describe(options, partitions)
    print(f"voter: {settings.description}, warm-up {fixed(options.warmup_s, 1)} s, then "
          f"{fixed(options.duration_s, 1)} s measured", flush=True)
    results = run_workers(options)
    report = VoterReport(settings)
    report.measured = Outcomes(options.contestants)
    report.warmup = Outcomes(options.contestants)
    latency = LatencyHistogram()
    for r in results:
        report.measured.merge(r["measured"])
        report.warmup.merge(r["warmup"])
        latency.merge(LatencyHistogram.from_state(r["latency"]))
        report.worker_tps.append(r["measured"].answered() / r["seconds"] if r["seconds"] > 0 else 0.0)
        calls = r["measured"].answered() + r["measured"].failed + (0 if options.is_async else r["warmup"].answered())
        report.worker_cpu_us.append(r["cpu_seconds"] * 1e6 / calls if calls else 0.0)
    report.seconds = max(r["seconds"] for r in results)
    report.latency = latency.summary()
    report.standings = asyncio.run(final_standings(options))
    report.consistency = check_consistency(before, report.standings, [report.warmup, report.measured])
    sys.stdout.write(report.text())
    sys.stdout.flush()
    if options.json:
        try:
            Path(options.json).write_text(report.json_text(), encoding="utf-8")
        except OSError as e:
            raise CannotRun(f"cannot write {options.json}: {e.strerror}") from None
    return 0 if report.consistency.consistent else EXIT_INCONSISTENT


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        from voter_options import parser
        parser().print_help()
        return 0
    try:
        options = parse(argv)
    except OptionError as e:
        print(f"voter.py: {e}", file=sys.stderr)
        return EXIT_BAD_OPTIONS
    try:
        return run(options)
    except CannotRun as e:
        print(f"voter: cannot run: {e}", file=sys.stderr)
        return EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
