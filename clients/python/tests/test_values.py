"""Parameters: Python values to wire fields, and refusals before sending."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from partita import ParameterError, PartitaError
from partita.values import micros_to_datetime, to_parameter

UTC = dt.timezone.utc


def test_should_encode_each_supported_type() -> None:
    assert to_parameter(None, 1).WhichOneof("value") is None
    assert to_parameter(-(2**63), 1).integer == -(2**63)
    assert to_parameter(2.5, 1).float_value == 2.5
    assert to_parameter("ünï", 1).text == "ünï"
    assert to_parameter(b"\x00", 1).binary == b"\x00"
    assert to_parameter(bytearray(b"ab"), 1).binary == b"ab"
    assert to_parameter(memoryview(b"cd"), 1).binary == b"cd"
    assert to_parameter(Decimal("-12.5"), 1).decimal == "-12.5"
    stamp = dt.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC)
    assert to_parameter(stamp, 1).timestamp_micros == 1_700_000_000_123_456


def test_should_convert_aware_datetimes_of_any_zone_to_exact_microseconds() -> None:
    zone = dt.timezone(dt.timedelta(hours=-5))
    local = dt.datetime(1969, 12, 31, 18, 59, 59, 999999, tzinfo=zone)
    assert to_parameter(local, 1).timestamp_micros == -1
    assert micros_to_datetime(-1) == local


def test_should_refuse_ints_beyond_64_bits_naming_the_position() -> None:
    with pytest.raises(ParameterError, match="parameter 3 is the int 9223372036854775808"):
        to_parameter(2**63, 3)
    with pytest.raises(ParameterError):
        to_parameter(-(2**63) - 1, 1)


def test_should_refuse_unsupported_types_as_both_type_and_value_errors() -> None:
    for bad in (object(), [1], {"a": 1}, True, dt.date(2020, 1, 1)):
        with pytest.raises(ParameterError, match="parameter 2"):
            to_parameter(bad, 2)
    with pytest.raises(TypeError):
        to_parameter(object(), 1)
    with pytest.raises(PartitaError):
        to_parameter(object(), 1)


def test_should_refuse_a_naive_datetime() -> None:
    with pytest.raises(ParameterError, match="naive datetime"):
        to_parameter(dt.datetime(2020, 1, 1), 1)


def test_should_refuse_decimals_that_do_not_fit_decimal_38_12() -> None:
    for bad in (Decimal("NaN"), Decimal("Infinity"), Decimal("1E+26"), Decimal("0.0000000000001")):
        with pytest.raises(ParameterError, match="parameter 1"):
            to_parameter(bad, 1)
    assert to_parameter(Decimal("99999999999999999999999999.999999999999"), 1).decimal == \
        "99999999999999999999999999.999999999999"
    assert to_parameter(Decimal("1.50000000000000"), 1).decimal == "1.500000000000"
