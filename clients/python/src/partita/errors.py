"""The exceptions of the Partita client.

Everything the client raises derives from :class:`PartitaError`. Two
branches:

- :class:`ClientError`: the call failed on the client's side (no answer
  from the server): connection lost, timeout, no connection, backpressure,
  frame too large, login refused, malformed answer. Those worth retrying
  derive from :class:`RetriableError` too.
- :class:`ProcedureError`: the server answered with a status other than
  SUCCESS. It carries the status, the numeric error code of
  ``partita.proto.ErrorCode`` (proto/errors.proto), its name, the server's
  message and the whole :class:`~partita.Response`. A subclass per family
  of codes (``ConstraintViolationError``, ``SqlError``, ...) lets callers
  catch what they expect; :func:`procedure_error` picks it.

Thread model: exception objects are immutable once raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .response import Response


class PartitaError(Exception):
    """The root of every exception this package raises."""


class ClientError(PartitaError):
    """A call or connection failed on the client's side."""


class RetriableError(ClientError):
    """A client-side failure that may succeed when tried again."""


class ConnectionLostError(RetriableError):
    """The connection went down with the call queued or in flight, or the
    client was closed. The call may or may not have run on the server."""


class CallTimeoutError(RetriableError, TimeoutError):
    """No answer within the call's timeout. The call may still run, and even
    commit, on the server; a late answer is dropped."""


class NoConnectionsError(RetriableError):
    """No connection is up (never connected, or all reconnecting); nothing
    was sent."""


class BackpressureError(RetriableError):
    """The connection had ``max_in_flight`` calls in flight and none ended
    within ``backpressure_timeout``; nothing was sent."""


class FrameTooLargeError(ClientError):
    """The call encodes to more bytes than the server accepts
    (``max_frame_bytes`` from its login answer); nothing was sent."""


class LoginRefusedError(ClientError):
    """The server refused the login (another protocol version, or it is
    shutting down); carries the server's message."""


class ConnectError(ClientError):
    """A server could not be reached, or did not answer the login in time."""


class ResultFormatError(ClientError):
    """The server's answer holds a result table that does not decode
    (docs/engine-formats.md); the message names the offset."""


class ClientClosedError(ClientError):
    """A call on a client that was closed."""


class ProcedureError(PartitaError):
    """The server answered the call with a status other than SUCCESS.

    Attributes: ``procedure``, ``status`` (the CallStatus name without its
    prefix: ``USER_ABORT``, ``GRACEFUL_FAILURE``, ``REJECTED``,
    ``UNEXPECTED_FAILURE``), ``error_code`` (the number in
    ``partita.proto.ErrorCode``, 0 when neither the code nor the name is
    known), ``error_name`` (``CONSTRAINT_VIOLATION``...), ``server_message``,
    ``response``.
    """

    def __init__(self, procedure: str, response: Response) -> None:
        self.procedure = procedure
        self.response = response
        self.status = response.status
        self.error_code = response.error_code
        self.error_name = response.error_name
        self.server_message = response.message
        super().__init__(f"{procedure}: {response.status} {response.error_name}: {response.message}")

    @property
    def retriable(self) -> bool:
        """True when the call was not run for a reason that may pass
        (shutting down, busy, not the leader, catalog changed)."""
        return self.error_name in RETRIABLE_ERROR_NAMES


class UserAbortError(ProcedureError):
    """The procedure aborted itself (USER_ABORT); nothing it wrote stays."""


class ConstraintViolationError(ProcedureError):
    """A unique key or NOT NULL constraint refused a write; rolled back."""


class DataError(ProcedureError):
    """A value out of range, too long, not convertible, or a division by
    zero; rolled back."""


class SqlError(ProcedureError):
    """SQL that does not parse, plan or evaluate; rolled back or not run."""


class BadParameterError(ProcedureError):
    """The call's parameters do not match the procedure (count or types);
    not run."""


class ProcedureNotFoundError(ProcedureError):
    """No procedure (or statement, table) of that name; not run."""


class TransactionTimeoutError(ProcedureError):
    """The transaction ran past its time limit on the server; rolled back."""


class ServerUnavailableError(ProcedureError):
    """Not run: the server is shutting down, busy, not the partition's
    leader, the partition is unavailable, or the catalog changed under the
    call. Usually worth retrying (``retriable`` says so)."""


class OutcomeUnknownError(ProcedureError):
    """The answering host does not know whether the call committed."""


class ServerInternalError(ProcedureError):
    """A fault inside the server (INTERNAL, BAD_PLAN, RESULT_TOO_LARGE,
    QUERY_MEMORY_LIMIT, ...); rolled back."""


# ErrorCode name (without ERROR_CODE_) -> the class raised for it. Names, not
# numbers: the numbers come from the generated errors_pb2 (the single source).
_CLASS_BY_NAME: dict[str, type[ProcedureError]] = {
    "CONSTRAINT_VIOLATION": ConstraintViolationError,
    "NOT_NULL_VIOLATION": ConstraintViolationError,
    "NUMERIC_OUT_OF_RANGE": DataError,
    "VALUE_TOO_LONG": DataError,
    "TYPE_MISMATCH": DataError,
    "DIVISION_BY_ZERO": DataError,
    "BAD_PARAMETER": BadParameterError,
    "NOT_FOUND": ProcedureNotFoundError,
    "PROCEDURE_NOT_FOUND": ProcedureNotFoundError,
    "SQL_ERROR": SqlError,
    "WRONG_PARTITION": SqlError,
    "USER_ABORT": UserAbortError,
    "TRANSACTION_TIMEOUT": TransactionTimeoutError,
    "CANCELLED": TransactionTimeoutError,
    "SHUTTING_DOWN": ServerUnavailableError,
    "CATALOG_CHANGED": ServerUnavailableError,
    "NOT_LEADER": ServerUnavailableError,
    "PARTITION_UNAVAILABLE": ServerUnavailableError,
    "SERVER_BUSY": ServerUnavailableError,
    "DISK_FULL": ServerUnavailableError,
    "OUTCOME_UNKNOWN": OutcomeUnknownError,
    "INTERNAL": ServerInternalError,
    "BAD_PLAN": ServerInternalError,
    "BAD_CATALOG": ServerInternalError,
    "BAD_REQUEST": ServerInternalError,
    "RESULT_TOO_LARGE": ServerInternalError,
    "QUERY_MEMORY_LIMIT": ServerInternalError,
}

# Codes after which trying the same call again may succeed.
RETRIABLE_ERROR_NAMES = frozenset({"SHUTTING_DOWN", "CATALOG_CHANGED", "NOT_LEADER", "PARTITION_UNAVAILABLE",
                                   "SERVER_BUSY", "DISK_FULL"})

# Status -> class when the error name is unknown or empty.
_CLASS_BY_STATUS: dict[str, type[ProcedureError]] = {
    "USER_ABORT": UserAbortError,
    "UNEXPECTED_FAILURE": ServerInternalError,
}


def procedure_error(procedure: str, response: Response) -> ProcedureError:
    """The exception for a non-SUCCESS ``response`` of ``procedure``: the
    class of its error name (from ``error_code``, or ``error_name`` when the
    server sent no code), else of its status, else ProcedureError."""
    cls = _CLASS_BY_NAME.get(response.error_name) or _CLASS_BY_STATUS.get(response.status, ProcedureError)
    return cls(procedure, response)
