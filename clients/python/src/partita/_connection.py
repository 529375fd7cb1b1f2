"""Connection: one TCP connection to one Partita server, as an asyncio
protocol (docs/wire-protocol.md).

- Framing: a 4-byte big-endian length, then one protobuf message.
- Login first; ``login_answer`` resolves with the LoginResponse.
- Calls: each frame is appended to a list; the first one of an event-loop
  turn schedules one flush (``loop.call_soon``), which writes everything
  queued with one ``transport.write``. Answers are matched by client handle,
  in any order.
- Timeouts: calls with the client's default timeout are kept in send order,
  so their deadlines only grow; a sweep every ``sweep_interval`` fails the
  expired ones from the front and stops at the first that is not. A call
  with its own timeout gets its own timer.
- Loss: when the socket closes or the server sends something unreadable,
  every call queued or in flight fails at once with ConnectionLostError
  naming the server and the reason.

Thread model: confined to the event loop that created it.
"""

from __future__ import annotations

import asyncio
import struct
from typing import TYPE_CHECKING, Any, Callable

from google.protobuf.message import DecodeError

from ._proto import client_pb2
from ._scram import MECHANISM, ScramClient
from .errors import CallTimeoutError, ConnectionLostError, ResultFormatError
from .response import Response
from .result_table import ResultTable

if TYPE_CHECKING:
    from .aio import AsyncClient

_LENGTH = struct.Struct(">I")


class PendingCall:
    """A call sent (or queued) on a connection, waiting for its answer."""

    __slots__ = ("handle", "procedure", "future", "timeout", "deadline", "timer", "internal", "payload", "partition",
                 "own_timeout", "resends", "behind_waits")

    def __init__(self, handle: int, procedure: str, future: asyncio.Future[Response], timeout: float,
                 deadline: float, internal: bool, payload: bytes, partition: int | None,
                 own_timeout: float | None) -> None:
        self.handle = handle
        self.procedure = procedure
        self.future = future
        self.timeout = timeout
        self.deadline = deadline
        self.timer: asyncio.TimerHandle | None = None
        #: The client's own call (a route or topology read): never sent again.
        self.internal = internal
        #: What was sent, where it was routed and its own timeout: to send it again (resend.py).
        self.payload = payload
        self.partition = partition
        self.own_timeout = own_timeout
        #: Times it was sent again after a NOT_LEADER answer.
        self.resends = 0
        #: Times it was sent again after a host behind the client's topology answered NOT_LEADER.
        self.behind_waits = 0


