package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ResultTable;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.PlanNode;
import org.partita.proto.Statement;
import org.partita.proto.ValuesNode;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.topology.PartitionMap;

/**
 * An INSERT ... VALUES whose rows belong to several partitions (ROUTED_INSERT):
 * each row goes to the partition of its partitioning value, each partition
 * inserts its rows with one engine call, and the answer is the total count.
 * Runs inside a multi-partition transaction, so all rows commit or none.
 */
final class RoutedInsert {
  private RoutedInsert() {}

  static ResultTable run(List<Participant> participants, PartitionMap map, ExecutableStatement s, Object[] parameters,
      long timestamp, int timeLimitMillis) {
    final PlannedStatement planned = s.planned();
    final PlanNode plan = planned.plan();
    final ValuesNode values = plan.getChildren(0).getValues();
    final Map<Integer, List<ValuesNode.Row>> rowsByPartition = new TreeMap<>();
    for (ValuesNode.Row row : values.getRowsList()) {
      final int partition = partitionOf(row.getColumns(planned.partitionParameter()), planned, parameters, map,
          s.name());
      rowsByPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(row);
    }
    final List<CompletableFuture<ByteBuffer>> counts = new ArrayList<>();
    for (Map.Entry<Integer, List<ValuesNode.Row>> part : rowsByPartition.entrySet()) {
      final ExecutableStatement rows = new ExecutableStatement(s.name(), planned, -1,
          statementWithRows(planned, plan, part.getValue()), List.of(), List.of());
      counts.add(participants.get(part.getKey()).execute(FragmentRequest.plan(timestamp, timeLimitMillis, rows, parameters)));
    }
    long total = 0;
    for (ByteBuffer count : MultiPartitionContext.joinAll(counts)) {
      final ResultTable t = ResultSets.tables(count)[0];
      t.advanceRow();
      total += t.getLong(0);
    }
    return ResultSets.longTable(plan.getOutputSchema(0).getName(), total);
  }

  private static int partitionOf(Expression key, PlannedStatement planned, Object[] parameters, PartitionMap map,
      String name) {
    final boolean parameter = key.getKind() == ExpressionKind.EXPRESSION_KIND_PARAMETER;
    return map.partitionOf(StatementPartitions.key(parameter ? key.getParameterIndex() : -1,
        parameter ? null : key.getConstant(), planned.parameterTypes(), parameters, name));
  }

  private static byte[] statementWithRows(PlannedStatement planned, PlanNode plan, List<ValuesNode.Row> rows) {
    final PlanNode.Builder insert = plan.toBuilder();
    insert.getChildrenBuilder(0).getValuesBuilder().clearRows().addAllRows(rows);
    return Statement.newBuilder()
        .setName("routed insert")
        .setSql(planned.sql())
        .setPlan(insert)
        .addAllParameterTypes(planned.parameterTypes())
        .build()
        .toByteArray();
  }
}
