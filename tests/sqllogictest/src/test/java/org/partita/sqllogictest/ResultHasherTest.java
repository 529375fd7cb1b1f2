package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultHasherTest {

  /**
   * The values of select1.test's first query (line 94), computed with SQLite, and the hash the
   * corpus gives for them.
   */
  private static final List<String> SELECT1_LINE_94 = List.of(
      "358", "364", "376", "382", "398", "402", "410", "426", "432", "440", "458", "468", "478",
      "486", "490", "1000", "1050", "1120", "1180", "1240", "1290", "1300", "1390", "1430", "1450",
      "1510", "1580", "1600", "1670", "1700");

  @Test
  void shouldMatchTheCorpusHashOfAKnownListing() {
    assertEquals("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54",
        ResultHasher.hashLine(SELECT1_LINE_94));
  }

  @Test
  void shouldHashEachValueFollowedByNewline() {
    // md5("1\n10\n2\n3\n4\n5\n6\n7\n8\n9\n")
    assertEquals("ff2650590d3f27ea6644b5573ccc37ba",
        ResultHasher.md5(List.of("1", "10", "2", "3", "4", "5", "6", "7", "8", "9")));
  }

  @Test
  void shouldHashNoValuesAsTheEmptyString() {
    assertEquals("0 values hashing to d41d8cd98f00b204e9800998ecf8427e",
        ResultHasher.hashLine(List.of()));
  }
}
