"""Client: the synchronous client, for threaded code.

    import partita
    with partita.connect("127.0.0.1:21212") as client:
        client.call("Vote", [6175551234, 3, 2])
        future = client.call_async("Vote", [6175551235, 3, 2])   # concurrent.futures.Future
        table = client.query("SELECT COUNT(*) FROM votes")

It runs an :class:`~partita.aio.AsyncClient` on an event loop in a daemon
thread of its own; every method hands its work to that loop and waits.
Thread model: all methods are thread-safe; any number of threads may call
at once (their calls share the connections). Do not call the blocking
methods from a callback of a future it returned (that runs on the client's
loop thread): it would wait for itself; such calls raise RuntimeError.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import threading
from typing import Any, Awaitable, Sequence, TypeVar

from .aio import AsyncClient, ClientStatistics
from .config import ClientConfig
from .errors import ClientClosedError
from .response import Response
from .result_table import ResultTable
from .routing import Topology

T = TypeVar("T")


class Client:
    """See the module comment."""

    def __init__(self, config: ClientConfig | None = None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="partita-client", daemon=True)
        self._thread.start()
        self._async = AsyncClient(config)
        self._closed = False

    def _run(self, coroutine: Awaitable[T]) -> T:
        if self._closed and not self._loop.is_running():
            coroutine.close()  # type: ignore[attr-defined]
            raise ClientClosedError("the client is closed")
        if threading.current_thread() is self._thread:
            coroutine.close()  # type: ignore[attr-defined]
            raise RuntimeError("a blocking Client method was called on the client's own thread (from a callback)")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()  # type: ignore[arg-type]

    @property
    def config(self) -> ClientConfig:
        return self._async.config

    def connect(self, *servers: str) -> None:
        """Connects to each server; see AsyncClient.connect."""
        self._run(self._async.connect(*servers))

    def call(self, procedure: str, params: Sequence[Any] = (), *, timeout: float | None = None,
             check: bool = True) -> Response:
        """Calls and waits for the answer; see AsyncClient.call."""
        return self._run(self._async.call(procedure, params, timeout=timeout, check=check))

    def call_async(self, procedure: str, params: Sequence[Any] = (), *,
                   timeout: float | None = None) -> concurrent.futures.Future[Response]:
        """Starts the call and returns a future of its answer (every answer
        of the server, failures included; it fails only for client-side
        errors). Waits for room under backpressure, as AsyncClient.call_async.
        The future's callbacks run on the client's thread: keep them short."""
        if self._closed:
            raise ClientClosedError("the client is closed")
        return asyncio.run_coroutine_threadsafe(self._async.call(procedure, params, timeout=timeout, check=False),
                                                self._loop)

    def query(self, sql: str, params: Sequence[Any] = (), *, timeout: float | None = None) -> ResultTable:
        """Runs SQL through @AdHoc; see AsyncClient.query."""
        return self._run(self._async.query(sql, params, timeout=timeout))

    def drain(self) -> None:
        """Waits until no call of this client is in flight."""
        self._run(self._async.drain())

    @property
    def topology(self) -> Topology | None:
        return self._async.topology

    @property
    def connected_servers(self) -> list[str]:
        return self._run(_value(lambda: self._async.connected_servers))

    @property
    def statistics(self) -> ClientStatistics:
        """A copy of the counts so far."""
        return self._run(_value(lambda: dataclasses.replace(self._async.stats)))

    def close(self) -> None:
        """Closes the connections (calls in flight fail with
        ConnectionLostError) and stops the client's thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self._run(self._async.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            if not self._thread.is_alive():
                self._loop.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _value(read: Any) -> Any:
    return read()


def connect(*servers: str, config: ClientConfig | None = None, **settings: Any) -> Client:
    """A synchronous client connected to ``servers`` (default
    ``127.0.0.1:21212``); ``settings`` are ClientConfig fields."""
    base = config or ClientConfig()
    if settings:
        base = dataclasses.replace(base, **settings)
    client = Client(base)
    try:
        client.connect(*(servers or ("127.0.0.1:21212",)))
    except BaseException:
        client.close()
        raise
    return client
