// ResultTable: one table of the engine's binary result format
// (docs/engine-formats.md), read in place from the bytes the server sent:
//
//   Table := u32 table_size, u16 column_count, column_count x (u8 type,
//            u16 name_size, name), u32 row_count, row_count x Row
//   Row   := u32 row_size, NULL bitmap (ceil(columns / 8) bytes, bit i of
//            byte i/8 set = column i NULL), each non-NULL value
//
// little-endian. parse() checks every size and every row against its columns
// once, so reading a value later never leaves the table; values are decoded
// on demand (get, row, rows) into the JavaScript types of values.ts.
// Thread model: JavaScript's single thread; immutable after parse.

import { ProtocolError } from './errors.js';
import { Timestamp, typeName, type ValueTypeName } from './values.js';

export type SqlValue = null | number | bigint | string | Buffer | Timestamp | boolean;

export interface Column {
  readonly name: string;
  readonly type: ValueTypeName;
}

const FIXED_SIZE = [0, 0, 1, 2, 4, 8, 8, 16, -1, -1, 8, 1];  // by type number; -1: u32 length + bytes
const T_TINYINT = 2, T_SMALLINT = 3, T_INTEGER = 4, T_BIGINT = 5, T_FLOAT = 6, T_DECIMAL = 7;
const T_VARCHAR = 8, T_VARBINARY = 9, T_TIMESTAMP = 10, T_BOOLEAN = 11;
const SCALE = 1_000_000_000_000n;

function fail(what: string, at: number): never {
  throw new ProtocolError(`malformed result table: ${what}`, at);
}

/** DECIMAL(38,12) text of an unscaled 128-bit count of 10^-12, without trailing fraction zeros. */
export function formatDecimal(unscaled: bigint): string {
  const negative = unscaled < 0n;
  const abs = negative ? -unscaled : unscaled;
  const whole = (abs / SCALE).toString();
  const fraction = (abs % SCALE).toString().padStart(12, '0').replace(/0+$/, '');
  return (negative ? '-' : '') + whole + (fraction ? '.' + fraction : '');
}

export class ResultTable {
  /** The number of rows. */
  readonly rowCount: number;

  private readonly buf: Buffer;
  private readonly types: number[];
  private readonly nameAt: number[];  // each column's u16 name_size; names are decoded on first use
  private readonly rowStarts: number[];  // each row's NULL bitmap
  private readonly bitmapBytes: number;
  private columnList: Column[] | undefined;
  private objects: Record<string, SqlValue>[] | undefined;

  private constructor(buf: Buffer, types: number[], nameAt: number[], rowStarts: number[]) {
    this.buf = buf;
    this.types = types;
    this.nameAt = nameAt;
    this.rowStarts = rowStarts;
    this.rowCount = rowStarts.length;
    this.bitmapBytes = (types.length + 7) >> 3;
  }

  /** The columns, in order. */
  get columns(): readonly Column[] {
    if (this.columnList === undefined) {
      this.columnList = this.types.map((type, c) => {
        const at = this.nameAt[c];
        const name = this.buf.toString('utf8', at + 2, at + 2 + this.buf.readUInt16LE(at));
        return Object.freeze({ name, type: typeName(type) as ValueTypeName });
      });
    }
    return this.columnList;
  }

  /** The number of columns. */
  get columnCount(): number {
    return this.types.length;
  }

