"""Router: where a call goes. Holds the cluster's topology (partition count,
the bucket -> partition table, each partition's leader host) and the route of
every procedure, from the login answers (an older topology never replaces a
newer one), ``@SystemCatalog PARTITIONS`` (the leaders after a failover) and
``@SystemCatalog PROCEDURES`` (catalog refresh).

A single-partition call's partitioning parameter is converted to the
canonical form of the partitioning column's type, as the server does
(docs/partition-hash.md; the Java client's PartitionKey): integer types and
TIMESTAMP hash as a signed 64-bit integer (an ``int``, an integral
``Decimal`` or ``float``, a TIMESTAMP's aware ``datetime`` as microseconds),
VARCHAR as the UTF-8 of a ``str``, VARBINARY as ``bytes``. NULL routes to
partition 0. Any other value is unroutable: the call goes to any connection
and the server routes (or rejects) it.

Thread model: confined to the client's event loop.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import decimal
import math
from dataclasses import dataclass
from typing import Any, Sequence

from . import partition_hash
from .result_table import ResultTable
from .values import INT64_MAX, INT64_MIN, INTEGER_TYPES, ValueType, datetime_to_micros

_TWO_63 = float(1 << 63)
_INTEGER_CODES = frozenset(int(t) for t in INTEGER_TYPES)


@dataclass(frozen=True)
class ProcedureRoute:
    """Where one procedure runs."""

    name: str
    single_partition: bool
    partition_parameter: int
    partition_type: int


@dataclass(frozen=True)
class Topology:
    """The cluster's layout as one login answer (or refresh) described it."""

    partition_count: int
    partition_leaders: tuple[int, ...]
    bucket_partitions: tuple[int, ...]
    bucket_bits: int
    hash_algorithm: str
    topology_version: int
    hosts: dict[int, tuple[str, int]]

    @classmethod
    def from_login(cls, login: Any) -> Topology:
        t = login.topology
        return cls(
            partition_count=t.partition_count,
            partition_leaders=tuple(t.partition_leaders),
            bucket_partitions=tuple(t.bucket_partitions),
            bucket_bits=login.hash.bucket_bits or partition_hash.DEFAULT_BUCKET_BITS,
            hash_algorithm=login.hash.algorithm,
            topology_version=t.topology_version,
            hosts={h.host_id: (h.address, h.client_port) for h in t.hosts},
        )

    @property
    def routable(self) -> bool:
        """True when this client can compute partitions for this topology:
        a known algorithm, partitions, and a bucket table that is either
        empty or complete."""
        if self.hash_algorithm != partition_hash.ALGORITHM or self.partition_count <= 0:
            return False
        if not 1 <= self.bucket_bits <= 32:
            return False
        if self.bucket_partitions and len(self.bucket_partitions) != 1 << self.bucket_bits:
            return False
        return all(0 <= p < self.partition_count for p in self.bucket_partitions)

    def partition_of_hash(self, h: int) -> int:
        bucket = h >> (64 - self.bucket_bits)
        if self.bucket_partitions:
            return self.bucket_partitions[bucket]
        return bucket % self.partition_count

    def leader(self, partition: int) -> int | None:
        """The host id leading ``partition``, or None when the topology does not say."""
        if 0 <= partition < len(self.partition_leaders):
            return self.partition_leaders[partition]
        return None


