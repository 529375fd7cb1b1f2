// @partita/client: the Node.js client of the Partita database (README.md).
export { Client, connect, parseServer, DEFAULT_PORT, type ClientOptions, type CallOptions } from './client.js';
export { Response, type CallStatusName } from './response.js';
export { ResultTable, formatDecimal, type Column, type SqlValue } from './result-table.js';
export { Decimal, Timestamp, ValueType, typeName, type ParamValue, type ValueTypeName } from './values.js';
export { ErrorCode, errorCodeOf, errorNameOf } from './error-codes.js';
export { MAX_NOT_LEADER_RESENDS } from './resend.js';
export { bucketOfBytes, bucketOfInteger, hashHex, HASH_ALGORITHM, BUCKET_BITS } from './partition-hash.js';
export type { TopologyView } from './router.js';
export {
  PartitaError, ConnectionError, LoginRefusedError, ConnectionLostError, CallTimeoutError, BackpressureError,
  NoConnectionsError, FrameTooLargeError, ProtocolError, ProcedureError,
} from './errors.js';
