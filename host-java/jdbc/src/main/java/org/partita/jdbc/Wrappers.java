package org.partita.jdbc;

import java.sql.SQLException;

/** JDBC's {@code unwrap} for the driver's objects, which wrap nothing but themselves. Stateless. */
final class Wrappers {
  private Wrappers() {}

  /**
   * {@code self} as {@code iface}.
   *
   * @throws SQLException when {@code self} is not an {@code iface}
   */
  static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
    if (iface.isInstance(self)) {
      return iface.cast(self);
    }
    throw new SQLException(self.getClass().getSimpleName() + " is not a wrapper of " + iface.getName(),
        SqlStates.GENERAL);
  }
}
