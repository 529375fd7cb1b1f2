"""ResultTable.decode against hand-built tables: every type, NULLs, the
documented example, and malformed input (truncated at every byte, bad sizes,
unknown types, trailing bytes)."""

from __future__ import annotations

import datetime as dt
import struct
from decimal import Decimal

import pytest

from partita import ResultFormatError, ResultTable, ValueType
from table_bytes import table

UTC = dt.timezone.utc

ALL_TYPES = [(2, "T"), (3, "S"), (4, "I"), (5, "B"), (6, "F"), (7, "D"), (8, "V"), (9, "Y"), (10, "TS"), (11, "BOOL")]
ROW = [-128, -32768, -(2**31), -(2**63), 1.5, -12_500_000_000_000, "ünï ✓", b"\x00\xff", 1_700_000_000_123_456, 1]


def test_should_decode_the_documented_example() -> None:
    data = bytes.fromhex("17000000" "0100" "0501004e" "01000000" "09000000" "00" "0200000000000000")
    t = ResultTable.decode(data)
    assert t.columns[0].name == "N" and t.columns[0].type == ValueType.BIGINT
    assert t.rows == [(2,)]
    assert t.scalar() == 2


def test_should_decode_every_type_exactly() -> None:
    t = ResultTable.decode(table(ALL_TYPES, [ROW]))
    (row,) = t.rows
    assert row[:5] == (-128, -32768, -(2**31), -(2**63), 1.5)
    assert row[5] == Decimal("-12.5") and str(row[5]) == "-12.5"
    assert row[6] == "ünï ✓" and row[7] == b"\x00\xff"
    assert row[8] == dt.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC)
    assert t.micros(0, 8) == 1_700_000_000_123_456
    assert row[9] is True


def test_should_keep_38_digit_decimals_and_bigints_exact() -> None:
    biggest = 10**38 - 1
    t = ResultTable.decode(table([(7, "D"), (5, "B")], [[biggest, 2**63 - 1], [-biggest, 2**53 + 1], [0, 0]]))
    assert t.rows[0][0] == Decimal("99999999999999999999999999.999999999999")
    assert t.rows[1][0] == Decimal("-99999999999999999999999999.999999999999")
    assert t.rows[0][1] == 2**63 - 1 and t.rows[1][1] == 2**53 + 1
    assert t.rows[2][0] == Decimal(0)


def test_should_give_microseconds_before_the_epoch_exactly() -> None:
    t = ResultTable.decode(table([(10, "TS")], [[-1], [0]]))
    assert t.rows[0][0] == dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    assert t.micros(0, 0) == -1 and t.micros(1, 0) == 0


def test_should_read_nulls_from_the_bitmap_across_bytes() -> None:
    columns = [(5, f"C{i}") for i in range(10)]
    row = [None if i in (0, 7, 8) else i for i in range(10)]
    t = ResultTable.decode(table(columns, [row]))
    assert list(t.rows[0]) == row


def test_should_find_columns_by_name_exactly_then_ignoring_case() -> None:
    t = ResultTable.decode(table([(5, "total_votes"), (8, "NAME")], [[3, "x"]]))
    assert t.column_index("NAME") == 1 and t.column_index("name") == 1 and t.column_index("TOTAL_VOTES") == 0
    assert t.dicts() == [{"total_votes": 3, "NAME": "x"}]
    with pytest.raises(KeyError, match="no column 'nope'"):
        t.column_index("nope")


def test_should_refuse_a_table_truncated_at_any_byte() -> None:
    data = table(ALL_TYPES, [ROW, [None] * len(ALL_TYPES)])
    for cut in range(len(data)):
        with pytest.raises(ResultFormatError, match="malformed result table at byte"):
            ResultTable.decode(data[:cut])


def test_should_refuse_trailing_bytes_and_bad_sizes() -> None:
    data = table([(5, "N")], [[2]])
    with pytest.raises(ResultFormatError, match="table_size"):
        ResultTable.decode(data + b"\x00")
    bad_row = bytearray(data)
    struct.pack_into("<I", bad_row, len(data) - 13, 10)  # row_size one too large
    with pytest.raises(ResultFormatError, match="row 0"):
        ResultTable.decode(bytes(bad_row))


def test_should_refuse_an_unknown_type_naming_its_offset() -> None:
    data = bytearray(table([(5, "N")], []))
    data[6] = 42
    with pytest.raises(ResultFormatError, match="at byte 6: column 0 has unknown type 42"):
        ResultTable.decode(bytes(data))


def test_should_refuse_a_decimal_beyond_38_digits_and_bad_utf8() -> None:
    with pytest.raises(ResultFormatError, match="38 digits"):
        ResultTable.decode(table([(7, "D")], [[10**38]]))
    with pytest.raises(ResultFormatError, match="not UTF-8"):
        ResultTable.decode(table([(8, "V")], [[b"\xff\xfe"]]))
