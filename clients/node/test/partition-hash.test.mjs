// The partition hash against the shared vectors (tests/vectors/partition_hash.tsv).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bucketOfBytes, bucketOfInteger, hashHex } from '@partita/client';
import { partitionHashVectors } from './vectors.mjs';

function bytesOf(v) {
  return v.type === 'VARBINARY' ? Buffer.from(v.value, 'hex')
    : v.type === 'VARCHAR' ? Buffer.from(v.value, 'utf8')
      : (() => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v.value)); return b; })();
}

test('every shared vector hashes, buckets and partitions as specified', () => {
  const vectors = partitionHashVectors();
  assert.ok(vectors.length >= 19, `only ${vectors.length} vectors read`);
  for (const v of vectors) {
    const bytes = bytesOf(v);
    assert.equal(hashHex(bytes), v.hash, `hash of ${v.type} ${v.value}`);
    const bucket = v.type === 'BIGINT' ? bucketOfInteger(BigInt(v.value)) : bucketOfBytes(bytes);
    assert.equal(bucket, v.bucket, `bucket of ${v.type} ${v.value}`);
    for (const [n, p] of Object.entries(v.partitions)) assert.equal(bucket % Number(n), p, `${v.value} of ${n}`);
  }
});

test('a BIGINT hashes alike as a safe number and as a bigint', () => {
  for (const v of partitionHashVectors().filter((x) => x.type === 'BIGINT')) {
    const n = Number(v.value);
    if (Number.isSafeInteger(n)) assert.equal(bucketOfInteger(n), v.bucket, v.value);
  }
  for (const n of [-1, -(2 ** 32), -(2 ** 32) - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53) + 1, 123456789012]) {
    assert.equal(bucketOfInteger(n), bucketOfInteger(BigInt(n)), String(n));
  }
});
