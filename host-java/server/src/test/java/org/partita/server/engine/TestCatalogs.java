package org.partita.server.engine;

import org.partita.proto.Catalog;
import org.partita.proto.Column;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.Index;
import org.partita.proto.IndexKind;
import org.partita.proto.IndexScanNode;
import org.partita.proto.InsertNode;
import org.partita.proto.OutputColumn;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ReceiveNode;
import org.partita.proto.SeqScanNode;
import org.partita.proto.Statement;
import org.partita.proto.Table;
import org.partita.proto.ValueType;
import org.partita.proto.ValuesNode;

/**
 * Catalogs for the bridge tests, built with the generated protobuf builders:
 * KV(ID BIGINT NOT NULL, NAME VARCHAR(100), AMOUNT DECIMAL, AT TIMESTAMP) with
 * a hash primary key on ID. Statements: 0 insert (4 parameters), 1 get (by
 * ID), 2 all (scan); with {@code nameIndex} also an ordered index on NAME and
 * 3 byName.
 */
final class TestCatalogs {
  static final int INSERT = 0;
  static final int GET = 1;
  static final int ALL = 2;
  static final int BY_NAME = 3;

  private static final String[] NAMES = {"ID", "NAME", "AMOUNT", "AT"};
  private static final ValueType[] TYPES = {
    ValueType.VALUE_TYPE_BIGINT, ValueType.VALUE_TYPE_VARCHAR, ValueType.VALUE_TYPE_DECIMAL, ValueType.VALUE_TYPE_TIMESTAMP
  };

  private TestCatalogs() {}

  static byte[] kv(boolean nameIndex) {
    final Table.Builder table = Table.newBuilder().setName("KV").setPartitionColumn(0);
    for (int i = 0; i < NAMES.length; i++) {
      table.addColumns(Column.newBuilder().setName(NAMES[i]).setType(TYPES[i])
          .setMaxLength(TYPES[i] == ValueType.VALUE_TYPE_VARCHAR ? 100 : 0).setNullable(i != 0));
    }
    table.addIndexes(Index.newBuilder().setName("PK_KV").setKind(IndexKind.INDEX_KIND_HASH).setUnique(true)
        .setPrimaryKey(true).addColumnIndexes(0));
    if (nameIndex) {
      table.addIndexes(Index.newBuilder().setName("BY_NAME").setKind(IndexKind.INDEX_KIND_ORDERED).addColumnIndexes(1));
    }
    final Catalog.Builder catalog = Catalog.newBuilder().setFormatVersion(1).addTables(table);
    catalog.addStatements(insert());
    catalog.addStatements(Statement.newBuilder().setName("get").setReadOnly(true)
        .addParameterTypes(ValueType.VALUE_TYPE_BIGINT).setPlan(lookup("PK_KV", 0)));
    catalog.addStatements(Statement.newBuilder().setName("all").setReadOnly(true).setPlan(scan()));
    if (nameIndex) {
      catalog.addStatements(Statement.newBuilder().setName("byName").setReadOnly(true)
          .addParameterTypes(ValueType.VALUE_TYPE_VARCHAR).setPlan(lookup("BY_NAME", 1)));
    }
    return catalog.build().toByteArray();
  }

  static Statement insert() {
    final ValuesNode.Row.Builder row = ValuesNode.Row.newBuilder();
    final Statement.Builder s = Statement.newBuilder().setName("insert");
    for (int i = 0; i < NAMES.length; i++) {
      row.addColumns(param(i, TYPES[i]));
      s.addParameterTypes(TYPES[i]);
    }
    final PlanNode values = withKvSchema(PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_VALUES)
        .setValues(ValuesNode.newBuilder().addRows(row)));
    return s.setPlan(PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_INSERT)
            .setInsert(InsertNode.newBuilder().setTable("KV")).addChildren(values)
            .addOutputSchema(OutputColumn.newBuilder().setName("modified_tuples").setType(ValueType.VALUE_TYPE_BIGINT)))
        .build();
  }

  /** Lookup of `index` with parameter 0 (of the key column's type). */
  static PlanNode lookup(String index, int keyColumn) {
    return withKvSchema(PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_INDEX_SCAN)
        .setIndexScan(IndexScanNode.newBuilder().setTable("KV").setIndex(index)
            .addLookupKey(param(0, TYPES[keyColumn]))));
  }

  static PlanNode scan() {
    return withKvSchema(PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_SEQ_SCAN)
        .setSeqScan(SeqScanNode.newBuilder().setTable("KV")));
  }

  /** RECEIVE of KV-shaped tables with dependency id `id`, as a serialized ad-hoc statement. */
  static byte[] receive(int id) {
    final PlanNode node = withKvSchema(PlanNode.newBuilder().setKind(PlanNodeKind.PLAN_NODE_KIND_RECEIVE)
        .setReceive(ReceiveNode.newBuilder().setDependencyId(id)));
    return Statement.newBuilder().setPlan(node).setReadOnly(true).build().toByteArray();
  }

  static Expression param(int index, ValueType type) {
    return Expression.newBuilder().setKind(ExpressionKind.EXPRESSION_KIND_PARAMETER).setValueType(type)
        .setParameterIndex(index).build();
  }

  private static PlanNode withKvSchema(PlanNode.Builder node) {
    for (int i = 0; i < NAMES.length; i++) {
      node.addOutputSchema(OutputColumn.newBuilder().setName(NAMES[i]).setType(TYPES[i]));
    }
    return node.build();
  }
}
