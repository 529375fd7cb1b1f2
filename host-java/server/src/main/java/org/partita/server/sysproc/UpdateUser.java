package org.partita.server.sysproc;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.partita.proto.ErrorCode;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.error.ServerException;
import org.partita.server.security.ScramCredential;
import org.partita.server.security.UserDirectory;
import org.partita.server.security.UserEntry;

/**
 * {@code @UpdateUser(name, roles, credential)}: adds a user or replaces one
 * (docs/security.md). {@code roles} is a comma-separated list of role
 * names; {@code credential} is a SCRAM credential in RFC 5803's form, as
 * {@code partita passwd} prints it, so no password crosses the wire. The
 * users file is rewritten before the change takes effect; open connections
 * keep the roles they logged in with. Needs ADMIN.
 */
final class UpdateUser implements SystemProcedure {
  private final UserDirectory users;

  UpdateUser(UserDirectory users) {
    this.users = users;
  }

  @Override
  public String name() {
    return "@UpdateUser";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(3, 3, "(name, roles, credential)");
    final String name = parameters.text(0, "name");
    final String roles = parameters.text(1, "roles").strip();
    final UserEntry user;
    try {
      user = new UserEntry(name, ScramCredential.parse(parameters.text(2, "credential")),
          roles.isEmpty() ? List.of() : Arrays.stream(roles.split(",")).map(String::strip).toList());
    } catch (IllegalArgumentException e) {
      throw ServerException.badParameter("@UpdateUser: " + e.getMessage());
    }
    try {
      final boolean added = users.put(user);
      handler.onResponse(Answers.table(UserAdministration.outcome(added ? "ADDED" : "UPDATED", name)));
    } catch (IOException e) {
      handler.onResponse(Answers.rejected(ErrorCode.ERROR_CODE_INTERNAL, "@UpdateUser: cannot write the users file "
          + users.file() + ": " + e.getMessage() + "; nothing changed"));
    }
    return true;
  }
}
