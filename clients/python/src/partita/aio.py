"""The asyncio client: :class:`AsyncClient` and :func:`connect`.

    import partita.aio
    async with await partita.aio.connect("127.0.0.1:21212") as client:
        response = await client.call("Vote", [6175551234, 3, 2])
        rows = await client.query("SELECT COUNT(*) FROM votes WHERE state = ?", ["MA"])

One connection per server, and by default per host of the cluster a login
lists (``discover_hosts``: one address of a cluster is enough); many calls
in flight on each; the frames of one event-loop turn leave in one write;
each single-partition call goes to the connection of its partition's leader
(routing.py); a dropped connection fails its calls with ConnectionLostError
and is reopened with exponential backoff; routes are refreshed when an
answer carries a newer catalog version (``@SystemCatalog PROCEDURES``) and
the partition leaders when it carries a newer topology version
(``@SystemCatalog PARTITIONS``, after a failover); a call answered
``NOT_LEADER`` is sent again after that read (resend.py). README.md has the
whole story.

Thread model: an AsyncClient belongs to the event loop it was connected on;
use it from that loop only (:class:`partita.Client` wraps one for threads).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from dataclasses import dataclass
from typing import Any, Sequence

from ._connection import Connection, PendingCall
from ._proto import client_pb2
from .config import ClientConfig, parse_address
from .errors import (
    BackpressureError,
    ClientClosedError,
    ConnectError,
    FrameTooLargeError,
    LoginRefusedError,
    NoConnectionsError,
    PartitaError,
    procedure_error,
)
from .resend import behind_host_wait, resend_after
from .response import Response
from .result_table import ResultTable
from .routing import Router, Topology
from ._encoder import encode_invocation
from .values import check_parameters

SYSTEM_CATALOG = "@SystemCatalog"
AD_HOC = "@AdHoc"
_LOG = logging.getLogger("partita")


@dataclass
class ClientStatistics:
    """Counts since the client started. ``calls``: handed to a connection;
    ``successes``/``failures``: answered SUCCESS / anything else;
    ``timeouts``, ``connection_lost``: client-side endings;
    ``late_responses``: answers that matched no call (most often of calls
    that timed out); ``not_leader_resends``: calls sent again after a
    NOT_LEADER answer; ``hosts_unreachable``: hosts of the topology the
    client could not connect to. Internal calls (route refreshes) count
    too."""

    calls: int = 0
    successes: int = 0
    failures: int = 0
    timeouts: int = 0
    connection_lost: int = 0
    late_responses: int = 0
    not_leader_resends: int = 0
    hosts_unreachable: int = 0


class _Server:
    """One server the client was asked to connect to, and its connection."""

    __slots__ = ("address", "host", "port", "connection", "reconnecting", "host_id", "wake", "dialling")

    def __init__(self, address: str) -> None:
        self.address = address
        self.host, self.port = parse_address(address)
        self.connection: Connection | None = None
        self.reconnecting: asyncio.Task[None] | None = None
        #: The host id its last login named; None before its first login.
        self.host_id: int | None = None
        #: Set to end a reconnection's backoff early (a newer topology names this host a leader).
        self.wake = asyncio.Event()
        #: A reconnection's dial and login under way; done when it ends, whatever its outcome.
        self.dialling: asyncio.Future[None] | None = None


class AsyncClient:
    """See the module comment. Create with :func:`connect`, or construct
    and ``await client.connect(server, ...)``."""

    def __init__(self, config: ClientConfig | None = None) -> None:
        self.config = config or ClientConfig()
        self.stats = ClientStatistics()
        self.router = Router()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._servers: dict[str, _Server] = {}
        self._up: list[Connection] = []
        self._by_host: dict[int, Connection] = {}
        self._next = 0
        self._handle = 0
        self._in_flight = 0
        self._idle: asyncio.Event | None = None
        self._closed = False
        self._routes_asked = -1
        self._topology_asked = -1
        self._topology_followed: asyncio.Future[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- connecting ----

    async def connect(self, *servers: str) -> None:
        """Connects to each server (``host``, ``host:port``, ``[v6]:port``)
        and logs in. Already connected servers are skipped.

        Raises ValueError for a malformed address, ConnectError when a server
        cannot be reached in ``connect_timeout``, LoginRefusedError when it
        refuses the login.
        """
        self._check_open()
        self._bind_loop()
        given = [self._servers.get(address) or _Server(address) for address in servers]
        for server in given:  # known before the first login, so that discovery leaves them to this loop
            self._servers.setdefault(server.address, server)
        for server in given:
            if server.connection is not None and not server.connection.closed:
                continue
            server.connection = await self._open(server.address, server.host, server.port)
            server.host_id = server.connection.host_id
            self._register(server.connection)

    def _bind_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            self._idle = asyncio.Event()
            self._idle.set()
        elif self._loop is not loop:
            raise RuntimeError("an AsyncClient is bound to the event loop it first connected on")

    async def _open(self, address: str, host: str, port: int) -> Connection:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.connect_timeout
        try:
            _, connection = await asyncio.wait_for(
                loop.create_connection(lambda: Connection(self, address, loop), host, port, ssl=self.config.tls,
                                       server_hostname=host if self.config.tls is not None else None),
                self.config.connect_timeout)
        except asyncio.TimeoutError:
            raise ConnectError(f"cannot connect to {address}: no connection within "
                               f"{self.config.connect_timeout:g} s") from None
        except OSError as e:
            raise ConnectError(f"cannot connect to {address}: {e.strerror or e}") from None
        try:
            login = await asyncio.wait_for(asyncio.shield(connection.login_answer), max(deadline - loop.time(), 0.001))
        except asyncio.TimeoutError:
            connection.close("no login answer")
            raise ConnectError(f"cannot connect to {address}: no login answer within "
                               f"{self.config.connect_timeout:g} s") from None
        except PartitaError as e:
            raise ConnectError(f"cannot connect to {address}: {e}") from None
        if login.status != client_pb2.LOGIN_STATUS_OK:
            connection.close("login refused")
            status = client_pb2.LoginStatus.Name(login.status) if login.status in client_pb2.LoginStatus.values() \
                else str(login.status)
            raise LoginRefusedError(f"{address} refused the login: {status}: {login.message}")
        self.router.install_login(login)
        return connection

    def _discover(self, login: Any) -> None:
        """Connects in the background to each host ``login`` lists that the
        client has no connection to (by host id) nor server for (by address)."""
        for host in login.topology.hosts:
            if not host.address or not host.client_port or self._closed:
                continue
            address = (f"[{host.address}]:{host.client_port}" if ":" in host.address
                       else f"{host.address}:{host.client_port}")
            if address in self._servers or host.host_id in self._by_host:
                continue
            server = _Server(address)
            self._servers[address] = server
            self._spawn(self._connect_discovered(server, host.host_id))

    async def _connect_discovered(self, server: _Server, host_id: int) -> None:
        try:
            connection = await self._open(server.address, server.host, server.port)
        except PartitaError as e:
            # Left: a later login that lists it tries again.
            if self._servers.get(server.address) is server:
                del self._servers[server.address]
            self.stats.hosts_unreachable += 1
            _LOG.warning("could not connect to %s (host %d of the cluster's topology): %s",
                         server.address, host_id, e)
            return
        self._adopt(server, connection)

    def _adopt(self, server: _Server, connection: Connection) -> None:
        """A connection opened in the background becomes ``server``'s (closed if the client closed meanwhile)."""
        if self._closed:
            connection.close("client closed")
            return
        server.connection = connection
        server.host_id = connection.host_id
        self._register(connection)

    def _register(self, connection: Connection) -> None:
        connection.on_lost = self._connection_lost
        self._up.append(connection)
        self._by_host[connection.host_id] = connection
        if self.config.discover_hosts:
            self._discover(connection.login_answer.result())

    def _connection_lost(self, connection: Connection, reason: str) -> None:
        if connection in self._up:
            self._up.remove(connection)
        if self._by_host.get(connection.host_id) is connection:
            del self._by_host[connection.host_id]
        if self._closed or not self.config.reconnect:
            return
        for server in self._servers.values():
            if server.connection is connection and server.reconnecting is None:
                server.reconnecting = self._spawn(self._reconnect(server))

    async def _reconnect(self, server: _Server) -> None:
        backoff = self.config.reconnect_initial_backoff
        try:
            while not self._closed:
                # Full jitter on the upper half, so clients do not reconnect in step; cut short by _dial_leaders.
                try:
                    await asyncio.wait_for(server.wake.wait(), backoff * (0.5 + random.random() / 2))
                except asyncio.TimeoutError:
                    pass
                server.wake.clear()
                if self._closed:
                    return
                dialling = server.dialling or asyncio.get_running_loop().create_future()
                server.dialling = dialling
                try:
                    connection = await self._open(server.address, server.host, server.port)
                except PartitaError:
                    backoff = min(backoff * 2, self.config.reconnect_max_backoff)
                    continue
                finally:
                    server.dialling = None
                    dialling.set_result(None)  # its waiters run after the adoption below
                self._adopt(server, connection)
                return
        finally:
            server.reconnecting = None

    def _dial_leaders(self, leaders: Sequence[int]) -> None:
        """A newer topology names these leaders: a leader's connection that is
        down and waiting out its reconnection backoff (a host that came back
        and was handed its partitions again, docs/cluster.md, "Leader
        rebalancing") is dialled now instead."""
        for server in self._servers.values():
            if server.reconnecting is not None and server.dialling is None and server.host_id in leaders:
                server.dialling = asyncio.get_running_loop().create_future()  # awaited by calls for its partitions
                server.wake.set()

    def _leader_dialling(self, partition: int | None) -> asyncio.Future[None] | None:
        """The reconnection under way to ``partition``'s leader, if its connection is down and being dialled."""
        topology = self.router.topology
        if partition is None or topology is None:
            return None
        leader = topology.leader(partition)
        for server in self._servers.values():
            if server.host_id == leader and server.reconnecting is not None:
                return server.dialling
        return None

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---- calling ----

    async def call(self, procedure: str, params: Sequence[Any] = (), *, timeout: float | None = None,
                   check: bool = True) -> Response:
        """Calls ``procedure`` with ``params`` and returns the answer.

        With ``check`` (the default) an answer other than SUCCESS raises its
        ProcedureError subclass (errors.py); with ``check=False`` every
        answer is returned. Client-side failures raise ClientError
        subclasses: ParameterError (before sending), NoConnectionsError,
        BackpressureError, FrameTooLargeError, CallTimeoutError,
        ConnectionLostError, ResultFormatError, ClientClosedError.
        ``timeout`` (seconds) replaces the configured ``call_timeout`` and is
        sent to the server as the transaction's time limit.
        """
        future = await self.call_async(procedure, params, timeout=timeout)
        response = await future
        if check and response.status != "SUCCESS":
            raise procedure_error(procedure, response)
        return response

    async def call_async(self, procedure: str, params: Sequence[Any] = (), *,
                         timeout: float | None = None) -> asyncio.Future[Response]:
        """Sends the call (waiting up to ``backpressure_timeout`` for room)
        and returns a future of its answer, without waiting for it. The
        future's result is every answer of the server, failures included;
        it fails only for client-side errors. For firehoses."""
        try:
            return self.call_nowait(procedure, params, timeout=timeout)
        except BackpressureError:
            if self.config.backpressure_timeout == 0:
                raise
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.backpressure_timeout
        while True:
            connection = self._choose(procedure, params)[0]
            left = deadline - loop.time()
            if left <= 0 or not await connection.wait_for_room(left):
                if connection.closed:
                    continue
                raise BackpressureError(
                    f"call to {procedure}: {self.config.max_in_flight} calls in flight on {connection.address} "
                    f"and none ended within {self.config.backpressure_timeout:g} s")
            try:
                return self.call_nowait(procedure, params, timeout=timeout)
            except BackpressureError:
                continue

    def call_nowait(self, procedure: str, params: Sequence[Any] = (), *,
                    timeout: float | None = None) -> asyncio.Future[Response]:
        """Like :meth:`call_async` but never waits: raises BackpressureError
        at once when the chosen connection is full."""
        return self._start(procedure, params, timeout, internal=False)

    def _start(self, procedure: str, params: Sequence[Any], timeout: float | None, internal: bool,
               connection: Connection | None = None) -> asyncio.Future[Response]:
        self._check_open()
        if not isinstance(procedure, str) or not procedure:
            raise ValueError(f"the procedure name must be a non-empty str, got {procedure!r}")
        if type(params) is not tuple and type(params) is not list and (
                isinstance(params, (str, bytes)) or not isinstance(params, Sequence)):
            raise TypeError(f"params must be a list or tuple of parameters, got {type(params).__name__}")
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, got {timeout!r}")
        if connection is None:
            connection, routed = self._choose(procedure, params)
        else:
            routed = 0
        if not connection.has_room():
            raise BackpressureError(f"call to {procedure}: {self.config.max_in_flight} calls in flight on "
                                    f"{connection.address}")
        handle = self._handle + 1
        timeout_millis = max(1, min(int(timeout * 1000), 0xFFFFFFFF)) if timeout is not None else 0
        payload = encode_invocation(handle, procedure, params, routed, timeout_millis)
        self._handle = handle
        if connection.max_frame_bytes and len(payload) > connection.max_frame_bytes:
            raise FrameTooLargeError(f"call to {procedure} encodes to {len(payload)} bytes; {connection.address} "
                                     f"accepts at most {connection.max_frame_bytes} (max_frame_bytes)")
        loop = connection.loop
        future: asyncio.Future[Response] = loop.create_future()
        limit = timeout if timeout is not None else self.config.call_timeout
        connection.send(PendingCall(handle, procedure, future, limit, loop.time() + limit, internal, payload,
                                    None if routed == 0 else routed - 1, timeout), payload, timeout)
        self.stats.calls += 1
        if self._in_flight == 0 and self._idle is not None:
            self._idle.clear()
        self._in_flight += 1
        return future

    def _choose(self, procedure: str, params: Sequence[Any]) -> tuple[Connection, int]:
        """The connection for a call and its routed_partition_plus_one."""
        partition = self.router.partition(procedure, params) if self._up else None
        return self._connection_for(partition, procedure), (partition + 1 if partition is not None else 0)

    def _connection_for(self, partition: int | None, procedure: str) -> Connection:
        """The connection to ``partition``'s leader, else the next one up."""
        up = self._up
        if not up:
            raise NoConnectionsError(f"call to {procedure}: no connection is up "
                                     f"({'reconnecting' if self._servers else 'never connected'})")
        if partition is not None:
            topology = self.router.topology
            leader = topology.leader(partition) if topology is not None else None
            connection = self._by_host.get(leader) if leader is not None else None
            if connection is not None and not connection.closed:
                return connection
        self._next += 1
        return up[self._next % len(up)]

    def _finished(self, call: PendingCall, response: Response | None, error: Exception | None) -> None:
        """A call ended (on the loop): completes its future exactly once."""
        self._in_flight -= 1
        if self._in_flight == 0 and self._idle is not None:
            self._idle.set()
        if response is not None:
            if response.status == "SUCCESS":
                self.stats.successes += 1
            else:
                self.stats.failures += 1
        if call.future.done():
            return
        if error is not None:
            call.future.set_exception(error)
        else:
            call.future.set_result(response)  # type: ignore[arg-type]

    async def query(self, sql: str, params: Sequence[Any] = (), *, timeout: float | None = None) -> ResultTable:
        """Runs one SQL statement through ``@AdHoc`` with ``?`` parameters
        and returns its table (rows, or for DML one row with the count of
        rows changed; an empty table for DDL). Raises like :meth:`call`."""
        if not isinstance(sql, str):
            raise TypeError(f"sql must be a str, got {type(sql).__name__}")
        check_parameters(params)
        response = await self.call(AD_HOC, [sql, *params], timeout=timeout)
        return response.results[0] if response.results else ResultTable((), [])

    async def drain(self) -> None:
        """Waits until no call of this client is in flight."""
        if self._idle is not None:
            await self._idle.wait()

    # ---- refreshes ----

    def _versions_seen(self, connection: Connection, response: Response) -> None:
        if response.catalog_version > self.router.catalog_version and response.catalog_version > self._routes_asked:
            self._routes_asked = response.catalog_version
            self._spawn(self._refresh_routes(response.catalog_version))
        topology = self.router.topology
        if topology is not None and response.topology_version > topology.topology_version:
            self._follow_topology(response.topology_version, connection)

    def _not_leader(self, call: PendingCall, response: Response, connection: Connection) -> bool:
        """``call`` was answered with a failure: True when it is taken back to
        be sent again (resend.py) once the newest topology was read."""
        if self._closed or call.internal:
            return False
        topology = self.router.topology
        wait = behind_host_wait(response.error_name, call.partition, response.topology_version,
                                None if topology is None else topology.topology_version, call.behind_waits)
        if wait is not None:
            # The host has not followed the topology this client routes by yet: it will, so the call goes to the
            # leader again after a short wait, not counted against the resends.
            call.behind_waits += 1
            self._spawn(self._resend_once_host_follows(call, wait))
            return True
        if not resend_after(response.error_name, call.resends):
            return False
        call.resends += 1
        self.stats.not_leader_resends += 1
        self._spawn(self._resend(call, self._follow_topology(response.topology_version, connection)))
        return True

    async def _resend_once_host_follows(self, call: PendingCall, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
        except asyncio.CancelledError:
            self._finished(call, None, ClientClosedError(
                f"call to {call.procedure} not sent again after NOT_LEADER: the client is closed"))
            raise
        await self._resend(call, None)

    async def _resend(self, call: PendingCall, followed: asyncio.Future[None] | None) -> None:
        try:
            if followed is not None:
                await asyncio.shield(followed)
            dialling = self._leader_dialling(call.partition)
            if dialling is not None:
                await asyncio.shield(dialling)  # at most the connect timeout
        except asyncio.CancelledError:
            self._finished(call, None, ClientClosedError(
                f"call to {call.procedure} not sent again after NOT_LEADER: the client is closed"))
            raise
        try:
            if self._closed:
                raise ClientClosedError(f"call to {call.procedure} not sent again after NOT_LEADER: the client is closed")
            connection = self._connection_for(call.partition, call.procedure)
        except PartitaError as e:
            self._finished(call, None, e)
            return
        call.deadline = connection.loop.time() + call.timeout
        connection.send(call, call.payload, call.own_timeout)

    def _follow_topology(self, version: int, connection: Connection) -> asyncio.Future[None] | None:
        """An answer on ``connection`` came from a host knowing topology
        ``version`` (a failover moved leaders): reads ``@SystemCatalog
        PARTITIONS`` from that host once per version and routes by its
        LEADER_HOST_ID. Returns the latest read asked for (done either way)."""
        if version > self._topology_asked and not self._closed:
            asked = self._topology_asked
            self._topology_asked = version
            self._topology_followed = self._spawn(self._read_leaders(version, asked, connection))
        return self._topology_followed

    async def _read_leaders(self, version: int, asked: int, connection: Connection) -> None:
        try:
            future = self._start(SYSTEM_CATALOG, ["PARTITIONS"], None, internal=True,
                                 connection=None if connection.closed else connection)
            response = await future
            if response.status == "SUCCESS" and response.results and \
                    self.router.follow_leaders_table(response.results[0]):
                self._dial_leaders(self.router.topology.partition_leaders)  # type: ignore[union-attr]
        except (PartitaError, KeyError, TypeError, ValueError):
            pass  # the old leaders stay
        topology = self.router.topology
        if (topology is None or topology.topology_version < version) and self._topology_asked == version:
            self._topology_asked = asked  # the next answer carrying it asks again

    async def _refresh_routes(self, version: int) -> None:
        try:
            future = self._start(SYSTEM_CATALOG, ["PROCEDURES"], None, internal=True)
            response = await future
        except PartitaError:
            self._routes_asked = min(self._routes_asked, self.router.catalog_version)
            return
        if response.status != "SUCCESS" or not response.results:
            return
        try:
            self.router.install_routes_table(response.results[0], version)
        except (KeyError, TypeError, ValueError):
            pass  # the old routes stay; the server routes every call itself

    # ---- state and closing ----

    @property
    def topology(self) -> Topology | None:
        """The topology this client routes by (None before the first login)."""
        return self.router.topology

    @property
    def connected_servers(self) -> list[str]:
        """The addresses whose connection is up now."""
        return [c.address for c in self._up]

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def _check_open(self) -> None:
        if self._closed:
            raise ClientClosedError("the client is closed")

    async def close(self) -> None:
        """Closes every connection; calls in flight fail with
        ConnectionLostError; no more reconnecting. Idempotent."""
        if self._closed:
            return
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for server in self._servers.values():
            if server.connection is not None:
                server.connection.close("client closed")
        self._up.clear()
        self._by_host.clear()
        await asyncio.sleep(0)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect(*servers: str, config: ClientConfig | None = None, **settings: Any) -> AsyncClient:
    """A client connected to ``servers`` (default ``127.0.0.1:21212``).

    ``settings`` are ClientConfig fields (``client_name="app"``,
    ``max_in_flight=1024``...), applied over ``config``.
    """
    base = config or ClientConfig()
    if settings:
        base = dataclasses.replace(base, **settings)
    client = AsyncClient(base)
    try:
        await client.connect(*(servers or ("127.0.0.1:21212",)))
    except BaseException:
        await client.close()
        raise
    return client
