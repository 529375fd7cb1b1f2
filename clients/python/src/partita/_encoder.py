"""Hand-written protobuf encoding of the one message a client sends most:
``ClientMessage{invocation: Invocation{...}}`` (proto/client.proto), byte for
byte what the generated code writes (tests/test_encoder.py compares them),
at a fraction of the cost of building message objects per call.

Fields written, in field-number order as protobuf does, proto3 defaults
(0, empty) omitted: Invocation 1 client_handle (varint), 2 procedure (bytes), 3 parameters (one
length-delimited Parameter each), 4 routed_partition_plus_one (varint,
omitted when 0), 5 timeout_millis (varint, omitted when 0). A Parameter
sets one field of its oneof (written even when zero: oneof members have
presence) or none for NULL. Stateless apart from a cache of encoded
procedure names.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import struct
from typing import Any, Sequence

from .values import INT64_MAX, INT64_MIN, ParameterError, decimal_text, datetime_to_micros, to_parameter

_MASK64 = 0xFFFFFFFFFFFFFFFF
_DOUBLE = struct.Struct("<d")
_NULL = b"\x1a\x00"
_names: dict[str, bytes] = {}


_ONE_BYTE = [bytes((i,)) for i in range(0x80)]


def varint(value: int) -> bytes:
    """Base-128 varint of a non-negative int below 2^64."""
    if value < 0x80:
        return _ONE_BYTE[value]
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _zigzag(value: int) -> int:
    return ((value << 1) ^ (value >> 63)) & _MASK64


def _delimited(tag: bytes, payload: bytes) -> bytes:
    return tag + varint(len(payload)) + payload


def _parameter(value: Any, position: int) -> bytes:
    """One ``parameters`` entry (tag, length, Parameter)."""
    if value is None:
        return _NULL
    cls = type(value)
    if cls is int:
        if not INT64_MIN <= value <= INT64_MAX:
            to_parameter(value, position)  # raises the ParameterError
        body = b"\x08" + varint(value << 1 if value >= 0 else ((-value) << 1) - 1)  # zigzag
        return b"\x1a" + _ONE_BYTE[len(body)] + body
    elif cls is str:
        body = _delimited(b"\x22", value.encode("utf-8"))
    elif cls is float:
        body = b"\x11" + _DOUBLE.pack(value)
    elif cls is bytes:
        body = _delimited(b"\x2a", value)
    else:
        return _parameter_slow(value, position)
    return b"\x1a" + varint(len(body)) + body


def _parameter_slow(value: Any, position: int) -> bytes:
    if isinstance(value, bool):
        to_parameter(value, position)  # raises
    if isinstance(value, int):
        return _parameter(int(value), position)
    if isinstance(value, float):
        return _parameter(float(value), position)
    if isinstance(value, str):
        return _parameter(str(value), position)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _parameter(bytes(value), position)
    if isinstance(value, decimal.Decimal):
        try:
            body = _delimited(b"\x1a", decimal_text(value).encode("ascii"))
        except ValueError as e:
            raise ParameterError(f"parameter {position}: {e}") from None
        return _delimited(b"\x1a", body)
    if isinstance(value, _dt.datetime):
        try:
            micros = datetime_to_micros(value)
        except ValueError as e:
            raise ParameterError(f"parameter {position}: {e}") from None
        if not INT64_MIN <= micros <= INT64_MAX:
            raise ParameterError(f"parameter {position}: {value} is outside the 64-bit microsecond range")
        return _delimited(b"\x1a", b"\x30" + varint(_zigzag(micros)))
    to_parameter(value, position)  # raises the ParameterError naming the type
    raise AssertionError("unreachable")


def encode_invocation(handle: int, procedure: str, params: Sequence[Any], routed: int = 0,
                      timeout_millis: int = 0) -> bytes:
    """The serialized ``ClientMessage`` of one call. Raises ParameterError
    naming the first parameter the protocol cannot carry."""
    name = _names.get(procedure)
    if name is None:
        name = _delimited(b"\x12", procedure.encode("utf-8")) if procedure else b""
        if len(_names) < 10_000:
            _names[procedure] = name
    parts = [b"\x08", varint(handle), name] if handle else [name]
    position = 0
    for value in params:
        position += 1
        parts.append(_parameter(value, position))
    if routed:
        parts.append(b"\x20")
        parts.append(varint(routed))
    if timeout_millis:
        parts.append(b"\x28")
        parts.append(varint(timeout_millis))
    invocation = b"".join(parts)
    return b"\x12" + varint(len(invocation)) + invocation
