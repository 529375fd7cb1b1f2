package org.partita.client;

import java.nio.charset.StandardCharsets;

/**
 * The partition of a value: the specification every client and the server
 * share (docs/partition-hash.md, vectors in tests/vectors/partition_hash.tsv).
 *
 * <ol>
 *   <li>Canonical bytes: an integer of any width, or a TIMESTAMP, is its
 *       value as 8 bytes little-endian two's complement; VARCHAR is its UTF-8
 *       bytes; VARBINARY is itself.</li>
 *   <li>hash = fmix64(FNV-1a-64(bytes)), with FNV offset basis
 *       0xcbf29ce484222325, prime 0x100000001b3, and MurmurHash3's 64-bit
 *       finalizer.</li>
 *   <li>bucket = hash &gt;&gt;&gt; 50 (16,384 buckets); partition =
 *       bucket mod partitionCount. A NULL goes to partition 0.</li>
 * </ol>
 *
 * <p>Thread-safe (stateless).
 */
public final class PartitionHash {
  public static final int BUCKET_BITS = 14;
  public static final int BUCKETS = 1 << BUCKET_BITS;

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private PartitionHash() {}

  public static long fnv1a64(byte[] bytes) {
    long h = FNV_OFFSET;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= FNV_PRIME;
    }
    return h;
  }

  static long fnv1a64(long value) {
    long h = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
      h ^= (value >>> (8 * i)) & 0xff;
      h *= FNV_PRIME;
    }
    return h;
  }

  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  /** Hash of an integer or TIMESTAMP value (any width). */
  public static long hashLong(long value) {
    return fmix64(fnv1a64(value));
  }

  public static long hashString(String value) {
    return fmix64(fnv1a64(value.getBytes(StandardCharsets.UTF_8)));
  }

  public static long hashBytes(byte[] value) {
    return fmix64(fnv1a64(value));
  }

  public static int bucket(long hash) {
    return (int) (hash >>> (64 - BUCKET_BITS));
  }

  public static int partitionOfHash(long hash, int partitionCount) {
    return bucket(hash) % partitionCount;
  }

  /**
   * The partition of {@code value} (Long/Integer/Short/Byte, String, byte[],
   * or null) among {@code partitionCount} partitions with the default bucket
   * table (bucket mod partitionCount).
   */
  public static int partition(Object value, int partitionCount) {
    final int bucket = bucketOf(value);
    return bucket < 0 ? 0 : bucket % partitionCount;
  }

  /**
   * The bucket of {@code value} (Long/Integer/Short/Byte, String, byte[]), or
   * -1 for null: a NULL partitioning value always goes to partition 0,
   * whatever the bucket table says.
   */
  public static int bucketOf(Object value) {
    if (value == null) {
      return -1;
    }
    final long hash;
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      hash = hashLong(((Number) value).longValue());
    } else if (value instanceof String s) {
      hash = hashString(s);
    } else if (value instanceof byte[] b) {
      hash = hashBytes(b);
    } else {
      throw new IllegalArgumentException("cannot partition on a " + value.getClass().getSimpleName()
          + "; partitioning values are integers, strings, byte arrays or TIMESTAMP microseconds");
    }
    return bucket(hash);
  }
}
