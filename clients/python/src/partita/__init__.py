"""Partita's Python client.

- :mod:`partita.aio`: the asyncio client (``await partita.aio.connect(...)``).
- :class:`partita.Client` / :func:`partita.connect`: the synchronous client.
- :mod:`partita.dbapi`: a PEP 249 (DB-API 2.0) module for tools that expect one.

See clients/python/README.md.
"""

from .aio import AsyncClient, ClientStatistics
from .config import DEFAULT_PORT, ClientConfig
from .errors import (
    BackpressureError,
    BadParameterError,
    CallTimeoutError,
    ClientClosedError,
    ClientError,
    ConnectError,
    ConnectionLostError,
    ConstraintViolationError,
    DataError,
    FrameTooLargeError,
    LoginRefusedError,
    NoConnectionsError,
    OutcomeUnknownError,
    PartitaError,
    ProcedureError,
    ProcedureNotFoundError,
    ResultFormatError,
    RetriableError,
    ServerInternalError,
    ServerUnavailableError,
    SqlError,
    TransactionTimeoutError,
    UserAbortError,
)
from .response import Response
from .result_table import Column, ResultTable
from .routing import Topology
from .sync import Client, connect
from .values import ParameterError, ValueType

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "BackpressureError", "BadParameterError", "CallTimeoutError", "Client", "ClientClosedError",
    "ClientConfig", "ClientError", "ClientStatistics", "Column", "ConnectError", "ConnectionLostError",
    "ConstraintViolationError", "DEFAULT_PORT", "DataError", "FrameTooLargeError", "LoginRefusedError",
    "NoConnectionsError", "OutcomeUnknownError", "ParameterError", "PartitaError", "ProcedureError",
    "ProcedureNotFoundError", "Response", "ResultFormatError", "ResultTable", "RetriableError",
    "ServerInternalError", "ServerUnavailableError", "SqlError", "Topology", "TransactionTimeoutError",
    "UserAbortError", "ValueType", "connect",
]
