"""SQL value types and the conversion of Python values to call parameters.

Parameters (``Parameter`` of proto/client.proto):

=========================  ====================  ==============================
Python value               wire field            notes
=========================  ====================  ==============================
``None``                   none (SQL NULL)
``int``                    ``integer``           must fit in 64 bits (signed)
``float``                  ``float_value``
``decimal.Decimal``        ``decimal``           finite, at most 26 integer
                                                 and 12 fraction digits
``str``                    ``text``
``bytes``/``bytearray``/   ``binary``
``memoryview``
``datetime.datetime``      ``timestamp_micros``  timezone-aware; exact µs
=========================  ====================  ==============================

Anything else (``bool`` included: say ``1``/``0``) raises
:class:`ParameterError` naming the parameter's position from 1, before
anything is sent. Stateless.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import enum
from typing import Any, Union

from ._proto import client_pb2
from .errors import ClientError

#: A value a procedure parameter may be.
ParamValue = Union[None, int, float, decimal.Decimal, str, bytes, bytearray, memoryview, _dt.datetime]

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
#: DECIMAL columns: precision 38, scale 12.
DECIMAL_SCALE = 12
DECIMAL_PRECISION = 38
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_ONE_MICROSECOND = _dt.timedelta(microseconds=1)


class ValueType(enum.IntEnum):
    """Value-type numbers (proto/plan.proto ``ValueType``), used in result
    tables and routes."""

    NULL = 1
    TINYINT = 2
    SMALLINT = 3
    INTEGER = 4
    BIGINT = 5
    FLOAT = 6
    DECIMAL = 7
    VARCHAR = 8
    VARBINARY = 9
    TIMESTAMP = 10
    BOOLEAN = 11


INTEGER_TYPES = frozenset({ValueType.TINYINT, ValueType.SMALLINT, ValueType.INTEGER, ValueType.BIGINT})


class ParameterError(ClientError, TypeError, ValueError):
    """A parameter the client cannot send (wrong Python type, out of range);
    nothing was sent. Also a TypeError and a ValueError, so either
    ``except`` catches it."""


def datetime_to_micros(value: _dt.datetime) -> int:
    """Microseconds since 1970-01-01 UTC of a timezone-aware datetime, exactly.

    Raises ValueError for a naive datetime (its zone is unknown).
    """
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("a naive datetime has no time zone; give tzinfo (e.g. datetime.timezone.utc)")
    return (value - EPOCH) // _ONE_MICROSECOND


def micros_to_datetime(micros: int) -> _dt.datetime:
    """The UTC datetime of ``micros`` since the epoch, exactly.

    Raises OverflowError outside datetime's years 1..9999.
    """
    return EPOCH + _dt.timedelta(microseconds=micros)


def decimal_text(value: decimal.Decimal) -> str:
    """Exact plain text of a DECIMAL parameter ("-12.5").

    Raises ValueError when it is not finite or does not fit DECIMAL(38, 12)
    without losing digits.
    """
    if not value.is_finite():
        raise ValueError(f"DECIMAL must be finite, got {value}")
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    if exponent < -DECIMAL_SCALE:
        # Digits below 10^-12 must all be zero.
        cut = -DECIMAL_SCALE - exponent
        if any(digits[-cut:]):
            raise ValueError(f"DECIMAL {value} has more than {DECIMAL_SCALE} digits after the point")
        digits = digits[: len(digits) - cut] or (0,)
        exponent = -DECIMAL_SCALE
        value = decimal.Decimal((sign, digits, exponent))
    integer_digits = len(digits) + exponent
    if integer_digits > DECIMAL_PRECISION - DECIMAL_SCALE and value != 0:
        raise ValueError(f"DECIMAL {value} has more than {DECIMAL_PRECISION - DECIMAL_SCALE} digits before the point")
    return format(value, "f")


def to_parameter(value: Any, position: int) -> Any:
    """The ``client_pb2.Parameter`` for ``value``, the parameter at
    ``position`` (from 1). Raises ParameterError naming the position."""
    P = client_pb2.Parameter
    if value is None:
        return P()
    cls = type(value)
    if cls is int:
        if INT64_MIN <= value <= INT64_MAX:
            return P(integer=value)
        raise ParameterError(f"parameter {position} is the int {value}, outside the 64-bit range of BIGINT")
    if cls is str:
        return P(text=value)
    if cls is float:
        return P(float_value=value)
    if cls is bytes:
        return P(binary=value)
    return _to_parameter_slow(value, position)


def _to_parameter_slow(value: Any, position: int) -> Any:
    P = client_pb2.Parameter
    cls = type(value)
    if isinstance(value, bool):
        raise ParameterError(f"parameter {position} is a bool; pass 1 or 0 (Partita has no BOOLEAN columns)")
    if isinstance(value, int):
        return to_parameter(int(value), position)
    if isinstance(value, float):
        return P(float_value=float(value))
    if isinstance(value, str):
        return P(text=str(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        return P(binary=bytes(value))
    if isinstance(value, decimal.Decimal):
        try:
            return P(decimal=decimal_text(value))
        except ValueError as e:
            raise ParameterError(f"parameter {position}: {e}") from None
    if isinstance(value, _dt.datetime):
        try:
            micros = datetime_to_micros(value)
        except ValueError as e:
            raise ParameterError(f"parameter {position}: {e}") from None
        return P(timestamp_micros=micros)
    raise ParameterError(
        f"parameter {position} is a {cls.__module__}.{cls.__qualname__}; parameters must be None, int, float, "
        "decimal.Decimal, str, bytes, bytearray, memoryview or a timezone-aware datetime.datetime"
    )


def check_parameters(params: Any) -> None:
    """Raises ParameterError for the first of ``params`` the protocol cannot
    carry, numbering them from 1 (for @AdHoc, whose own first parameter is
    the SQL text, so that the message names the statement's ``?``)."""
    for position, value in enumerate(params, 1):
        to_parameter(value, position)
