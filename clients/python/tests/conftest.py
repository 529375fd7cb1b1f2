"""Test setup: generates the protobuf modules from proto/ (never committed)
with the pinned grpcio-tools, puts src/ on the path, and provides the
server fixtures.

Tests that need a real server skip with the reason when the server is not
built, unless PARTITA_REQUIRE_SERVER=1 (scripts/test sets it), which turns
that into a failure.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent
sys.path.insert(0, str(PACKAGE_ROOT))
sys.path.insert(0, str(PACKAGE_ROOT / "src"))
sys.path.insert(0, str(HERE))

import generate_proto  # noqa: E402

if not generate_proto.is_current():
    generate_proto.generate()

from cluster_process import LocalCluster  # noqa: E402
from server_process import ServerProcess, missing_build  # noqa: E402


def _need_build() -> None:
    missing = missing_build()
    if missing is None:
        return
    if os.environ.get("PARTITA_REQUIRE_SERVER") == "1":
        pytest.fail(f"PARTITA_REQUIRE_SERVER=1 but the server is {missing}")
    pytest.skip(f"no real server to test against: {missing}")


def _running_server() -> Iterator[ServerProcess]:
    _need_build()
    process = ServerProcess()
    try:
        process.start()
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="session")
def server() -> Iterator[ServerProcess]:
    """One Voter server (2 sites) shared by the tests that do not stop it."""
    yield from _running_server()


@pytest.fixture()
def own_server() -> Iterator[ServerProcess]:
    """A Voter server of the test's own (it may kill it)."""
    yield from _running_server()


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """A three-host K = 1 KV cluster shared by the tests of one module (they may kill hosts)."""
    _need_build()
    local = LocalCluster()
    try:
        local.start()
        yield local
    finally:
        local.stop()
