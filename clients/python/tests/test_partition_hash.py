"""The partition hash against the shared vectors (tests/vectors/partition_hash.tsv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from partita import partition_hash

VECTORS = Path(__file__).resolve().parents[3] / "tests/vectors/partition_hash.tsv"
COUNTS = (2, 3, 4, 8, 12)


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _vectors() -> list[list[str]]:
    lines = [line for line in VECTORS.read_text(encoding="utf-8").split("\n") if line and not line.startswith("#")]
    return [line.split("\t") for line in lines]


def _hash(kind: str, text: str) -> int:
    if kind == "BIGINT":
        return partition_hash.hash_int(int(text))
    if kind == "VARCHAR":
        return partition_hash.hash_str(_unescape(text))
    if kind == "VARBINARY":
        return partition_hash.hash_bytes(bytes.fromhex(text))
    raise AssertionError(f"unknown type {kind} in {VECTORS}")


def test_should_read_many_vectors_of_each_type() -> None:
    kinds = [v[0] for v in _vectors()]
    assert len(kinds) >= 19
    assert {"BIGINT", "VARCHAR", "VARBINARY"} <= set(kinds)


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: f"{v[0]}:{v[1][:20]}")
def test_should_match_the_shared_vector(vector: list[str]) -> None:
    kind, text, hex_hash, bucket, *partitions = vector
    h = _hash(kind, text)
    assert f"{h:016x}" == hex_hash
    assert partition_hash.bucket_of(h) == int(bucket)
    for count, expected in zip(COUNTS, partitions):
        assert partition_hash.partition_of_bucket(partition_hash.bucket_of(h), count) == int(expected), count


def test_should_map_buckets_through_the_table_when_given() -> None:
    table = [7] * (1 << 14)
    assert partition_hash.partition_of_bucket(973, 8, table) == 7
    assert partition_hash.partition_of_bucket(973, 4) == 1
