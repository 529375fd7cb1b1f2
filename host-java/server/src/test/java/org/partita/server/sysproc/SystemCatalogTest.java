package org.partita.server.sysproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.server.sysproc.SysprocFixture.columns;
import static org.partita.server.sysproc.SysprocFixture.rows;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

@Timeout(60)
class SystemCatalogTest {
  private SysprocFixture f;

  @AfterEach
  void close() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void shouldListThePartitionMapWithLeadersReplicasEpochsAndBuckets() throws Exception {
    f = new SysprocFixture(3);
    final ResultTable t = f.table("@SystemCatalog", "PARTITIONS");
    assertEquals(List.of("PARTITION_ID", "LEADER_HOST_ID", "LEADER_ADDRESS", "REPLICA_HOST_IDS", "EPOCH", "BUCKETS",
        "TOPOLOGY_VERSION"), columns(t));
    // The fixture's identity is host 3, not the map's leader (host 0): no address is known for it.
    assertEquals(List.of("0|0|NULL|0|1|5462|1", "1|0|NULL|0|1|5461|1", "2|0|NULL|0|1|5461|1"), rows(t));
  }

  @Test
  void shouldGiveTheLeadersClientAddressWhenTheLeaderIsThisHost() {
    final ServerIdentity self = new ServerIdentity(0, "127.0.0.7", 21299, 0, 0L, "Partita test");
    final ResultTable t = TopologyTable.build(org.partita.server.topology.PartitionMap.singleHost(2, 0), self);
    assertEquals(List.of("0|0|127.0.0.7:21299|0|1|8192|1", "1|0|127.0.0.7:21299|0|1|8192|1"), rows(t));
    final ServerIdentity notListening = new ServerIdentity(0, "127.0.0.7", 0, 0, 0L, "Partita test");
    assertEquals(List.of("0|0|NULL|0|1|8192|1", "1|0|NULL|0|1|8192|1"),
        rows(TopologyTable.build(org.partita.server.topology.PartitionMap.singleHost(2, 0), notListening)));
  }

