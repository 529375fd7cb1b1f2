"""Builds result tables in the engine's binary format (docs/engine-formats.md)
for the decoder's tests. Test-only; independent of the decoder."""

from __future__ import annotations

import struct
from typing import Any, Sequence


def column(type_code: int, name: str) -> bytes:
    raw = name.encode()
    return struct.pack("<BH", type_code, len(raw)) + raw


def value(type_code: int, v: Any) -> bytes:
    if type_code in (2, 11):
        return struct.pack("<b", v)
    if type_code == 3:
        return struct.pack("<h", v)
    if type_code == 4:
        return struct.pack("<i", v)
    if type_code in (5, 10):
        return struct.pack("<q", v)
    if type_code == 6:
        return struct.pack("<d", v)
    if type_code == 7:
        return int(v).to_bytes(16, "little", signed=True)
    raw = v.encode() if isinstance(v, str) else bytes(v)
    return struct.pack("<I", len(raw)) + raw


def table(columns: Sequence[tuple[int, str]], rows: Sequence[Sequence[Any]]) -> bytes:
    body = struct.pack("<H", len(columns)) + b"".join(column(t, n) for t, n in columns)
    body += struct.pack("<I", len(rows))
    for row in rows:
        bitmap = bytearray((len(columns) + 7) // 8)
        values = b""
        for i, ((t, _), v) in enumerate(zip(columns, row)):
            if v is None:
                bitmap[i // 8] |= 1 << (i % 8)
            else:
                values += value(t, v)
        payload = bytes(bitmap) + values
        body += struct.pack("<I", len(payload)) + payload
    return struct.pack("<I", len(body)) + body
