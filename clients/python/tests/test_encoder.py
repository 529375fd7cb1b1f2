"""The hand-written invocation encoder against protobuf's generated code,
byte for byte, for every parameter kind and edge value."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from partita import ParameterError
from partita._encoder import encode_invocation
from partita._proto import client_pb2
from partita.values import to_parameter

UTC = dt.timezone.utc
VALUES = [None, 0, 1, -1, 63, -64, 64, 2**63 - 1, -(2**63), 6175551234, 0.0, -0.0, 1.5, float("inf"), "", "Vote",
          "ünïcödé ✓" * 40, b"", b"\x00\xff" * 100, bytearray(b"ab"), memoryview(b"cd"), Decimal("-12.5"),
          Decimal("0"), Decimal("99999999999999999999999999.999999999999"),
          dt.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC),
          dt.datetime(1, 1, 1, tzinfo=UTC), dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)]


def generated(handle: int, procedure: str, params: list, routed: int = 0, timeout: int = 0) -> bytes:
    invocation = client_pb2.Invocation(client_handle=handle, procedure=procedure,
                                       parameters=[to_parameter(v, i) for i, v in enumerate(params, 1)],
                                       routed_partition_plus_one=routed, timeout_millis=timeout)
    return client_pb2.ClientMessage(invocation=invocation).SerializeToString()


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_should_encode_each_value_as_the_generated_code_does(value: object) -> None:
    assert encode_invocation(7, "P", [value]) == generated(7, "P", [value])


def test_should_encode_handles_routes_timeouts_and_long_calls_alike() -> None:
    for handle in (0, 1, 127, 128, 2**32, 2**64 - 1):
        assert encode_invocation(handle, "Vote", [1, 2, 3], 2, 50) == generated(handle, "Vote", [1, 2, 3], 2, 50)
    assert encode_invocation(1, "@AdHoc", VALUES) == generated(1, "@AdHoc", VALUES)
    assert encode_invocation(1, "ü" * 300, []) == generated(1, "ü" * 300, [])


def test_should_refuse_what_the_protocol_cannot_carry_naming_the_position() -> None:
    for bad in (2**63, True, object(), dt.datetime(2020, 1, 1), Decimal("NaN")):
        with pytest.raises(ParameterError, match="parameter 2"):
            encode_invocation(1, "P", [1, bad])