class Connection(asyncio.Protocol):
    """See the module comment."""

    def __init__(self, client: AsyncClient, address: str, loop: asyncio.AbstractEventLoop) -> None:
        self.client = client
        self.address = address
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.login_answer: asyncio.Future[Any] = loop.create_future()
        self.logged_in = False
        self.closed = False
        self.host_id = -1
        self.max_frame_bytes = 0
        self.in_flight: dict[int, PendingCall] = {}
        self._ordered: dict[int, PendingCall] = {}  # calls with the default timeout, in send order
        self._out: list[bytes] = []
        self._flush_scheduled = False
        self._buffer = bytearray()
        self._close_reason = "server closed the connection"
        self._writing_paused = False
        self._room_waiters: list[asyncio.Future[None]] = []
        self._sweeper: asyncio.TimerHandle | None = None
        self.on_lost: Callable[[Connection, str], None] | None = None
        config = client.config
        self._scram = ScramClient(config.user, config.password or "") if config.user is not None else None
        self._scram_continued = False

    # ---- asyncio.Protocol ----

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        request = client_pb2.LoginRequest(
            protocol_version=client_pb2.PROTOCOL_VERSION_1, client_name=self.client.config.client_name)
        if self._scram is not None:
            request.sasl_mechanism = MECHANISM
            request.sasl_data = self._scram.client_first().encode("utf-8")
        login = client_pb2.ClientMessage(login=request)
        self._write_frame(login.SerializeToString())
        self._schedule_sweep()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        pos = 0
        size = len(buffer)
        limit = self.client.config.max_response_frame_bytes
        while size - pos >= 4:
            (length,) = _LENGTH.unpack_from(buffer, pos)
            if length > limit:
                self.fail(f"a frame of {length} bytes from the server, over max_response_frame_bytes {limit}")
                return
            if size - pos - 4 < length:
                break
            frame = bytes(buffer[pos + 4 : pos + 4 + length])
            pos += 4 + length
            try:
                message = client_pb2.ServerMessage.FromString(frame)
            except DecodeError as e:
                self.fail(f"malformed frame from the server ({length} bytes): {e}")
                return
            kind = message.WhichOneof("kind")
            if kind == "response":
                self._answered(message.response)
            elif kind == "login" and not self.logged_in:
                self._logged_in(message.login)
            else:
                self.fail(f"unexpected {kind or 'empty'} message from the server")
                return
            if self.closed:
                return
        if pos:
            del buffer[:pos]

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None and self._close_reason == "server closed the connection":
            self._close_reason = f"connection error: {exc}"
        self._lost(self._close_reason)

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        self._wake_room_waiters()

    # ---- calls ----

    def has_room(self) -> bool:
        return not self._writing_paused and len(self.in_flight) < self.client.config.max_in_flight

    async def wait_for_room(self, timeout: float) -> bool:
        """Waits until has_room() or the connection is closed; returns
        has_room(), False after ``timeout`` seconds."""
        deadline = self.loop.time() + timeout
        while not self.has_room() and not self.closed:
            left = deadline - self.loop.time()
            if left <= 0:
                return False
            waiter: asyncio.Future[None] = self.loop.create_future()
            self._room_waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, left)
            except asyncio.TimeoutError:
                return False
            finally:
                if waiter in self._room_waiters:
                    self._room_waiters.remove(waiter)
        return self.has_room()

    def send(self, call: PendingCall, payload: bytes, own_timeout: float | None) -> None:
        """Queues ``payload`` (a serialized ClientMessage) for the next flush
        and tracks ``call``. REQUIRES: not closed."""
        self.in_flight[call.handle] = call
        if own_timeout is None:
            self._ordered[call.handle] = call
        else:
            call.timer = self.loop.call_at(call.deadline, self._expire, call)
        self._write_frame(payload)

    def _write_frame(self, payload: bytes) -> None:
        self._out.append(_LENGTH.pack(len(payload)))
        self._out.append(payload)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self.transport is None or self.closed or not self._out:
            self._out.clear()
            return
        data = b"".join(self._out)
        self._out.clear()
        self.transport.write(data)

    # ---- answers ----

    def _logged_in(self, login: Any) -> None:
        if login.status == client_pb2.LOGIN_STATUS_CONTINUE:
            self._continue_login(login)
            return
        if login.status == client_pb2.LOGIN_STATUS_OK and self._scram_continued:
            assert self._scram is not None
            if not self._scram.verify_server_final(login.sasl_data.decode("utf-8", "replace")):
                self.fail("the server did not prove it knows the user's keys (wrong SCRAM server signature)")
                return
        self.logged_in = True
        self.host_id = login.host_id
        self.max_frame_bytes = login.max_frame_bytes
        if not self.login_answer.done():
            self.login_answer.set_result(login)

    def _continue_login(self, login: Any) -> None:
        """Answers the SCRAM server-first message with the client-final one."""
        if self._scram is None or self._scram_continued:
            self.fail("the server sent an unexpected authentication step")
            return
        self._scram_continued = True
        try:
            final = self._scram.client_final(login.sasl_data.decode("utf-8", "replace"))
        except ValueError as e:
            self.fail(str(e))
            return
        message = client_pb2.ClientMessage(login_continue=client_pb2.LoginContinue(sasl_data=final.encode("utf-8")))
        self._write_frame(message.SerializeToString())

    def _answered(self, message: Any) -> None:
        call = self.in_flight.pop(message.client_handle, None)
        if call is None:
            self.client.stats.late_responses += 1
            return
        self._ordered.pop(call.handle, None)
        if call.timer is not None:
            call.timer.cancel()
        self._wake_room_waiters()
        try:
            results = [ResultTable.decode(r) for r in message.results]
        except ResultFormatError as e:
            self.client._finished(call, None, e)
            return
        response = Response.from_proto(message, results)
        self.client._versions_seen(self, response)
        if response.status != "SUCCESS" and self.client._not_leader(call, response, self):
            return
        self.client._finished(call, response, None)

    def _wake_room_waiters(self) -> None:
        if self._room_waiters and self.has_room():
            waiters, self._room_waiters = self._room_waiters, []
            for w in waiters:
                if not w.done():
                    w.set_result(None)

    # ---- timeouts ----

    def _schedule_sweep(self) -> None:
        self._sweeper = self.loop.call_later(self.client.config.sweep_interval, self._sweep)

    def _sweep(self) -> None:
        if self.closed:
            return
        now = self.loop.time()
        expired = []
        for call in self._ordered.values():
            if call.deadline > now:
                break
            expired.append(call)
        for call in expired:
            self._expire(call)
        self._schedule_sweep()

    def _expire(self, call: PendingCall) -> None:
        if self.in_flight.pop(call.handle, None) is None:
            return
        self._ordered.pop(call.handle, None)
        self.client.stats.timeouts += 1
        self.client._finished(call, None, CallTimeoutError(
            f"call to {call.procedure} on {self.address} timed out after {call.timeout:g} s without an answer"))
        self._wake_room_waiters()

    # ---- closing ----

    def fail(self, reason: str) -> None:
        """Closes the connection because of ``reason``; calls fail with it."""
        self._close_reason = reason
        if self.transport is not None:
            self.transport.abort()
        self._lost(reason)

    def close(self, reason: str) -> None:
        self._close_reason = reason
        if self.transport is not None:
            self.transport.close()
        self._lost(reason)

    def _lost(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if not self.login_answer.done():
            self.login_answer.set_exception(ConnectionLostError(f"{self.address}: {reason} before the login answer"))
            self.login_answer.exception()  # retrieved: nobody may be waiting
        calls = list(self.in_flight.values())
        self.in_flight.clear()
        self._ordered.clear()
        self._out.clear()
        for call in calls:
            if call.timer is not None:
                call.timer.cancel()
            self.client.stats.connection_lost += 1
            self.client._finished(call, None, ConnectionLostError(
                f"call to {call.procedure}: connection to {self.address} lost: {reason}"))
        self._wake_room_waiters()
        for w in self._room_waiters:
            if not w.done():
                w.set_result(None)
        self._room_waiters.clear()
        if self.on_lost is not None:
            self.on_lost(self, reason)

