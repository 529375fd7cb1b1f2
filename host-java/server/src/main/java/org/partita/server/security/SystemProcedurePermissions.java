package org.partita.server.security;

import java.util.Map;
import java.util.TreeMap;

/**
 * The permission each system procedure needs (docs/security.md, "What each
 * role may do"), one table. A system procedure missing from the table needs
 * ADMIN, so a new one is safe until it is listed here. Two depend on their
 * arguments and are decided by the caller: {@code @AdHoc} (SQLREAD,
 * SQLWRITE or, for DDL, ADMIN) and {@code @CancelQuery} (own calls: any
 * user; a partition: ADMIN). Immutable; thread-safe.
 */
public final class SystemProcedurePermissions {
  /** Marks a system procedure every authenticated user may call. */
  private static final Permission ANY_USER = null;
  private static final Map<String, Permission> TABLE = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

  static {
    TABLE.put("@Ping", ANY_USER);
    TABLE.put("@SystemCatalog", ANY_USER);
    TABLE.put("@Explain", Permission.SQLREAD);
    TABLE.put("@ExplainProc", Permission.SQLREAD);
    TABLE.put("@Statistics", Permission.ADMIN);
    TABLE.put("@Shutdown", Permission.ADMIN);
    TABLE.put("@UpdateUser", Permission.ADMIN);
    TABLE.put("@DropUser", Permission.ADMIN);
    TABLE.put("@SnapshotSave", Permission.ADMIN);
    TABLE.put("@SnapshotRestore", Permission.ADMIN);
    TABLE.put("@SnapshotScan", Permission.ADMIN);
    TABLE.put("@SnapshotDelete", Permission.ADMIN);
  }

  private SystemProcedurePermissions() {}

  /** Whether {@code name} is listed as callable by every authenticated user. */
  public static boolean openToEveryUser(String name) {
    return TABLE.containsKey(name) && TABLE.get(name) == ANY_USER;
  }

  /** The permission system procedure {@code name} needs: its entry, or ADMIN when it has none. */
  public static Permission required(String name) {
    final Permission p = TABLE.get(name);
    return p == null ? Permission.ADMIN : p;
  }
}
