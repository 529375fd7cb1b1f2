"""A real local cluster for tests, with scripts/cluster: three hosts on
127.0.0.1-3, K = 1, two sites each, the KV schema (bench/kv/ddl.sql), in a
temporary directory, on a free internal port pair and free client ports;
ready within 180 s or start() raises with the script's output. kill(i)
sends SIGKILL to host i by its pid (scripts/cluster kill); stop() stops every
host by pid (SIGTERM, SIGKILL after 30 s) and removes the directory.
Test-only."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "scripts/cluster"


def _free(port: int, hosts: int) -> bool:
    for i in range(1, hosts + 1):
        with socket.socket() as s:
            try:
                s.bind((f"127.0.0.{i}", port))
            except OSError:
                return False
    return True


def _free_port_pair(hosts: int) -> int:
    for _ in range(50):
        port = random.randint(20000, 60000)
        if _free(port, hosts) and _free(port + 1, hosts):
            return port
    raise RuntimeError(f"no port P with P and P+1 free on 127.0.0.1-{hosts}")


class LocalCluster:
    """See the module comment."""

    def __init__(self, hosts: int = 3) -> None:
        self.hosts = hosts
        self.dir = Path(tempfile.mkdtemp(prefix="partita-python-cluster-"))
        self.servers: list[str] = []
        self._env = {**os.environ, "PARTITA_CLUSTER_DIR": str(self.dir), "PARTITA_CLUSTER_START_TIMEOUT": "180"}

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SCRIPT), *args], env=self._env, capture_output=True, text=True, timeout=240)

    def start(self) -> None:
        result = self._run("start", "--hosts", str(self.hosts), "--kfactor", "1", "--sites-per-host", "2",
                           "--schema", str(REPO / "bench/kv/ddl.sql"), "--port", "0", "--http-port", "-1",
                           "--internal-port", str(_free_port_pair(self.hosts)))
        if result.returncode != 0:
            raise RuntimeError(f"scripts/cluster start failed:\n{result.stdout}{result.stderr}")
        self.servers = (self.dir / "servers").read_text().strip().split(",")

    def log(self, host: int) -> str:
        return (self.dir / f"host-{host}.log").read_text(errors="replace")

    def kill(self, host: int) -> None:
        self._run("kill", str(host))

    def stop(self) -> None:
        try:
            self._run("stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
