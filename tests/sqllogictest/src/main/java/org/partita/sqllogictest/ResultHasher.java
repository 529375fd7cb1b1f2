package org.partita.sqllogictest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The result hash of the sqllogictest format: the MD5 of the formatted values in result order (after
 * sorting), each followed by a newline, in lower-case hex. Stateless and thread-safe.
 */
public final class ResultHasher {

  private ResultHasher() {}

  /** Returns the lower-case hex MD5 of {@code values}, each followed by {@code \n}. */
  public static String md5(List<String> values) {
    final MessageDigest digest = newMd5();
    for (final String value : values) {
      digest.update(value.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '\n');
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Returns {@code <count> values hashing to <md5>}, the line a script writes for {@code values}. */
  public static String hashLine(List<String> values) {
    return new ExpectedResult.Hash(values.size(), md5(values)).line();
  }

  private static MessageDigest newMd5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides MD5", e);
    }
  }
}
