package org.partita.server.sysproc;

import org.partita.server.error.ErrorTable;
import org.partita.proto.ErrorCode;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

/** The responses system procedures give. */
final class Answers {
  private static final Logger LOG = Logger.getLogger(Answers.class.getName());

  private Answers() {}

  static ClientResponse table(ResultTable table) {
    return ClientResponse.success(List.of(table));
  }

  static ClientResponse rejected(ErrorCode code, String message) {
    return ErrorTable.response(code, message);
  }

  static ClientResponse sqlError(String message) {
    return ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, message);
  }

  /** An unexpected failure of {@code procedure}, logged with its stack. */
  static ClientResponse unexpected(String procedure, Throwable t) {
    LOG.log(Level.WARNING, procedure + " failed", t);
    return ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL, procedure + " failed: "
        + t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  /** 1 or 0, for TINYINT flag columns. */
  static byte flag(boolean b) {
    return (byte) (b ? 1 : 0);
  }
}
