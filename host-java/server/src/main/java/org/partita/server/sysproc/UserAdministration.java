package org.partita.server.sysproc;

import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

/** The one-row answer of {@code @UpdateUser} and {@code @DropUser}: (OUTCOME, USER_NAME). Stateless. */
final class UserAdministration {
  private UserAdministration() {}

  static ResultTable outcome(String outcome, String user) {
    return new ResultTableBuilder()
        .column("OUTCOME", ValueType.VARCHAR)
        .column("USER_NAME", ValueType.VARCHAR)
        .row(outcome, user)
        .build();
  }
}
