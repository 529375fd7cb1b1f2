"""The asyncio and synchronous clients against in-test servers (FakeServer):
out-of-order answers, timeouts and late answers, connection loss and
reconnection, backpressure, refused logins, oversized calls, malformed
frames, routing across two hosts through the bucket table, and refreshes of
routes (catalog version); the topology (topology version) is test_cluster_fake.py's."""

from __future__ import annotations

import asyncio
import struct
import threading
from typing import Any, Awaitable, TypeVar

import pytest

import partita
import partita.aio
from partita import partition_hash
from partita._proto import client_pb2, errors_pb2
from fake_server import FakeConnection, FakeServer, Holder, login_answer
from table_bytes import table

T = TypeVar("T")


def run(coroutine: Awaitable[T], timeout: float = 20) -> T:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))  # type: ignore[arg-type]


def echo_table(value: int) -> bytes:
    return table([(5, "V")], [[value]])


async def echo(connection: FakeConnection, invocation: Any) -> None:
    value = invocation.parameters[0].integer if invocation.parameters else 0
    connection.answer(invocation, results=[echo_table(value)])


def test_should_match_answers_given_out_of_order() -> None:
    async def reversed_batches(connection: FakeConnection, invocation: Any) -> None:
        if len(connection.invocations) % 50 == 0:
            for inv in reversed(connection.invocations[-50:]):
                connection.answer(inv, results=[echo_table(inv.parameters[0].integer)])

    async def scenario() -> None:
        server = FakeServer(reversed_batches)
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            answers = await asyncio.gather(*(client.call("Echo", [i]) for i in range(1000)))
            assert [a.scalar() for a in answers] == list(range(1000))
            assert client.in_flight == 0 and client.stats.successes == 1000
        await server.stop()

    run(scenario())


def test_should_write_the_calls_of_one_loop_turn_together() -> None:
    async def scenario() -> None:
        server = FakeServer(echo)
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            connection = client._up[0]
            writes: list[int] = []
            original = connection.transport.write  # type: ignore[union-attr]
            connection.transport.write = lambda data: (writes.append(len(data)), original(data))[1]  # type: ignore
            futures = [client.call_nowait("Echo", [i]) for i in range(100)]
            await asyncio.gather(*futures)
            assert len(writes) == 1
        await server.stop()

    run(scenario())


def test_should_time_out_and_count_the_late_answer() -> None:
    hold = Holder()
    held = hold.held

    async def scenario() -> None:
        server = FakeServer(hold)
        address = await server.start()
        async with await partita.aio.connect(address, call_timeout=0.1) as client:
            with pytest.raises(partita.CallTimeoutError, match="call to Slow .* timed out after 0.1 s"):
                await client.call("Slow", [1])
            with pytest.raises(partita.CallTimeoutError, match="after 0.05 s"):
                await client.call("Slow", [2], timeout=0.05)
            assert held[1][1].timeout_millis == 50  # a call's own timeout is the server's time limit too
            for connection, invocation in held:
                connection.answer(invocation)
            while client.stats.late_responses < 2:
                await asyncio.sleep(0.01)
            assert client.stats.timeouts == 2
        await server.stop()

    run(scenario())


def test_should_fail_calls_in_flight_when_the_server_closes_and_reconnect() -> None:
    async def close_on_ten(connection: FakeConnection, invocation: Any) -> None:
        if invocation.parameters[0].integer == 10:
            connection.close()

    async def scenario() -> None:
        server = FakeServer(close_on_ten)
        address = await server.start()
        async with await partita.aio.connect(address, reconnect_initial_backoff=0.01) as client:
            futures = [client.call_nowait("Hold", [i]) for i in range(11)]
            results = await asyncio.gather(*futures, return_exceptions=True)
            assert all(isinstance(r, partita.ConnectionLostError) for r in results)
            assert address in str(results[0])
            server.handler = echo
            while not client.connected_servers:
                await asyncio.sleep(0.01)
            assert (await client.call("Echo", [5])).scalar() == 5
            assert server.logins == 2
        await server.stop()

    run(scenario())


def test_should_fail_fast_with_no_connection_while_reconnecting() -> None:
    async def scenario() -> None:
        server = FakeServer(echo)
        address = await server.start()
        async with await partita.aio.connect(address, reconnect_initial_backoff=5) as client:
            server.connections[0].close()
            while client.connected_servers:
                await asyncio.sleep(0.01)
            with pytest.raises(partita.NoConnectionsError, match="reconnecting"):
                await client.call("Echo", [1])
        await server.stop()

    run(scenario())


