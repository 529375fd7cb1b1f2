package org.partita.server.compiler;

import org.partita.proto.ValueType;

/**
 * Where a single-partition procedure runs: the partition of its parameter
 * {@code parameterIndex}, read as the type of {@code table.column}.
 */
public record ProcedurePartition(String table, String column, ValueType columnType, int parameterIndex) {}
