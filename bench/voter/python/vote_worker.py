"""One worker process of the Python Voter driver: its own asyncio client
(its own connections), its own vote generator, calling Vote from the common
start time through the warm-up and the measured period, then reporting its
counts to the parent (voter.py) through a queue.

Messages put on the queue: ("ready", worker) once connected; ("tick",
worker, index, answered, histogram state) each display interval;
("done", worker, result dict); ("error", worker, message).

Async mode: one event loop calls ``call_async`` as fast as the client's
in-flight bound allows (or at rate / workers). Sync mode: ``--threads``
threads per process, each one synchronous call at a time on a shared
synchronous client.
"""

from __future__ import annotations

import asyncio
import cProfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import partita
import partita.aio
from latency_histogram import LatencyHistogram
from outcomes import Outcomes
from split_random import SplitRandom
from vote_generator import VoteGenerator
from voter_options import VoterOptions

VOTE = "Vote"


class Phase:
    """The outcomes and latencies of one phase of this worker."""

    __slots__ = ("outcomes", "latency")

    def __init__(self, contestants: int) -> None:
        self.outcomes = Outcomes(contestants)
        self.latency = LatencyHistogram()


class Recorder:
    """Counts answers into the current phase and the progress interval.
    ``lock`` is held around recording in sync mode (threads)."""

    def __init__(self, contestants: int, lock: threading.Lock | None) -> None:
        self.warmup = Phase(contestants)
        self.measured = Phase(contestants)
        self.interval = LatencyHistogram()
        self.lock = lock

    def record(self, phase: Phase, contestant: int, started_ns: int, response: Any, error: BaseException | None
               ) -> None:
        if self.lock is not None:
            with self.lock:
                self._record(phase, contestant, started_ns, response, error)
        else:
            self._record(phase, contestant, started_ns, response, error)

    def _record(self, phase: Phase, contestant: int, started_ns: int, response: Any, error: BaseException | None
                ) -> None:
        if error is not None:
            phase.outcomes.failed += 1
            return
        micros = (time.perf_counter_ns() - started_ns) // 1000
        phase.latency.record(micros)
        self.interval.record(micros)
        if response.status != "SUCCESS" or not response.results or not response.results[0].rows:
            phase.outcomes.failed += 1
            return
        phase.outcomes.record_answer(contestant, response.results[0].rows[0][0])

    def take_interval(self) -> LatencyHistogram:
        if self.lock is not None:
            with self.lock:
                h, self.interval = self.interval, LatencyHistogram()
                return h
        h, self.interval = self.interval, LatencyHistogram()
        return h