def test_should_bound_calls_in_flight_with_backpressure() -> None:
    hold = Holder()
    held = hold.held

    async def scenario() -> None:
        server = FakeServer(hold)
        address = await server.start()
        async with await partita.aio.connect(address, max_in_flight=2, backpressure_timeout=0.1) as client:
            first = client.call_nowait("Hold", [1])
            client.call_nowait("Hold", [2])
            with pytest.raises(partita.BackpressureError):
                client.call_nowait("Hold", [3])
            with pytest.raises(partita.BackpressureError, match="2 calls in flight"):
                await client.call_async("Hold", [3])
            waiting = asyncio.ensure_future(client.call_async("Hold", [4]))
            await hold.wait_for(2)
            held[0][0].answer(held[0][1])
            await first
            fourth = await waiting  # room made by the answer
            assert not fourth.done()
            await hold.wait_for(3)
            assert held[2][1].parameters[0].integer == 4
        await server.stop()

    run(scenario())


def test_should_raise_login_refused_with_the_servers_message() -> None:
    def refuse() -> Any:
        return client_pb2.LoginResponse(status=client_pb2.LOGIN_STATUS_SHUTTING_DOWN, message="going down")

    async def scenario() -> None:
        server = FakeServer(echo, login=refuse)
        address = await server.start()
        with pytest.raises(partita.LoginRefusedError, match="LOGIN_STATUS_SHUTTING_DOWN: going down"):
            await partita.aio.connect(address)
        await server.stop()

    run(scenario())


def test_should_raise_connect_error_for_an_unreachable_server_and_bad_addresses() -> None:
    async def scenario() -> None:
        server = FakeServer(echo)
        address = await server.start()
        await server.stop()
        with pytest.raises(partita.ConnectError, match=f"cannot connect to {address}"):
            await partita.aio.connect(address)
        with pytest.raises(ValueError, match="port must be 1..65535"):
            await partita.aio.connect("127.0.0.1:99999")

    run(scenario())


def test_should_refuse_a_call_over_the_servers_frame_limit_before_sending() -> None:
    async def scenario() -> None:
        server = FakeServer(echo, login=lambda: login_answer(max_frame_bytes=200))
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            with pytest.raises(partita.FrameTooLargeError, match="accepts at most 200"):
                await client.call("Big", ["x" * 300])
            with pytest.raises(partita.ParameterError, match="parameter 2"):
                await client.call("Big", [1, object()])
            assert server.connections[0].invocations == []
            assert (await client.call("Echo", [7])).scalar() == 7
        await server.stop()

    run(scenario())


def test_should_drop_the_connection_on_a_malformed_frame_naming_it() -> None:
    async def garbage(connection: FakeConnection, invocation: Any) -> None:
        connection.send_raw(struct.pack(">I", 3) + b"\xff\xff\xff")

    async def scenario() -> None:
        server = FakeServer(garbage)
        address = await server.start()
        async with await partita.aio.connect(address, reconnect=False) as client:
            with pytest.raises(partita.ConnectionLostError, match="malformed frame from the server"):
                await client.call("Echo", [1])
        await server.stop()

    run(scenario())


def test_should_fail_only_the_call_whose_table_is_malformed() -> None:
    async def bad_table(connection: FakeConnection, invocation: Any) -> None:
        results = [b"\x01\x00\x00\x00\x00"] if invocation.parameters[0].integer == 1 else [echo_table(2)]
        connection.answer(invocation, results=results)

    async def scenario() -> None:
        server = FakeServer(bad_table)
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            with pytest.raises(partita.ResultFormatError, match="malformed result table"):
                await client.call("Echo", [1])
            assert (await client.call("Echo", [2])).scalar() == 2
        await server.stop()

    run(scenario())


def test_should_raise_the_class_of_the_error_code() -> None:
    async def violate(connection: FakeConnection, invocation: Any) -> None:
        connection.answer(invocation, status=client_pb2.CALL_STATUS_GRACEFUL_FAILURE,
                          error_code=errors_pb2.ERROR_CODE_CONSTRAINT_VIOLATION, message="duplicate key")

    async def scenario() -> None:
        server = FakeServer(violate)
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            with pytest.raises(partita.ConstraintViolationError, match="duplicate key") as caught:
                await client.call("Insert", [1])
            assert caught.value.error_name == "CONSTRAINT_VIOLATION" and caught.value.status == "GRACEFUL_FAILURE"
            response = await client.call("Insert", [1], check=False)
            assert response.error_code == errors_pb2.ERROR_CODE_CONSTRAINT_VIOLATION
        await server.stop()

    run(scenario())


