package org.partita.server.cli.shell;

import org.partita.client.ClientResponse;

/**
 * How the shell calls the server: a synchronous call that returns the
 * answer on SUCCESS and throws otherwise, as
 * {@link org.partita.client.PartitaClient#call(String, Object...)} does
 * (ProcedureCallException for another answer, other PartitaClientExceptions
 * for connection problems).
 */
@FunctionalInterface
public interface ProcedureCaller {
  ClientResponse call(String procedure, Object... parameters);
}
