"""The partition hash shared by the server and every client
(docs/partition-hash.md): FNV-1a-64 over a value's canonical bytes, then
MurmurHash3's fmix64 finalizer; the top ``bucket_bits`` bits pick a bucket.
Stateless; pure functions.
"""

from __future__ import annotations

_MASK = 0xFFFFFFFFFFFFFFFF
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3

#: The only algorithm this module implements (HashSpecification.algorithm).
ALGORITHM = "fnv1a64-fmix64"
#: log2 of the number of buckets in protocol version 1.
DEFAULT_BUCKET_BITS = 14


def hash_bytes(data: bytes) -> int:
    """The 64-bit hash (unsigned) of ``data``."""
    h = _FNV_OFFSET
    for b in data:
        h = ((h ^ b) * _FNV_PRIME) & _MASK
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & _MASK
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & _MASK
    h ^= h >> 33
    return h


def hash_int(value: int) -> int:
    """The hash of an integer or TIMESTAMP partitioning value (8 bytes LE).

    Raises ValueError outside -2**63 <= value < 2**63.
    """
    if not -(1 << 63) <= value < (1 << 63):
        raise ValueError(f"{value} is outside the 64-bit range of a partitioning integer")
    u = value & _MASK
    h = _FNV_OFFSET
    for shift in (0, 8, 16, 24, 32, 40, 48, 56):
        h = ((h ^ ((u >> shift) & 0xFF)) * _FNV_PRIME) & _MASK
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & _MASK
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & _MASK
    return h ^ (h >> 33)


def hash_str(value: str) -> int:
    """The hash of a VARCHAR partitioning value (its UTF-8 bytes)."""
    return hash_bytes(value.encode("utf-8"))


def bucket_of(h: int, bucket_bits: int = DEFAULT_BUCKET_BITS) -> int:
    """The bucket of hash ``h``: its top ``bucket_bits`` bits."""
    return h >> (64 - bucket_bits)


def partition_of_bucket(bucket: int, partition_count: int, bucket_partitions: list[int] | None = None) -> int:
    """The partition of ``bucket``: ``bucket_partitions[bucket]`` when that
    table is given and non-empty, else ``bucket mod partition_count``."""
    if bucket_partitions:
        return bucket_partitions[bucket]
    return bucket % partition_count
