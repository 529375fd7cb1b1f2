"""Router: partitions from the login's topology, the bucket table or its
fallback, leaders, and route refreshes from @SystemCatalog PROCEDURES."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from partita import partition_hash
from partita._proto import client_pb2
from partita.routing import Router
from fake_server import login_answer
from table_bytes import table
from partita.result_table import ResultTable


def login(partitions: int = 4, buckets: list[int] | None = None, leaders: list[int] | None = None,
          catalog_version: int = 1) -> client_pb2.LoginResponse:
    answer = login_answer(0, partitions, leaders, buckets, catalog_version=catalog_version)
    answer.procedures.add(name="ByName", single_partition=True, partition_parameter=1, partition_type=8)
    answer.procedures.add(name="ByTime", single_partition=True, partition_parameter=0, partition_type=10)
    answer.procedures.add(name="Results", single_partition=False)
    return answer


def test_should_fall_back_to_bucket_mod_partition_count_without_a_table() -> None:
    router = Router()
    router.install_login(login(4))
    assert router.partition("Vote", [6175551234, 3, 2]) == 1  # bucket 973, the shared vectors
    assert router.partition("vote", [0]) == 0  # names match ignoring case; bucket 7924


def test_should_route_through_the_bucket_table_when_the_server_sends_one() -> None:
    buckets = [(b * 7) % 3 for b in range(1 << 14)]
    router = Router()
    router.install_login(login(3, buckets, leaders=[5, 6, 7]))
    assert router.partition("Vote", [6175551234]) == (973 * 7) % 3
    assert router.topology is not None and router.topology.leader(2) == 7


def test_should_not_route_through_an_incomplete_table_or_an_unknown_algorithm() -> None:
    router = Router()
    router.install_login(login(3, [0, 1, 2]))
    assert router.partition("Vote", [6175551234]) is None
    answer = login(3)
    answer.hash.algorithm = "other"
    router = Router()
    router.install_login(answer)
    assert router.partition("Vote", [6175551234]) is None


def test_should_convert_values_as_the_server_does() -> None:
    router = Router()
    router.install_login(login(12))
    expected = partition_hash.partition_of_bucket(partition_hash.bucket_of(partition_hash.hash_int(42)), 12)
    assert router.partition("Vote", [Decimal("42")]) == expected
    assert router.partition("Vote", [42.0]) == expected
    assert router.partition("Vote", [42.5]) is None
    assert router.partition("Vote", ["42"]) is None
    assert router.partition("Vote", [True]) is None
    assert router.partition("Vote", [None]) == 0
    assert router.partition("Vote", []) is None
    assert router.partition("ByName", [1, "Partita"]) == 8  # the shared vectors: VARCHAR Partita, 12 partitions
    stamp = dt.datetime(1970, 1, 1, 0, 0, 0, 42, tzinfo=dt.timezone.utc)
    assert router.partition("ByTime", [stamp]) == expected
    assert router.partition("Results", []) is None
    assert router.partition("Unknown", [1]) is None


def test_should_take_routes_from_a_procedures_table_of_a_newer_catalog() -> None:
    router = Router()
    router.install_login(login(4, catalog_version=1))
    procedures = table([(8, "PROCEDURE_NAME"), (2, "SINGLE_PARTITION"), (4, "PARTITION_PARAMETER"),
                        (4, "PARTITION_TYPE")], [["NoteBody", 1, 0, 5], ["Vote", 0, 0, 0]])
    router.install_routes_table(ResultTable.decode(procedures), 2)
    assert router.catalog_version == 2
    assert router.partition("NoteBody", [0]) == 0
    assert router.partition("Vote", [6175551234]) is None
    router.install_login(login(4, catalog_version=1))  # an older login keeps the newer routes
    assert router.route("NoteBody") is not None
