"""Routing through a bucket table that is not ``bucket mod count``: the
shared vectors tests/vectors/partition_map.tsv (docs/partition-hash.md,
"Bucket table") through the Router, as a login answer would install them."""

from __future__ import annotations

from pathlib import Path

import pytest

from fake_server import login_answer
from partita.routing import Router

VECTORS = Path(__file__).resolve().parents[3] / "tests/vectors/partition_map.tsv"
pytestmark = pytest.mark.skipif(not VECTORS.is_file(), reason=f"no {VECTORS.name} in this tree")
TYPE_CODES = {"BIGINT": 5, "VARCHAR": 8, "VARBINARY": 9}


def _unescape(text: str) -> str:
    return text.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\")


def _read() -> tuple[int, list[int], list[tuple[str, str, int]]]:
    partitions, buckets, values = 0, [0] * (1 << 14), []
    for line in VECTORS.read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        kind, *fields = line.split("\t")
        if kind == "partitions":
            partitions = int(fields[0])
        elif kind == "buckets":
            for b in range(int(fields[0]), int(fields[1]) + 1):
                buckets[b] = int(fields[2])
        elif kind == "value":
            values.append((fields[0], fields[1], int(fields[2])))
        else:
            raise AssertionError(f"{VECTORS}: unknown record {kind!r}")
    return partitions, buckets, values


def test_should_route_every_vector_through_the_bucket_table() -> None:
    partitions, buckets, values = _read()
    assert partitions > 0 and len(values) >= 19
    answer = login_answer(0, partitions, [0] * partitions, buckets)
    for name, code in TYPE_CODES.items():
        answer.procedures.add(name=f"By{name}", single_partition=True, partition_parameter=0, partition_type=code)
    router = Router()
    router.install_login(answer)
    for kind, text, expected in values:
        value: object = int(text) if kind == "BIGINT" else _unescape(text) if kind == "VARCHAR" else bytes.fromhex(text)
        assert router.partition(f"By{kind}", [value]) == expected, (kind, text)
    assert router.partition("ByBIGINT", [None]) == 0
