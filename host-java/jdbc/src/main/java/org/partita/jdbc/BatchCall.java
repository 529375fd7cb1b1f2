package org.partita.jdbc;

/**
 * One entry of a statement's batch: the call to send and how its answer
 * counts. Immutable (the parameters array is not changed after creation).
 *
 * @param procedure the procedure ({@code @AdHoc} for SQL)
 * @param parameters its parameters (for {@code @AdHoc}: the SQL, then its values)
 * @param sql the SQL text of an {@code @AdHoc} entry, else null
 */
record BatchCall(String procedure, Object[] parameters, String sql) {
  static final String AD_HOC = "@AdHoc";

  /** An {@code @AdHoc} entry running {@code sql} with {@code values}. */
  static BatchCall adHoc(String sql, Object[] values) {
    final Object[] parameters = new Object[values.length + 1];
    parameters[0] = sql;
    System.arraycopy(values, 0, parameters, 1, values.length);
    return new BatchCall(AD_HOC, parameters, sql);
  }

  /** A procedure call entry. */
  static BatchCall procedure(String procedure, Object[] parameters) {
    return new BatchCall(procedure, parameters, null);
  }
}
