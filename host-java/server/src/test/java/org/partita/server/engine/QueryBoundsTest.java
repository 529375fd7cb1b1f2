package org.partita.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTables;
import org.partita.proto.ErrorCode;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.NestLoopJoinNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.SortKey;
import org.partita.proto.SortNode;
import org.partita.proto.Statement;
import org.partita.proto.Value;
import org.partita.proto.ValueType;

/** Time limits, cancel and the memory bound through the JNI bridge. */
class QueryBoundsTest {
  private static final long NOW = 1_700_000_000_000_000L;
  private static final int ROWS = 200;

  private PartitionEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  private void openWithRows(long queryMemoryBytes) {
    engine = PartitionEngine.open(TestCatalogs.kv(false), 0, 1, PartitionEngine.DEFAULT_REQUEST_CAPACITY,
        PartitionEngine.DEFAULT_RESPONSE_CAPACITY, queryMemoryBytes);
    final BatchRequestWriter w = engine.request().begin(true, NOW);
    for (int i = 0; i < ROWS; i++) {
      insert(w, i);
    }
    engine.execute();
  }

  private static BatchRequestWriter insert(BatchRequestWriter w, long id) {
    return w.addCall(TestCatalogs.INSERT).addBigInt(id).addVarchar("n" + id).addDecimal(BigDecimal.ONE)
        .addTimestamp(NOW);
  }

  /** KV joined to itself {@code n} times by nested loops; with {@code nothingPasses}, ID < 0 rejects every pair. */
  private static PlanNode cross(int n, boolean nothingPasses) {
    PlanNode tree = TestCatalogs.scan();
    for (int i = 1; i < n; i++) {
      final NestLoopJoinNode.Builder join = NestLoopJoinNode.newBuilder();
      if (nothingPasses && i == n - 1) {
        join.setPredicate(Expression.newBuilder().setKind(ExpressionKind.EXPRESSION_KIND_LESS)
            .setValueType(ValueType.VALUE_TYPE_BOOLEAN)
            .addChildren(Expression.newBuilder().setKind(ExpressionKind.EXPRESSION_KIND_COLUMN)
                .setValueType(ValueType.VALUE_TYPE_BIGINT).setColumnIndex(0))
            .addChildren(Expression.newBuilder().setKind(ExpressionKind.EXPRESSION_KIND_CONSTANT)
                .setValueType(ValueType.VALUE_TYPE_BIGINT)
                .setConstant(Value.newBuilder().setType(ValueType.VALUE_TYPE_BIGINT).setIntValue(0))));
      }
      tree = PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_NEST_LOOP_JOIN).addChildren(tree)
          .addChildren(TestCatalogs.scan()).addAllOutputSchema(tree.getOutputSchemaList())
          .addAllOutputSchema(TestCatalogs.scan().getOutputSchemaList()).setNestLoopJoin(join).build();
    }
    return tree;
  }

  private static byte[] adHoc(PlanNode plan) {
    return Statement.newBuilder().setPlan(plan).setReadOnly(true).build().toByteArray();
  }

  private boolean exists(long id) {
    engine.request().begin(true, NOW).addCall(TestCatalogs.GET).addBigInt(id);
    return ResultTables.parse(engine.execute())[0].rowCount() == 1;
  }

  @Test
  void shouldStopABatchPastItsTimeLimitAndRollItBack() {
    openWithRows(0);
    insert(engine.request().begin(true, NOW, 100), 1000).addAdHocCall(adHoc(cross(4, true)));
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, e.errorCode());
    assertTrue(e.getMessage().contains("past its time limit of 0.100 s"), e.getMessage());
    assertFalse(engine.inTransaction());
    assertFalse(exists(1000));
  }

  @Test
  void shouldCancelTheRunningBatchFromAnotherThread() throws InterruptedException {
    openWithRows(0);
    final AtomicBoolean done = new AtomicBoolean();
    // Asks until the batch returns: a request made before the batch starts is forgotten.
    final Thread canceller = new Thread(() -> {
      while (!done.get()) {
        engine.cancel();
      }
    });
    canceller.start();
    insert(engine.request().begin(true, NOW), 1000).addAdHocCall(adHoc(cross(4, true)));
    final EngineException e;
    try {
      e = assertThrows(EngineException.class, engine::execute);
    } finally {
      done.set(true);
      canceller.join();
    }
    assertEquals(ErrorCode.ERROR_CODE_CANCELLED, e.errorCode());
    assertFalse(exists(1000));
  }

  @Test
  void shouldFailAStatementPastTheMemoryBoundNamingTheOperator() {
    openWithRows(64 * 1024);
    final PlanNode crossed = cross(2, false);
    final PlanNode sorted = PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_SORT).addChildren(crossed)
        .addAllOutputSchema(crossed.getOutputSchemaList())
        .setSort(SortNode.newBuilder().addKeys(SortKey.newBuilder().setExpression(Expression.newBuilder()
            .setKind(ExpressionKind.EXPRESSION_KIND_COLUMN).setValueType(ValueType.VALUE_TYPE_BIGINT)
            .setColumnIndex(4)))).build();
    engine.request().begin(true, NOW).addAdHocCall(adHoc(sorted));
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_QUERY_MEMORY_LIMIT, e.errorCode());
    assertTrue(e.getMessage().contains("sort needs more than") && e.getMessage().contains("65536 bytes"),
        e.getMessage());
  }

  @Test
  void shouldAcceptCancelOnAClosedEngineAsANoOp() {
    openWithRows(0);
    assertTrue(engine.cancel());
    engine.close();
    assertFalse(engine.cancel());
    engine = null;
  }

  @Test
  void shouldRejectANegativeTimeLimitOrMemoryBound() {
    openWithRows(0);
    assertThrows(IllegalArgumentException.class, () -> engine.request().begin(true, NOW, -1));
    assertThrows(IllegalArgumentException.class, () -> PartitionEngine.open(TestCatalogs.kv(false), 0, 1,
        PartitionEngine.DEFAULT_REQUEST_CAPACITY, PartitionEngine.DEFAULT_RESPONSE_CAPACITY, -1));
  }
}
