package org.partita.jdbc;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A procedure call in JDBC's escape syntax: {@code {call Vote(?, ?, ?)}}
 * (the braces may be left out). Each argument is a {@code ?} placeholder or
 * a literal: an integer, a decimal, a 'string' (quotes doubled inside) or
 * NULL. The procedure name keeps its case (Java procedures are named after
 * their class). {@code {? = call ...}} is not supported: Partita procedures
 * answer result tables, read through the ResultSet. Immutable.
 *
 * @param procedure the procedure's name
 * @param arguments one entry per argument: {@link #PLACEHOLDER} or the literal's value (null for NULL)
 */
record CallEscape(String procedure, List<Object> arguments) {
  /** Marks an argument given by a {@code ?}. */
  static final Object PLACEHOLDER = new Object() {
    @Override
    public String toString() {
      return "?";
    }
  };

  private static final Pattern CALL = Pattern.compile(
      "\\s*(\\{)?\\s*call\\s+([A-Za-z_@][A-Za-z0-9_.$@]*)\\s*(?:\\((.*)\\))?\\s*(\\})?\\s*;?\\s*",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern RETURNING = Pattern.compile("\\s*\\{?\\s*\\?\\s*=\\s*call\\b.*",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.\\d*|\\.\\d+)");

  CallEscape {
    arguments = Collections.unmodifiableList(new ArrayList<>(arguments));
  }

  /** Whether {@code sql} is written as a call ({@code {call ...}} or {@code call ...}). */
  static boolean isCall(String sql) {
    return RETURNING.matcher(sql).matches() || "CALL".equals(SqlText.firstKeyword(sql.replaceFirst("^\\s*\\{", "")));
  }

  /**
   * Parses {@code sql}.
   *
   * @throws SQLSyntaxErrorException (42000) naming what does not parse
   * @throws SQLFeatureNotSupportedException for {@code {? = call ...}}
   */
  static CallEscape parse(String sql) throws SQLException {
    if (RETURNING.matcher(sql).matches()) {
      throw SqlStates.unsupported("'{? = call ...}'", "procedures answer result tables; use {call Name(...)}"
          + " and read the ResultSet");
    }
    final Matcher m = CALL.matcher(sql);
    if (!m.matches() || (m.group(1) == null) != (m.group(4) == null)) {
      throw syntax(sql, "expected {call ProcedureName(?, ...)}");
    }
    final List<Object> arguments = new ArrayList<>();
    final String list = m.group(3);
    if (list != null && !list.isBlank()) {
      int position = 1;
      for (String argument : split(sql, list)) {
        arguments.add(argument(sql, argument.trim(), position++));
      }
    }
    return new CallEscape(m.group(2), arguments);
  }

  /** How many arguments are placeholders. */
  int placeholders() {
    int n = 0;
    for (Object a : arguments) {
      if (a == PLACEHOLDER) {
        n++;
      }
    }
    return n;
  }

  /** The call's parameters: the literals, and {@code values} (1-based order) in place of the placeholders. */
  Object[] bind(Object[] values) {
    final Object[] out = new Object[arguments.size()];
    int next = 0;
    for (int i = 0; i < out.length; i++) {
      out[i] = arguments.get(i) == PLACEHOLDER ? values[next++] : arguments.get(i);
    }
    return out;
  }

  /** Splits the argument list at commas outside string literals. */
  private static List<String> split(String sql, String list) throws SQLException {
    final List<String> parts = new ArrayList<>();
    final StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < list.length(); i++) {
      final char c = list.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      }
      if (c == ',' && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (quoted) {
      throw syntax(sql, "a string literal is not closed");
    }
    parts.add(current.toString());
    return parts;
  }

  private static Object argument(String sql, String text, int position) throws SQLException {
    if (text.equals("?")) {
      return PLACEHOLDER;
    }
    if (text.equalsIgnoreCase("NULL")) {
      return null;
    }
    if (INTEGER.matcher(text).matches()) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw syntax(sql, "argument " + position + " (" + text + ") is outside BIGINT");
      }
    }
    if (DECIMAL.matcher(text).matches()) {
      return new BigDecimal(text);
    }
    if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
      return text.substring(1, text.length() - 1).replace("''", "'");
    }
    throw syntax(sql, "argument " + position + " ('" + text + "') is neither ? nor a literal"
        + " (integer, decimal, 'string', NULL)");
  }

  private static SQLSyntaxErrorException syntax(String sql, String why) {
    return new SQLSyntaxErrorException("cannot read the procedure call '" + sql.strip() + "': " + why,
        SqlStates.SYNTAX_ERROR);
  }
}
