package org.partita.server.database;

import org.partita.server.txn.TxnHeader;

/**
 * Where the cut of a rejoin snapshot goes ({@link Database#beginRejoinSnapshot},
 * docs/cluster.md, "Rejoin"). Called on the partition's site thread, between
 * two items, exactly once.
 */
public interface RejoinCut {
  /**
   * The snapshot holds the current epoch's items through {@code sequence} (0:
   * none of this epoch) and ends with {@code last} (null: the copy never ran
   * an item); {@code dedupTable} is the copy's de-duplication table at the
   * same cut ({@code DedupTable#encode}). Every item after it runs after this
   * returns.
   */
  void taken(long sequence, TxnHeader last, byte[] dedupTable);

  /** No snapshot was taken: another is being taken, or the site stops. */
  void refused(String why);
}
