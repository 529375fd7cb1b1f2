"""The shared result-table golden vectors (tests/vectors/result_tables.tsv
and tests/vectors/result_tables/*.bin, written by the engine's ResultWriter;
tests/vectors/README.md): every decoder reads them alike. Skips, saying so,
when this tree does not have them yet."""

from __future__ import annotations

import datetime as dt
import struct
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from partita import ResultFormatError, ValueType
from partita.result_table import decode_result_set
from partita.values import EPOCH

VECTORS = Path(__file__).resolve().parents[3] / "tests/vectors"
EXPECTED = VECTORS / "result_tables.tsv"

pytestmark = pytest.mark.skipif(
    not EXPECTED.is_file(),
    reason=f"no result-table vectors in this tree ({EXPECTED.relative_to(VECTORS.parents[1])} is absent)")


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _records() -> list[dict[str, Any]]:
    """One dict per file: name, error flag, tables [(columns [(type, name)], rows [[text...]])]."""
    files: list[dict[str, Any]] = []
    for line in EXPECTED.read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        kind, *fields = line.split("\t")
        if kind == "file":
            files.append({"name": fields[0], "error": fields[1] == "error",
                          "count": None if fields[1] == "error" else int(fields[1]), "tables": []})
        elif kind == "table":
            files[-1]["tables"].append(([], [], int(fields[0]), int(fields[1])))
        elif kind == "column":
            files[-1]["tables"][-1][0].append((ValueType[fields[0]], fields[1]))
        elif kind == "row":
            files[-1]["tables"][-1][1].append(fields)
        else:
            raise AssertionError(f"{EXPECTED}: unknown record {kind!r}")
    return files


def _check(vtype: ValueType, text: str, value: Any, where: str) -> None:
    if text == "\\N":
        assert value is None, where
        return
    if vtype in (ValueType.TINYINT, ValueType.SMALLINT, ValueType.INTEGER, ValueType.BIGINT):
        assert type(value) is int and value == int(text), where
    elif vtype == ValueType.BOOLEAN:
        assert value is (text == "true"), where
    elif vtype == ValueType.FLOAT:
        assert struct.pack("<d", value) == struct.pack("<d", float(text)), where
    elif vtype == ValueType.DECIMAL:
        assert isinstance(value, Decimal) and value == Decimal(text) and format(value, "f") == text, where
    elif vtype == ValueType.VARCHAR:
        assert value == _unescape(text), where
    elif vtype == ValueType.VARBINARY:
        assert value == bytes.fromhex(text), where
    elif vtype == ValueType.TIMESTAMP:
        assert isinstance(value, dt.datetime) and value.tzinfo is not None, where
        assert (value - EPOCH) // dt.timedelta(microseconds=1) == int(text), where
    else:
        raise AssertionError(f"{where}: unexpected type {vtype}")


FILES = _records() if EXPECTED.is_file() else []


def test_should_cover_every_type_and_the_malformed_sets() -> None:
    types = {t for f in FILES for table in f["tables"] for t, _ in table[0]}
    assert types == set(ValueType) - {ValueType.NULL}
    assert sum(1 for f in FILES if f["error"]) >= 4


@pytest.mark.parametrize("record", FILES, ids=lambda f: f["name"])
def test_should_decode_the_vector_as_written(record: dict[str, Any]) -> None:
    data = (VECTORS / "result_tables" / record["name"]).read_bytes()
    if record["error"]:
        with pytest.raises(ResultFormatError, match="malformed result"):
            decode_result_set(data)
        return
    tables = decode_result_set(data)
    assert len(tables) == record["count"]
    for t, (table, (columns, rows, column_count, row_count)) in enumerate(zip(tables, record["tables"])):
        assert [(c.type, c.name) for c in table.columns] == columns
        assert len(columns) == column_count and len(table.rows) == row_count == len(rows)
        for r, (row, expected) in enumerate(zip(table.rows, rows)):
            for c, ((vtype, name), text, value) in enumerate(zip(columns, expected, row)):
                _check(vtype, text, value, f"{record['name']} table {t} row {r} column {name}")
