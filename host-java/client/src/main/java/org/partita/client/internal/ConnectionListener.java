package org.partita.client.internal;

import org.partita.client.proto.LoginResponse;

/** What a {@link Connection} tells its client; called on the connection's event loop. */
public interface ConnectionListener {
  /** The connection logged in (first time or after reconnecting) and is up. */
  void loggedIn(Connection connection, LoginResponse login);

  /** The connection went down (it may come back when reconnecting is on). */
  void wentDown(Connection connection);

  /** An answer reported the catalog version its call ran against. */
  void catalogVersionSeen(long version);

  /**
   * An answer reported the topology version its host knows (a cluster
   * moves partitions to new leaders on failover; docs/cluster.md).
   */
  default void topologyVersionSeen(long version) {
  }

  /**
   * {@code call} was answered NOT_LEADER by a host knowing topology
   * {@code topologyVersion}; returns true when the client sends it again at
   * the partition's leader (the call was not run, so sending it again is
   * safe), false to deliver the answer.
   */
  default boolean notLeader(PendingCall call, long topologyVersion) {
    return false;
  }

  /** An answer matched no call in flight and was dropped. */
  void lateResponse();
}
