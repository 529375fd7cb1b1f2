package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.client.proto.ProcedureRouting;

class RoutesTest {
  @Test
  void shouldFindProceduresIgnoringCase() {
    final Routes routes = Routes.fromLogin(List.of(ProcedureRouting.newBuilder().setName("Vote")
        .setSinglePartition(true).setPartitionParameter(0).setPartitionType(5).build()), 3);
    assertEquals(new ProcedureRoute("Vote", true, 0, 5), routes.find("Vote"));
    assertEquals(new ProcedureRoute("Vote", true, 0, 5), routes.find("VOTE"));
    assertNull(routes.find("Results"));
    assertEquals(3, routes.catalogVersion());
  }

  @Test
  void shouldReadTheSystemCatalogProceduresTable() {
    final ResultTable table = new ResultTableBuilder().column("PROCEDURE_NAME", ValueType.VARCHAR)
        .column("SINGLE_PARTITION", ValueType.TINYINT).column("PARTITION_PARAMETER", ValueType.INTEGER)
        .column("PARTITION_TYPE", ValueType.INTEGER).row("Vote", 1, 0, 5).row("Initialize", 0, null, null).build();
    final Routes routes = Routes.fromTable(table, 9);
    assertEquals(new ProcedureRoute("Vote", true, 0, 5), routes.find("vote"));
    assertEquals(false, routes.find("Initialize").singlePartition());
    assertEquals(2, routes.size());
    assertEquals(9, routes.catalogVersion());
  }

  @Test
  void shouldRejectATableWithoutTheRoutingColumns() {
    final ResultTable table = new ResultTableBuilder().column("PROCEDURE_NAME", ValueType.VARCHAR).row("Vote").build();
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Routes.fromTable(table, 2));
    assertTrue(e.getMessage().contains("SINGLE_PARTITION"), e.getMessage());
  }
}
