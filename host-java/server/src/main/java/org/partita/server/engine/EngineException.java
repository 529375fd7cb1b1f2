package org.partita.server.engine;

import java.nio.charset.StandardCharsets;
import org.partita.proto.ErrorCode;

/**
 * An error reported by the native engine: a code from {@code proto/errors.proto}
 * and a message naming what was wrong and where (docs/engine.md "Errors").
 * Every failure of a {@link NativeEngine} call arrives as this exception,
 * thrown from the JNI library's single wrapper; a failed batch has already
 * rolled its transaction back.
 */
public final class EngineException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;

  public EngineException(int code, String message) {
    super(message);
    this.code = code;
  }

  /** Called by the JNI library: the message arrives as UTF-8 bytes. */
  static EngineException fromNative(int code, byte[] utf8Message) {
    return new EngineException(code, new String(utf8Message, StandardCharsets.UTF_8));
  }

  /** The {@code ErrorCode} number. */
  public int code() {
    return code;
  }

  /** The code as the generated enum; {@code UNRECOGNIZED} for a number this build does not know. */
  public ErrorCode errorCode() {
    final ErrorCode known = ErrorCode.forNumber(code);
    return known == null ? ErrorCode.UNRECOGNIZED : known;
  }

  @Override
  public String toString() {
    final ErrorCode known = ErrorCode.forNumber(code);
    final String name = known == null ? "ERROR_CODE_" + code : known.name();
    return name.replaceFirst("^ERROR_CODE_", "") + ": " + getMessage();
  }
}
