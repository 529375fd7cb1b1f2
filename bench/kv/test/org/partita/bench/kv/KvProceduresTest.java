package org.partita.bench.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;

/** Get and Put of bench/kv/ddl.sql on an in-process database. */
@Timeout(60)
class KvProceduresTest {
  private Database db;

  private Database open(int partitions) throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("ddl.sql", Files.readString(Path.of("ddl.sql"))))), partitions);
    return db;
  }

  @AfterEach
  void close() throws InterruptedException {
    if (db != null) {
      db.close();
    }
  }

  private static ResultTable get(Database db, String key) {
    final ClientResponse r = db.callSync("Get", key);
    assertTrue(r.ok(), r::toString);
    return r.results().get(0);
  }

  private static void put(Database db, String key, byte[] value) {
    final ClientResponse r = db.callSync("Put", key, value);
    assertTrue(r.ok(), r::toString);
    assertEquals(1L, r.firstLong(), "one row modified");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldReturnNoRowForAKeyNeverWritten(int partitions) throws Exception {
    final Database db = open(partitions);
    assertEquals(0, get(db, "k0001").rowCount());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldReplaceTheValueOnASecondPut(int partitions) throws Exception {
    final Database db = open(partitions);
    put(db, "k0001", new byte[] {1, 2, 3});
    put(db, "k0001", new byte[] {9, 8});
    final ResultTable t = get(db, "k0001");
    assertEquals(1, t.rowCount());
    assertTrue(t.advanceRow());
    assertArrayEquals(new byte[] {9, 8}, t.getBytes(0));
    final ClientResponse count = db.adHocSync("SELECT COUNT(*) FROM store");
    assertEquals(1L, count.firstLong(), "an upsert, not a second row");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldKeepEveryKeyApartAcrossPartitions(int partitions) throws Exception {
    final Database db = open(partitions);
    final KeySpace keys = new KeySpace(200, 32);
    final ValueFactory values = new ValueFactory(64, 1);
    for (int i = 0; i < keys.count(); i++) {
      put(db, keys.key(i), values.value(i));
    }
    for (int i = 0; i < keys.count(); i++) {
      final ResultTable t = get(db, keys.key(i));
      assertTrue(t.advanceRow(), keys.key(i));
      assertTrue(values.isValueOf(t.getBytes(0), i), keys.key(i));
      assertFalse(t.advanceRow());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldStoreAValueOfExactlyOneMebibyte(int partitions) throws Exception {
    final Database db = open(partitions);
    final byte[] value = new byte[1 << 20];
    value[value.length - 1] = 7;
    put(db, "big", value);
    final ResultTable t = get(db, "big");
    assertTrue(t.advanceRow());
    assertArrayEquals(value, t.getBytes(0));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRefuseAValueOverOneMebibyteWithValueTooLong(int partitions) throws Exception {
    final Database db = open(partitions);
    final ClientResponse r = db.callSync("Put", "big", new byte[(1 << 20) + 1]);
    assertFalse(r.ok());
    assertEquals("VALUE_TOO_LONG", r.errorName(), r::toString);
    assertEquals(0, get(db, "big").rowCount(), "nothing written");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRefuseAKeyOverThirtyTwoCharacters(int partitions) throws Exception {
    final Database db = open(partitions);
    final ClientResponse r = db.callSync("Put", "k".repeat(33), new byte[] {1});
    assertFalse(r.ok());
    assertEquals("VALUE_TOO_LONG", r.errorName(), r::toString);
  }
}