def run_worker(worker: int, options: VoterOptions, random_state: tuple[int, int], start: Any, go: Any,
               queue: Any) -> None:
    """The process's entry point (see the module comment)."""
    try:
        if options.profile:
            profiler = cProfile.Profile()
            profiler.runcall(asyncio.run, _main(worker, options, random_state, start, go, queue))
            Path(options.profile).mkdir(parents=True, exist_ok=True)
            profiler.dump_stats(str(Path(options.profile) / f"worker-{worker + 1}.prof"))
        else:
            asyncio.run(_main(worker, options, random_state, start, go, queue))
    except BaseException as e:  # noqa: BLE001 - reported to the parent, which decides
        queue.put(("error", worker, f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


async def _main(worker: int, options: VoterOptions, random_state: tuple[int, int], start: Any, go: Any,
                queue: Any) -> None:
    generator = VoteGenerator(options.contestants, SplitRandom(*random_state))
    recorder = Recorder(options.contestants, None if options.is_async else threading.Lock())
    config = partita.ClientConfig(client_name=f"voter-python-{worker + 1}", call_timeout=30.0)
    loop = asyncio.get_running_loop()
    if options.is_async:
        client: Any = partita.aio.AsyncClient(config)
        await client.connect(*options.servers)
    else:
        client = partita.Client(config)
        await loop.run_in_executor(None, client.connect, *options.servers)
    queue.put(("ready", worker))
    await loop.run_in_executor(None, go.wait)
    t0 = start.value  # time.monotonic() of the common start, chosen by the parent
    warm_end = t0 + options.warmup_s
    end = warm_end + options.duration_s
    ticker = asyncio.ensure_future(_tick(worker, t0, options.display_interval_s, recorder, queue))
    rate = options.ratelimit / options.workers
    if t0 > time.monotonic():
        await asyncio.sleep(t0 - time.monotonic())
    if options.is_async:
        await _fire(client, generator, recorder, recorder.warmup, warm_end, options, rate, t0)
        measured_start = time.monotonic()
        cpu_start = time.process_time()
        await _fire(client, generator, recorder, recorder.measured, end, options, rate, measured_start)
        await client.drain()
    else:
        cpu_start = time.process_time()  # sync mode: warm-up included
        await loop.run_in_executor(None, _sync_phases, client, generator, recorder, warm_end, end, options, rate)
        measured_start = warm_end
    seconds = time.monotonic() - measured_start
    cpu_seconds = time.process_time() - cpu_start
    ticker.cancel()
    if options.is_async:
        await client.close()
    else:
        await loop.run_in_executor(None, client.close)
    queue.put(("done", worker, {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "warmup": recorder.warmup.outcomes,
        "measured": recorder.measured.outcomes,
        "latency": recorder.measured.latency.to_state(),
    }))


async def _tick(worker: int, t0: float, interval: float, recorder: Recorder, queue: Any) -> None:
    index = 0
    while True:
        index += 1
        delay = t0 + index * interval - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        h = recorder.take_interval()
        queue.put(("tick", worker, index, h.count, h.to_state()))


async def _fire(client: partita.aio.AsyncClient, generator: VoteGenerator, recorder: Recorder, phase: Phase,
                end: float, options: VoterOptions, rate: float, start: float) -> None:
    """Calls Vote until ``end``: as fast as the client allows, or call n at start + n / rate."""
    call_async = client.call_async
    maxvotes = options.maxvotes
    record = recorder.record
    monotonic = time.monotonic
    perf_ns = time.perf_counter_ns
    n = 0
    while True:
        now = monotonic()
        if now >= end:
            return
        if rate > 0:
            due = start + n / rate
            if due > now:
                await asyncio.sleep(due - now)
        elif n & 255 == 255:
            await asyncio.sleep(0)  # let answers and the progress ticker in
        n += 1
        generator.next()
        contestant = generator.contestant
        started = perf_ns()
        try:
            future = await call_async(VOTE, (generator.phone, contestant, maxvotes))
        except partita.PartitaError as e:
            record(phase, contestant, started, None, e)
            if isinstance(e, partita.NoConnectionsError):
                await asyncio.sleep(0.01)
            continue
        future.add_done_callback(
            lambda f, c=contestant, s=started: record(phase, c, s, None if f.exception() else f.result(),
                                                      f.exception()))


def _sync_phases(client: partita.Client, generator: VoteGenerator, recorder: Recorder, warm_end: float,
                 end: float, options: VoterOptions, rate: float) -> None:
    """Sync mode: ``threads`` threads, each one call at a time, each paced at
    rate / threads with staggered schedules."""
    per_thread = rate / options.threads
    threads = []
    for t in range(options.threads):
        offset = t / rate if rate > 0 else 0.0
        thread = threading.Thread(target=_call_until, args=(client, generator.split(), recorder, warm_end, end,
                                                            options.maxvotes, per_thread, offset), daemon=True)
        threads.append(thread)
        thread.start()
    for thread in threads:
        thread.join()


def _call_until(client: partita.Client, generator: VoteGenerator, recorder: Recorder, warm_end: float, end: float,
                maxvotes: int, rate: float, offset: float) -> None:
    start = time.monotonic() + offset
    n = 0
    while True:
        now = time.monotonic()
        if now >= end:
            return
        if rate > 0:
            due = start + n / rate
            if due > now:
                time.sleep(due - now)
        n += 1
        phase = recorder.warmup if now < warm_end else recorder.measured
        generator.next()
        started = time.perf_counter_ns()
        try:
            response = client.call(VOTE, (generator.phone, generator.contestant, maxvotes), check=False)
        except partita.PartitaError as e:
            recorder.record(phase, generator.contestant, started, None, e)
            continue
        recorder.record(phase, generator.contestant, started, response, None)
