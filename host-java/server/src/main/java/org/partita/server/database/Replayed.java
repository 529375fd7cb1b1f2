package org.partita.server.database;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A logged work item that recovery runs again under the header it was
 * given before the restart. The site adopts that header in its initiator
 * instead of sequencing the item (so it is not logged twice, and later
 * items continue its sequence), checks that the partition's catalog is the
 * one the item ran against, then runs it as it ran the first time (same
 * timestamp, same seed, and no time limit or cancel: the log holds no
 * transaction that one stopped). A check that fails is reported to {@code failures}
 * (recovery then refuses to start) and the item still runs, so that a
 * multi-partition transaction waiting for this partition completes.
 */
record Replayed(WorkItem item, TxnHeader header, Consumer<RuntimeException> failures) implements WorkItem {
  Replayed {
    if (!(item instanceof SequencedItem)) {
      throw new IllegalArgumentException("only sequenced items are logged and replayed, not " + item);
    }
  }

  @Override
  public void run(Site site, TxnHeader ignored) {
    adopt(site, header, failures);
    site.replaying(true);
    try {
      item.run(site, header);
    } finally {
      site.replaying(false);
    }
  }

  /**
   * Has {@code site} adopt {@code header}, a logged item's, as the last one
   * it ran, and checks that the item ran at the site's catalog version; a
   * problem goes to {@code failures}. REQUIRES: on the site's thread.
   */
  static void adopt(Site site, TxnHeader header, Consumer<RuntimeException> failures) {
    try {
      site.initiator().adopt(header);
    } catch (IllegalStateException e) {
      failures.accept(e);
    }
    if (site.catalogVersion() != header.catalogVersion()) {
      failures.accept(new IllegalStateException("replaying " + header.id() + " logged at catalog version "
          + header.catalogVersion() + " on partition " + site.partition() + " at catalog version "
          + site.catalogVersion() + ": the log and the schema disagree"));
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    item.refuse(response);
  }
}
