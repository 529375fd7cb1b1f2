package org.partita.server.txn;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;

/**
 * A receiver of a call's response that reads only what the wire carries:
 * the status, codes, messages and the bytes of the result tables
 * ({@code ResultTable#copyTo}, {@code #bytes}, {@code #byteSize}), never a
 * table's cursor. A site may therefore hand it a response that other calls
 * get too (a Java procedure's small long result: one response per value,
 * made once) instead of making one per call. The binary protocol's calls
 * are such receivers; in-process and HTTP callers, which read tables, are not.
 */
public interface ResponseBytesConsumer extends Consumer<ClientResponse> {}
