package org.partita.server.compiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.CatalogFile;
import org.partita.proto.Distribution;
import org.partita.proto.Procedure;
import org.partita.proto.ProcedureStatement;

class CatalogFileCodecTest {
  private static final String DDL = "CREATE TABLE votes (phone BIGINT NOT NULL, state VARCHAR(2), contestant INTEGER);\n"
      + "PARTITION TABLE votes ON COLUMN phone;\n"
      + "CREATE TABLE contestants (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(50));\n"
      + "CREATE VIEW by_contestant (contestant, n) AS SELECT contestant, COUNT(*) FROM votes GROUP BY contestant;\n"
      + "CREATE PROCEDURE AddVote PARTITION ON TABLE votes COLUMN phone PARAMETER 1\n"
      + "  AS INSERT INTO votes (contestant, phone, state) VALUES (?, ?, ?);\n"
      + "CREATE PROCEDURE Standings AS SELECT contestant, n FROM by_contestant ORDER BY contestant;\n";

  private static byte[] compiled() throws Exception {
    final CompiledCatalog catalog = new CatalogCompiler(CatalogFileCodecTest.class.getClassLoader())
        .compile(List.of(new SourceFile("voter.sql", DDL)));
    return CatalogFileCodec.encode(catalog);
  }

  @Test
  void shouldWriteTheHeaderTheEngineChecks() throws Exception {
    final byte[] file = compiled();
    assertArrayEquals("PARTITA CATALOG\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        Arrays.copyOf(file, 16));
    final ByteBuffer header = ByteBuffer.wrap(file, 16, 12).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(1, header.getInt());
    assertEquals(file.length - 28, header.getLong());
  }

  @Test
  void shouldCarryTablesViewsStatementsAndProcedures() throws Exception {
    final CatalogFile file = CatalogFileCodec.decode(compiled());
    assertEquals(3, file.getCatalog().getTablesCount());
    assertEquals(2, file.getProceduresCount());
    final Procedure add = file.getProcedures(0);
    assertEquals("ADDVOTE", add.getName());
    assertEquals("ADDVOTE.SQL", add.getStatements(0).getName());
    assertEquals(Distribution.DISTRIBUTION_SINGLE_PARTITION, add.getStatements(0).getDistribution());
    assertTrue(add.getSingleStatement());
    assertTrue(add.getSinglePartition());
    assertEquals(1, add.getPartitionParameter());
    assertEquals(org.partita.proto.ValueType.VALUE_TYPE_BIGINT, add.getPartitionType());
    final Procedure standings = file.getProcedures(1);
    assertFalse(standings.getSinglePartition());
    final ProcedureStatement merge = standings.getStatements(0);
    assertEquals(Distribution.DISTRIBUTION_EVERY_PARTITION, merge.getDistribution());
    assertEquals(1, merge.getFragmentsCount());
    final String fragment = merge.getFragments(0).getName();
    assertEquals(merge.getName() + "#" + merge.getFragments(0).getDependencyId(), fragment);
    assertTrue(file.getCatalog().getStatementsList().stream().anyMatch(s -> s.getName().equals(fragment)));
  }

  @Test
  void shouldRefuseAnotherFormatVersion() throws Exception {
    final byte[] file = compiled();
    ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 2);
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CatalogFileCodec.decode(file));
    assertTrue(e.getMessage().contains("format version 2 is not supported"), e.getMessage());
  }

  @Test
  void shouldRefuseATruncatedFileAndOneWithoutTheMagic() throws Exception {
    final byte[] file = compiled();
    final IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
        () -> CatalogFileCodec.decode(Arrays.copyOf(file, file.length - 1)));
    assertTrue(truncated.getMessage().contains("payload bytes"), truncated.getMessage());
    final byte[] raw = Arrays.copyOfRange(file, 28, file.length);
    final IllegalArgumentException notCatalog = assertThrows(IllegalArgumentException.class,
        () -> CatalogFileCodec.decode(raw));
    assertTrue(notCatalog.getMessage().contains("not a Partita catalog file"), notCatalog.getMessage());
  }
}
