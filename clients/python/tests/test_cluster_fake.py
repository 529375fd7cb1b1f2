"""The asyncio client against two scripted hosts of a cluster (fake_server.py):
host discovery from one address, following a newer topology through
``@SystemCatalog PARTITIONS`` (an older login never replaces it),
NOT_LEADER calls sent again at most twice, and calls whose outcome is
unknown never sent again."""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any, Awaitable, Callable

import pytest

import partita
import partita.aio
from partita._proto import client_pb2, errors_pb2
from partita.resend import MAX_NOT_LEADER_RESENDS
from fake_server import FakeConnection, FakeServer, login_answer
from table_bytes import table

# Buckets below 8192 belong to partition 1, the rest to partition 0.
# From tests/vectors/partition_hash.tsv: phone 0 -> bucket 7924 (partition 1), 2^63-1 -> 9100 (partition 0).
ON_1 = 0
ON_0 = (1 << 63) - 1
BUCKETS = [1 if b < 8192 else 0 for b in range(16384)]
NOT_LEADER = dict(status=client_pb2.CALL_STATUS_REJECTED, error_code=errors_pb2.ERROR_CODE_NOT_LEADER,
                  error_name="NOT_LEADER", message="not the leader")


def run(coroutine: Awaitable[Any], timeout: float = 20) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))  # type: ignore[arg-type]


async def until(predicate: Callable[[], bool], timeout: float = 5) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.005)


class Host:
    """A scripted host of a 2-partition cluster at topology version 1 (host i
    leads partition i). ``leaders``/``version``: what it answers to
    @SystemCatalog PARTITIONS; ``others``: the fields of its other answers."""

    def __init__(self, host_id: int) -> None:
        self.host_id = host_id
        self.hosts: list[tuple[int, int]] = []  # (host id, port) the login lists
        self.leaders = [0, 1]
        self.version = 1
        self.others: dict[str, Any] = {}
        self.partition_reads = 0
        self.server = FakeServer(self._handle, login=self._login)

    def _login(self) -> Any:
        answer = login_answer(self.host_id, 2, [0, 1], BUCKETS, topology_version=1)
        for host_id, port in self.hosts:
            answer.topology.hosts.add(host_id=host_id, address="127.0.0.1", client_port=port)
        return answer

    async def _handle(self, connection: FakeConnection, invocation: Any) -> None:
        if invocation.procedure == "@SystemCatalog":
            assert invocation.parameters[0].text == "PARTITIONS"
            self.partition_reads += 1
            columns = [(4, "PARTITION_ID"), (4, "LEADER_HOST_ID"), (5, "TOPOLOGY_VERSION")]
            connection.answer(invocation, topology_version=self.version,
                              results=[table(columns, [[p, h, self.version] for p, h in enumerate(self.leaders)])])
        else:
            connection.answer(invocation, **{"topology_version": self.version, **self.others})

    @property
    def votes(self) -> int:
        return sum(1 for c in self.server.connections for i in c.invocations if i.procedure == "Vote")


async def cluster(extra: list[tuple[int, int]] = ()) -> tuple[Host, Host]:
    h0, h1 = Host(0), Host(1)
    await h0.server.start()
    await h1.server.start()
    listed = [(0, int(h0.server.address.split(":")[1])), (1, int(h1.server.address.split(":")[1])), *extra]
    h0.hosts = h1.hosts = listed
    return h0, h1


async def stop(*hosts: Host) -> None:
    for h in hosts:
        await h.server.stop()


def test_should_connect_to_every_listed_host_from_one_address_and_route_to_leaders() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        async with await partita.aio.connect(h0.server.address) as client:
            await until(lambda: len(client.connected_servers) == 2)
            await client.call("Vote", [ON_1, 1, 2])
            await client.call("Vote", [ON_0, 1, 2])
            assert (h0.votes, h1.votes) == (1, 1)
        await stop(h0, h1)

    run(scenario())


def test_should_keep_to_the_servers_given_without_discover_hosts() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        async with await partita.aio.connect(h0.server.address, discover_hosts=False) as client:
            await client.call("Vote", [ON_1, 1, 2])  # partition 1's leader has no connection: host 0
            assert client.connected_servers == [h0.server.address]
            assert (h0.votes, h1.server.logins) == (1, 0)
        await stop(h0, h1)

    run(scenario())


def test_should_log_and_leave_a_listed_host_that_cannot_be_reached(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]

    async def scenario() -> None:
        h0, h1 = await cluster([(2, closed_port)])
        async with await partita.aio.connect(h0.server.address, connect_timeout=2) as client:
            await until(lambda: client.stats.hosts_unreachable >= 1 and len(client.connected_servers) == 2)
            await client.call("Vote", [ON_1, 1, 2])
            assert h1.votes == 1
        await stop(h0, h1)

    with caplog.at_level(logging.WARNING, logger="partita"):
        run(scenario())
    assert f"127.0.0.1:{closed_port} (host 2" in caplog.text


def test_should_read_partitions_once_for_a_newer_topology_and_never_go_back_to_an_older_one() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        h0.leaders, h0.version = [0, 0], 2  # host 0 knows version 2, where it leads both partitions
        async with await partita.aio.connect(h0.server.address, h1.server.address) as client:
            await asyncio.gather(client.call("Vote", [ON_0, 1, 2]), client.call("Vote", [ON_0, 2, 2]))
            await until(lambda: client.topology.topology_version == 2)
            assert h0.partition_reads == 1  # once per version, however many answers carried it
            assert client.topology.partition_leaders == (0, 0)
            await client.call("Vote", [ON_1, 1, 2])
            assert (h0.votes, h1.votes) == (3, 0)
            # Host 1 has not followed: its login (version 1) must not bring back the old leaders.
            for c in h1.server.connections:
                c.close()
            await until(lambda: h1.server.logins == 2 and len(client.connected_servers) == 2)
            assert client.topology.topology_version == 2 and client.topology.partition_leaders == (0, 0)
        await stop(h0, h1)

    run(scenario())


