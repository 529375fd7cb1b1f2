"""FakeServer: an in-test server on 127.0.0.1 speaking the wire protocol,
whose answers the test decides (``handler``). Test-only."""

from __future__ import annotations

import asyncio
import struct
from typing import Any, Awaitable, Callable

from partita._proto import client_pb2

Handler = Callable[["FakeConnection", Any], Awaitable[None]]


def login_answer(host_id: int = 0, partitions: int = 2, leaders: list[int] | None = None,
                 buckets: list[int] | None = None, topology_version: int = 0, catalog_version: int = 1,
                 max_frame_bytes: int = 1 << 20) -> Any:
    a = client_pb2.LoginResponse(status=client_pb2.LOGIN_STATUS_OK, host_id=host_id, protocol_version=1,
                                 catalog_version=catalog_version, max_frame_bytes=max_frame_bytes)
    a.topology.partition_count = partitions
    a.topology.partition_leaders.extend(leaders if leaders is not None else [0] * partitions)
    a.topology.bucket_partitions.extend(buckets or [])
    a.topology.topology_version = topology_version
    a.hash.algorithm = "fnv1a64-fmix64"
    a.hash.bucket_bits = 14
    a.procedures.add(name="Vote", single_partition=True, partition_parameter=0, partition_type=5)
    return a


class FakeConnection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.invocations: list[Any] = []

    def answer(self, invocation: Any, status: int = client_pb2.CALL_STATUS_SUCCESS, results: list[bytes] = (),
               **fields: Any) -> None:
        response = client_pb2.InvocationResponse(client_handle=invocation.client_handle, status=status,
                                                 results=list(results), **fields)
        self.send(client_pb2.ServerMessage(response=response))

    def send(self, message: Any) -> None:
        payload = message.SerializeToString()
        self.writer.write(struct.pack(">I", len(payload)) + payload)

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    def close(self) -> None:
        self.writer.close()


class Holder:
    """A handler that answers nothing and keeps each call for the test."""

    def __init__(self) -> None:
        self.held: list[tuple[FakeConnection, Any]] = []

    async def __call__(self, connection: FakeConnection, invocation: Any) -> None:
        self.held.append((connection, invocation))

    async def wait_for(self, count: int) -> None:
        while len(self.held) < count:
            await asyncio.sleep(0.01)


class FakeServer:
    """Accepts connections; answers each login with ``login()``'s answer,
    then hands each invocation to ``handler``."""

    def __init__(self, handler: Handler, login: Callable[[], Any] = login_answer) -> None:
        self.handler = handler
        self.login = login
        self.connections: list[FakeConnection] = []
        self.logins = 0
        self.server: asyncio.base_events.Server | None = None
        self.address = ""

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        self.address = f"127.0.0.1:{port}"
        return self.address

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = FakeConnection(reader, writer)
        self.connections.append(connection)
        try:
            while True:
                header = await reader.readexactly(4)
                (length,) = struct.unpack(">I", header)
                message = client_pb2.ClientMessage.FromString(await reader.readexactly(length))
                if message.WhichOneof("kind") == "login":
                    self.logins += 1
                    connection.send(client_pb2.ServerMessage(login=self.login()))
                    continue
                connection.invocations.append(message.invocation)
                await self.handler(connection, message.invocation)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            for c in self.connections:
                c.close()
            await self.server.wait_closed()
