package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The result-table golden vectors (tests/vectors/README.md): binary result
 * sets written by the engine's ResultWriter and their expected contents in
 * result_tables.tsv. Every decoder of every client reads the same files.
 */
class ResultTableVectorsTest {
  private static final Path VECTORS = Path.of("../../tests/vectors");

  /** One file of result_tables.tsv: its tables' columns and rows, or "error". */
  private record Expected(String file, boolean error, int tableCount, List<ExpectedTable> tables) {}

  private record ExpectedTable(int columns, int rows, List<String[]> columnDefs, List<String[]> values) {}

  private static String unescape(String s) {
    final StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        out.append(c);
        continue;
      }
      final char e = s.charAt(++i);
      out.append(switch (e) {
        case 't' -> '\t';
        case 'n' -> '\n';
        case 'r' -> '\r';
        default -> e;
      });
    }
    return out.toString();
  }

  private static List<Expected> expected() throws Exception {
    final List<Expected> files = new ArrayList<>();
    ExpectedTable table = null;
    for (String line : Files.readAllLines(VECTORS.resolve("result_tables.tsv"), StandardCharsets.UTF_8)) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      final String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "file" -> files.add(new Expected(f[1], f[2].equals("error"),
            f[2].equals("error") ? -1 : Integer.parseInt(f[2]), new ArrayList<>()));
        case "table" -> {
          table = new ExpectedTable(Integer.parseInt(f[1]), Integer.parseInt(f[2]), new ArrayList<>(), new ArrayList<>());
          files.get(files.size() - 1).tables().add(table);
        }
        case "column" -> table.columnDefs().add(new String[] {f[1], unescape(f[2])});
        case "row" -> {
          final String[] values = new String[f.length - 1];
          System.arraycopy(f, 1, values, 0, values.length);
          table.values().add(values);
        }
        default -> throw new IllegalStateException("unknown record " + f[0]);
      }
    }
    return files;
  }

  @Test
  void shouldDecodeEveryGoodVectorAsExpected() throws Exception {
    int checkedValues = 0;
    int goodFiles = 0;
    for (Expected e : expected()) {
      if (e.error()) {
        continue;
      }
      goodFiles++;
      final ResultTable[] tables = ResultTables.parse(ByteBuffer.wrap(Files.readAllBytes(VECTORS.resolve("result_tables/" + e.file()))));
      assertEquals(e.tableCount(), tables.length, e.file());
      for (int t = 0; t < tables.length; t++) {
        checkedValues += check(e.file() + " table " + t, e.tables().get(t), tables[t]);
      }
    }
    assertTrue(goodFiles >= 9, "good vectors read: " + goodFiles);
    assertTrue(checkedValues > 100, "values checked: " + checkedValues);
  }

  @Test
  void shouldRefuseEveryMalformedVector() throws Exception {
    int bad = 0;
    for (Expected e : expected()) {
      if (!e.error()) {
        continue;
      }
      bad++;
      final byte[] bytes = Files.readAllBytes(VECTORS.resolve("result_tables/" + e.file()));
      assertThrows(ResultFormatException.class, () -> ResultTables.parse(ByteBuffer.wrap(bytes)), e.file());
    }
    assertTrue(bad >= 4, "malformed vectors read: " + bad);
  }

  private static int check(String where, ExpectedTable expected, ResultTable actual) {
    assertEquals(expected.columns(), actual.columnCount(), where);
    assertEquals(expected.rows(), actual.rowCount(), where);
    for (int c = 0; c < expected.columns(); c++) {
      assertEquals(expected.columnDefs().get(c)[0], actual.columnType(c).name(), where + " column " + c);
      assertEquals(expected.columnDefs().get(c)[1], actual.columnName(c), where + " column " + c);
    }
    int checked = 0;
    for (int r = 0; r < expected.rows(); r++) {
      assertTrue(actual.advanceRow());
      final String[] row = expected.values().get(r);
      for (int c = 0; c < row.length; c++) {
        checkValue(where + " row " + r + " column " + c, expected.columnDefs().get(c)[0], row[c], actual, c);
        checked++;
      }
    }
    return checked;
  }

  private static void checkValue(String where, String type, String text, ResultTable t, int c) {
    if (text.equals("\\N")) {
      t.getObject(c);
      assertTrue(t.wasNull(), where + " should be NULL");
      return;
    }
    switch (type) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT" -> assertEquals(Long.parseLong(text), t.getLong(c), where);
      case "BOOLEAN" -> assertEquals(text.equals("true") ? 1L : 0L, t.getLong(c), where);
      case "FLOAT" -> assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)),
          Double.doubleToRawLongBits(t.getDouble(c)), where);
      case "DECIMAL" -> assertEquals(0, new BigDecimal(text).compareTo(t.getDecimal(c)), where + ": " + t.getDecimal(c));
      case "VARCHAR" -> assertEquals(unescape(text), t.getString(c), where);
      case "VARBINARY" -> assertArrayEquals(HexFormat.of().parseHex(text), t.getBytes(c), where);
      case "TIMESTAMP" -> assertEquals(Long.parseLong(text), t.getTimestampMicros(c), where);
      default -> throw new AssertionError(where + ": unknown type " + type);
    }
    assertTrue(!t.wasNull(), where + " should not be NULL");
  }
}