def test_should_send_a_not_leader_call_again_to_the_newest_leader() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        h0.leaders, h0.version = [0, 0], 2
        h1.leaders, h1.version, h1.others = [0, 0], 2, NOT_LEADER  # host 1 lost partition 1 to host 0
        async with await partita.aio.connect(h0.server.address, h1.server.address) as client:
            response = await client.call("Vote", [ON_1, 1, 2])
            assert response.status == "SUCCESS"
            assert (h0.votes, h1.votes) == (1, 1)
            assert h0.partition_reads + h1.partition_reads == 1
            assert client.stats.not_leader_resends == 1
        await stop(h0, h1)

    run(scenario())


def test_should_send_not_leader_again_at_most_twice_then_raise_it() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        # Each says the other leads, at the same version (neither is behind the topology the client follows).
        h0.leaders, h0.version, h0.others = [1, 1], 3, NOT_LEADER
        h1.leaders, h1.version, h1.others = [0, 0], 3, NOT_LEADER
        async with await partita.aio.connect(h0.server.address, h1.server.address, discover_hosts=False) as client:
            with pytest.raises(partita.ServerUnavailableError, match="NOT_LEADER"):
                await client.call("Vote", [ON_1, 1, 2])
            assert h0.votes + h1.votes == 1 + MAX_NOT_LEADER_RESENDS
            assert client.stats.not_leader_resends == MAX_NOT_LEADER_RESENDS
        await stop(h0, h1)

    run(scenario())


def test_should_send_a_call_again_to_a_leader_behind_the_clients_topology_until_it_follows() -> None:
    """Host 1 leads partition 1 by topology 1, which its login reported, but
    answers NOT_LEADER naming topology 0 three times (hosts follow a new map
    some milliseconds apart): the call waits for it and runs there, rather
    than spending its resends at once and raising NOT_LEADER."""
    async def scenario() -> None:
        h0, h1 = await cluster()
        refusals = 0
        answer_normally = h1.server.handler

        async def behind(connection: FakeConnection, invocation: Any) -> None:
            nonlocal refusals
            if invocation.procedure == "Vote" and refusals < 3:
                refusals += 1
                connection.answer(invocation, **{**NOT_LEADER, "topology_version": 0})
            else:
                await answer_normally(connection, invocation)

        h1.server.handler = behind
        async with await partita.aio.connect(h0.server.address, h1.server.address, discover_hosts=False) as client:
            response = await client.call("Vote", [ON_1, 1, 2])
            assert response.status == "SUCCESS"
            assert (h0.votes, h1.votes) == (0, 4)  # three refusals, then it ran on host 1
            assert client.stats.not_leader_resends == 0
        await stop(h0, h1)

    run(scenario())


def test_should_never_send_again_a_call_whose_outcome_is_unknown() -> None:
    async def scenario() -> None:
        h0, h1 = await cluster()
        h1.others = dict(status=client_pb2.CALL_STATUS_UNEXPECTED_FAILURE,
                         error_code=errors_pb2.ERROR_CODE_OUTCOME_UNKNOWN, error_name="OUTCOME_UNKNOWN")
        async with await partita.aio.connect(h0.server.address, h1.server.address) as client:
            with pytest.raises(partita.OutcomeUnknownError):
                await client.call("Vote", [ON_1, 1, 2])

            async def drop(connection: FakeConnection, invocation: Any) -> None:
                connection.close()
            h1.server.handler = drop
            with pytest.raises(partita.ConnectionLostError):
                await client.call("Vote", [ON_1, 1, 2])
            # A resend would have gone out before this call: none did.
            await client.call("Vote", [ON_0, 1, 2])
            assert (h0.votes, h1.votes) == (1, 2)
            assert client.stats.not_leader_resends == 0
        await stop(h0, h1)

    run(scenario())


def test_should_dial_at_once_a_leader_whose_connection_waits_out_its_reconnection_backoff() -> None:
    """Host 1 came back and was handed partition 1 again (docs/cluster.md,
    "Leader rebalancing") while the client's connection to it backs off for
    a minute: only a dial at once reaches it within the test's bound."""
    async def scenario() -> None:
        h0, h1 = await cluster()
        h0.leaders, h0.version, h0.others = [0, 1], 3, NOT_LEADER
        h1.leaders, h1.version = [0, 1], 3
        async with await partita.aio.connect(h0.server.address, h1.server.address, reconnect_initial_backoff=60.0,
                                             reconnect_max_backoff=60.0) as client:
            for c in h1.server.connections:
                c.close()
            await until(lambda: len(client.connected_servers) == 1)
            response = await asyncio.wait_for(client.call("Vote", [ON_1, 1, 2]), 10)
            assert response.status == "SUCCESS"
            assert (h0.votes, h1.votes) == (1, 1)  # answered NOT_LEADER by host 0, then run by host 1
            assert client.stats.not_leader_resends == 1
            assert h1.server.logins == 2
        await stop(h0, h1)

    run(scenario())
