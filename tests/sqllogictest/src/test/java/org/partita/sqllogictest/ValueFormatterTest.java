package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ValueFormatterTest {

  @Test
  void shouldPrintNullAsNullInEveryColumnType() {
    assertEquals("NULL", ValueFormatter.format(null, 'I'));
    assertEquals("NULL", ValueFormatter.format(null, 'R'));
    assertEquals("NULL", ValueFormatter.format(null, 'T'));
  }

  @Test
  void shouldPrintIntegersInIntegerColumns() {
    assertEquals("-42", ValueFormatter.format(-42L, 'I'));
    assertEquals("7", ValueFormatter.format(7, 'I'));
    assertEquals("1", ValueFormatter.format(true, 'I'));
  }

  @Test
  void shouldTruncateNonIntegersTowardZeroInIntegerColumns() {
    assertEquals("2", ValueFormatter.format(2.9, 'I'));
    assertEquals("-2", ValueFormatter.format(-2.9, 'I'));
    assertEquals("-12", ValueFormatter.format(new BigDecimal("-12.999999999999"), 'I'));
  }

  @Test
  void shouldKeepTheLow32BitsInIntegerColumnsLikeSqlite3ColumnInt() {
    assertEquals("1", ValueFormatter.format(4294967297L, 'I'));
    assertEquals("-2147483648", ValueFormatter.format(2147483648L, 'I'));
  }

  @Test
  void shouldReadTheLeadingDigitsOfTextInIntegerColumns() {
    assertEquals("12", ValueFormatter.format("12abc", 'I'));
    assertEquals("-3", ValueFormatter.format(" -3.7", 'I'));
    assertEquals("0", ValueFormatter.format("abc", 'I'));
  }

  @Test
  void shouldPrintRealsWithThreeDecimals() {
    assertEquals("1.500", ValueFormatter.format(1.5, 'R'));
    assertEquals("3.000", ValueFormatter.format(3L, 'R'));
    assertEquals("0.063", ValueFormatter.format(0.0625, 'R'));
    assertEquals("-1234567.125", ValueFormatter.format(-1234567.125, 'R'));
    assertEquals("2.500", ValueFormatter.format(new BigDecimal("2.5"), 'R'));
    assertEquals("4.250", ValueFormatter.format("4.25xyz", 'R'));
  }

  @Test
  void shouldNotPrintNegativeZeroInRealColumns() {
    assertEquals("0.000", ValueFormatter.format(-0.0, 'R'));
    assertEquals("-0.000", ValueFormatter.format(-0.0001, 'R'));
  }

  @Test
  void shouldPrintEmptyTextAsEmptyMarker() {
    assertEquals("(empty)", ValueFormatter.format("", 'T'));
    assertEquals("(empty)", ValueFormatter.format(new byte[0], 'T'));
  }

  @Test
  void shouldReplaceEachNonPrintableByteOfTextWithAt() {
    assertEquals("a@b@c@", ValueFormatter.format("a\tb\nc\u007f", 'T'));
    assertEquals("caf@@", ValueFormatter.format("café", 'T'));
    assertEquals("x@y", ValueFormatter.format("x\u0080y".getBytes(StandardCharsets.ISO_8859_1), 'T'));
    assertEquals("hello world ~", ValueFormatter.format("hello world ~", 'T'));
  }

  @Test
  void shouldPrintNumbersInTextColumnsAsSqliteDoes() {
    assertEquals("42", ValueFormatter.format(42L, 'T'));
    assertEquals("1.5", ValueFormatter.format(1.5, 'T'));
    assertEquals("2.0", ValueFormatter.format(2.0, 'T'));
    assertEquals("0.1", ValueFormatter.format(0.1, 'T'));
    assertEquals("1.0e+20", ValueFormatter.format(1e20, 'T'));
    assertEquals("1.23456789012346e+17", ValueFormatter.format(123456789012345678.0, 'T'));
    assertEquals("1.0e-05", ValueFormatter.format(0.00001, 'T'));
    assertEquals("0.0001", ValueFormatter.format(0.0001, 'T'));
  }

  @Test
  void shouldPrintDecimalsInTextColumnsWithNumericAffinity() {
    assertEquals("2", ValueFormatter.format(new BigDecimal("2.000000000000"), 'T'));
    assertEquals("2.5", ValueFormatter.format(new BigDecimal("2.500000000000"), 'T'));
  }
}
