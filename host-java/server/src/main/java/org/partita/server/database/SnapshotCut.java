package org.partita.server.database;

import java.util.List;
import org.partita.server.txn.TxnId;

/**
 * Where a snapshot was cut: the last transaction each partition ran before
 * it (null for a partition that had run none), and the catalog it was taken
 * with. Every transaction of partition p up to {@code lastRun.get(p)} is in
 * the snapshot and none after it; recovery replays only the log after it.
 *
 * @param lastRun by partition
 * @param catalogVersion the catalog version at the cut
 * @param engineCatalog the serialized engine catalog at the cut
 * @param schemaChanges the DDL that made catalog versions 2 .. {@code catalogVersion}, in order: with the
 *     starting schema, what rebuilds the catalog at the cut
 */
public record SnapshotCut(List<TxnId> lastRun, long catalogVersion, byte[] engineCatalog, List<String> schemaChanges) {}
