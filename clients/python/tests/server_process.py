"""ServerProcess: a real ``scripts/partita start`` process for the tests,
on 127.0.0.1 with ephemeral ports, its output in a temporary file.

start() waits (bounded) for the ``partita: ready`` line and returns the
client address; stop() sends SIGTERM to the process's pid, waits up to
``STOP_TIMEOUT`` seconds, then SIGKILL. The fixtures in conftest.py call
stop() in teardown, also when a test fails.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
START_TIMEOUT = 90.0
STOP_TIMEOUT = 40.0
_READY = re.compile(r"^partita: ready: client port ([^,\s]+)", re.M)


def missing_build() -> str | None:
    """What is not built for a server to start, or None when all is there."""
    needed = [REPO / "host-java/server/target/classpath.txt", REPO / "bench/voter/target/classes",
              REPO / "build/ee/src/jni"]
    absent = [str(p.relative_to(REPO)) for p in needed if not p.exists()]
    return f"not built: {', '.join(absent)} (run scripts/build)" if absent else None


class ServerProcess:
    """One server process; see the module comment."""

    def __init__(self, *args: str, sites: int = 2) -> None:
        self.args = ["--schema", str(REPO / "bench/voter/ddl.sql"), "--classes", str(REPO / "bench/voter/target/classes"),
                     "--sites", str(sites), *args]
        self.process: subprocess.Popen[bytes] | None = None
        self.address = ""
        self._log = tempfile.NamedTemporaryFile(prefix="partita-pytest-", suffix=".log", delete=False)

    def start(self) -> str:
        command = [str(REPO / "scripts/partita"), "start", "--port", "0", "--http-port", "-1", "--bind", "127.0.0.1",
                   *self.args]
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, cwd=REPO,
                                        start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            match = _READY.search(self.output())
            if match:
                self.address = match.group(1)
                return self.address
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        output = self.output()
        self.stop()
        raise RuntimeError(f"the server did not become ready in {START_TIMEOUT:g} s:\n{output}")

    def output(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL at once (a server going away without answering)."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=STOP_TIMEOUT)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after STOP_TIMEOUT; deletes the log. Idempotent."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=STOP_TIMEOUT)
        if not self._log.closed:
            self._log.close()
        try:
            os.unlink(self._log.name)
        except FileNotFoundError:
            pass