  @Test
  void shouldListTablesAndViewsWithTheirPartitioning() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable t = f.table("@SystemCatalog", "TABLES");
    assertEquals(List.of("TABLE_NAME", "TABLE_TYPE", "PARTITION_COLUMN", "COLUMN_COUNT", "REPLICATED", "SOURCE_TABLE",
        "DEFINITION"), columns(t));
    final List<String> rows = rows(t).stream().map(r -> r.substring(0, r.lastIndexOf('|'))).toList();
    assertEquals(List.of(
        "CHEAP_ITEMS|VIEW|NULL|2|NULL|NULL",
        "GROUPS|TABLE|NULL|2|1|NULL",
        "ITEMS|TABLE|ID|4|0|NULL",
        "ITEMS_PER_GROUP|MATERIALIZED VIEW|NULL|2|0|ITEMS",
        "ITEMS_PER_ID|MATERIALIZED VIEW|ID|2|0|ITEMS"), rows);
    t.advanceToRow(3);
    assertTrue(t.getString("DEFINITION").contains("GROUP BY grp"), t.getString("DEFINITION"));
  }

  @Test
  void shouldListColumnsWithTypesNullabilityAndDefaults() throws Exception {
    f = new SysprocFixture(1);
    final ResultTable t = f.table("@SystemCatalog", "COLUMNS");
    assertEquals(List.of("TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION", "TYPE_NAME", "VALUE_TYPE", "MAX_LENGTH",
        "NULLABLE", "DEFAULT_VALUE"), columns(t));
    final List<String> rows = rows(t);
    assertTrue(rows.containsAll(List.of(
        "ITEMS|ID|1|BIGINT|5|NULL|0|NULL",
        "ITEMS|GRP|2|INTEGER|4|NULL|1|7",
        "ITEMS|NAME|3|VARCHAR|8|20|1|NULL",
        "ITEMS|PRICE|4|DECIMAL|7|NULL|1|NULL",
        "GROUPS|LABEL|2|VARCHAR|8|10|0|NULL",
        "CHEAP_ITEMS|ID|1|BIGINT|5|NULL|NULL|NULL",
        "CHEAP_ITEMS|NAME|2|VARCHAR|8|NULL|NULL|NULL")), rows::toString);
    assertEquals(2 + 2 + 4 + 2 + 2, rows.size());
    assertTrue(rows.get(0).startsWith("CHEAP_ITEMS|ID|1"), "sorted by table, then position: " + rows.get(0));
  }

  @Test
  void shouldListIndexesWithKindUniquenessAndKeyColumns() throws Exception {
    f = new SysprocFixture(1);
    final ResultTable t = f.table("@SystemCatalog", "INDEXES");
    assertEquals(List.of("TABLE_NAME", "INDEX_NAME", "IS_UNIQUE", "INDEX_KIND", "COLUMN_NAMES", "IS_PRIMARY_KEY",
        "CONSTRAINT_NAME"), columns(t));
    final List<String> rows = rows(t);
    assertTrue(rows.contains("ITEMS|ITEMS_BY_GRP|0|TREE|GRP|0|NULL"), rows::toString);
    assertTrue(rows.stream().anyMatch(r -> r.matches("ITEMS\\|[^|]+\\|1\\|HASH\\|ID\\|1\\|.*")), rows::toString);
    assertTrue(rows.stream().anyMatch(r -> r.startsWith("ITEMS_PER_GROUP|") && r.contains("|1|HASH|GRP|")),
        rows::toString);
  }

  @Test
  void shouldListProceduresWithTheRoutingColumnsClientsRelyOn() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable t = f.table("@SystemCatalog", "PROCEDURES");
    assertEquals(List.of("PROCEDURE_NAME", "SINGLE_PARTITION", "PARTITION_PARAMETER", "PARTITION_TYPE"),
        columns(t).subList(0, 4));
    assertEquals(List.of(ValueType.VARCHAR, ValueType.TINYINT, ValueType.INTEGER, ValueType.INTEGER),
        List.of(t.columnType(0), t.columnType(1), t.columnType(2), t.columnType(3)));
    assertEquals(List.of("PARAMETER_COUNT", "LANGUAGE", "PARTITION_TABLE", "PARTITION_COLUMN", "CLASS_NAME",
        "STATEMENT_COUNT"), columns(t).subList(4, 10));
    assertEquals(List.of(
        "Hold|0|-1|0|0|JAVA|NULL|NULL|org.partita.server.sysproc.Hold|0",
        "ITEMNAME|1|0|5|1|SQL|ITEMS|ID|NULL|1",
        "RenameItem|1|1|5|2|JAVA|ITEMS|ID|org.partita.server.sysproc.RenameItem|1"), rows(t));
  }

  @Test
  void shouldListAProcedureCreatedByAdHocDdl() throws Exception {
    f = new SysprocFixture(1);
    assertTrue(f.call("@AdHoc", "CREATE PROCEDURE CountGroups AS SELECT COUNT(*) FROM groups").ok());
    assertTrue(rows(f.table("@SystemCatalog", "PROCEDURES")).contains("COUNTGROUPS|0|-1|0|0|SQL|NULL|NULL|NULL|1"));
  }

  @Test
  void shouldDescribeTheHost() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable t = f.table("@SystemCatalog", "hosts");
    assertEquals(List.of("HOST_ID", "ADDRESS", "CLIENT_PORT", "HTTP_PORT", "PARTITION_COUNT", "STARTED_AT",
        "SERVER_VERSION"), columns(t));
    t.advanceRow();
    assertEquals(List.of(3L, "127.0.0.1", 21212L, 8080L, 2L, 1_700_000_000_000_000L, "Partita test"),
        List.of(t.getLong(0), t.getString(1), t.getLong(2), t.getLong(3), t.getLong(4), t.getTimestampMicros(5),
            t.getString(6)));
  }

  @Test
  void shouldRejectAnUnknownSelectorListingTheValidOnes() throws Exception {
    f = new SysprocFixture(1);
    final ClientResponse r = f.call("@SystemCatalog", "VIEWS");
    assertEquals(Status.REJECTED, r.status());
    assertEquals("BAD_PARAMETER", r.errorName());
    assertEquals("@SystemCatalog: unknown selector VIEWS; selectors: TABLES, COLUMNS, INDEXES, PROCEDURES, HOSTS,"
        + " PARTITIONS",
        r.message());
    assertEquals("@SystemCatalog takes 1 parameter(s) (selector), got 2", f.call("@SystemCatalog", "TABLES",
        "COLUMNS").message());
  }
}
