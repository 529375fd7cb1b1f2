package org.partita.server.compiler.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recursive-descent parser for the DDL statements that are Partita's own; JSqlParser handles the
 * rest (CREATE TABLE, CREATE INDEX, CREATE VIEW and ordinary SQL). Grammar (keywords in any case):
 *
 * <pre>
 * PARTITION TABLE table ON COLUMN column
 * CREATE PROCEDURE [partitioning] FROM CLASS java.class.Name
 * CREATE PROCEDURE name [partitioning] AS sql-statement
 * DROP {TABLE | INDEX | VIEW | PROCEDURE | ROLE} [IF EXISTS] name [IF EXISTS]
 * CREATE ROLE name [WITH permission [, permission]...]
 * GRANT EXECUTE ON [PROCEDURE] name TO role [, role]...
 * REVOKE EXECUTE ON [PROCEDURE] name FROM role [, role]...
 *
 * partitioning := PARTITION ON TABLE table COLUMN column [PARAMETER non-negative-integer]
 * </pre>
 *
 * <p>Decisions:
 *
 * <ul>
 *   <li>A statement is Partita's iff it starts with {@code PARTITION}, {@code DROP}, {@code
 *       CREATE PROCEDURE}, {@code CREATE ROLE}, {@code GRANT} or {@code REVOKE}; from there on, anything that does not fit the grammar is an error,
 *       never handed on to JSqlParser.
 *   <li>A procedure FROM CLASS is named after the class's simple name, so a name before FROM
 *       CLASS is an error; a procedure AS a statement must have a name.
 *   <li>{@code IF EXISTS} may come before or after the name (VoltDB puts it after), not both.
 *       A table named {@code IF} must then be quoted.
 *   <li>{@code CASCADE} is not supported: dropping a table that views or procedures use is
 *       refused by the compiler, so a user drops the dependents first, explicitly. {@code
 *       CASCADE} gets an error saying so.
 *   <li>Names follow {@link Identifier}. The SQL reserved words among this grammar's keywords
 *       (AS, COLUMN, CREATE, DROP, EXISTS, FROM, ON, PARTITION, TABLE) are names only when
 *       quoted. Class names are unquoted dotted Java names, case kept.
 * </ul>
 *
 * <p>Every error is a {@link DdlException} at the first token that does not fit, naming what was
 * expected and what was found.
 */
public final class PartitaStatementParser {

  private final TokenCursor tokens;

  private PartitaStatementParser(ScriptStatement statement) {
    this.tokens = new TokenCursor(statement);
  }

  /**
   * Returns the parsed statement, or empty iff {@code statement} is not one of Partita's own.
   *
   * @throws DdlException if it is one of Partita's own but malformed
   */
  public static Optional<PartitaStatement> parse(ScriptStatement statement) throws DdlException {
    return new PartitaStatementParser(statement).parseStatement();
  }

  private Optional<PartitaStatement> parseStatement() throws DdlException {
    final Token first = tokens.peek();
    final PartitaStatement result;
    if (first.isKeyword("PARTITION")) {
      result = parsePartitionTable();
    } else if (first.isKeyword("DROP")) {
      result = parseDrop();
    } else if (first.isKeyword("CREATE") && tokens.peek(1).isKeyword("PROCEDURE")) {
      result = parseCreateProcedure();
    } else if (first.isKeyword("CREATE") && tokens.peek(1).isKeyword("ROLE")) {
      result = parseCreateRole();
    } else if (first.isKeyword("GRANT") || first.isKeyword("REVOKE")) {
      result = parseGrant();
    } else {
      return Optional.empty();
    }
    return Optional.of(result);
  }

  private PartitionTable parsePartitionTable() throws DdlException {
    final SourcePosition position = tokens.positionOf(tokens.next());
    if (tokens.peek().isKeyword("PROCEDURE")) {
      throw tokens.errorAt(tokens.peek(), "PARTITION PROCEDURE is not supported; write "
          + "CREATE PROCEDURE ... PARTITION ON TABLE t COLUMN c instead");
    }
    tokens.expectKeyword("TABLE");
    final Identifier table = tokens.expectIdentifier("a table name");
    tokens.expectKeyword("ON");
    tokens.expectKeyword("COLUMN");
    final Identifier column = tokens.expectIdentifier("a column name");
    tokens.expectEnd();
    return new PartitionTable(table, column, position);
  }

  private CreateRole parseCreateRole() throws DdlException {
    final SourcePosition position = tokens.positionOf(tokens.next());
    tokens.next();
    final Identifier name = tokens.expectIdentifier("a role name");
    final List<Identifier> permissions = new ArrayList<>();
    if (tokens.acceptKeyword("WITH")) {
      permissions.addAll(parseNameList("a permission"));
    }
    tokens.expectEnd();
    return new CreateRole(name, permissions, position);
  }

  private GrantExecute parseGrant() throws DdlException {
    final Token verb = tokens.next();
    final boolean grant = verb.isKeyword("GRANT");
    tokens.expectKeyword("EXECUTE");
    tokens.expectKeyword("ON");
    tokens.acceptKeyword("PROCEDURE");
    final Identifier procedure = tokens.expectIdentifier("a procedure name");
    tokens.expectKeyword(grant ? "TO" : "FROM");
    final List<Identifier> roles = parseNameList("a role name");
    tokens.expectEnd();
    return new GrantExecute(grant, procedure, roles, tokens.positionOf(verb));
  }

  private List<Identifier> parseNameList(String what) throws DdlException {
    final List<Identifier> names = new ArrayList<>();
    names.add(tokens.expectIdentifier(what));
    while (tokens.peek().isSymbol(',')) {
      tokens.next();
      names.add(tokens.expectIdentifier(what));
    }
    return names;
  }

