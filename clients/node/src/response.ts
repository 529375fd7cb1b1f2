// Response: the server's answer to one call (InvocationResponse of
// proto/client.proto), with its result tables decoded on first use.
// Thread model: JavaScript's single thread.

import { ResultTable, type SqlValue } from './result-table.js';
import { errorCodeOf, errorNameOf } from './error-codes.js';

export type CallStatusName = 'SUCCESS' | 'USER_ABORT' | 'GRACEFUL_FAILURE' | 'REJECTED' | 'UNEXPECTED_FAILURE' | 'UNSPECIFIED';
const STATUS_NAMES: CallStatusName[] = ['UNSPECIFIED', 'SUCCESS', 'USER_ABORT', 'GRACEFUL_FAILURE', 'REJECTED', 'UNEXPECTED_FAILURE'];

/** The fields of an InvocationResponse this class reads (what the generated decoder yields). */
export interface InvocationResponseFields {
  status: number;
  errorName: string;
  message: string;
  appStatus: number;
  appStatusMessage: string;
  results: Uint8Array[];
  errorCode: number;
}

export class Response {
  /** SUCCESS, or why not (docs/wire-protocol.md "Responses"). */
  readonly status: CallStatusName;
  /** For failures: the number of partita.proto.ErrorCode (from error_code, else from error_name); 0 on success. */
  readonly errorCode: number;
  /** For failures: the code's name without ERROR_CODE_ (CONSTRAINT_VIOLATION, ...); '' on success. */
  readonly errorName: string;
  /** For failures: what went wrong and where. */
  readonly message: string;
  /** What the procedure set with setAppStatus (0: nothing). */
  readonly appStatus: number;
  readonly appStatusMessage: string;
  /** Nanoseconds the server spent on the call. */
  readonly serverNanos: number;
  /** The catalog version the call ran against. */
  readonly catalogVersion: number;
  /** The raw result tables, each `u32 table_size` then the table. */
  readonly rawResults: readonly Uint8Array[];
  private decoded: ResultTable[] | undefined;

  constructor(m: InvocationResponseFields, serverNanos: number, catalogVersion: number) {
    this.status = STATUS_NAMES[m.status] ?? 'UNSPECIFIED';
    this.errorCode = m.status === 1 ? 0 : m.errorCode || errorCodeOf(m.errorName);
    this.errorName = m.errorName || (this.errorCode ? errorNameOf(this.errorCode) : '');
    this.message = m.message;
    this.appStatus = m.appStatus;
    this.appStatusMessage = m.appStatusMessage;
    this.rawResults = m.results;
    this.serverNanos = serverNanos;
    this.catalogVersion = catalogVersion;
  }

  /** True iff the status is SUCCESS. */
  get ok(): boolean {
    return this.status === 'SUCCESS';
  }

  /** The result tables (decoded and checked on first use; a malformed one throws ProtocolError). */
  get tables(): ResultTable[] {
    if (this.decoded === undefined) this.decoded = this.rawResults.map((bytes) => ResultTable.parse(bytes));
    return this.decoded;
  }

  /** The first table's rows as objects keyed by column name ([] without a table). */
  get rows(): Record<string, SqlValue>[] {
    return this.tables.length > 0 ? this.tables[0].rows : [];
  }

  toString(): string {
    return this.ok ? `SUCCESS (${this.rawResults.length} table(s))` : `${this.status} ${this.errorName}: ${this.message}`;
  }
}
