"""Answers to exceptions: error_code first (proto/errors.proto), error_name
when the code is 0, the status when neither is known."""

from __future__ import annotations

import pytest

import partita
from partita._proto import client_pb2, errors_pb2
from partita.errors import procedure_error
from partita.response import Response


def answer(status: int, code: int = 0, name: str = "") -> Response:
    message = client_pb2.InvocationResponse(status=status, error_code=code, error_name=name, message="why")
    return Response.from_proto(message, [])


@pytest.mark.parametrize("code_name, cls", [
    ("CONSTRAINT_VIOLATION", partita.ConstraintViolationError),
    ("VALUE_TOO_LONG", partita.DataError),
    ("SQL_ERROR", partita.SqlError),
    ("BAD_PARAMETER", partita.BadParameterError),
    ("PROCEDURE_NOT_FOUND", partita.ProcedureNotFoundError),
    ("TRANSACTION_TIMEOUT", partita.TransactionTimeoutError),
    ("SHUTTING_DOWN", partita.ServerUnavailableError),
    ("OUTCOME_UNKNOWN", partita.OutcomeUnknownError),
    ("INTERNAL", partita.ServerInternalError),
])
def test_should_map_each_code_number_to_its_class(code_name: str, cls: type) -> None:
    number = errors_pb2.ErrorCode.Value("ERROR_CODE_" + code_name)
    error = procedure_error("P", answer(client_pb2.CALL_STATUS_GRACEFUL_FAILURE, number, "stale name"))
    assert type(error) is cls
    assert error.error_code == number and error.error_name == code_name
    assert str(error) == f"P: GRACEFUL_FAILURE {code_name}: why"


def test_should_fall_back_to_the_name_when_the_code_is_zero() -> None:
    error = procedure_error("P", answer(client_pb2.CALL_STATUS_GRACEFUL_FAILURE, 0, "CONSTRAINT_VIOLATION"))
    assert isinstance(error, partita.ConstraintViolationError)
    assert error.error_code == errors_pb2.ERROR_CODE_CONSTRAINT_VIOLATION


def test_should_fall_back_to_the_status_for_unknown_names_and_codes() -> None:
    assert type(procedure_error("P", answer(client_pb2.CALL_STATUS_USER_ABORT, 0, "MY_ABORT"))) is \
        partita.UserAbortError
    error = procedure_error("P", answer(client_pb2.CALL_STATUS_REJECTED, 999, ""))
    assert type(error) is partita.ProcedureError and error.error_name == "ERROR_CODE_999"
    assert procedure_error("P", answer(client_pb2.CALL_STATUS_REJECTED, 0, "SERVER_BUSY")).retriable


def test_should_name_statuses_without_their_prefix() -> None:
    assert answer(client_pb2.CALL_STATUS_SUCCESS).ok
    assert answer(client_pb2.CALL_STATUS_REJECTED).status == "REJECTED"
    assert answer(77).status == "STATUS_77"
