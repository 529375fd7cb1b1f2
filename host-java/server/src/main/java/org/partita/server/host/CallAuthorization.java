package org.partita.server.host;

import java.util.Map;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.database.Database;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.security.AuditLog;
import org.partita.server.security.Authorizer;
import org.partita.server.security.Permission;
import org.partita.server.security.Principal;
import org.partita.server.security.Role;
import org.partita.server.security.SystemProcedurePermissions;
import org.partita.server.sysproc.SystemProcedures;
import org.partita.server.txn.Invocation;

/**
 * Decides, for every call of an authenticated caller, whether its roles
 * allow it (docs/security.md, "What each role may do"): a user procedure
 * needs ALLPROC or an EXECUTE grant; {@code @AdHoc} needs SQLREAD for a
 * query, SQLWRITE for a write and ADMIN for DDL; every other system
 * procedure what {@link SystemProcedurePermissions} lists. Roles are read
 * from the current catalog at each call. Writes the audit lines of denials,
 * DDL and administrative calls. Thread-safe.
 */
final class CallAuthorization {
  private final Database database;

  CallAuthorization(Database database) {
    this.database = database;
  }

  /** Null iff {@code caller} may make {@code invocation}; else the PERMISSION_DENIED answer. */
  ClientResponse check(Invocation invocation, Principal caller) {
    if (caller.unchecked()) {
      return null;
    }
    final Map<String, Role> roles = database.catalog().roles();
    final String procedure = invocation.procedure();
    if (!SystemProcedures.isSystemProcedure(procedure)) {
      if (Authorizer.mayExecute(caller, roles, procedure)) {
        return null;
      }
      AuditLog.denied(caller, procedure, null);
      return ErrorTable.response(ErrorCode.ERROR_CODE_PERMISSION_DENIED, "user " + caller.user() + " may not "
          + "execute procedure " + procedure + ": that needs ALLPROC, or EXECUTE granted to one of its roles "
          + caller.roles());
    }
    final String sql = procedure.equalsIgnoreCase("@AdHoc") ? adHocText(invocation) : null;
    final Permission needed = needed(procedure, invocation, sql);
    if (needed == null) {
      return null;
    }
    if (!Authorizer.holds(caller, roles, needed)) {
      AuditLog.denied(caller, procedure, needed);
      return ErrorTable.response(ErrorCode.ERROR_CODE_PERMISSION_DENIED, "user " + caller.user() + " lacks "
          + needed + ", which " + procedure + (sql == null ? "" : " of " + kind(needed)) + " needs (roles "
          + caller.roles() + ")");
    }
    if (sql != null && needed == Permission.ADMIN) {
      AuditLog.ddl(caller, sql);
    } else if (needed == Permission.ADMIN) {
      AuditLog.admin(caller, procedure);
    }
    return null;
  }

  /** The permission a system procedure call needs, or null when every authenticated user may make it. */
  private Permission needed(String procedure, Invocation invocation, String sql) {
    if (sql != null) {
      return Database.isDdl(sql) ? Permission.ADMIN
          : database.adHocReadOnly(sql) ? Permission.SQLREAD : Permission.SQLWRITE;
    }
    if (procedure.equalsIgnoreCase("@AdHoc")) {
      return Permission.SQLREAD;
    }
    if (procedure.equalsIgnoreCase("@CancelQuery")) {
      return invocation.parameterCount() == 0 ? null : Permission.ADMIN;
    }
    if (SystemProcedurePermissions.openToEveryUser(procedure)) {
      return null;
    }
    return SystemProcedurePermissions.required(procedure);
  }

  private static String kind(Permission needed) {
    return needed == Permission.ADMIN ? "DDL" : needed == Permission.SQLWRITE ? "a write" : "a query";
  }

  /** The SQL text of an @AdHoc call, or null when its parameters are malformed (the call then fails as such). */
  private static String adHocText(Invocation invocation) {
    try {
      final Object[] parameters = invocation.parameters();
      return parameters.length > 0 && parameters[0] instanceof String s ? s : null;
    } catch (ServerException e) {
      return null;
    }
  }
}