def _integer_key(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if INT64_MIN <= value <= INT64_MAX else None
    if isinstance(value, decimal.Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            return None
        v = int(value)
        return v if INT64_MIN <= v <= INT64_MAX else None
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) >= _TWO_63 or value != math.floor(value):
            return None
        return int(value)
    return None


def partition_hash_of(value: Any, type_code: int) -> int | None:
    """The hash of partitioning ``value`` for a column of type ``type_code``,
    or None when the client cannot convert it exactly (the server decides)."""
    if type_code in INTEGER_TYPES:
        v = _integer_key(value)
        return None if v is None else partition_hash.hash_int(v)
    if type_code == ValueType.TIMESTAMP:
        if isinstance(value, _dt.datetime):
            try:
                v = datetime_to_micros(value)
            except ValueError:
                return None
            return partition_hash.hash_int(v) if INT64_MIN <= v <= INT64_MAX else None
        v = _integer_key(value)
        return None if v is None else partition_hash.hash_int(v)
    if type_code == ValueType.VARCHAR:
        return partition_hash.hash_str(value) if isinstance(value, str) else None
    if type_code == ValueType.VARBINARY:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return partition_hash.hash_bytes(bytes(value))
        return None
    return None


class Router:
    """The current topology and routes; see the module comment."""

    def __init__(self) -> None:
        self.topology: Topology | None = None
        self._routable = False
        self.catalog_version = -1
        self._exact: dict[str, ProcedureRoute] = {}
        self._folded: dict[str, ProcedureRoute] = {}

    def install_login(self, login: Any) -> None:
        """Takes the topology and, unless newer ones are held, the routes of a login answer."""
        topology = Topology.from_login(login)
        if self.topology is None or topology.topology_version >= self.topology.topology_version:
            self.topology = topology
            self._routable = topology.routable
        if login.catalog_version >= self.catalog_version:
            self._install({p.name: ProcedureRoute(p.name, p.single_partition, p.partition_parameter, p.partition_type)
                           for p in login.procedures}, login.catalog_version)

    def follow_leaders_table(self, table: ResultTable) -> bool:
        """Routes by the leaders of a ``@SystemCatalog PARTITIONS`` table
        (columns PARTITION_ID, LEADER_HOST_ID, TOPOLOGY_VERSION) if its
        version is newer than the topology routed by and it names the same
        partitions (a failover moved leaders; the bucket table stays).
        Returns True when they were taken.

        Raises KeyError when a column is missing, TypeError/ValueError for
        values of the wrong kind; the old leaders then stay.
        """
        topology = self.topology
        partition = table.column_index("PARTITION_ID")
        leader = table.column_index("LEADER_HOST_ID")
        version_column = table.column_index("TOPOLOGY_VERSION")
        leaders: list[int | None] = [None] * len(table.rows)
        version = 0
        for row in table.rows:
            p = int(row[partition])
            if not 0 <= p < len(leaders):
                raise ValueError(f"partition {p} in a table of {len(leaders)} partitions")
            leaders[p] = int(row[leader])
            version = max(version, int(row[version_column]))
        if (topology is None or version <= topology.topology_version or None in leaders
                or len(leaders) != len(topology.partition_leaders)):
            return False
        self.topology = dataclasses.replace(topology, partition_leaders=tuple(leaders),  # type: ignore[arg-type]
                                            topology_version=version)
        return True

    def install_routes_table(self, table: ResultTable, catalog_version: int) -> None:
        """Takes the routes of a ``@SystemCatalog PROCEDURES`` table (columns
        PROCEDURE_NAME, SINGLE_PARTITION, PARTITION_PARAMETER, PARTITION_TYPE).

        Raises KeyError when a column is missing, TypeError/ValueError for
        values of the wrong kind; the old routes then stay.
        """
        if catalog_version < self.catalog_version:
            return
        name = table.column_index("PROCEDURE_NAME")
        single = table.column_index("SINGLE_PARTITION")
        parameter = table.column_index("PARTITION_PARAMETER")
        ptype = table.column_index("PARTITION_TYPE")
        routes: dict[str, ProcedureRoute] = {}
        for row in table.rows:
            if row[name] is None:
                continue
            routes[row[name]] = ProcedureRoute(str(row[name]), bool(row[single]), int(row[parameter] or 0),
                                               int(row[ptype] or 0))
        self._install(routes, catalog_version)

    def _install(self, routes: dict[str, ProcedureRoute], catalog_version: int) -> None:
        self._exact = routes
        self._folded = {n.casefold(): r for n, r in routes.items()}
        self.catalog_version = catalog_version

    def route(self, procedure: str) -> ProcedureRoute | None:
        """The route of ``procedure`` (names match case-insensitively), or None."""
        r = self._exact.get(procedure)
        return r if r is not None else self._folded.get(procedure.casefold())

    def partition(self, procedure: str, params: Sequence[Any]) -> int | None:
        """The partition a call of ``procedure`` with ``params`` runs on, or
        None when it is not single-partition or cannot be computed here."""
        topology = self.topology
        route = self._exact.get(procedure) or self._folded.get(procedure.casefold())
        if topology is None or route is None or not route.single_partition or not self._routable:
            return None
        if route.partition_parameter >= len(params):
            return None
        value = params[route.partition_parameter]
        if value is None:
            return 0
        if type(value) is int and route.partition_type in _INTEGER_CODES and INT64_MIN <= value <= INT64_MAX:
            return topology.partition_of_hash(partition_hash.hash_int(value))  # the common case, fast
        h = partition_hash_of(value, route.partition_type)
        return None if h is None else topology.partition_of_hash(h)