  private PartitaStatement parseCreateProcedure() throws DdlException {
    final SourcePosition position = tokens.positionOf(tokens.next());
    tokens.next();
    final Token nameToken = tokens.peek();
    final Identifier name = startsProcedureName(nameToken)
        ? tokens.expectIdentifier("a procedure name") : null;
    final Optional<ProcedurePartitioning> partitioning = parseOptionalPartitioning();
    final Token body = tokens.peek();
    if (body.isKeyword("FROM")) {
      if (name != null) {
        throw tokens.errorAt(nameToken, "a procedure FROM CLASS is named after its class; "
            + "remove the name '" + nameToken.text() + "'");
      }
      return parseFromClass(partitioning, position);
    }
    if (body.isKeyword("AS")) {
      if (name == null) {
        throw tokens.errorAt(body, "expected a procedure name before AS: "
            + "CREATE PROCEDURE name AS sql-statement");
      }
      return parseAs(name, partitioning, position);
    }
    throw tokens.expected(
        partitioning.isEmpty() ? "PARTITION ON, AS or FROM CLASS" : "AS or FROM CLASS");
  }

  private static boolean startsProcedureName(Token token) {
    return token.isIdentifier() && !TokenCursor.isReserved(token);
  }

  private Optional<ProcedurePartitioning> parseOptionalPartitioning() throws DdlException {
    if (!tokens.peek().isKeyword("PARTITION")) {
      return Optional.empty();
    }
    final SourcePosition position = tokens.positionOf(tokens.next());
    tokens.expectKeyword("ON");
    tokens.expectKeyword("TABLE");
    final Identifier table = tokens.expectIdentifier("a table name");
    tokens.expectKeyword("COLUMN");
    final Identifier column = tokens.expectIdentifier("a column name");
    final int parameter = tokens.acceptKeyword("PARAMETER") ? parseParameterIndex() : 0;
    return Optional.of(new ProcedurePartitioning(table, column, parameter, position));
  }

  private int parseParameterIndex() throws DdlException {
    final Token token = tokens.peek();
    if (token.kind() == Token.Kind.END) {
      throw tokens.expected("a parameter index");
    }
    final Token following = tokens.peek(1);
    final boolean negative = token.isSymbol('-') && following.kind() == Token.Kind.NUMBER
        && following.offset() == token.end();
    if (token.kind() != Token.Kind.NUMBER || !isDigits(token.text())) {
      final String found = negative ? token.text() + following.text() : token.text();
      throw tokens.errorAt(
          token, "PARAMETER must be a non-negative integer, found '" + found + "'", found);
    }
    tokens.next();
    try {
      return Integer.parseInt(token.text());
    } catch (NumberFormatException e) {
      throw tokens.errorAt(token, "PARAMETER index " + token.text() + " is too large");
    }
  }

  private static boolean isDigits(String text) {
    return text.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private CreateProcedureFromClass parseFromClass(
      Optional<ProcedurePartitioning> partitioning, SourcePosition position) throws DdlException {
    tokens.expectKeyword("FROM");
    tokens.expectKeyword("CLASS");
    final Identifier className = parseClassName();
    tokens.expectEnd();
    return new CreateProcedureFromClass(className, partitioning, position);
  }

  private Identifier parseClassName() throws DdlException {
    final Token first = tokens.peek();
    if (first.kind() != Token.Kind.WORD) {
      throw tokens.expected("a class name");
    }
    final StringBuilder name = new StringBuilder(tokens.next().text());
    while (tokens.peek().isSymbol('.')) {
      tokens.next();
      if (tokens.peek().kind() != Token.Kind.WORD) {
        throw tokens.expected("the rest of the class name");
      }
      name.append('.').append(tokens.next().text());
    }
    return new Identifier(name.toString(), tokens.positionOf(first));
  }

  private CreateProcedureAs parseAs(
      Identifier name, Optional<ProcedurePartitioning> partitioning, SourcePosition position)
      throws DdlException {
    tokens.expectKeyword("AS");
    if (tokens.peek().kind() == Token.Kind.END) {
      throw tokens.expected("an SQL statement");
    }
    return new CreateProcedureAs(name, partitioning, tokens.rest(), position);
  }

  private DropObject parseDrop() throws DdlException {
    final SourcePosition position = tokens.positionOf(tokens.next());
    final DropObject.Kind kind = parseDropKind();
    boolean ifExists = acceptIfExists();
    final Identifier name =
        tokens.expectIdentifier("a " + kind.name().toLowerCase(Locale.ROOT) + " name");
    final Token afterName = tokens.peek();
    if (acceptIfExists()) {
      if (ifExists) {
        throw tokens.errorAt(afterName, "IF EXISTS is given twice");
      }
      ifExists = true;
    }
    if (tokens.peek().isKeyword("CASCADE")) {
      throw tokens.errorAt(tokens.peek(),
          "CASCADE is not supported; drop the dependent views, indexes and procedures first");
    }
    tokens.expectEnd();
    return new DropObject(kind, name, ifExists, position);
  }

  private DropObject.Kind parseDropKind() throws DdlException {
    for (DropObject.Kind kind : DropObject.Kind.values()) {
      if (tokens.acceptKeyword(kind.name())) {
        return kind;
      }
    }
    throw tokens.expected("TABLE, INDEX, VIEW, PROCEDURE or ROLE");
  }

  private boolean acceptIfExists() throws DdlException {
    if (!tokens.acceptKeyword("IF")) {
      return false;
    }
    tokens.expectKeyword("EXISTS");
    return true;
  }
}
