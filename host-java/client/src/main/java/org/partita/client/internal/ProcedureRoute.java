package org.partita.client.internal;

/**
 * Where one procedure's calls run.
 *
 * @param name the procedure name as declared
 * @param singlePartition whether each call runs on the one partition its parameter selects
 * @param parameterIndex the 0-based index of that parameter (single-partition only)
 * @param partitionType the plan.proto ValueType number of the partitioning column
 */
public record ProcedureRoute(String name, boolean singlePartition, int parameterIndex, int partitionType) {}
