"""Response: the server's answer to one call (``InvocationResponse`` of
proto/client.proto), with its result tables decoded. Immutable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._proto import client_pb2, errors_pb2
from .result_table import ResultTable

_STATUS_PREFIX = "CALL_STATUS_"
_ERROR_PREFIX = "ERROR_CODE_"


_STATUS_NAMES = {number: name[len(_STATUS_PREFIX):] for name, number in client_pb2.CallStatus.items()}


def status_name(number: int) -> str:
    """The CallStatus name without its prefix ("SUCCESS"), or "STATUS_<n>"
    for a number this client does not know."""
    name = _STATUS_NAMES.get(number)
    return name if name is not None else f"STATUS_{number}"


def error_identity(error_code: int, error_name: str) -> tuple[int, str]:
    """The (code, name) of an answer's error. The number wins when set
    (proto/errors.proto is the single source); else the name the server sent,
    with its number when this client knows it."""
    if error_code:
        try:
            return error_code, errors_pb2.ErrorCode.Name(error_code)[len(_ERROR_PREFIX):]
        except ValueError:
            return error_code, error_name or f"ERROR_CODE_{error_code}"
    if error_name:
        try:
            return errors_pb2.ErrorCode.Value(_ERROR_PREFIX + error_name), error_name
        except ValueError:
            return 0, error_name
    return 0, ""


@dataclass(slots=True)
class Response:
    """One answer. ``status`` is the CallStatus name without its prefix
    (SUCCESS, USER_ABORT, GRACEFUL_FAILURE, REJECTED, UNEXPECTED_FAILURE);
    ``error_code``/``error_name`` identify a failure (partita.proto.ErrorCode);
    ``results`` are the procedure's tables. Treat it as immutable (it is
    not frozen only because a frozen dataclass costs more per answer)."""

    status: str
    error_code: int = 0
    error_name: str = ""
    message: str = ""
    app_status: int = 0
    app_status_message: str = ""
    results: list[ResultTable] = field(default_factory=list)
    server_nanos: int = 0
    catalog_version: int = 0
    topology_version: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "SUCCESS"

    def scalar(self) -> Any:
        """The first table's first row's first value (a procedure's number).
        Raises IndexError when there is none."""
        if not self.results:
            raise IndexError("the answer has no result table")
        return self.results[0].scalar()

    @classmethod
    def from_proto(cls, message: Any, results: list[ResultTable]) -> Response:
        code, name = (message.error_code, message.error_name)
        if code or name:
            code, name = error_identity(code, name)
        return cls(
            status=status_name(message.status),
            error_code=code,
            error_name=name,
            message=message.message,
            app_status=message.app_status,
            app_status_message=message.app_status_message,
            results=results,
            server_nanos=message.server_nanos,
            catalog_version=message.catalog_version,
            topology_version=message.topology_version,
        )
