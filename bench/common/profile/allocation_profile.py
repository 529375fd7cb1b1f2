#!/usr/bin/env python3
"""The server's allocation per call, measured with JDK Flight Recorder.

Runs a driver against a running server (a JVM on this machine, given by its
pid) and records the server with JFR during the driver's measured window
only: the recording starts when the driver's warm-up ends and lasts its
measured seconds (`jcmd PID JFR.start delay=W duration=D`, so the JIT has
compiled the hot path before anything is counted). Then:

  allocated bytes  = the sum over the server's threads of what each
                     allocated in the window (jdk.ThreadAllocationStatistics,
                     which JFR writes when a recording starts and ends)
  bytes per call   = allocated bytes / the calls the driver had answered in
                     its measured window (the `answered` field of its --json)
  top allocators   = jdk.ObjectAllocationSample events (JFR's throttled,
                     weighted samples) summed by class and by allocating
                     method, scaled to bytes per call

Writes allocation.txt (the report, also printed) and allocation.json into
--out. Standard library only. The figures do not depend on the machine's
load (allocation per call, not time), but the two windows are aligned only
to within the driver's start-up (tens of ms of a measured run of seconds).
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

TOP = 15
# Frames of these packages are skipped when naming the allocating method, so
# that `new ArrayList` is charged to the server's method that called it.
LIBRARY_PREFIXES = ("java.", "jdk.", "sun.", "javax.")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pid", type=int, required=True, help="the server JVM's pid")
    p.add_argument("--warmup", type=float, default=10, help="driver warm-up seconds (not recorded)")
    p.add_argument("--duration", type=float, default=20, help="recorded (measured) seconds")
    p.add_argument("--out", required=True, help="directory for allocation.txt, allocation.json and the .jfr")
    p.add_argument("--title", default="", help="first line of the report")
    p.add_argument("driver", nargs=argparse.REMAINDER,
                   help="-- then the driver command; --warmup, --duration and --json are appended")
    args = p.parse_args(argv)
    if args.driver and args.driver[0] == "--":
        args.driver = args.driver[1:]
    if not args.driver:
        p.error("give the driver command after --")
    return args


def run_driver(args, json_path):
    command = args.driver + ["--warmup", fmt(args.warmup), "--duration", fmt(args.duration), "--json", json_path]
    print("allocation: " + " ".join(command), flush=True)
    status = subprocess.call(command)
    if status != 0:
        raise SystemExit("allocation: the driver exited with %d" % status)
    with open(json_path) as f:
        return json.load(f)


def fmt(seconds):
    return str(int(seconds)) if float(seconds).is_integer() else str(seconds)


def start_recording(args, jfr_path):
    subprocess.check_call(["jcmd", str(args.pid), "JFR.start", "name=allocation", "settings=profile",
                           "delay=%ds" % round(args.warmup), "duration=%ds" % round(args.duration),
                           "filename=" + jfr_path], stdout=subprocess.DEVNULL)


def wait_for_recording(jfr_path, timeout_s=60):
    """JFR writes the file when the recording ends; waits until it exists and stops growing."""
    deadline = time.monotonic() + timeout_s
    last = -1
    while time.monotonic() < deadline:
        size = os.path.getsize(jfr_path) if os.path.exists(jfr_path) else -1
        if size > 0 and size == last:
            return
        last = size
        time.sleep(1)
    raise SystemExit("allocation: the recording %s was not written within %d s" % (jfr_path, timeout_s))


def events(jfr_path, names):
    out = subprocess.check_output(["jfr", "print", "--json", "--events", ",".join(names), jfr_path])
    return json.loads(out)["recording"]["events"]


def allocated_by_thread(records):
    """Bytes each thread allocated between its first and last statistics event of the recording
    (a thread started within the window counts as 0: there is none in a steady-state run)."""
    first, last = {}, {}
    for e in records:
        v = e["values"]
        thread = v["thread"]
        key = (thread.get("javaThreadId") or thread.get("osThreadId"), thread.get("javaName") or thread.get("osName"))
        first.setdefault(key, v["allocated"])
        last[key] = v["allocated"]
    by_name = {}
    for key, allocated in last.items():
        thread_id, name = key
        by_name["%s #%s" % (name, thread_id)] = allocated - first[key]
    return by_name


def top_frame(stack):
    frames = (stack or {}).get("frames") or []
    for frame in frames:
        method = frame.get("method") or {}
        owner = (method.get("type") or {}).get("name", "?").replace("/", ".")
        if not owner.startswith(LIBRARY_PREFIXES):
            return "%s.%s" % (owner.rsplit(".", 1)[-1], method.get("name", "?"))
    if frames:
        method = frames[0].get("method") or {}
        return "%s.%s" % ((method.get("type") or {}).get("name", "?").replace("/", "."), method.get("name", "?"))
    return "?"


def samples_by(records):
    by_class, by_method = collections.Counter(), collections.Counter()
    for e in records:
        v = e["values"]
        weight = v.get("weight") or 0
        by_class[(v.get("objectClass") or {}).get("name", "?").replace("/", ".")] += weight
        by_method[top_frame(v.get("stackTrace"))] += weight
    return by_class, by_method


def report(args, result, threads, by_class, by_method):
    calls = int(result.get("answered", 0))
    total = sum(threads.values())
    per_call = total / calls if calls else float("nan")
    sampled = sum(by_class.values()) or 1
    lines = []
    if args.title:
        lines.append(args.title)
    lines.append("calls answered in the recorded window: {:,} ({} s, {:,.0f} calls/s)".format(
        calls, fmt(args.duration), calls / args.duration))
    lines.append("allocated by the server: {:,} bytes = {:,.0f} bytes per call".format(total, per_call))
    lines.append("by thread (bytes per call):")
    for name, b in sorted(threads.items(), key=lambda kv: -kv[1]):
        if calls and b / calls >= 1:
            lines.append("  {:>8,.0f}  {}".format(b / calls, name))
    for title, counter in (("by class", by_class), ("by allocating method (first frame outside the JDK)", by_method)):
        lines.append("top %d %s, from JFR's weighted samples (bytes per call, share):" % (TOP, title))
        for name, w in counter.most_common(TOP):
            lines.append("  {:>8,.0f}  {:5.1f}%  {}".format(per_call * w / sampled, 100.0 * w / sampled, name))
    return "\n".join(lines) + "\n", {
        "calls": calls, "allocated_bytes": total, "bytes_per_call": per_call,
        "threads": threads,
        "by_class": [[n, per_call * w / sampled] for n, w in by_class.most_common(TOP)],
        "by_method": [[n, per_call * w / sampled] for n, w in by_method.most_common(TOP)],
        "driver": result,
    }


def main(argv):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    jfr_path = os.path.abspath(os.path.join(args.out, "allocation.jfr"))
    if os.path.exists(jfr_path):
        os.remove(jfr_path)
    with tempfile.TemporaryDirectory() as tmp:
        start_recording(args, jfr_path)
        result = run_driver(args, os.path.join(tmp, "driver.json"))
    wait_for_recording(jfr_path)
    threads = allocated_by_thread(events(jfr_path, ["jdk.ThreadAllocationStatistics"]))
    by_class, by_method = samples_by(events(jfr_path, ["jdk.ObjectAllocationSample"]))
    text, data = report(args, result, threads, by_class, by_method)
    sys.stdout.write(text)
    with open(os.path.join(args.out, "allocation.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "allocation.json"), "w") as f:
        json.dump(data, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
