// SQL values as JavaScript sees them, both ways.
//
// Results: TINYINT, SMALLINT, INTEGER, FLOAT -> number; BIGINT -> bigint;
// DECIMAL -> string (exact text, "-12.5"); VARCHAR -> string; VARBINARY ->
// Buffer; TIMESTAMP -> Timestamp (a Date with the exact microseconds as
// `micros`); BOOLEAN -> boolean; NULL -> null.
//
// Parameters (docs/wire-protocol.md "Parameters"): null -> NULL; a safe
// integer number or a bigint within 64 bits -> integer; another finite number
// -> float; string -> text; Buffer/Uint8Array -> binary; Date (a Timestamp
// keeps its microseconds) -> timestamp; Decimal -> decimal. Anything else is
// a TypeError before anything is sent.

/** Type numbers of the result tables (proto/plan.proto ValueType). */
export const ValueType = {
  TINYINT: 2, SMALLINT: 3, INTEGER: 4, BIGINT: 5, FLOAT: 6, DECIMAL: 7,
  VARCHAR: 8, VARBINARY: 9, TIMESTAMP: 10, BOOLEAN: 11,
} as const;
export type ValueTypeName = keyof typeof ValueType;

const TYPE_NAMES: (ValueTypeName | undefined)[] = [];
for (const [name, n] of Object.entries(ValueType)) TYPE_NAMES[n] = name as ValueTypeName;

/** The name of type number `n`, or undefined for an unknown number. */
export function typeName(n: number): ValueTypeName | undefined {
  return TYPE_NAMES[n];
}

const MICROS_PER_MS = 1000n;

/** A TIMESTAMP: a Date (millisecond precision) carrying the exact microseconds since 1970 UTC. */
export class Timestamp extends Date {
  /** Microseconds since 1970-01-01 00:00:00 UTC, exact. */
  readonly micros: bigint;

  constructor(micros: bigint) {
    // Floor division: -1 µs is 1969-12-31T23:59:59.999 plus 999 µs.
    const ms = micros >= 0n ? micros / MICROS_PER_MS : -((-micros + MICROS_PER_MS - 1n) / MICROS_PER_MS);
    super(Number(ms));
    this.micros = micros;
  }

  /** The microseconds within the millisecond (0..999). */
  get microsOfMilli(): number {
    return Number(((this.micros % MICROS_PER_MS) + MICROS_PER_MS) % MICROS_PER_MS);
  }

  /** ISO 8601 with six fraction digits: 1969-12-31T23:59:59.999999Z. */
  toISOStringMicros(): string {
    const iso = this.toISOString();
    return `${iso.slice(0, -1)}${String(this.microsOfMilli).padStart(3, '0')}Z`;
  }
}

const DECIMAL_TEXT = /^[+-]?(\d{1,26})(\.\d{1,12})?$/;

/** A DECIMAL parameter: exact decimal text, at most 26 integer and 12 fraction digits. */
export class Decimal {
  readonly text: string;

  constructor(value: string | number | bigint) {
    const text = typeof value === 'string' ? value.trim() : String(value);
    if (!DECIMAL_TEXT.test(text)) {
      throw new TypeError(`Decimal: '${text}' is not a DECIMAL(38,12) number (digits, an optional sign and up to 12 fraction digits)`);
    }
    this.text = text;
  }

  toString(): string {
    return this.text;
  }
}

/** One parameter as the generated Parameter message takes it (no field: NULL). */
export interface ParameterMessage {
  integer?: number | { low: number; high: number };
  floatValue?: number;
  decimal?: string;
  text?: string;
  binary?: Uint8Array;
  timestampMicros?: number | { low: number; high: number };
}

export type ParamValue = null | number | bigint | string | Uint8Array | Date | Decimal;

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const NULL_PARAMETER: ParameterMessage = Object.freeze({}) as ParameterMessage;

/** A 64-bit integer as the two 32-bit halves protobufjs writes exactly. */
export function int64Bits(v: bigint): { low: number; high: number } {
  return { low: Number(v & 0xffffffffn) | 0, high: Number((v >> 32n) & 0xffffffffn) | 0 };
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'object' && v !== null) return v.constructor?.name ?? 'object';
  return typeof v;
}

/**
 * The Parameter message for `v`, the `index`-th (0-based) parameter of `procedure`.
 * Throws TypeError (RangeError for an integer out of 64 bits) naming the parameter.
 */
export function toParameter(v: unknown, index: number, procedure: string): ParameterMessage {
  switch (typeof v) {
    case 'number':
      if (Number.isInteger(v)) {
        if (!Number.isSafeInteger(v)) {
          throw new RangeError(`${procedure}: parameter ${index + 1} is ${v}, an integer beyond 2^53 that a number cannot hold exactly; pass a bigint`);
        }
        return { integer: v };
      }
      return { floatValue: v };
    case 'bigint':
      if (v < INT64_MIN || v > INT64_MAX) {
        throw new RangeError(`${procedure}: parameter ${index + 1} is ${v}, outside the 64-bit integer range`);
      }
      return { integer: int64Bits(v) };
    case 'string':
      return { text: v };
    case 'object':
      if (v === null) return NULL_PARAMETER;
      if (v instanceof Uint8Array) return { binary: v };
      if (v instanceof Decimal) return { decimal: v.text };
      if (v instanceof Timestamp) return { timestampMicros: int64Bits(v.micros) };
      if (v instanceof Date) {
        const ms = v.getTime();
        if (Number.isNaN(ms)) throw new TypeError(`${procedure}: parameter ${index + 1} is an invalid Date`);
        return { timestampMicros: int64Bits(BigInt(ms) * MICROS_PER_MS) };
      }
      break;
    default:
      break;
  }
  throw new TypeError(`${procedure}: parameter ${index + 1} is ${describe(v)}; parameters must be null, number, bigint, string, Buffer/Uint8Array, Date or Decimal`);
}