  /**
   * Reads the table whose u32 table_size is at `offset` of `bytes`; returns it
   * and the offset just past it. Throws ProtocolError naming the byte offset
   * of the first problem.
   */
  static read(bytes: Uint8Array, offset = 0): { table: ResultTable; end: number } {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (offset + 4 > buf.length) fail('truncated table_size', offset);
    const size = buf.readUInt32LE(offset);
    let p = offset + 4;
    const end = p + size;
    if (end > buf.length) fail(`table_size ${size} runs past the end (${buf.length - p} bytes follow)`, offset);
    if (p + 2 > end) fail('truncated column count', p);
    const columnCount = buf.readUInt16LE(p);
    p += 2;
    const types: number[] = new Array(columnCount);
    const nameAt: number[] = new Array(columnCount);
    for (let c = 0; c < columnCount; c++) {
      if (p + 3 > end) fail(`truncated descriptor of column ${c}`, p);
      const type = buf[p];
      if (typeName(type) === undefined) fail(`column ${c} has unknown type ${type}`, p);
      const nameSize = buf.readUInt16LE(p + 1);
      nameAt[c] = p + 1;
      p += 3;
      if (p + nameSize > end) fail(`truncated name of column ${c}`, p);
      types[c] = type;
      p += nameSize;
    }
    if (p + 4 > end) fail('missing row count', p);
    const rows = buf.readUInt32LE(p);
    if (rows > (end - p - 4) / 4) fail(`row_count ${rows} exceeds what ${end - p - 4} bytes can hold`, p);
    p += 4;
    const rowStarts: number[] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      if (p + 4 > end) fail(`truncated size of row ${r}`, p);
      const rowSize = buf.readUInt32LE(p);
      const rowEnd = p + 4 + rowSize;
      if (rowEnd > end) fail(`row ${r} of ${rowSize} bytes runs past the table`, p);
      rowStarts[r] = p + 4;
      checkRow(buf, p + 4, rowEnd, types, r);
      p = rowEnd;
    }
    if (p !== end) fail(`${end - p} bytes after the last row`, p);
    return { table: new ResultTable(buf, types, nameAt, rowStarts), end };
  }

  /** Reads a table that fills `bytes` exactly (one entry of a response's results). */
  static parse(bytes: Uint8Array): ResultTable {
    const { table, end } = ResultTable.read(bytes, 0);
    if (end !== bytes.length) fail(`${bytes.length - end} bytes after the table`, end);
    return table;
  }

  /** Reads a whole result set: u32 table_count, then the tables. */
  static readResultSet(bytes: Uint8Array): ResultTable[] {
    if (bytes.length < 4) fail('truncated table_count', 0);
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = buf.readUInt32LE(0);
    if (count > (buf.length - 4) / 4) fail(`table_count ${count} exceeds what ${buf.length - 4} bytes can hold`, 0);
    const tables: ResultTable[] = [];
    let p = 4;
    for (let i = 0; i < count; i++) {
      const { table, end } = ResultTable.read(buf, p);
      tables.push(table);
      p = end;
    }
    if (p !== buf.length) fail(`${buf.length - p} bytes after the last table`, p);
    return tables;
  }

  /** The index of the column named `name` (exactly, else ignoring case), or -1. */
  columnIndex(name: string): number {
    const columns = this.columns;
    const exact = columns.findIndex((c) => c.name === name);
    if (exact >= 0) return exact;
    const upper = name.toUpperCase();
    return columns.findIndex((c) => c.name.toUpperCase() === upper);
  }

  /** The value at (row, column); `column` is an index or a name. Throws RangeError when out of range. */
  get(row: number, column: number | string): SqlValue {
    const c = typeof column === 'number' ? column : this.columnIndex(column);
    if (!(c >= 0 && c < this.types.length)) throw new RangeError(`no column ${column} (the table has ${this.types.length})`);
    const start = this.start(row);
    if ((this.buf[start + (c >> 3)] >> (c & 7)) & 1) return null;
    let p = start + this.bitmapBytes;
    for (let i = 0; i < c; i++) {
      if ((this.buf[start + (i >> 3)] >> (i & 7)) & 1) continue;
      const fixed = FIXED_SIZE[this.types[i]];
      p += fixed > 0 ? fixed : 4 + this.buf.readUInt32LE(p);
    }
    return this.value(this.types[c], p);
  }

  /** Row `row` as an array of values in column order. */
  row(row: number): SqlValue[] {
    const start = this.start(row);
    const out: SqlValue[] = new Array(this.types.length);
    let p = start + this.bitmapBytes;
    for (let c = 0; c < this.types.length; c++) {
      if ((this.buf[start + (c >> 3)] >> (c & 7)) & 1) {
        out[c] = null;
        continue;
      }
      const type = this.types[c];
      out[c] = this.value(type, p);
      const fixed = FIXED_SIZE[type];
      p += fixed > 0 ? fixed : 4 + this.buf.readUInt32LE(p);
    }
    return out;
  }

  /** Every row as an object keyed by column name (built on first use, then kept). */
  get rows(): Record<string, SqlValue>[] {
    if (this.objects === undefined) {
      const columns = this.columns;
      const objects: Record<string, SqlValue>[] = new Array(this.rowCount);
      for (let r = 0; r < this.rowCount; r++) {
        const values = this.row(r);
        const o: Record<string, SqlValue> = {};
        for (let c = 0; c < values.length; c++) o[columns[c].name] = values[c];
        objects[r] = o;
      }
      this.objects = objects;
    }
    return this.objects;
  }

  /** Every row as an array of values. */
  arrays(): SqlValue[][] {
    const out: SqlValue[][] = new Array(this.rowCount);
    for (let r = 0; r < this.rowCount; r++) out[r] = this.row(r);
    return out;
  }

  /** The first column of the first row (a count, a procedure's return code), or undefined when there is no row. */
  scalar(): SqlValue | undefined {
    return this.rowCount > 0 && this.types.length > 0 ? this.get(0, 0) : undefined;
  }

  private start(row: number): number {
    if (!(row >= 0 && row < this.rowCount)) throw new RangeError(`no row ${row} (the table has ${this.rowCount})`);
    return this.rowStarts[row];
  }

  private value(type: number, p: number): SqlValue {
    const buf = this.buf;
    switch (type) {
      case T_TINYINT: return buf.readInt8(p);
      case T_SMALLINT: return buf.readInt16LE(p);
      case T_INTEGER: return buf.readInt32LE(p);
      case T_BIGINT: return buf.readBigInt64LE(p);
      case T_FLOAT: return buf.readDoubleLE(p);
      case T_DECIMAL: return formatDecimal((buf.readBigInt64LE(p + 8) << 64n) | buf.readBigUInt64LE(p));
      case T_VARCHAR: return buf.toString('utf8', p + 4, p + 4 + buf.readUInt32LE(p));
      case T_VARBINARY: return buf.subarray(p + 4, p + 4 + buf.readUInt32LE(p));
      case T_TIMESTAMP: return new Timestamp(buf.readBigInt64LE(p));
      case T_BOOLEAN: return buf[p] !== 0;
      default: return fail(`type ${type}`, p);
    }
  }
}

// Checks that the row [at, end) holds exactly one value per non-NULL column.
function checkRow(buf: Buffer, at: number, end: number, types: number[], r: number): void {
  let p = at + ((types.length + 7) >> 3);
  if (p > end) fail(`row ${r} is shorter than its NULL bitmap`, at);
  for (let c = 0; c < types.length; c++) {
    if ((buf[at + (c >> 3)] >> (c & 7)) & 1) continue;
    const fixed = FIXED_SIZE[types[c]];
    if (fixed > 0) {
      p += fixed;
    } else {
      if (p + 4 > end) fail(`row ${r} column ${c}: truncated length`, p);
      p += 4 + buf.readUInt32LE(p);
    }
    if (p > end) fail(`row ${r} column ${c} runs past the row`, p);
  }
  if (p !== end) fail(`row ${r} has ${end - p} bytes after its last value`, p);
}
