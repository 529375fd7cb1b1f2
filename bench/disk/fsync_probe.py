#!/usr/bin/env python3
"""How this machine's disk answers the command log's pattern (bench/RESULTS.md).

Appends BYTES and calls fdatasync, again and again, in a preallocated file in
DIR (removed at the end), for --seconds S or --count N syncs. Prints the sync
latency percentiles and the share of wall time spent inside syncs longer than
1, 2 and 4 ms: a call that arrives while such a sync runs waits for its rest
and for the next batch's sync, so that share bounds how many calls see the
disk's tail.

Usage: bench/disk/fsync_probe.py DIR BYTES (--seconds S | --count N)
"""
import argparse
import os
import time

FILE_BYTES = 256 << 20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", help="a directory on the disk to probe")
    parser.add_argument("bytes", type=int, help="bytes appended before each fdatasync")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--seconds", type=float, help="probe for this long")
    group.add_argument("--count", type=int, help="probe this many syncs")
    args = parser.parse_args()
    if not 0 < args.bytes < FILE_BYTES:
        parser.error(f"bytes must be between 1 and {FILE_BYTES - 1}")

    path = os.path.join(args.dir, f"fsync-probe-{os.getpid()}.bin")
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
    try:
        os.posix_fallocate(fd, 0, FILE_BYTES)
        os.fsync(fd)
        latencies = probe(fd, b"p" * args.bytes, args.seconds, args.count)
    finally:
        os.close(fd)
        os.unlink(path)
    report(args.bytes, *latencies)


def probe(fd, payload, seconds, count):
    """Returns (latencies in ms, wall time in ms)."""
    latencies = []
    offset = 0
    start = time.perf_counter()
    end = start + seconds if seconds is not None else None
    while (end is None and len(latencies) < count) or (end is not None and time.perf_counter() < end):
        t = time.perf_counter_ns()
        os.pwrite(fd, payload, offset)
        os.fdatasync(fd)
        latencies.append((time.perf_counter_ns() - t) / 1e6)
        offset = (offset + len(payload)) % (FILE_BYTES - len(payload))
    return latencies, (time.perf_counter() - start) * 1e3


def report(size, latencies, wall_ms):
    ordered = sorted(latencies)

    def pct(q):
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]

    def share(over_ms):
        return 100 * sum(v for v in latencies if v > over_ms) / wall_ms

    print(f"{size} B + fdatasync: {len(latencies)} syncs in {wall_ms / 1e3:.1f} s "
          f"({len(latencies) / wall_ms * 1e3:.0f}/s): p50 {pct(50):.3f} ms, p99 {pct(99):.3f} ms, "
          f"p99.9 {pct(99.9):.3f} ms, max {ordered[-1]:.2f} ms; wall time inside syncs over "
          f"1 ms {share(1):.2f} %, 2 ms {share(2):.2f} %, 4 ms {share(4):.2f} %")


if __name__ == "__main__":
    main()
