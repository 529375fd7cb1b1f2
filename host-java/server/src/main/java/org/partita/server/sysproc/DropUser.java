package org.partita.server.sysproc;

import java.io.IOException;
import org.partita.proto.ErrorCode;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.security.UserDirectory;

/**
 * {@code @DropUser(name)}: removes a user (docs/security.md); the users
 * file is rewritten first. Connections the user already opened stay open
 * until they close. A user that does not exist is NOT_FOUND. Needs ADMIN.
 */
final class DropUser implements SystemProcedure {
  private final UserDirectory users;

  DropUser(UserDirectory users) {
    this.users = users;
  }

  @Override
  public String name() {
    return "@DropUser";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(name)");
    final String name = parameters.text(0, "name");
    try {
      if (!users.remove(name)) {
        handler.onResponse(Answers.rejected(ErrorCode.ERROR_CODE_NOT_FOUND, "@DropUser: no user " + name));
        return true;
      }
      handler.onResponse(Answers.table(UserAdministration.outcome("DROPPED", name)));
    } catch (IOException e) {
      handler.onResponse(Answers.rejected(ErrorCode.ERROR_CODE_INTERNAL, "@DropUser: cannot write the users file "
          + users.file() + ": " + e.getMessage() + "; nothing changed"));
    }
    return true;
  }
}
