"""The synchronous client against a real local cluster (the ``cluster``
fixture: three hosts, K = 1, KV schema), one cluster for the module: one
address is enough to reach every partition's leader, and after a kill -9 of
a leader's host and the failover, calls on its partitions succeed through
the client with no retry by the caller, also from a client idle during the
failover."""

from __future__ import annotations

import time
from typing import Callable

import partita
from cluster_process import LocalCluster

METADATA_LEADER = "failure detection: this voter leads the metadata group"
VALUE = b"value"


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g} s"
        time.sleep(0.02)


def connected(client: partita.Client, servers: list[str]) -> None:
    wait_for(lambda: set(client.connected_servers) == set(servers), 30, "connected to every host")


def test_should_reach_every_partition_leader_from_one_address(cluster: LocalCluster) -> None:
    with partita.connect(cluster.servers[0], call_timeout=30) as client:
        connected(client, cluster.servers)
        topology = client.topology
        assert topology is not None and topology.partition_count == 3  # 6 sites, two copies of each partition
        assert len(set(topology.partition_leaders)) == 3  # every host leads partitions
        # 300 keys hash over the 3 partitions; a call reaching a host that does not lead its
        # partition would be answered NOT_LEADER and sent again (counted).
        for i in range(300):
            client.call("Put", [f"key{i}", VALUE])
        assert client.statistics.not_leader_resends == 0


def test_should_serve_a_killed_leaders_partitions_again_after_the_failover(cluster: LocalCluster) -> None:
    with partita.connect(cluster.servers[0], call_timeout=30) as client, \
            partita.connect(cluster.servers[1], call_timeout=30) as idle:
        connected(client, cluster.servers)
        connected(idle, cluster.servers)
        # The victim: a host other than the metadata group's leader, so that the group keeps its leader.
        wait_for(lambda: any(METADATA_LEADER in cluster.log(i) for i in range(3)), 30, "a metadata leader")
        victim = (next(i for i in range(3) if METADATA_LEADER in cluster.log(i)) + 1) % 3
        before = client.topology
        assert before is not None
        host_id = next(h for h, (address, port) in before.hosts.items()
                       if f"{address}:{port}" == cluster.servers[victim])
        assert host_id in before.partition_leaders
        # Keys of the victim's partitions: those its host serves when asked alone.
        theirs: list[str] = []
        others: list[str] = []
        with partita.connect(cluster.servers[victim], discover_hosts=False) as alone:
            i = 0
            while len(theirs) < 5 or not others:
                key = f"probe{i}"
                (theirs if alone.call("Put", [key, VALUE], check=False).ok else others).append(key)
                i += 1

        cluster.kill(victim)

        def followed() -> bool:
            t = client.topology
            return t is not None and t.topology_version > before.topology_version and host_id not in t.partition_leaders

        # Wait for the observable state: calls on a surviving partition bring answers carrying the new
        # topology version once the failover happened.
        deadline = time.monotonic() + 60
        while not followed():
            assert time.monotonic() < deadline, f"no failover followed within 60 s: {client.topology}"
            try:
                client.call("Put", [others[0], VALUE], check=False, timeout=5)
            except partita.PartitaError:
                pass
            time.sleep(0.02)
        for key in theirs:
            assert client.call("Put", [key, VALUE]).ok, key
        # A client idle through the failover routes by the old leaders: its calls are answered
        # NOT_LEADER (not run) or by the new leader, and it follows either way.
        for key in theirs:
            assert idle.call("Get", [key]).results[0].rows[0][0] == VALUE, key
        assert host_id not in idle.topology.partition_leaders
