// The errors a call or a connection can end with. Every one extends
// PartitaError; those worth retrying say so with `retriable`.
//
//   PartitaError
//   ├── ConnectionError        connect() could not reach a server or log in
//   │   └── LoginRefusedError  the server refused the login (version, shutting down)
//   ├── ConnectionLostError    the connection dropped (or close()) with the call in flight   retriable
//   ├── CallTimeoutError       no answer within the call's timeout                           retriable
//   ├── BackpressureError      no free slot within backpressureTimeout; nothing was sent     retriable
//   ├── NoConnectionsError     no connection is up; nothing was sent                         retriable
//   ├── FrameTooLargeError     the encoded call is larger than the server accepts
//   ├── ProtocolError          the server sent something this client cannot read
//   └── ProcedureError         the server answered with a status other than SUCCESS

import type { CallStatusName, Response } from './response.js';

/** The base of every error this package raises. */
export class PartitaError extends Error {
  /** True when the call may succeed if made again (see each class for whether it may have run). */
  readonly retriable: boolean;

  constructor(message: string, retriable = false, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.retriable = retriable;
  }
}

/** connect(): the server could not be reached, or did not answer the login in time. */
export class ConnectionError extends PartitaError {
  /** The server, as host:port. */
  readonly server: string;

  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, false, options);
    this.server = server;
  }
}

/** connect(): the server answered the login with a refusal (another protocol version, shutting down). */
export class LoginRefusedError extends ConnectionError {
  /** The LoginStatus name, e.g. LOGIN_STATUS_SHUTTING_DOWN. */
  readonly status: string;

  constructor(server: string, status: string, message: string) {
    super(server, message);
    this.status = status;
  }
}

/**
 * The connection carrying the call dropped, or the client was closed, before
 * the answer came. The call may have run (and committed) on the server.
 */
export class ConnectionLostError extends PartitaError {
  readonly server: string;
  readonly procedure: string;

  constructor(server: string, procedure: string, reason: string) {
    super(`call to ${procedure} lost: connection to ${server} ${reason}`, true);
    this.server = server;
    this.procedure = procedure;
  }
}

/** No answer within the call's timeout. The call may still run (and commit) on the server. */
export class CallTimeoutError extends PartitaError {
  readonly procedure: string;
  readonly timeoutMs: number;

  constructor(procedure: string, timeoutMs: number) {
    super(`call to ${procedure} timed out after ${timeoutMs} ms without an answer`, true);
    this.procedure = procedure;
    this.timeoutMs = timeoutMs;
  }
}

/** Every slot of the connection stayed busy for backpressureTimeout; the call was not sent. */
export class BackpressureError extends PartitaError {
  constructor(procedure: string, maxInFlight: number, waitedMs: number) {
    super(`call to ${procedure} not sent: ${maxInFlight} calls stayed in flight for ${waitedMs} ms`, true);
  }
}

/** No connection is up (never connected, all reconnecting, or closed); the call was not sent. */
export class NoConnectionsError extends PartitaError {
  constructor(procedure: string) {
    super(`call to ${procedure} not sent: no connection to a server is up`, true);
  }
}

/** The encoded call is larger than the server accepts (max_frame_bytes of its login answer). */
export class FrameTooLargeError extends PartitaError {
  readonly bytes: number;
  readonly limit: number;

  constructor(procedure: string, bytes: number, limit: number) {
    super(`call to ${procedure} not sent: its frame of ${bytes} bytes exceeds the server's limit of ${limit} bytes`);
    this.bytes = bytes;
    this.limit = limit;
  }
}

/** The server sent bytes this client cannot read (a malformed frame or result table). */
export class ProtocolError extends PartitaError {
  /** The byte offset of the problem within what was being read, when known. */
  readonly offset: number;

  constructor(message: string, offset = -1) {
    super(offset >= 0 ? `${message} (at byte ${offset})` : message);
    this.offset = offset;
  }
}

/**
 * The server ran (or refused) the call and answered with a status other than
 * SUCCESS. `code` is the number of partita.proto.ErrorCode (proto/errors.proto),
 * `errorName` its name without the ERROR_CODE_ prefix.
 */
export class ProcedureError extends PartitaError {
  readonly procedure: string;
  readonly status: CallStatusName;
  readonly code: number;
  readonly errorName: string;
  readonly response: Response;

  constructor(procedure: string, response: Response) {
    super(`${procedure}: ${response.status} ${response.errorName}: ${response.message}`,
      response.errorName === 'CATALOG_CHANGED' || response.errorName === 'SERVER_BUSY'
        || response.errorName === 'DISK_FULL');
    this.procedure = procedure;
    this.status = response.status;
    this.code = response.errorCode;
    this.errorName = response.errorName;
    this.response = response;
  }
}
