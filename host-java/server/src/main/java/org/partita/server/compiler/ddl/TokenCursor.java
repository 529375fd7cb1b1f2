package org.partita.server.compiler.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The parser's view of a statement's tokens: look-ahead, the "accept" and "expect" steps of
 * recursive descent, and errors that name what was expected and what was found, at the exact
 * position of the token found. Not thread-safe.
 */
final class TokenCursor {

  /**
   * SQL reserved words that Partita's statements use where a name could also stand; unquoted,
   * they are never names, so {@code PARTITION TABLE ON COLUMN c} reports the missing table name.
   */
  private static final Set<String> RESERVED =
      Set.of("AS", "COLUMN", "CREATE", "DROP", "EXISTS", "FROM", "ON", "PARTITION", "TABLE");

  private final ScriptStatement statement;
  private final DdlTokenizer tokenizer;
  private final List<Token> lookahead = new ArrayList<>();
  private Token previous;

  TokenCursor(ScriptStatement statement) {
    this.statement = statement;
    this.tokenizer = new DdlTokenizer(statement);
  }

  /** The next token, not consumed. */
  Token peek() throws DdlException {
    return peek(0);
  }

  /** The token {@code ahead} places after the next one, not consumed. */
  Token peek(int ahead) throws DdlException {
    while (lookahead.size() <= ahead) {
      lookahead.add(tokenizer.next());
    }
    return lookahead.get(ahead);
  }

  /** Consumes and returns the next token. */
  Token next() throws DdlException {
    final Token token = peek();
    lookahead.remove(0);
    previous = token;
    return token;
  }

  /** Consumes the next token iff it is {@code keyword}; returns whether it did. */
  boolean acceptKeyword(String keyword) throws DdlException {
    if (!peek().isKeyword(keyword)) {
      return false;
    }
    next();
    return true;
  }

  /** Consumes the keyword {@code keyword} or fails. */
  Token expectKeyword(String keyword) throws DdlException {
    if (!peek().isKeyword(keyword)) {
      throw expected(keyword);
    }
    return next();
  }

  /** Consumes an identifier or fails; {@code description} is like "a table name". */
  Identifier expectIdentifier(String description) throws DdlException {
    final Token token = peek();
    if (!token.isIdentifier()) {
      throw expected(description);
    }
    if (isReserved(token)) {
      throw errorAt(token, "expected " + description + after() + ", found reserved word '"
          + token.text() + "' (quote it to use it as a name)");
    }
    if (token.identifierName().isEmpty()) {
      throw errorAt(token, "expected " + description + after() + ", found an empty name");
    }
    next();
    return new Identifier(token.identifierName(), positionOf(token));
  }

  /** Fails unless every token has been consumed. */
  void expectEnd() throws DdlException {
    if (peek().kind() != Token.Kind.END) {
      throw expected("end of statement");
    }
  }

  /**
   * An error at the next token saying that {@code what} was expected there: "expected X after
   * 'P', found 'T'", or "unexpected end of statement, expected X".
   */
  DdlException expected(String what) throws DdlException {
    final Token found = peek();
    if (found.kind() == Token.Kind.END) {
      return errorAt(found, "unexpected end of statement, expected " + what);
    }
    return errorAt(found, "expected " + what + after() + ", found '" + found.text() + "'");
  }

  /** Returns true iff {@code token} is an unquoted reserved word. */
  static boolean isReserved(Token token) {
    return token.kind() == Token.Kind.WORD
        && RESERVED.contains(token.text().toUpperCase(Locale.ROOT));
  }

  private String after() {
    return previous == null ? "" : " after '" + previous.text() + "'";
  }

  /** An error at {@code token}, which is also the offending text unless it is the end. */
  DdlException errorAt(Token token, String reason) {
    final String offending = token.kind() == Token.Kind.END ? null : token.text();
    return statement.errorAt(token.offset(), reason, offending);
  }

  /** An error at {@code token} about {@code offendingText}, which starts there. */
  DdlException errorAt(Token token, String reason, String offendingText) {
    return statement.errorAt(token.offset(), reason, offendingText);
  }

  /** Where {@code token} starts in the file. */
  SourcePosition positionOf(Token token) {
    return statement.positionOf(token.offset());
  }

  /** The statement from the next token on, which is not consumed. */
  ScriptStatement rest() throws DdlException {
    return statement.suffix(peek().offset());
  }
}
