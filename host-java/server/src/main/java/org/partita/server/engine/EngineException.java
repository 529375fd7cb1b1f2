package org.partita.server.engine;

import java.nio.charset.StandardCharsets;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;

/**
 * An error reported by the native engine: a code from {@code proto/errors.proto}
 * and a message naming what was wrong and where (docs/engine.md "Errors").
 * Every failure of a {@link NativeEngine} call arrives as this exception,
 * thrown from the JNI library's single wrapper; a failed batch has already
 * rolled its transaction back.
 */
public final class EngineException extends ServerException {
  private static final long serialVersionUID = 1L;

  public EngineException(int code, String message) {
    super(known(code), ErrorCode.forNumber(code) == null ? "engine error code " + code + ": " + message : message);
  }

  /** Called by the JNI library: the message arrives as UTF-8 bytes. */
  static EngineException fromNative(int code, byte[] utf8Message) {
    return new EngineException(code, new String(utf8Message, StandardCharsets.UTF_8));
  }

  /** The code as the generated enum; INTERNAL for a number this build does not know (the message names it). */
  public ErrorCode errorCode() {
    return code();
  }

  private static ErrorCode known(int code) {
    final ErrorCode known = ErrorCode.forNumber(code);
    return known == null ? ErrorCode.ERROR_CODE_INTERNAL : known;
  }
}
