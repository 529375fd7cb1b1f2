package org.partita.server.replication;

import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RepairItems;

/**
 * The new leader's repair for one survivor (docs/cluster.md, "Repair among
 * survivors"): the dead leader's items that survivor lacks, as one
 * {@link RepairItems} frame on the link to it, sent again on every new
 * connection until the survivor acknowledged something of the new epoch
 * (which it does only once repaired; a survivor ignores a repair it already
 * has), or until the repair is moot: the metadata dropped the survivor from
 * the epoch (it died before it was repaired), or this host no longer leads.
 * A moot repair sent to the survivor's next incarnation, which holds no copy
 * of the partition, made it close the connection, and with it the rejoin
 * stream that brings it a copy: each reconnection sent the repair again, so
 * the host never got its copy back.
 *
 * <p>Thread model: {@link #drain} and {@link #reconnected} on the internal
 * port's event loop; state guarded by this object's monitor.
 */
final class RepairSender implements OutboundSource {
  private final int survivor;
  private final RepairItems items;
  private final LeaderPipeline pipeline;
  // Guarded by this.
  private boolean sent;

  /**
   * @param pipeline the new epoch's pipeline: once {@code survivor} acknowledged anything in it, it was repaired
   */
  RepairSender(int survivor, RepairItems items, LeaderPipeline pipeline) {
    this.survivor = survivor;
    this.items = items;
    this.pipeline = pipeline;
  }

  @Override
  public synchronized InternalFrame drain(int host) {
    if (host != survivor || sent || pipeline.acknowledged(survivor) > 0 || !pipeline.replicatesTo(survivor)) {
      return null;
    }
    sent = true;
    return InternalFrame.newBuilder().setRepairItems(items).build();
  }

  @Override
  public synchronized void reconnected(int host) {
    if (host == survivor) {
      sent = false;
    }
  }
}
