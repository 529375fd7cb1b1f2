package org.partita.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/** Small helpers shared by the integration tests: connecting a client and reading answers. */
final class Clients {
  private Clients() {}

  /** A client named {@code name}, connected to {@code server}, with a 30 s call timeout. */
  static PartitaClient connect(ServerProcess server, String name) {
    return connect(server, ClientConfig.builder().clientName(name).callTimeout(Duration.ofSeconds(30)).build());
  }

  static PartitaClient connect(ServerProcess server, ClientConfig config) {
    final PartitaClient client = new PartitaClient(config);
    try {
      client.connect(server.address());
      return client;
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** The single BIGINT value an ad-hoc query answers (first row, first column). */
  static long queryLong(PartitaClient client, String sql, Object... parameters) {
    return client.call("@AdHoc", adHocParameters(sql, parameters)).firstLong();
  }

  /** The first table an ad-hoc statement answers. */
  static ResultTable query(PartitaClient client, String sql, Object... parameters) {
    return client.call("@AdHoc", adHocParameters(sql, parameters)).results().get(0);
  }

  /** Every row of {@code table} as a list of values ({@link ResultTable#getObject}). */
  static List<List<Object>> rows(ResultTable table) {
    final List<List<Object>> rows = new ArrayList<>();
    table.resetRowPosition();
    while (table.advanceRow()) {
      final List<Object> row = new ArrayList<>();
      for (int c = 0; c < table.columnCount(); c++) {
        row.add(table.getObject(c));
      }
      rows.add(row);
    }
    return rows;
  }

  /** The ad-hoc statement's answer, whatever its status (for failures a test expects). */
  static ClientResponse adHoc(PartitaClient client, String sql, Object... parameters) {
    return client.callAsync("@AdHoc", adHocParameters(sql, parameters)).join();
  }

  private static Object[] adHocParameters(String sql, Object... parameters) {
    final Object[] all = new Object[parameters.length + 1];
    all[0] = sql;
    System.arraycopy(parameters, 0, all, 1, parameters.length);
    return all;
  }

  /** Closes each non-null resource in order (clients before the servers they talk to). */
  static void closeAll(AutoCloseable... resources) throws Exception {
    for (AutoCloseable r : resources) {
      if (r != null) {
        r.close();
      }
    }
  }
}