def _phone_on_partition(partition: int, buckets: list[int]) -> int:
    phone = 6175550000
    while buckets[partition_hash.bucket_of(partition_hash.hash_int(phone))] != partition:
        phone += 1
    return phone


def test_should_route_each_call_to_its_partitions_leader_through_the_bucket_table() -> None:
    buckets = [1 if b < 5000 else 0 for b in range(1 << 14)]

    async def scenario() -> None:
        servers = [FakeServer(echo, login=lambda h=h: login_answer(h, 2, [0, 1], buckets)) for h in (0, 1)]
        addresses = [await s.start() for s in servers]
        async with await partita.aio.connect(*addresses) as client:
            for partition in (0, 1):
                phone = _phone_on_partition(partition, buckets)
                for _ in range(5):
                    await client.call("Vote", [phone, 1, 2])
                invocations = servers[partition].connections[0].invocations
                assert [i.routed_partition_plus_one for i in invocations[-5:]] == [partition + 1] * 5
            await client.call("Results", [])  # not single-partition: round-robin, unrouted
            everything = [i for s in servers for i in s.connections[0].invocations]
            assert [i.routed_partition_plus_one for i in everything if i.procedure == "Results"] == [0]
        for s in servers:
            await s.stop()

    run(scenario())


def test_should_refresh_routes_when_an_answer_has_a_newer_catalog_version() -> None:
    procedures = table([(8, "PROCEDURE_NAME"), (2, "SINGLE_PARTITION"), (4, "PARTITION_PARAMETER"),
                        (4, "PARTITION_TYPE")], [["NewProc", 1, 0, 5]])

    async def newer(connection: FakeConnection, invocation: Any) -> None:
        if invocation.procedure == "@SystemCatalog":
            assert invocation.parameters[0].text == "PROCEDURES"
            connection.answer(invocation, results=[procedures], catalog_version=2)
        else:
            connection.answer(invocation, catalog_version=2)

    async def scenario() -> None:
        server = FakeServer(newer)
        address = await server.start()
        async with await partita.aio.connect(address) as client:
            assert client.router.route("NewProc") is None
            await client.call("Anything", [])
            await client.call("Anything", [])
            while client.router.catalog_version < 2:
                await asyncio.sleep(0.01)
            assert client.router.route("NewProc") is not None
            asked = [i for i in server.connections[0].invocations if i.procedure == "@SystemCatalog"]
            assert len(asked) == 1  # once per version
        await server.stop()

    run(scenario())


def test_should_fail_calls_in_flight_when_closed_and_refuse_later_calls() -> None:
    async def scenario() -> None:
        server = FakeServer(Holder())
        address = await server.start()
        client = await partita.aio.connect(address)
        future = client.call_nowait("Hold", [1])
        await client.close()
        with pytest.raises(partita.ConnectionLostError, match="client closed"):
            await future
        with pytest.raises(partita.ClientClosedError):
            await client.call("Hold", [1])
        await server.stop()

    run(scenario())


def test_should_serve_threads_through_the_synchronous_client() -> None:
    loop = asyncio.new_event_loop()
    server = FakeServer(echo)
    address = loop.run_until_complete(server.start())
    serving = threading.Thread(target=loop.run_forever, daemon=True)
    serving.start()
    try:
        with partita.connect(address) as client:
            assert client.call("Echo", [3]).scalar() == 3
            futures = [client.call_async("Echo", [i]) for i in range(200)]
            assert [f.result(10).scalar() for f in futures] == list(range(200))
            client.drain()
            assert client.statistics.successes == 201
            with pytest.raises(partita.ParameterError):
                client.call("Echo", [2**64])
            inside: list[BaseException] = []

            def on_client_thread() -> None:  # as a future's callback runs
                try:
                    client.call("Echo", [1])
                except BaseException as e:  # noqa: BLE001 - the test looks at it
                    inside.append(e)

            client._loop.call_soon_threadsafe(on_client_thread)
            while not inside:
                threading.Event().wait(0.01)
            assert isinstance(inside[0], RuntimeError) and "own thread" in str(inside[0])
        with pytest.raises(partita.ClientClosedError):
            client.call("Echo", [1])
        with pytest.raises(partita.ClientClosedError):
            client.call_async("Echo", [1])
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        serving.join(10)
