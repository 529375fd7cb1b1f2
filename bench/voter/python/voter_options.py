"""The Voter driver's options: those of the Java and C++ drivers
(bench/voter/README.md, "The driver's options") plus ``--workers N``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

MAX_CONTESTANTS = 1000


class OptionError(Exception):
    """A bad option; the message names it."""


@dataclass
class VoterOptions:
    servers: list[str] = field(default_factory=lambda: ["127.0.0.1:21212"])
    duration_s: float = 30.0
    warmup_s: float = 5.0
    mode: str = "async"
    threads: int = 16
    workers: int = 1
    ratelimit: int = 0
    contestants: int = 6
    maxvotes: int = 2
    display_interval_s: float = 5.0
    json: str = ""
    seed: int | None = None
    profile: str = ""

    @property
    def is_async(self) -> bool:
        return self.mode == "async"

    def check(self) -> None:
        if not self.servers or any(not s for s in self.servers):
            raise OptionError("--servers needs host:port values")
        if not self.duration_s > 0:
            raise OptionError(f"--duration must be more than 0 seconds, got {self.duration_s:g}")
        if not self.warmup_s >= 0:
            raise OptionError(f"--warmup must be 0 or more seconds, got {self.warmup_s:g}")
        if self.threads < 1:
            raise OptionError(f"--threads must be at least 1, got {self.threads}")
        if self.workers < 1:
            raise OptionError(f"--workers must be at least 1, got {self.workers}")
        if self.ratelimit < 0:
            raise OptionError(f"--ratelimit must be 0 (none) or more calls/s, got {self.ratelimit}")
        if not 1 <= self.contestants <= MAX_CONTESTANTS:
            raise OptionError(f"--contestants must be between 1 and {MAX_CONTESTANTS}, got {self.contestants}")
        if self.maxvotes < 1:
            raise OptionError(f"--maxvotes must be at least 1, got {self.maxvotes}")
        if not self.display_interval_s > 0:
            raise OptionError(f"--display-interval must be more than 0 seconds, got {self.display_interval_s:g}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise OptionError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="voter.py", description=(
        "Run the Voter benchmark against Partita servers with the Voter schema (bench/voter/ddl.sql) from "
        "--workers processes. Exit codes: 0 consistent, 1 consistency check failed, 2 bad options, 3 could not run."))
    p.add_argument("--servers", default="127.0.0.1:21212", metavar="HOST:PORT,...",
                   help="servers to connect to, comma-separated (default 127.0.0.1:21212)")
    p.add_argument("--duration", type=float, default=30.0, metavar="S", help="measured seconds (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, metavar="S",
                   help="seconds of warm-up before measuring, not counted in the figures (default 5)")
    p.add_argument("--mode", choices=["async", "sync"], default="async",
                   help="async: asynchronous calls from each process's event loop; sync: --threads threads per "
                        "process, one synchronous call at a time each (default async)")
    p.add_argument("--threads", type=int, default=16, metavar="N", help="calling threads per process in sync mode "
                   "(default 16)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes, each with its own client and connections (default 1)")
    p.add_argument("--ratelimit", type=int, default=0, metavar="CALLS/S",
                   help="calls per second over all processes, 0 = as fast as possible (default 0)")
    p.add_argument("--contestants", type=int, default=6, metavar="N", help="contestants (default 6)")
    p.add_argument("--maxvotes", type=int, default=2, metavar="N", help="votes allowed per phone number (default 2)")
    p.add_argument("--display-interval", type=float, default=5.0, metavar="S",
                   help="seconds between progress lines (default 5)")
    p.add_argument("--json", default="", metavar="FILE", help="also write the result as one JSON object to FILE")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed of the calls (default: from the clock); the same seed draws the Java and C++ "
                        "drivers' calls")
    p.add_argument("--profile", default="", metavar="DIR",
                   help="run each worker under cProfile and write DIR/worker-N.prof (read with python -m pstats)")
    return p


def parse(argv: list[str]) -> VoterOptions:
    """Parses and checks ``argv``. Raises OptionError naming the option."""
    a = parser().parse_args(argv)
    o = VoterOptions([s.strip() for s in a.servers.split(",")], a.duration, a.warmup, a.mode, a.threads, a.workers,
                     a.ratelimit, a.contestants, a.maxvotes, a.display_interval, a.json, a.seed, a.profile)
    o.check()
    return o
