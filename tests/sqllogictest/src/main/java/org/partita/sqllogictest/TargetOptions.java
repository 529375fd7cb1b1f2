package org.partita.sqllogictest;

/**
 * How the command line asks a {@link SqlTargetFactory} to set up its database.
 *
 * @param partitioned true iff tables should be spread over several partitions where the engine can
 *     (for Partita: partition each table on a column instead of replicating it), so the same
 *     scripts exercise multi-partition plans
 */
public record TargetOptions(boolean partitioned) {}
