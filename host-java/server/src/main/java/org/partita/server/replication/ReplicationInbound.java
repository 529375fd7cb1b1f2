package org.partita.server.replication;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.logging.Logger;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.cluster.ReplicationBatch;

/**
 * The data-plane frames of one incoming internal connection
 * (docs/cluster.md, "Data plane"): a batch goes to this host's copy of its
 * partition, an acknowledgement to the pipeline of its epoch of the
 * partition this host leads, a survivor's repair offer to the repair of its
 * partition and repair items to this host's copy ("Repair among
 * survivors"), and the
 * multi-partition frames to {@link MultiPartitionLinks}. A frame
 * for a partition this host holds no such copy of, or one its copy refuses
 * (older epoch, missing items, malformed), closes this connection only,
 * with a warning naming the peer and the reason; the peer connects again
 * and sends what was not acknowledged. Sits behind the internal port's own
 * handlers (and whatever admission handler precedes them).
 *
 * <p>Thread model: the connection's event loop.
 */
final class ReplicationInbound extends SimpleChannelInboundHandler<InternalFrame> {
  private static final Logger LOG = Logger.getLogger(ReplicationInbound.class.getName());

  /** Null on a host without replication (K = 0). */
  private final Replication replication;
  /** Null on a cluster of one host. */
  private final MultiPartitionLinks multiPartition;

  ReplicationInbound(Replication replication, MultiPartitionLinks multiPartition) {
    this.replication = replication;
    this.multiPartition = multiPartition;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext context, InternalFrame frame) {
    final String refusal = switch (frame.getFrameCase()) {
      case REPLICATION_BATCH -> replication == null ? "a replication batch, but this cluster has no replicas"
          : batch(frame.getReplicationBatch());
      case REPLICATION_ACK -> replication == null ? "a replication acknowledgement, but this cluster has no replicas"
          : ack(frame.getReplicationAck());
      case FRAGMENT_REQUEST, FRAGMENT_ANSWER, FORWARDED_CALL, FORWARDED_ANSWER -> multiPartition == null
          ? "a multi-partition frame (" + frame.getFrameCase() + "), but this host takes none"
          : multiPartition.receive(frame);
      case REPAIR_OFFER -> replication == null ? "a repair offer, but this cluster has no replicas"
          : replication.offer(frame.getRepairOffer());
      case REPAIR_ITEMS -> replication == null ? "repair items, but this cluster has no replicas"
          : replication.repair(frame.getRepairItems());
      case REJOIN_START, REJOIN_CHUNK, REJOIN_ITEMS, REJOIN_PROGRESS -> replication == null
          ? "a rejoin frame (" + frame.getFrameCase() + "), but this cluster has no replicas"
          : replication.rejoins().receive(frame);
      default -> "an unexpected internal frame (" + frame.getFrameCase() + ")";
    };
    if (refusal != null) {
      refuse(context, refusal);
    }
  }

  private String batch(ReplicationBatch batch) {
    final ReplicaSequencer copy = replication.replica(batch.getPartition());
    if (copy == null) {
      return "a batch of partition " + batch.getPartition() + ", which this host holds no open replica of";
    }
    return copy.receive(batch);
  }

  private String ack(ReplicationAck ack) {
    final LeaderPipeline leader = replication.leader(ack.getPartition(), ack.getEpoch());
    if (leader == null) {
      return "an acknowledgement of partition " + ack.getPartition() + ", which this host does not lead";
    }
    return leader.ack(ack);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    refuse(context, "a bad frame (" + cause.getMessage() + ")");
  }

  private static void refuse(ChannelHandlerContext context, String what) {
    LOG.warning("internal port: " + context.channel().remoteAddress() + " sent " + what
        + "; closing that connection");
    context.close();
  }
}
