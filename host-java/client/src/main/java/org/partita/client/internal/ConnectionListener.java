package org.partita.client.internal;

import org.partita.client.ClientResponse;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.Topology;

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
   * {@code call} was answered {@code answer}, NOT_LEADER, by a host knowing
   * topology {@code topologyVersion}; returns true when the client sends it
   * again at the partition's leader (the call was not run, so sending it
   * again is safe), false to deliver the answer.
   */
  default boolean notLeader(PendingCall call, long topologyVersion, ClientResponse answer) {
    return false;
  }

  /**
   * The client session every login names (proto LoginRequest.client_session;
   * 0: none): the same on every connection of the client.
   */
  default long clientSession() {
    return 0;
  }

  /**
   * {@code call}'s outcome became unknown ({@code reason}: its connection
   * was lost while it was in flight, or the server answered
   * OUTCOME_UNKNOWN); returns true when the client sends it again with the
   * same session and handle (the server runs it at most once), false to
   * fail it as before.
   */
  default boolean outcomeUnknown(PendingCall call, String reason) {
    return false;
  }

  /**
   * The server pushed its new topology (a cluster's map changed;
   * docs/wire-protocol.md, "Topology push").
   */
  default void topologyPushed(Topology topology) {
  }

  /** An answer matched no call in flight and was dropped. */
  void lateResponse();
}
