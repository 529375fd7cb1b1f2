package org.partita.fault;

import java.util.function.Function;
import org.partita.client.ClientResponse;

/**
 * One operation a worker makes: how the history names it ({@code f},
 * {@code key}, {@code value} as encoded JSON; key and value may be null),
 * the procedure call that performs it, how a successful answer becomes the
 * completion's value, and, for a write, the id under which the workload's
 * audit finds it once it took effect ({@code writeId} &lt; 0 for reads). A
 * {@code conditional} write (compare-and-set) took effect only when it
 * completed with {@code true}.
 */
record Operation(String f, String key, String value, String procedure, Object[] parameters,
    Function<ClientResponse, String> result, long writeId, boolean conditional) {

  /** A read: no write id. */
  static Operation read(String f, String key, String procedure, Object[] parameters,
      Function<ClientResponse, String> result) {
    return new Operation(f, key, null, procedure, parameters, result, -1, false);
  }

  boolean isWrite() {
    return writeId >= 0;
  }

  /** Did this operation, completed ok with {@code completion}, change the database? */
  boolean tookEffect(String completion) {
    return isWrite() && (!conditional || "true".equals(completion));
  }
}
