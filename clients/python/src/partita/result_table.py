"""ResultTable: one result table of an answer, decoded from the engine's
binary format (docs/engine-formats.md, "Result set"), little-endian:

    Table  := u32 table_size, u16 column_count, column_count x Column,
              u32 row_count, row_count x Row
    Column := u8 type, u16 name_size, name bytes (UTF-8)
    Row    := u32 row_size, null bitmap (ceil(columns / 8) bytes, bit i%8 of
              byte i/8 = column i is NULL), then each non-NULL value

Values become Python values: TINYINT..BIGINT ``int``, BOOLEAN ``bool``, FLOAT
``float``, DECIMAL ``decimal.Decimal`` (exact, scale 12, trailing zeros
dropped), VARCHAR ``str``, VARBINARY ``bytes``, TIMESTAMP a UTC
``datetime.datetime`` (exact microseconds; ``micros()`` gives the integer;
a TIMESTAMP outside datetime's years 1..9999 fails the table with
ResultFormatError). NULL is ``None``.

The whole table is checked when it is decoded: sizes, type bytes, every row
against its columns, no trailing bytes; anything else raises
ResultFormatError naming the byte offset. Thread model: immutable once
built; safe to share.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import struct
from typing import Any, Iterator, NamedTuple, Sequence

from .errors import ResultFormatError
from .values import DECIMAL_SCALE, EPOCH, ValueType

_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_FIXED = {
    ValueType.TINYINT: struct.Struct("<b"),
    ValueType.BOOLEAN: struct.Struct("<b"),
    ValueType.SMALLINT: struct.Struct("<h"),
    ValueType.INTEGER: struct.Struct("<i"),
    ValueType.BIGINT: struct.Struct("<q"),
    ValueType.FLOAT: struct.Struct("<d"),
    ValueType.TIMESTAMP: struct.Struct("<q"),
}
_DECIMAL_BYTES = 16
_DECIMAL_LIMIT = 10**38


class Column(NamedTuple):
    """A result column: its name and value type."""

    name: str
    type: ValueType


def decimal_from_units(units: int) -> decimal.Decimal:
    """The exact DECIMAL of ``units`` x 10^-12, trailing fraction zeros dropped."""
    if units == 0:
        return decimal.Decimal(0)
    sign = 1 if units < 0 else 0
    digits = str(abs(units))
    drop = min(len(digits) - len(digits.rstrip("0")), DECIMAL_SCALE)
    if drop:
        digits = digits[:-drop]
    return decimal.Decimal((sign, tuple(map(int, digits)), drop - DECIMAL_SCALE))


class ResultTable:
    """One decoded result table: ``columns`` and ``rows`` (tuples).

    ``len(t)``, iteration and indexing go over rows; ``t.column_index(name)``
    finds a column (exact name, then ignoring case); ``t.dicts()`` gives rows
    as dicts; ``t.scalar()`` the first row's first value.
    """

    __slots__ = ("columns", "rows")

    def __init__(self, columns: Sequence[Column], rows: list[tuple[Any, ...]]) -> None:
        self.columns: tuple[Column, ...] = tuple(columns)
        self.rows: list[tuple[Any, ...]] = rows

    @classmethod
    def decode(cls, data: bytes | memoryview, base_offset: int = 0) -> ResultTable:
        """Decodes exactly one table (its u32 size included) from ``data``.

        ``base_offset`` is added to offsets in error messages. Raises
        ResultFormatError when ``data`` is not exactly one well-formed table.
        """
        try:
            return _decode_fast(data)
        except (_Malformed, struct.error, IndexError, ValueError, OverflowError):
            pass  # the checking decoder below says what and where
        return _Decoder(memoryview(data), base_offset).table()

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def __getitem__(self, row: int) -> tuple[Any, ...]:
        return self.rows[row]

    def __repr__(self) -> str:
        names = ", ".join(f"{c.name} {c.type.name}" for c in self.columns)
        return f"ResultTable(({names}), {len(self.rows)} row(s))"

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column_index(self, name: str) -> int:
        """The index of column ``name`` (exact, then ignoring case).

        Raises KeyError naming the columns when there is none.
        """
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        folded = name.casefold()
        for i, c in enumerate(self.columns):
            if c.name.casefold() == folded:
                return i
        raise KeyError(f"no column {name!r}; columns: {', '.join(self.column_names)}")

    def dicts(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name."""
        names = self.column_names
        return [dict(zip(names, row)) for row in self.rows]

    def scalar(self) -> Any:
        """The first row's first value. Raises IndexError on an empty table."""
        if not self.rows or not self.columns:
            raise IndexError("the table has no rows" if self.columns else "the table has no columns")
        return self.rows[0][0]

    def micros(self, row: int, column: int) -> int | None:
        """A TIMESTAMP value as microseconds since the epoch (exact, whatever
        its year), or None for NULL. Raises TypeError for another type."""
        if self.columns[column].type != ValueType.TIMESTAMP:
            raise TypeError(f"column {self.columns[column].name} is {self.columns[column].type.name}, not TIMESTAMP")
        value = self.rows[row][column]
        if value is None:
            return None
        return int((value - EPOCH) // _dt.timedelta(microseconds=1))


class _Malformed(Exception):
    """The fast decoder met something wrong; the checking decoder reports it."""


_FIXED_FORMAT = {ValueType.TINYINT: "b", ValueType.BOOLEAN: "b", ValueType.SMALLINT: "h", ValueType.INTEGER: "i",
                 ValueType.BIGINT: "q", ValueType.FLOAT: "d", ValueType.TIMESTAMP: "q"}
_ROW_FORMATS: dict[tuple[ValueType, ...], struct.Struct | None] = {}


def _row_struct(types: tuple[ValueType, ...]) -> struct.Struct | None:
    """For tables of fixed-width columns only: row_size, bitmap, values."""
    if types not in _ROW_FORMATS:
        codes = [_FIXED_FORMAT.get(t) for t in types]
        _ROW_FORMATS[types] = None if None in codes or len(_ROW_FORMATS) > 1000 else \
            struct.Struct(f"<I{(len(types) + 7) // 8}s{''.join(codes)}")  # type: ignore[arg-type]
    return _ROW_FORMATS.get(types)


class _Header(NamedTuple):
    """What the columns of a table fix: parsed once per distinct header."""

    raw: bytes  # u16 column_count and the columns, as on the wire
    columns: list[Column]
    types: tuple[ValueType, ...]
    fixed: struct.Struct | None  # a whole row when every column is fixed-width
    no_nulls: bytes  # the bitmap of a row without NULLs
    converts: bool  # TIMESTAMP or BOOLEAN values to convert


_RECENT_HEADERS: list[_Header] = []
_RECENT_LIMIT = 16


def _header(data: bytes) -> tuple[_Header, int]:
    """The header of ``data`` (at byte 4) and the offset after it. Tables of
    one procedure share their header, so recent ones are kept and matched by
    their bytes (a header is self-delimiting: equal prefix, equal header)."""
    for header in _RECENT_HEADERS:
        if data.startswith(header.raw, 4):
            return header, 4 + len(header.raw)
    total = len(data)
    (ncols,) = _U16.unpack_from(data, 4)
    pos = 6
    columns = []
    for _ in range(ncols):
        vtype = ValueType(data[pos])
        if vtype == ValueType.NULL:
            raise _Malformed
        (name_size,) = _U16.unpack_from(data, pos + 1)
        pos += 3 + name_size
        if pos > total:
            raise _Malformed
        columns.append(Column(data[pos - name_size : pos].decode("utf-8"), vtype))
    types = tuple(c.type for c in columns)
    fixed = _row_struct(types)
    header = _Header(data[4:pos], columns, types, fixed, bytes((ncols + 7) // 8),
                     any(t in (ValueType.TIMESTAMP, ValueType.BOOLEAN) for t in types))
    if len(_RECENT_HEADERS) >= _RECENT_LIMIT:
        _RECENT_HEADERS.pop(0)
    _RECENT_HEADERS.append(header)
    return header, pos


def _decode_fast(data: bytes | memoryview) -> ResultTable:
    """Decodes a well-formed table quickly; raises on anything else (no
    messages: the caller then runs the checking decoder)."""
    if not isinstance(data, bytes):
        data = bytes(data)
    total = len(data)
    (size,) = _U32.unpack_from(data, 0)
    if size + 4 != total:
        raise _Malformed
    header, pos = _header(data)
    (row_count,) = _U32.unpack_from(data, pos)
    pos += 4
    rows: list[tuple[Any, ...]] = []
    fixed = header.fixed
    if fixed is not None and row_count:
        expected = fixed.size - 4
        no_nulls = header.no_nulls
        for _ in range(row_count):
            values = fixed.unpack_from(data, pos)
            if values[0] != expected or values[1] != no_nulls:
                break  # NULLs or an odd size: the general loop below
            pos += fixed.size
            rows.append(_convert(values[2:], header.types) if header.converts else values[2:])
    for _ in range(row_count - len(rows)):
        (row_size,) = _U32.unpack_from(data, pos)
        row_end = pos + 4 + row_size
        if row_end > total:
            raise _Malformed
        pos = _read_row(data, pos + 4, row_end, header.columns, rows)
    if pos != total:
        raise _Malformed
    return ResultTable(header.columns, rows)


def _convert(row: tuple[Any, ...], types: tuple[ValueType, ...]) -> tuple[Any, ...]:
    out = list(row)
    for i, t in enumerate(types):
        if t == ValueType.TIMESTAMP:
            out[i] = EPOCH + _dt.timedelta(microseconds=out[i])
        elif t == ValueType.BOOLEAN:
            out[i] = out[i] != 0
    return tuple(out)


def _read_row(data: bytes, pos: int, row_end: int, columns: list[Column], rows: list[tuple[Any, ...]]) -> int:
    bitmap_end = pos + (len(columns) + 7) // 8
    if bitmap_end > row_end:
        raise _Malformed
    bitmap = data[pos:bitmap_end]
    pos = bitmap_end
    values: list[Any] = []
    for i, column in enumerate(columns):
        if bitmap[i >> 3] & (1 << (i & 7)):
            values.append(None)
            continue
        vtype = column.type
        fixed = _FIXED.get(vtype)
        if fixed is not None:
            (v,) = fixed.unpack_from(data, pos)
            pos += fixed.size
            if vtype == ValueType.TIMESTAMP:
                v = EPOCH + _dt.timedelta(microseconds=v)
            elif vtype == ValueType.BOOLEAN:
                v = v != 0
        elif vtype == ValueType.DECIMAL:
            units = int.from_bytes(data[pos : pos + _DECIMAL_BYTES], "little", signed=True)
            pos += _DECIMAL_BYTES
            if abs(units) >= _DECIMAL_LIMIT:
                raise _Malformed
            v = decimal_from_units(units)
        else:
            (length,) = _U32.unpack_from(data, pos)
            pos += 4 + length
            if pos > row_end:
                raise _Malformed
            v = data[pos - length : pos]
            if vtype == ValueType.VARCHAR:
                v = v.decode("utf-8")
        if pos > row_end:
            raise _Malformed
        values.append(v)
    if pos != row_end:
        raise _Malformed
    rows.append(tuple(values))
    return pos


class _Decoder:
    """Reads one table; every read checks the bounds first."""

    def __init__(self, data: memoryview, base: int) -> None:
        self.data = data
        self.pos = 0
        self.base = base

    def fail(self, what: str, at: int | None = None) -> ResultFormatError:
        return ResultFormatError(f"malformed result table at byte {self.base + (self.pos if at is None else at)}: {what}")

    def need(self, n: int, what: str, end: int) -> None:
        if self.pos + n > end:
            raise self.fail(f"{what} needs {n} byte(s), {max(end - self.pos, 0)} left")

    def u8(self, end: int, what: str) -> int:
        self.need(1, what, end)
        v = self.data[self.pos]
        self.pos += 1
        return v

    def u16(self, end: int, what: str) -> int:
        self.need(2, what, end)
        (v,) = _U16.unpack_from(self.data, self.pos)
        self.pos += 2
        return v

    def u32(self, end: int, what: str) -> int:
        self.need(4, what, end)
        (v,) = _U32.unpack_from(self.data, self.pos)
        self.pos += 4
        return v

    def table(self) -> ResultTable:
        total = len(self.data)
        size = self.u32(total, "table_size")
        end = self.pos + size
        if end != total:
            raise self.fail(f"table_size {size} but {total - 4} byte(s) follow it", 0)
        columns = []
        for i in range(self.u16(end, "column_count")):
            start = self.pos
            code = self.u8(end, f"type of column {i}")
            try:
                vtype = ValueType(code)
            except ValueError:
                raise self.fail(f"column {i} has unknown type {code}", start) from None
            if vtype == ValueType.NULL:
                raise self.fail(f"column {i} has type NULL", start)
            name_size = self.u16(end, f"name size of column {i}")
            self.need(name_size, f"name of column {i}", end)
            try:
                name = bytes(self.data[self.pos : self.pos + name_size]).decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail(f"name of column {i} is not UTF-8") from None
            self.pos += name_size
            columns.append(Column(name, vtype))
        row_count = self.u32(end, "row_count")
        rows: list[tuple[Any, ...]] = []
        for r in range(row_count):
            rows.append(self.row(r, columns, end))
        if self.pos != end:
            raise self.fail(f"{end - self.pos} byte(s) after the last row")
        return ResultTable(columns, rows)

    def row(self, r: int, columns: list[Column], end: int) -> tuple[Any, ...]:
        row_size = self.u32(end, f"row_size of row {r}")
        row_end = self.pos + row_size
        if row_end > end:
            raise self.fail(f"row {r} has row_size {row_size}, past the table's end", self.pos - 4)
        ncols = len(columns)
        bitmap_bytes = (ncols + 7) // 8
        self.need(bitmap_bytes, f"null bitmap of row {r}", row_end)
        bitmap = self.data[self.pos : self.pos + bitmap_bytes]
        self.pos += bitmap_bytes
        values: list[Any] = []
        data = self.data
        for i, (name, vtype) in enumerate(columns):
            if bitmap[i >> 3] & (1 << (i & 7)):
                values.append(None)
                continue
            fixed = _FIXED.get(vtype)
            if fixed is not None:
                self.need(fixed.size, f"row {r} column {name}", row_end)
                (v,) = fixed.unpack_from(data, self.pos)
                self.pos += fixed.size
                if vtype == ValueType.BOOLEAN:
                    v = v != 0
                elif vtype == ValueType.TIMESTAMP:
                    try:
                        v = EPOCH + _dt.timedelta(microseconds=v)
                    except OverflowError:
                        raise self.fail(
                            f"row {r} column {name}: TIMESTAMP {v} us is outside the years 1..9999 of datetime",
                            self.pos - 8) from None
            elif vtype == ValueType.DECIMAL:
                self.need(_DECIMAL_BYTES, f"row {r} column {name}", row_end)
                units = int.from_bytes(data[self.pos : self.pos + _DECIMAL_BYTES], "little", signed=True)
                if abs(units) >= _DECIMAL_LIMIT:
                    raise self.fail(f"row {r} column {name}: DECIMAL beyond 38 digits")
                self.pos += _DECIMAL_BYTES
                v = decimal_from_units(units)
            else:  # VARCHAR, VARBINARY
                length = self.u32(row_end, f"length of row {r} column {name}")
                self.need(length, f"row {r} column {name}", row_end)
                raw = bytes(data[self.pos : self.pos + length])
                if vtype == ValueType.VARCHAR:
                    try:
                        v = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        raise self.fail(f"row {r} column {name}: VARCHAR is not UTF-8") from None
                else:
                    v = raw
                self.pos += length
            values.append(v)
        if self.pos != row_end:
            raise self.fail(f"row {r}: {row_end - self.pos} byte(s) left after its values")
        return tuple(values)


def decode_result_set(data: bytes | memoryview) -> list[ResultTable]:
    """Decodes a whole result set as the engine writes it: ``u32
    table_count``, then that many tables (docs/engine-formats.md). Raises
    ResultFormatError naming the offset when it is not exactly that."""
    view = memoryview(data)
    if len(view) < 4:
        raise ResultFormatError(f"malformed result set at byte 0: table_count needs 4 bytes, {len(view)} left")
    (count,) = _U32.unpack_from(view, 0)
    pos = 4
    tables = []
    for i in range(count):
        if len(view) - pos < 4:
            raise ResultFormatError(f"malformed result set at byte {pos}: table {i} of {count} is missing")
        (size,) = _U32.unpack_from(view, pos)
        end = pos + 4 + size
        if end > len(view):
            raise ResultFormatError(f"malformed result set at byte {pos}: table {i} has table_size {size}, "
                                    f"{len(view) - pos - 4} byte(s) left")
        tables.append(ResultTable.decode(view[pos:end], base_offset=pos))
        pos = end
    if pos != len(view):
        raise ResultFormatError(f"malformed result set at byte {pos}: {len(view) - pos} byte(s) after the last table")
    return tables
